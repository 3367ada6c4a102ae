// `evolution.steps: auto` (auto_steps.hpp, docs/accuracy.md).
#include "auto_steps.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "qevolve/error.hpp"
#include "qevolve/simulator.hpp"
#include "summary_notes.hpp"

namespace qevolve::commands {

int auto_steps_start(const solver::Simulator& sim) {
  const std::optional<StepPhase> p = fastest_step_phase(sim);
  const long long rule = p ? p->steps_needed : 0;
  return static_cast<int>(std::clamp<long long>(rule, 64, kMaxAutoSteps));
}

int refined_steps(int steps, double error, double bound, int order) {
  const double want = std::pow(error / (0.5 * bound), 1.0 / std::max(1, order));  // error ~ steps^(-p)
  int factor = 2;
  while (factor < 8 && factor < want) factor *= 2;
  return static_cast<int>(std::min<long long>(static_cast<long long>(steps) * factor, kMaxAutoSteps));
}

AutoSteps choose_steps(const StepSearch& search, int start, double tolerance,
                       const std::function<void(const std::string&)>& log) {
  AutoSteps out;
  int steps = std::clamp(start, 1, kMaxAutoSteps);
  for (;;) {
    search.set_steps(steps);
    const gradient::Evaluation ev = search.evaluate();
    out.estimate = search.estimate(ev);
    out.steps = steps;
    out.fidelity = ev.fidelity ? ev.fidelity->fidelity : std::nan("");
    out.reached = out.estimate.error <= tolerance;
    out.tried.push_back({steps, out.fidelity, out.estimate.error});
    if (log) {
      char line[200];
      std::snprintf(line, sizeof line, "steps: auto: %d steps: 1 - F = %.4e \u00b1 %.1e%s", steps, 1.0 - out.fidelity,
                    out.estimate.error, out.reached ? " (within the tolerance)" : "");
      log(line);
    }
    if (out.reached || steps >= kMaxAutoSteps) return out;
    steps = refined_steps(steps, out.estimate.error, tolerance, out.estimate.order);
  }
}

AutoSteps search_steps(solver::Simulator* sim, gradient::Problem* problem,
                       const std::optional<fidelity::ObjectiveSpec>& objective, double tolerance,
                       comm::Communicator& comm, comm::Communicator& reduce,
                       const std::function<void(const std::string&)>& log) {
  StepSearch s;
  if (problem) {
    s.set_steps = [problem](int n) { problem->set_steps(n); };
    s.evaluate = [problem] { return problem->evaluate(false); };
    s.estimate = [problem](const gradient::Evaluation& ev) { return problem->estimate_step_error(ev); };
  } else {
    s.set_steps = [sim](int n) { sim->set_steps(n); };
    s.evaluate = [sim, &objective, &comm, &reduce] { return gradient::evaluate(*sim, objective, comm, reduce); };
    s.estimate = [sim, &objective, &comm, &reduce](const gradient::Evaluation& ev) {
      return gradient::estimate_step_error(*sim, *objective, ev, comm, reduce);
    };
  }
  const solver::Simulator& at = problem ? problem->simulator() : *sim;
  AutoSteps a = choose_steps(s, auto_steps_start(at), tolerance, log);
  if (!a.reached) {
    char what[300];
    std::snprintf(what, sizeof what,
                  "steps: auto could not reach the tolerance %.1e under %d steps: the best estimate is %.2e at %d "
                  "steps (docs/accuracy.md)",
                  tolerance, kMaxAutoSteps, a.estimate.error, a.steps);
    throw NumericalError(what);
  }
  return a;
}

}  // namespace qevolve::commands
