// What each backend can run: one rule used by the resolution stage (io::resolve, which rejects
// `evolution.device: cuda` for what the CUDA backend cannot run) and by the solver's device
// choice (solver::select_compute_device, which falls back to the CPU for `device: auto`).
#pragma once

#include <string>

#include "qevolve/config.hpp"

namespace qevolve::backend {

/// The part of this run that only the CPU backend has, in words ("solver: adaptive"), or empty
/// when the CUDA backend can run all of it (closed-system trotter, magnus4 and expm without
/// gradients).
[[nodiscard]] inline std::string cpu_only_part(const Config& config) {
  if (config.evolution.is_open()) return "open systems (evolution.noise / evolution.collapse)";
  if (config.evolution.solver == Solver::adaptive) return "solver: adaptive";
  const std::string trainable = config.first_trainable_list();
  if (!trainable.empty()) return "gradients (trainable parameters in `" + trainable + "`)";
  if (config.target && config.target->compensation_trainable &&
      config.target->compensation != Compensation::none)
    return "gradients (trainable compensation angles)";
  return {};
}

}  // namespace qevolve::backend
