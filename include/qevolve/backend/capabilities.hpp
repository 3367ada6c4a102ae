// What the CUDA backend runs, in words, for the device choice's refusal of `evolution.device:
// cuda` (solver::choose_compute_device, include/qevolve/compute_device.hpp). Which part of a
// run only the CPU has is the schemes' table's answer (solver::cpu_only_part,
// include/qevolve/scheme_traits.hpp).
#pragma once

namespace qevolve::backend {

/// What the CUDA backend runs, for messages.
inline constexpr const char* kCudaRuns =
    " (it runs trotter, magnus4 and expm, gradients of closed systems with trotter or magnus4 on local gates, "
    "and the forward pass of open systems with trotter)";

}  // namespace qevolve::backend
