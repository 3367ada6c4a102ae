// `evolution.device` -> where the closed evolution runs (docs/backend.md "Selection"), and the
// executors of the chosen backend.
#pragma once

#include <memory>
#include <vector>

#include "qevolve/backend/backend.hpp"
#include "qevolve/simulator.hpp"

namespace qevolve::solver {

/// The gate executor for `device` (backend.hpp, backend/cuda.hpp).
template <typename Real>
[[nodiscard]] std::unique_ptr<backend::GateExecutor<Real>> make_gate_executor(
    ComputeDevice device, const backend::GateSchedule& schedule, Index columns, Index block_width,
    int threads, int chunk_steps);

/// The closed adjoint executor for `device` (backend.hpp AdjointExecutor).
[[nodiscard]] std::unique_ptr<backend::AdjointExecutor> make_adjoint_executor(
    ComputeDevice device, const backend::GateSchedule& schedule, std::vector<bool> environment, Index columns,
    Index block_width, int threads, int chunk_steps);

/// The open-system adjoint executor for `device` (backend.hpp OpenAdjointExecutor; the CPU's
/// only: backend/capabilities.hpp).
[[nodiscard]] std::unique_ptr<backend::OpenAdjointExecutor> make_open_adjoint_executor(
    ComputeDevice device, const backend::OpenAdjointSchedule& schedule, Index columns, Index block_width,
    int threads);

/// The term executor of the adaptive integrator for `device` (backend.hpp TermExecutor; the
/// CPU's only).
[[nodiscard]] std::unique_ptr<backend::TermExecutor> make_term_executor(ComputeDevice device,
                                                                        const backend::TermSchedule& schedule,
                                                                        Index columns, Index block_width, int threads);

/// The Chebyshev executor of splitting: chebyshev for `device` (backend.hpp ChebyshevExecutor;
/// the CPU's only).
[[nodiscard]] std::unique_ptr<backend::ChebyshevExecutor> make_chebyshev_executor(ComputeDevice device, Index dim,
                                                                                Index columns, Index block_width,
                                                                                int threads, double run_flops);

/// The dense (`expm`) executor for `device`.
[[nodiscard]] std::unique_ptr<backend::DenseExecutor> make_dense_executor(ComputeDevice device, Index dim,
                                                                          Index columns);

/// The propagator executor of the dense open step for `device` (backend.hpp PropagatorExecutor;
/// the CPU's only).
[[nodiscard]] std::unique_ptr<backend::PropagatorExecutor> make_propagator_executor(ComputeDevice device);

/// The Chebyshev adjoint executor of splitting: chebyshev for `device` (backend.hpp
/// ChebyshevAdjointExecutor; the CPU's only).
[[nodiscard]] std::unique_ptr<backend::ChebyshevAdjointExecutor> make_chebyshev_adjoint_executor(ComputeDevice device);

/// The dense adjoint executor of expm and splitting: dense for `device` (backend.hpp
/// DenseAdjointExecutor; the CPU's only).
[[nodiscard]] std::unique_ptr<backend::DenseAdjointExecutor> make_dense_adjoint_executor(ComputeDevice device);

}  // namespace qevolve::solver
