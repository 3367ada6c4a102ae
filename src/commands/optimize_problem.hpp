// The optimisation of `qevolve optimize` (docs/optimize.md) on a built GradientProblem, shared
// by the command and the Python Session: L-BFGS-B / Adam in scaled variables, checkpoint and
// resume, the /history rows.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "qevolve/config.hpp"
#include "qevolve/gradient.hpp"
#include "run_output.hpp"

namespace qevolve::commands {

struct OptimizeOutcome {
  RVector x0;  ///< the start point (parameter units)
  RVector x;   ///< the best point found (parameter units)
  std::vector<HistoryRow> history;  ///< entry 0: the start point
  std::string stop_reason;
  int evaluations = 0;
  double leakage_weight = 0.0;
  double seconds = 0.0;
};

/// Minimises (1 - F) + w leakage over the problem's parameters with the settings of `spec`
/// (method, iterations, target, learning rate, leakage weight; its checkpoint is written when
/// `root`), resuming from `resume` when not empty. `line` receives each iteration's progress
/// line (docs/optimize.md "Progress"); empty: none. Leaves the problem at the last evaluated point.
[[nodiscard]] OptimizeOutcome optimize_problem(gradient::GradientProblem& problem, const OptimizeSpec& spec,
                                               const std::string& resume, bool root,
                                               const std::function<void(const std::string&)>& line);

}  // namespace qevolve::commands
