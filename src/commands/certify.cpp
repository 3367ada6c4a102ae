// optimize never reports an optimum it has not certified (optimize_problem.hpp
// certify_optimum, docs/optimize.md "Certification").
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "auto_steps.hpp"
#include "optimize_problem.hpp"
#include "qevolve/simulator.hpp"

namespace qevolve::commands {

Certification certify_optimum(gradient::Problem& problem, const OptimizeSpec& spec, double tolerance,
                              OptimizeOutcome& outcome, bool root, const std::function<void(const std::string&)>& line) {
  Certification c;
  c.steps_before = problem.simulator().options().steps;
  for (;;) {
    problem.set_values(outcome.x);
    const gradient::Evaluation ev = problem.evaluate(false);
    c.estimate = problem.estimate_step_error(ev);
    c.fidelity = ev.fidelity->fidelity;
    c.steps = problem.simulator().options().steps;
    const double bound = std::max(tolerance, 0.1 * (1.0 - c.fidelity));
    c.certified = c.estimate.error <= bound;
    if (c.certified || c.rounds == kMaxCertifyRounds || c.steps >= kMaxAutoSteps) return c;
    const int next = refined_steps(c.steps, c.estimate.error, bound, c.estimate.order);
    if (line) {
      char text[300];
      std::snprintf(text, sizeof text,
                    "optimize: the optimum's step error %.1e exceeds max(tolerance, 0.1 (1 - F)) = %.1e at %d steps: "
                    "continuing at %d steps\n",
                    c.estimate.error, bound, c.steps, next);
      line(text);
    }
    problem.set_steps(next);
    ++c.rounds;
    OptimizeSpec continued = spec;
    continued.checkpoint.clear();  // the checkpoint keeps the first optimisation (docs/optimize.md)
    OptimizeOutcome more = optimize_problem(problem, continued, std::string(), root, line);
    // Every row, entry 0 included (the optimum again, at the new steps), numbered on: /history
    // has one row per progress line.
    const int offset = outcome.history.empty() ? 0 : outcome.history.back().iteration + 1;
    for (const HistoryRow& r : more.history) {
      HistoryRow row = r;
      row.iteration += offset;
      row.wall_time_s += outcome.seconds;
      outcome.history.push_back(row);
    }
    outcome.x = more.x;
    outcome.evaluations += more.evaluations;
    outcome.seconds += more.seconds;
    outcome.stop_reason = more.stop_reason;
  }
}

CertifiedOutcome optimize_certified(gradient::Problem& problem, const Config& config, const std::string& resume,
                                    bool root, comm::Communicator& comm,
                                    const std::function<void(const std::string&)>& line) {
  const double tolerance = config.evolution.tolerance.value_or(EvolutionSpec::kDefaultTolerance);
  if (config.evolution.steps_auto)
    (void)search_steps(nullptr, &problem, std::nullopt, tolerance, comm, comm, [&line](const std::string& l) {
      if (line) line("qevolve: " + l + "\n");
    });
  const OptimizeSpec spec = config.optimize.value_or(OptimizeSpec{});
  CertifiedOutcome out{optimize_problem(problem, spec, resume, root, line), std::nullopt};
  if (config.evolution.error_estimate)
    out.certification = certify_optimum(problem, spec, tolerance, out.outcome, root, line);
  problem.set_values(out.outcome.x);
  return out;
}

}  // namespace qevolve::commands
