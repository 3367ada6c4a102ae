// The evaluation of one run (run_evaluation.hpp): the one place that orders the step search,
// the pipeline and the step-error run.
#include "run_evaluation.hpp"

#include <chrono>

#include "auto_steps.hpp"
#include "qevolve/step_error.hpp"
#include "run_output.hpp"

namespace qevolve::commands {

const solver::Simulator& RunTarget::simulator() const { return problem ? problem->simulator() : *sim; }

gradient::PipelineHooks run_hooks(const solver::Simulator& sim, comm::Communicator& comm, bool trace) {
  gradient::PipelineHooks hooks;
  hooks.check_columns = [&sim, &comm](const CMatrix& local) { check_norms(local, sim.options(), comm); };
  hooks.trace = trace;
  hooks.truncation = true;  // docs/output.md "Truncation check"
  return hooks;
}

RunEvaluation evaluate_run(const RunTarget& target, const EvolutionSpec& e, comm::Communicator& comm,
                           comm::Communicator& reduce, const gradient::PipelineHooks& hooks,
                           const RunCallbacks& callbacks) {
  RunEvaluation out;
  std::optional<gradient::StepError> chosen;
  if (e.steps_auto) {
    const auto t0 = std::chrono::steady_clock::now();
    const double tolerance = e.tolerance.value_or(EvolutionSpec::kDefaultTolerance);
    chosen = search_steps(target.problem ? nullptr : target.sim, target.problem, target.objective, tolerance, comm,
                          reduce, callbacks.search_log)
                 .estimate;
    out.searched = true;
    out.search_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  if (callbacks.searched) callbacks.searched();
  out.ev = target.problem ? target.problem->evaluate(true, hooks)
                          : gradient::evaluate(*target.sim, target.objective, comm, reduce, hooks);
  if (chosen) {
    out.ev.step_error = chosen;  // the same steps: the search's estimate is this run's
  } else if (e.error_estimate && out.ev.fidelity) {
    const std::function<void(double)> tick =
        callbacks.step_error_progress ? callbacks.step_error_progress() : std::function<void(double)>();
    out.ev.step_error = target.problem
                            ? target.problem->estimate_step_error(out.ev, tick)
                            : gradient::estimate_step_error(*target.sim, *target.objective, out.ev, comm, reduce, tick);
  }
  return out;
}

}  // namespace qevolve::commands
