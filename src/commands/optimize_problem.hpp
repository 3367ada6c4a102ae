// The optimisation of `qevolve optimize` (docs/optimize.md) on a built GradientProblem, shared
// by the command and the Python Session: L-BFGS-B / Adam in scaled variables, checkpoint and
// resume, the /history rows.
#pragma once

#include <functional>
#include <optional>
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
[[nodiscard]] OptimizeOutcome optimize_problem(gradient::Problem& problem, const OptimizeSpec& spec,
                                               const std::string& resume, bool root,
                                               const std::function<void(const std::string&)>& line);

}  // namespace qevolve::commands

namespace qevolve::commands {

/// optimize's certification (docs/optimize.md "Certification"): the optimum's step-error
/// estimate against max(tolerance, 0.1 (1 - F)).
struct Certification {
  gradient::StepError estimate;  ///< at the final steps and parameters
  double fidelity = 0.0;         ///< F there
  int steps_before = 0;          ///< the steps the optimisation ran at first
  int steps = 0;                 ///< the final steps
  int rounds = 0;                ///< refinements (each: more steps, then the optimisation continued)
  bool certified = false;        ///< estimate.error <= max(tolerance, 0.1 (1 - F))
};

/// At `outcome.x`: evaluate, estimate the step error; while it exceeds max(tolerance,
/// 0.1 (1 - F)), multiply the steps (x2..x8 as the estimate's order predicts), continue the
/// optimisation from the current optimum (warm start; no checkpoint resume) and check again, at
/// most kMaxCertifyRounds times and up to kMaxAutoSteps steps. `outcome` gains the continued
/// iterations (history, evaluations, time, stop reason, x). Leaves the problem at outcome.x.
[[nodiscard]] Certification certify_optimum(gradient::Problem& problem, const OptimizeSpec& spec,
                                            double tolerance, OptimizeOutcome& outcome, bool root,
                                            const std::function<void(const std::string&)>& line);

inline constexpr int kMaxCertifyRounds = 4;

/// What `qevolve optimize` and Session::optimize run: with `steps: auto` the steps chosen at
/// the start point (fixed during the iterations), the optimisation of `config.optimize`, and,
/// unless `evolution.error_estimate: false`, certify_optimum. Leaves the problem at the optimum.
struct CertifiedOutcome {
  OptimizeOutcome outcome;
  std::optional<Certification> certification;
};
[[nodiscard]] CertifiedOutcome optimize_certified(gradient::Problem& problem, const Config& config,
                                                  const std::string& resume, bool root, comm::Communicator& comm,
                                                  const std::function<void(const std::string&)>& line);

}  // namespace qevolve::commands
