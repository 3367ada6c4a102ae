// `evolution.steps: auto` (docs/accuracy.md "steps: auto"): the step count is chosen by the
// step-error estimate (include/qevolve/step_error.hpp) so that it is at most the tolerance.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "qevolve/gradient.hpp"
#include "qevolve/step_error.hpp"

namespace qevolve::commands {

/// The largest step count `steps: auto` tries (documented in docs/accuracy.md).
inline constexpr int kMaxAutoSteps = 1 << 20;

/// The steps after `steps` for an estimate `error` of order `order` that should come down to
/// half of `bound`: steps x 2, 4 or 8 (the smallest power of two the order predicts suffices),
/// at most kMaxAutoSteps. Shared by steps: auto and optimize's certification.
[[nodiscard]] int refined_steps(int steps, double error, double bound, int order);

/// What the search needs from its caller (a plain simulator or a GradientProblem's).
struct StepSearch {
  std::function<void(int steps)> set_steps;
  std::function<gradient::Evaluation()> evaluate;  ///< F at the current steps (no gradient)
  std::function<gradient::StepError(const gradient::Evaluation&)> estimate;
};

struct AutoSteps {
  int steps = 0;                ///< the chosen count (the last tried)
  gradient::StepError estimate; ///< its estimate
  double fidelity = 0.0;        ///< F at that count
  bool reached = false;         ///< estimate.error <= tolerance
  /// Every count tried: (steps, F, estimate), in order.
  struct Try {
    int steps;
    double fidelity, error;
  };
  std::vector<Try> tried;
};

/// From `start` steps: evaluate, estimate; while the estimate exceeds `tolerance`, the next
/// count is start x 2^k with the smallest k that the estimate's order predicts to reach half
/// the tolerance (at most x8 per try), up to kMaxAutoSteps. `log` sees one line per try.
[[nodiscard]] AutoSteps choose_steps(const StepSearch& search, int start, double tolerance,
                                     const std::function<void(const std::string&)>& log = {});

/// Where the search starts: the fewest steps the step-size rule (summary_notes.hpp) accepts,
/// at least 64.
[[nodiscard]] int auto_steps_start(const solver::Simulator& sim);

/// The run's search on a plain simulator or through `problem` (exactly one non-null); NumericalError
/// (exit 3) with the best estimate when the tolerance cannot be reached under kMaxAutoSteps.
/// Leaves the simulator at the chosen steps.
[[nodiscard]] AutoSteps search_steps(solver::Simulator* sim, gradient::Problem* problem,
                                     const std::optional<fidelity::ObjectiveSpec>& objective,
                                     double tolerance, comm::Communicator& comm, comm::Communicator& reduce,
                                     const std::function<void(const std::string&)>& log = {});

}  // namespace qevolve::commands
