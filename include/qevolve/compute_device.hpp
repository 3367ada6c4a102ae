// `evolution.device` -> where a run goes (docs/backend.md "Selection"): the resolution stage
// refuses `device: cuda` with the choice's `refusal` and puts the choice into the evolution
// plan (src/solver/device_select.cpp holds the rule).
#pragma once

#include <string>

#include "qevolve/config.hpp"

namespace qevolve::solver {

/// What `evolution.device` means for this config, on this build and machine.
struct ComputeDeviceChoice {
  ComputeDevice device = ComputeDevice::cpu;
  std::string note;     ///< the summary's words: "auto: no CUDA device found", "CUDA device 0: ..."; cpu: empty
  std::string refusal;  ///< `device: cuda` that cannot run here: why; empty otherwise
};

/// The alternatives a refusal suggests.
inline constexpr const char* kOtherComputeDevices = "device: cpu | auto";

/// cpu: the CPU, no note. cuda: the CUDA backend, or a refusal when qevolve was built without
/// it, the run needs what only the CPU has (cpu_only_part, qevolve/scheme_traits.hpp) or no
/// CUDA device is found.
/// auto: CUDA when built, supported and a device is found, otherwise the CPU with a note that
/// says why (without an NVIDIA driver the CUDA plugin is not even loaded).
/// `trainable`: what makes the run compute gradients (Config::first_trainable), empty: none.
[[nodiscard]] ComputeDeviceChoice choose_compute_device(const EvolutionSpec& evolution, const std::string& trainable);

}  // namespace qevolve::solver
