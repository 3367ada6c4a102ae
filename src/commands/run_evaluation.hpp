// The evaluation of one run (docs/accuracy.md "The step-error estimate", "`steps: auto`"), made the same way
// by `qevolve run`, the Python Session's run and every sweep point: with `steps: auto` the step
// search first (its estimate at the chosen steps is the run's), then the pipeline (forward,
// objective, the gradient pass when a GradientProblem evaluates), then -- without a search,
// with evolution.error_estimate and a fidelity -- the coarser run of the step-error estimate.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "qevolve/comm.hpp"
#include "qevolve/config.hpp"
#include "qevolve/gradient.hpp"
#include "qevolve/simulator.hpp"

namespace qevolve::commands {

/// What a run evaluates: a plain simulator with its objective, or a GradientProblem (exactly
/// one of `sim` and `problem`).
struct RunTarget {
  solver::Simulator* sim = nullptr;
  std::optional<fidelity::ObjectiveSpec> objective;  ///< the plain simulator's (io::objective_spec)
  gradient::Problem* problem = nullptr;
  [[nodiscard]] const solver::Simulator& simulator() const;
};

/// What the caller shows of the run (all optional).
struct RunCallbacks {
  std::function<void(const std::string&)> search_log;  ///< steps: auto: one line per try
  std::function<void()> searched;                      ///< after the search (if any), before the evaluation
  /// The step-error run's progress, asked for when that run starts.
  std::function<std::function<void(double)>()> step_error_progress;
};

struct RunEvaluation {
  gradient::Evaluation ev;  ///< ev.step_error: the search's estimate, or the step-error run's
  bool searched = false;    ///< steps: auto chose the steps
  double search_s = 0.0;    ///< the whole search's wall time
};

/// The pipeline hooks every run sets: the norm check of the output columns (collective over
/// `comm`), the truncation check, and output.trace when `trace`.
[[nodiscard]] gradient::PipelineHooks run_hooks(const solver::Simulator& sim, comm::Communicator& comm, bool trace);

/// The run's evaluation of `target` for the evolution section `e`; the gradient pass when
/// `target.problem` evaluates. Collective over `comm` and `reduce` as gradient::evaluate.
[[nodiscard]] RunEvaluation evaluate_run(const RunTarget& target, const EvolutionSpec& e, comm::Communicator& comm,
                                         comm::Communicator& reduce, const gradient::PipelineHooks& hooks,
                                         const RunCallbacks& callbacks = {});

}  // namespace qevolve::commands
