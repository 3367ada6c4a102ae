// output.trace (docs/output.md "Time traces"): populations of every evolved column at the step
// boundaries of solver::trace_steps(), recorded by the forward pass's observer hook and
// summed over the ranks of a distributed run.
#pragma once

#include <atomic>
#include <cstdlib>
#include <memory>
#include <new>
#include <utility>
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

/// Allocator of zero-filled memory (calloc) whose resize(n) writes nothing: a large block is
/// fresh anonymous memory, already zero, so the recorder only has to fault its pages in (with
/// its thread team) instead of writing 0.0 over memory the kernel has just zeroed. Recycled
/// memory is zeroed by calloc itself, so the elements are 0.0 either way.
template <typename T>
struct ZeroedAllocator {
  using value_type = T;
  ZeroedAllocator() = default;
  template <typename U>
  ZeroedAllocator(const ZeroedAllocator<U>& /*other*/) noexcept {}
  [[nodiscard]] T* allocate(std::size_t n) {
    if (n == 0) n = 1;
    void* p = std::calloc(n, sizeof(T));
    if (p == nullptr) throw std::bad_alloc();
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t /*n*/) noexcept { std::free(p); }
  template <typename U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;  // default-initialised: the bytes calloc zeroed stay
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
  template <typename U>
  bool operator==(const ZeroedAllocator<U>& /*other*/) const noexcept {
    return true;
  }
};

/// A recorded trace; arrays row-major. Populations are taken in the basis of /propagator
/// (evolution.basis); the rotating frame's phases do not change them.
struct Trace {
  std::vector<double> time;  ///< [T] ns
  Index dim = 0, modes = 0, levels = 0, columns = 0;  ///< D, M, L (largest kept), n
  bool has_populations = false;          ///< D <= kMaxTraceDim and T D n <= kMaxTraceEntries
  bool open = false;                     ///< from density matrices |k><k|
  std::vector<double, ZeroedAllocator<double>> populations;  ///< [T, D, n]: |<i|psi_k(t)>|^2 or <i|rho_k(t)|i>
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
