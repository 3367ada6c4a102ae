// `evolution.device` -> where the closed evolution runs (docs/backend.md "Selection"), and the
// executors of the chosen backend.
#pragma once

#include <memory>
#include <vector>

#include "qevolve/backend/backend.hpp"
#include "qevolve/config.hpp"
#include "qevolve/simulator.hpp"

namespace qevolve::solver {

/// Sets options.device (cpu or cuda) and options.device_note from config.evolution.device,
/// given the rest of the resolved options (solver, open system) and the config (trainable
/// parameters mean gradients, which run on the CPU):
/// - cpu: the CPU, no note;
/// - cuda: the CUDA backend; an InputError at evolution.device when qevolve was built without
///   it, the run needs what only the CPU has, or no CUDA device is found;
/// - auto: CUDA when built, supported and a device is found, otherwise the CPU; the note says
///   which and why ("auto: no CUDA device found").
void select_compute_device(const Config& config, Options& options);

/// The gate executor for `device` (backend.hpp, backend/cuda.hpp).
template <typename Real>
[[nodiscard]] std::unique_ptr<backend::GateExecutor<Real>> make_gate_executor(
    ComputeDevice device, const backend::GateSchedule& schedule, Index columns, Index block_width,
    int threads, int chunk_steps);

/// The closed adjoint executor for `device` (backend.hpp AdjointExecutor).
[[nodiscard]] std::unique_ptr<backend::AdjointExecutor> make_adjoint_executor(
    ComputeDevice device, const backend::GateSchedule& schedule, std::vector<bool> environment, Index columns,
    Index block_width, int threads, int chunk_steps);

/// The dense (`expm`) executor for `device`.
[[nodiscard]] std::unique_ptr<backend::DenseExecutor> make_dense_executor(ComputeDevice device, Index dim,
                                                                          Index columns);

}  // namespace qevolve::solver
