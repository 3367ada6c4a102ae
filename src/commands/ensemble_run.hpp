// An `ensemble:` evaluated (docs/ensembles.md): every member run as `qevolve run` runs one
// config, on the nominal config's resolved pulses, and the members' figures combined into the
// objective (the weighted mean, or the worst member).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "qevolve/comm.hpp"
#include "qevolve/config.hpp"
#include "qevolve/ensemble.hpp"
#include "qevolve/ensemble_problem.hpp"
#include "qevolve/gradient.hpp"
#include "qevolve/simulator.hpp"
#include "run_evaluation.hpp"
#include "run_output.hpp"
#include "sweep_points.hpp"

namespace qevolve::commands {

/// One member's figures (rank 0).
struct MemberFigures {
  gradient::MemberFigures f;  ///< F, leakage, the objective o_k and its gradient (what is combined)
  double step_error = -1.0;   ///< the step-error estimate of F; < 0: none
  int steps = 0;              ///< the steps it ran (steps: auto: its own search's)
  CMatrix unitary;            ///< the computational block (closed systems), kept for output
};

/// The members' configs: `nominal` with what its simulator resolved frozen in (`auto`
/// amplitudes and frequencies, duration, steps: io::frozen_config), then each member's
/// overrides. Every member shares the nominal pulses.
[[nodiscard]] std::vector<SweepPoint> ensemble_points(const Config& nominal, const solver::Simulator& nominal_sim,
                                                      const std::vector<io::EnsembleMember>& members);

/// What an ensemble's evaluation gives: the members' figures and the objective's.
struct EnsembleOutcome {
  std::vector<io::EnsembleMember> members;
  EnsembleObjective objective = EnsembleObjective::mean;
  std::vector<MemberFigures> figures;  ///< per member, in order (rank 0)
  double fidelity = 0.0, fidelity_uncompensated = 0.0, leakage = 0.0;  ///< the objective's
  double step_error = -1.0;  ///< mean: sum_k w_k e_k; worst: the worst member's; < 0: none
  std::int64_t worst = -1;   ///< the member with the largest objective o_k
  RVector gradient;          ///< the objective's (gradient::combine_ensemble)
  double leakage_weight = 0.0;
  SweepStats stats;          ///< builds (devices, simulators, objectives) over the members
  bool by_member = false;    ///< ranks evaluated whole members (members first)
  double evolve_s = 0.0, fidelity_s = 0.0, gradient_s = 0.0, step_error_s = 0.0, build_s = 0.0;
};

/// Combines the members' figures into the objective (rank 0; gradient::combine_ensemble).
void combine_members(EnsembleOutcome& outcome);

/// Evaluates every member of `nominal.ensemble` (the nominal config that passed the stage, its
/// simulator built): one after another, each on all ranks and `threads` threads (its initial
/// states sharded as in a plain run); plain members through one CachedSimulator (members that
/// change only pulse or target keys share the device and simulator), members with trainable
/// parameters through a GradientProblem each. Collective over `comm` and `reduce`.
[[nodiscard]] EnsembleOutcome evaluate_ensemble(const Config& nominal, const solver::Simulator& nominal_sim,
                                                int threads, comm::Communicator& comm, comm::Communicator& reduce);

/// The members' gradient problems of `nominal.ensemble` (optimize, Python): the nominal
/// config's pulses resolved on a simulator built from it, frozen into every member (as
/// ensemble_points), each member's plan built once. Collective over `comm` and `reduce`.
[[nodiscard]] std::unique_ptr<gradient::EnsembleProblem> ensemble_problem(const Config& nominal, int threads,
                                                                          comm::Communicator& comm,
                                                                          comm::Communicator& reduce);

/// The outcome of the problem's last evaluation `combined` (every member's figures); with
/// `step_errors` the members' last step-error estimates (EnsembleProblem::member_step_errors,
/// made at the same steps and parameters). Collective (the unitaries of
/// output.ensemble_unitaries are gathered).
[[nodiscard]] EnsembleOutcome ensemble_outcome(gradient::EnsembleProblem& problem, const Config& nominal,
                                               const gradient::Evaluation& combined, bool step_errors);

/// optimize's final evaluation of an ensemble (the command's and the Session's): at `x` with
/// `hooks`, into the report (take_ensemble; with `certified` the members' step-error estimates),
/// then the members at the start point `x0` (/ensemble/start_*); leaves the problem at `x`.
void report_optimized_ensemble(RunReport& report, gradient::EnsembleProblem& problem, const Config& config,
                               const RVector& x0, const RVector& x, const gradient::PipelineHooks& hooks,
                               bool certified);

/// Moves an ensemble's outcome into the report (rank 0): `fidelity` the objective's figures
/// (compensation as configured, no angles or unitary), the objective's gradient under `names`,
/// /ensemble/* (per-member unitaries when output.ensemble_unitaries), the phase times summed.
void take_ensemble(RunReport& report, EnsembleOutcome&& outcome, const Config& config, std::vector<std::string> names);

}  // namespace qevolve::commands
