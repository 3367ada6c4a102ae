// output.trace (docs/output.md "Time traces"): populations of every evolved column at the step
// boundaries of Simulator::trace_steps(), recorded by the forward pass's observer hook and
// summed over the ranks of a distributed run.
#pragma once

#include <vector>

#include "qevolve/comm.hpp"
#include "qevolve/simulator.hpp"
#include "qevolve/types.hpp"

namespace qevolve::solver {

/// Largest D for which /trace/populations (per basis state) is recorded.
inline constexpr Index kMaxTraceDim = 4096;
/// Largest number of entries T x D x n of /trace/populations (2 GiB of doubles); a larger trace
/// keeps the mode populations only.
inline constexpr double kMaxTraceEntries = 268435456.0;

/// A recorded trace; arrays row-major. Populations are taken in the basis of /propagator
/// (evolution.basis); the rotating frame's phases do not change them.
struct Trace {
  std::vector<double> time;  ///< [T] ns
  Index dim = 0, modes = 0, levels = 0, columns = 0;  ///< D, M, L (largest kept), n
  bool has_populations = false;          ///< D <= kMaxTraceDim and T D n <= kMaxTraceEntries
  bool open = false;                     ///< from density matrices |k><k|
  std::vector<double> populations;       ///< [T, D, n]: |<i|psi_k(t)>|^2 or <i|rho_k(t)|i>
  std::vector<double> mode_populations;  ///< [T, M, L, n]: marginal of mode m in level l
  std::vector<double> trace;             ///< [T, n]: Tr rho_k(t) (open systems)
};

class TraceRecorder {
 public:
  /// Records this rank's shard: initial states [first, first + count) of n (closed), or the
  /// inputs [first, first + count) of n^2 (open; input i + n j, only |k><k| = input k + n k).
  TraceRecorder(const Simulator& sim, const comm::Shard& shard);
  /// The observer to hand to Simulator::evolve_product / evolve_density.
  [[nodiscard]] StepObserver observer();
  /// Sums the ranks' parts (collective: every rank calls it).
  [[nodiscard]] Trace finish(comm::Communicator& comm);

 private:
  void record(int step, const CMatrix& state);
  template <typename Real>
  void record_block(int step, Index c0, Index w, const Real* re, const Real* im);
  /// The index of `step` in /trace/time (std::logic_error if it was not asked for).
  [[nodiscard]] std::size_t index_of(int step) const;
  /// Every mode's marginal of local columns [c0, c0 + w) from a [D, n] block of populations.
  void add_marginals(std::size_t t, const double* block, Index c0, Index w);
  void record_columns(std::size_t t, const CMatrix& amplitudes);
  void record_density(std::size_t t, Index k, const Eigen::Map<const CMatrix>& rho);
  void add(std::size_t t, Index k, Index i, double p);

  const Simulator& sim_;
  comm::Shard shard_;
  std::vector<int> steps_;
  std::vector<int> level_of_;  ///< [M][D]: level of mode m in basis state i
  std::vector<double> scratch_;  ///< [D, n] populations when they are not kept
  Trace trace_;
};

}  // namespace qevolve::solver
