// What each backend can run: one rule, used by the device choice (solver::choose_compute_device,
// include/qevolve/compute_device.hpp), which the resolution stage turns into its refusal of
// `evolution.device: cuda` and the simulator into its fallback to the CPU for `device: auto`.
#pragma once

#include <string>

#include "qevolve/config.hpp"

namespace qevolve::backend {

/// What the CUDA backend runs, for messages.
inline constexpr const char* kCudaRuns =
    " (it runs trotter, magnus4 and expm, gradients of closed systems with trotter or magnus4 on local gates, "
    "and the forward pass of open systems with trotter)";

/// The part of this run that only the CPU backend has, in words ("solver: adaptive"), or empty
/// when the CUDA backend can run all of it: trotter, magnus4 and expm; gradients of closed
/// systems on local gates (the adjoint executor); the forward pass of open systems on local
/// gates (the doubled register on the gate executor; the resolution stage allows open systems
/// with trotter only). Open-system gradients and the dense adjoint (expm, splitting: dense)
/// run on the CPU only.
/// `trainable`: what makes the run compute gradients (Config::first_trainable), empty: none.
[[nodiscard]] inline std::string cpu_only_part(const EvolutionSpec& e, const std::string& trainable) {
  const bool local_gates = e.local_gates();
  if (e.split_solver() && e.splitting == Splitting::chebyshev) return "splitting: chebyshev";
  if (e.is_open() && !local_gates)
    return "open systems with solver expm, adaptive or splitting: dense (evolution.noise / evolution.collapse)";
  if (e.solver == Solver::adaptive) return "solver: adaptive";
  if (trainable.empty()) return {};
  if (e.is_open()) return "gradients of open systems (trainable parameters in `" + trainable + "`)";
  if (!local_gates)
    return "gradients with solver expm or splitting: dense (trainable parameters in `" + trainable + "`)";
  return {};
}

}  // namespace qevolve::backend
