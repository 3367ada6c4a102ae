// Column-blocked, threaded application of the Trotter gates through all steps
// (docs/solvers.md "Blocking and threads"): columns are split into fixed blocks; for each chunk of steps the gate
// matrices are computed once (shared, read-only) and every block is carried through the chunk
// by one thread, its state held in split re/im planes sized for cache.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "qevolve/backend/backend.hpp"
#include "qevolve/backend/block_layout.hpp"
#include "qevolve/backend/local_gate.hpp"
#include "qevolve/config.hpp"
#include "qevolve/types.hpp"
#include "observe_points.hpp"
#include "trotter_gates.hpp"

namespace qevolve::solver {

struct BlockEvolution {
  const device::Device* device = nullptr;
  const TrotterGates* gates = nullptr;
  /// Drive coefficients of every channel for gate step (substep, time_grid.hpp) u.
  std::function<void(int, std::vector<double>&)> coefficients;
  int steps = 0;      ///< gate steps (substeps)
  double dt = 0.0;    ///< length of one gate step (the gates were built for it)
  int threads = 1;
  /// Block width override (0: automatic, from D and the cache size).
  Index block_width = 0;
  /// Where evolve_blocks applies the gates and adjoint_blocks steps back (the resolved
  /// evolution.device).
  ComputeDevice compute_device = ComputeDevice::cpu;
  /// false: the schedule leaves out the gates' structure (parity blocks, factored gates;
  /// docs/solvers.md "Parity blocks"), so every gate is applied as its full matrix. Tests
  /// compare the two.
  bool structured = true;
  /// output.trace: the gate steps (ascending, in [0, steps]) at which `observer` sees the
  /// columns. At such a boundary the chunk of steps ends and splitting: bonds applies the
  /// step's last layer instead of multiplying it into the next step (GateSchedule::breaks).
  std::vector<int> observe_at{};
  PassObserver observer{};
  /// The observed boundaries that break the fused boundary (StepObserver::exact, in gate
  /// steps); unset: every one of observe_at.
  std::optional<std::vector<int>> breaks{};
  /// The same per column block inside the executor (StepObserver::block, block_single, in
  /// this job's gate steps); used where the executor supports it, else `observer`.
  std::function<void(int, Index, Index, const double*, const double*)> block_observer{};
  std::function<void(int, Index, Index, const float*, const float*)> block_observer_single{};
};

/// Evolves the columns of `state` (D x n, product basis) in place, in precision Real: per chunk
/// of steps the gates are computed on the host (threads over steps) and applied by the gate
/// executor of job.compute_device (backend.hpp).
/// `progress` (may be empty) receives the fraction done after each chunk of steps.
template <typename Real>
void evolve_blocks(const BlockEvolution& job, CMatrix& state,
                   const std::function<void(double)>& progress);

/// Steps per chunk (gates computed together): as many as fit in ~2 MiB of gate data, at most
/// 256, never more than `steps`. It does not depend on `steps` otherwise, so the memory of a
/// run (forward and adjoint) is the same for 1000 and 8000 steps.
[[nodiscard]] int step_chunk(std::size_t bytes_per_step, int steps);

/// The job's gates as the backend sees them (modes, buffer offsets, boundary, steps).
[[nodiscard]] backend::GateSchedule gate_schedule(const BlockEvolution& job);

/// How n columns are cut into blocks for one job (backend/block_layout.hpp): the job's width
/// override or the automatic width. Shared by the forward and the adjoint pass.
using backend::BlockLayout;
[[nodiscard]] BlockLayout make_block_layout(const BlockEvolution& job, Index n);
/// The block width of a job: its override, or the automatic width.
[[nodiscard]] Index block_width(const BlockEvolution& job, Index n);

/// Copies between a matrix and split planes (backend/block_layout.hpp).
using backend::load_block;
using backend::store_block;

using backend::AdjointPlanes;

/// The automatic block width for dimension D, n columns and `threads` threads.
[[nodiscard]] Index choose_block_width(Index D, Index n, int threads);

}  // namespace qevolve::solver
