// The threading policy (docs/backend.md "Threads"): the one place that starts threads. Every
// solver path -- the gate executor, the forward and adjoint Trotter sweeps, the Lindblad
// forward and adjoint, the adaptive integrator -- runs its parallel work through a Team, and
// decides whether work is worth a team with the one rule below. OpenMP underneath
// (src/backend/cpu/parallel.cpp); callers never name it.
#pragma once

#include <functional>

#include "qevolve/types.hpp"

namespace qevolve::backend {

/// Work below this many flops (a fraction of a millisecond on one core) runs on one thread:
/// waking a team would cost more than it saves.
inline constexpr double kMinParallelFlops = 1e7;

/// The one rule for "too small for threads": more than one thread allowed, more than one item
/// to share, and more than kMinParallelFlops of work. Pass items = 2 where the items are not
/// counted (the flops decide), flops = +inf where the work is not estimated (the items decide).
[[nodiscard]] bool worth_threads(int threads, double flops, Index items = 2);

/// The processors this process may use (the default of --threads).
[[nodiscard]] int hardware_threads();

/// The threads of one parallel region. Its work-sharing calls must be reached by every thread
/// of the team, in the same order (as OpenMP's): each is a barrier at its end unless stated.
class Team {
 public:
  [[nodiscard]] int thread() const;
  [[nodiscard]] int size() const;
  /// body(i) for i in [begin, end), contiguous equal shares in thread order (deterministic).
  void for_static(Index begin, Index end, const std::function<void(Index)>& body);
  /// body(i) for i in [begin, end), one item at a time to whichever thread is free.
  void for_dynamic(Index begin, Index end, const std::function<void(Index)>& body);
  /// body() on one thread at a time (no barrier), in whatever order the threads arrive.
  void critical(const std::function<void()>& body);
  /// body() on every thread in turn, thread 0 first: a merge of per-thread sums that gives the
  /// same bits on every run (with for_static, each thread's share is fixed too). A barrier
  /// before each thread's turn and after the last.
  void in_order(const std::function<void()>& body);
  /// Every thread waits for all others.
  void barrier();
};

/// Runs body(team) once on each of `threads` threads, or on the calling thread alone when
/// `parallel` is false (the team then has size 1).
void run_team(int threads, bool parallel, const std::function<void(Team&)>& body);

}  // namespace qevolve::backend
