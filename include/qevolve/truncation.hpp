// The truncation check (docs/output.md "Truncation check"): for every mode, the largest
// population its highest kept level reaches during the forward pass, over every evolved column
// (but those that start in that level: initial_states: all) and every step boundary, in the basis the solver evolves in (the product of each mode's static
// eigenbasis; open systems: the diagonal of each rho_k = E(|k><k|)). Recorded by the forward
// pass's observer hook (StepObserver) and reduced with a maximum over the ranks.
#pragma once

#include <atomic>
#include <memory>
#include <vector>

#include "qevolve/comm.hpp"
#include "qevolve/simulator.hpp"
#include "qevolve/types.hpp"

namespace qevolve::solver {

/// The population of a mode's top level above which `run`, `optimize`, `sweep` and the Python
/// module warn (docs/cli.md "The truncation warning"). Chosen from measurements: the shipped
/// examples at their converged levels reach at most 1.5e-3 (the CZ's coupler), an
/// under-truncated coupler reaches 0.1 to 0.5.
inline constexpr double kTopLevelWarning = 1e-2;

/// The step boundaries the check observes: every one (0 .. steps) where observing is cheap
/// (the CPU paths, which see the state in the executor or in place); about 100 evenly spaced
/// ones on a CUDA device (each costs a download of the state); the end only for solver:
/// adaptive (a boundary there would restart its step-size control).
[[nodiscard]] std::vector<int> truncation_steps(const Simulator& sim);

class TruncationMonitor {
 public:
  /// Watches this rank's shard: initial states [first, first + count) (closed) or the inputs
  /// [first, first + count) of n^2 (open; input i + n j, only |k><k| = input k + n k).
  TruncationMonitor(const Simulator& sim, const comm::Shard& shard);
  /// The observer to hand to the forward pass (its `steps`: truncation_steps()).
  [[nodiscard]] StepObserver observer();
  /// Per mode (device order): the largest top-level population seen, maximum over the ranks
  /// (collective: every rank calls it); NaN for a two-level qubit (its top level is its |1>).
  [[nodiscard]] std::vector<double> finish(comm::Communicator& comm);

 private:
  template <typename Real>
  void block(Index c0, Index w, const Real* re, const Real* im);
  void state(const CMatrix& state);
  void density_block(Index c0, Index w, const double* re, const double* im);
  void raise(std::size_t mode, double p);

  /// Rows whose digit of a mode is its top level: o * (d stride) + (d - 1) stride + r for
  /// o < outer, r < stride (mode 0 the most significant digit of the flat index).
  struct Slice {
    Index outer = 1, stride = 1, period = 1;
  };
  bool open_ = false;
  Index dim_ = 0, columns_ = 0;
  comm::Shard shard_;
  std::vector<int> steps_;
  std::vector<Slice> slices_;
  std::vector<char> checked_;  ///< per mode: not a two-level qubit
  /// [mode][local column]: the column starts in the mode's top level (left out of its maximum).
  std::vector<std::vector<char>> starts_top_;
  std::unique_ptr<std::atomic<double>[]> top_;
};

/// One observer that shows the state to `a` at a's boundaries and to `b` at b's (the trace and
/// the truncation check in one pass); per-block calls only when both take them. An empty
/// observer leaves the other unchanged.
[[nodiscard]] StepObserver combine_observers(const Simulator& sim, StepObserver a, StepObserver b);

}  // namespace qevolve::solver
