// Column-blocked, threaded application of the Trotter gates through all steps
// (algorithms.md §4): columns are split into fixed blocks; for each chunk of steps the gate
// matrices are computed once (shared, read-only) and every block is carried through the chunk
// by one thread, its state held in split re/im planes sized for cache.
#pragma once

#include <functional>

#include "qevolve/backend/local_gate.hpp"
#include "qevolve/types.hpp"
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
};

/// Evolves the columns of `state` (D x n, product basis) in place, in precision Real.
/// `progress` (may be empty) receives the fraction done after each chunk of steps.
template <typename Real>
void evolve_blocks(const BlockEvolution& job, CMatrix& state,
                   const std::function<void(double)>& progress);

/// Steps per chunk (gates computed together): as many as fit in ~2 MiB of gate data, at most
/// 256, never more than `steps`. It does not depend on `steps` otherwise, so the memory of a
/// run (forward and adjoint) is the same for 1000 and 8000 steps.
[[nodiscard]] int step_chunk(std::size_t bytes_per_step, int steps);

/// How n columns are cut into blocks for one job: the block width (the job's override or the
/// automatic one), the number of blocks, and the gate geometries of a full and of the
/// (narrower) last block. Shared by the forward and the adjoint pass.
struct BlockLayout {
  Index width = 1, num_blocks = 0, last_width = 0;
  std::vector<backend::GateGeometry> geo_full, geo_last;
  [[nodiscard]] Index first_column(Index b) const { return b * width; }
  [[nodiscard]] Index columns(Index b) const { return b + 1 == num_blocks ? last_width : width; }
  [[nodiscard]] const std::vector<backend::GateGeometry>& geometry(Index b) const {
    return b + 1 == num_blocks ? geo_last : geo_full;
  }
};
[[nodiscard]] BlockLayout make_block_layout(const BlockEvolution& job, Index n);

/// Copies columns [c0, c0 + w) of `state` into split planes (element (i, c) at i * w + c), and
/// back.
template <typename Real>
void load_block(const CMatrix& state, Index c0, Index w, Real* re, Real* im) {
  for (Index c = 0; c < w; ++c)
    for (Index i = 0; i < state.rows(); ++i) {
      const cplx v = state(i, c0 + c);
      re[i * w + c] = static_cast<Real>(v.real());
      im[i * w + c] = static_cast<Real>(v.imag());
    }
}
template <typename Real>
void store_block(CMatrix& state, Index c0, Index w, const Real* re, const Real* im) {
  for (Index c = 0; c < w; ++c)
    for (Index i = 0; i < state.rows(); ++i)
      state(i, c0 + c) = cplx(static_cast<double>(re[i * w + c]), static_cast<double>(im[i * w + c]));
}

/// The automatic block width for dimension D, n columns and `threads` threads.
[[nodiscard]] Index choose_block_width(Index D, Index n, int threads);

}  // namespace qevolve::solver
