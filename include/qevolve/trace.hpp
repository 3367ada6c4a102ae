// output.trace (docs/output.md "Time traces"): populations of every evolved column at the step
// boundaries of Simulator::trace_steps(), recorded by the forward pass's observer hook and
// summed over the ranks of a distributed run.
#pragma once

#include <atomic>
#include <memory>
#include <new>
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

/// std::allocator that leaves the elements of resize(n) uninitialised, so that the recorder
/// can zero the trace with its thread team (the pages' first touch spread over the threads)
/// instead of value-initialising it on one thread.
template <typename T>
struct DefaultInitAllocator : std::allocator<T> {
  template <typename U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  DefaultInitAllocator() = default;
  template <typename U>
  DefaultInitAllocator(const DefaultInitAllocator<U>& /*other*/) noexcept {}
  template <typename U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

/// A recorded trace; arrays row-major. Populations are taken in the basis of /propagator
/// (evolution.basis); the rotating frame's phases do not change them.
struct Trace {
  std::vector<double> time;  ///< [T] ns
  Index dim = 0, modes = 0, levels = 0, columns = 0;  ///< D, M, L (largest kept), n
  bool has_populations = false;          ///< D <= kMaxTraceDim and T D n <= kMaxTraceEntries
  bool open = false;                     ///< from density matrices |k><k|
  std::vector<double, DefaultInitAllocator<double>> populations;  ///< [T, D, n]: |<i|psi_k(t)>|^2 or <i|rho_k(t)|i>
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
  /// Sums the ranks' parts (collective: every rank calls it). std::logic_error if a boundary
  /// was not recorded for every local column.
  [[nodiscard]] Trace finish(comm::Communicator& comm);

 private:
  void record(int step, const CMatrix& state);
  template <typename Real>
  void record_block(int step, Index c0, Index w, const Real* re, const Real* im);
  /// The index of `step` in /trace/time (std::logic_error if it was not asked for).
  [[nodiscard]] std::size_t index_of(int step) const;
  /// Populations of columns [first, first + w) of boundary t, row(i, p) writing row i's w
  /// numbers to p, into /trace/populations and every mode's marginal.
  template <typename RowFn>
  void record_rows(std::size_t t, Index first, Index w, RowFn&& row);
  void record_columns(std::size_t t, const CMatrix& amplitudes);
  void record_density(std::size_t t, Index k, const Eigen::Map<const CMatrix>& rho);
  void add(std::size_t t, Index k, Index i, double p);

  const Simulator& sim_;
  comm::Shard shard_;
  std::vector<int> steps_;
  std::vector<int> level_of_;  ///< [M][D]: level of mode m in basis state i
  /// record_rows' split: basis state i = a inner_ + b, a over modes [0, split_), b the rest.
  Index split_ = 0, inner_ = 1;
  /// Local columns recorded at each boundary (blocks are recorded from the executor's threads).
  std::unique_ptr<std::atomic<Index>[]> recorded_;
  Index expected_ = 0;  ///< local columns per boundary: the shard (closed) or its |k><k| (open)
  Trace trace_;
};

}  // namespace qevolve::solver
