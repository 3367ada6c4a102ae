// The gradient layer (docs/gradients.md): d(1 - F)/d(theta) for every
// trainable parameter by the adjoint method with exact reverse stepping (memory independent of
// the number of steps). GradientProblem owns the cached simulator and rebuilds only what a
// parameter change invalidates (pulse parameters: nothing; device parameters: the device and
// the simulator).
#pragma once

#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "qevolve/comm.hpp"
#include "qevolve/config.hpp"
#include "qevolve/fidelity.hpp"
#include "qevolve/trace.hpp"
#include "qevolve/types.hpp"

namespace qevolve::solver {
class Simulator;
}

namespace qevolve::gradient {

/// The time-step error of F (include/qevolve/step_error.hpp, docs/accuracy.md).
struct StepError {
  double error = std::numeric_limits<double>::quiet_NaN();  ///< estimate of |F(steps) - F(steps -> inf)|
  double fidelity_limit = std::numeric_limits<double>::quiet_NaN();  ///< F of the extrapolated columns
  double fidelity_coarse = std::numeric_limits<double>::quiet_NaN();  ///< F of the coarser run
  int order = 0;         ///< Richardson order p in dt (adaptive: 1, in the tolerance)
  int coarse_steps = 0;  ///< steps of the coarser run (0: adaptive)
  double ratio = 2.0;    ///< steps / coarse_steps, or (adaptive) coarse tolerance / tolerance
  double seconds = 0.0;  ///< wall time of the coarser run(s) and the extrapolation
  /// When the half-step estimate exceeded 0.01 (1 - F), it was confirmed by a second run at
  /// confirm_steps(): the first estimate and its steps (error and coarse_steps are the second's).
  double first_error = std::numeric_limits<double>::quiet_NaN();
  int first_coarse_steps = 0;
};

/// One trainable parameter, as the optimiser sees it.
struct ParameterInfo {
  std::string name;  ///< "pulses[2].amplitude", "device.qubits[q0].el", "device.couplings[0].capacitive",
                     ///< "compensation.angles[3]" (compensation_trainable only),
                     ///< "evolution.noise.q0.t1" (open systems)
  double lower = -std::numeric_limits<double>::infinity();  ///< domain bounds (e.g. sigma > 0)
  double upper = std::numeric_limits<double>::infinity();
  /// A typical meaningful change of the parameter (1 MHz of frequency or amplitude, 0.01 rad of
  /// phase, 0.1 ns of a time, ...; fixed per kind, so theta / scale identifies a start point).
  /// The optimiser works in the scaled variables theta / scale, which makes its first steps
  /// sensible whatever the units (docs/optimize.md).
  double scale = 1.0;
};

struct Evaluation {
  double infidelity = 0.0;  ///< 1 - F after compensation
  double objective = 0.0;   ///< (1 - F) + w leakage, w = ObjectiveSpec::leakage_weight (0: = infidelity)
  RVector gradient;         ///< d(objective)/d(theta), empty unless requested
  std::optional<fidelity::FidelityResult> fidelity;  ///< F before/after compensation, leakage,
                                                     ///< angles; empty without an objective
  CMatrix columns;          ///< the evolved columns (basis and frame of the config); rank 0 only
  CMatrix unitary;          ///< their computational block (rows and columns), before compensation;
                            ///< rank 0 only
  CMatrix superoperator;    ///< open systems: the channel block (columns and unitary stay empty);
                            ///< rank 0 only
  /// precision: single only: what single precision costs (solver::EvolveResult); NaN otherwise.
  double single_precision_deviation = std::numeric_limits<double>::quiet_NaN();
  double evolve_s = 0.0, fidelity_s = 0.0, gradient_s = 0.0;  ///< wall time by phase
  /// The step-error estimate of F, where the caller made one (estimate_step_error).
  std::optional<StepError> step_error;
  /// output.trace, when PipelineHooks::trace asked for it (every rank holds the whole trace).
  std::optional<solver::Trace> trace;
  /// The truncation check (qevolve/truncation.hpp), when PipelineHooks::truncation asked for
  /// it: per mode, the largest population of its top level during the evolution (every rank).
  std::vector<double> top_level_population;
};

/// What the forward pass leaves for the adjoint pass (this rank's shard).
struct Forward {
  comm::Shard shard;  ///< initial states (closed) or inputs |i><j| (open) of this rank
  CMatrix local;      ///< this rank's final columns: output columns (closed), channel columns (open)
  CMatrix product;    ///< closed, with a gradient: psi_N, product basis and lab frame
  CMatrix initial;    ///< open, with a gradient: the vectorised inputs the checkpointed adjoint
                      ///< restarts from
};

/// The adjoint pass: d(1 - F)/d(theta) (reduced over the ranks) from the forward pass and the
/// objective's cotangent.
using GradientPass =
    std::function<RVector(const Forward& forward, const fidelity::ObjectiveEvaluation& objective)>;

struct PipelineHooks {
  std::function<void(double)> progress;  ///< forward progress, fraction in [0, 1]
  /// Closed systems: called with this rank's output columns before anything else uses them
  /// (collective: `run` checks the norms there).
  std::function<void(const CMatrix& local_columns)> check_columns;
  /// Record output.trace during the forward pass (the config asks for one); `run` and the
  /// final evaluation of `optimize` set it, the optimiser's iterations do not.
  bool trace = false;
  /// Run the truncation check (Evaluation::top_level_population); `run`, the final evaluation
  /// of `optimize`, `sweep` and the Python module set it, the optimiser's iterations do not.
  bool truncation = false;
};

/// The one pipeline of `run` and GradientProblem (docs/architecture.md "Call order"): forward
/// on this rank's shard (`comm.shard`) -> gather on rank 0 (`comm`) -> the objective and, with
/// a gradient pass, its cotangent (fidelity::evaluate_with_cotangent, reduced over `reduce`)
/// -> the gradient pass. Without `objective` it stops after the gather.
[[nodiscard]] Evaluation evaluate(const solver::Simulator& sim,
                                  const std::optional<fidelity::ObjectiveSpec>& objective,
                                  comm::Communicator& comm, comm::Communicator& reduce,
                                  const PipelineHooks& hooks = {}, const GradientPass& gradient = {});

struct GradientPlan;  // include/qevolve/gradient_plan.hpp

/// What the optimiser, optimize's certification and the step search drive: one
/// GradientProblem, or an ensemble of them (include/qevolve/ensemble_problem.hpp). Each
/// evaluation is collective over the problem's communicators.
class Problem {
 public:
  virtual ~Problem() = default;
  [[nodiscard]] virtual const std::vector<ParameterInfo>& parameters() const = 0;
  [[nodiscard]] virtual std::vector<std::string> names() const = 0;
  [[nodiscard]] virtual RVector values() const = 0;
  /// Sets every parameter; NumericalError (nothing changed) if a value leaves its domain.
  virtual void set_values(const RVector& values) = 0;
  /// Forward run (and the gradient if `with_gradient`) with the pipeline's hooks.
  [[nodiscard]] virtual Evaluation evaluate(bool with_gradient, const PipelineHooks& hooks) = 0;
  [[nodiscard]] Evaluation evaluate(bool with_gradient) { return evaluate(with_gradient, PipelineHooks{}); }
  /// The step-error estimate of the evaluation `fine` just returned.
  [[nodiscard]] virtual StepError estimate_step_error(const Evaluation& fine,
                                                      const std::function<void(double)>& progress = {}) = 0;
  /// The compensation angles the next evaluation starts its solves from (checkpointed).
  [[nodiscard]] virtual RVector warm_angles() const = 0;
  virtual void set_warm_angles(const RVector& angles) = 0;
  /// The length of warm_angles() after an evaluation (0: nothing is re-optimised).
  [[nodiscard]] virtual Index warm_angle_count() const = 0;
  /// w of the objective (1 - F) + w leakage.
  virtual void set_leakage_weight(double w) = 0;
  /// The step count of every simulator (steps: auto, optimize's certification).
  virtual void set_steps(int steps) = 0;
  /// A simulator in the problem's current state (steps, pulses), for output.
  [[nodiscard]] virtual const solver::Simulator& simulator() const = 0;
};

class GradientProblem final : public Problem {
 public:
  /// Builds the cached simulator from the plan (io::gradient_plan: auto values resolved once,
  /// the trainable parameters found, the target read). The plan's rules (something trainable, a
  /// solver with an adjoint, computational initial states, a target) are the resolution
  /// stage's; here they are preconditions.
  /// Distributed (issue "scale-out"): with a communicator of K ranks every rank builds the
  /// same problem and evaluates its shard of the initial states; every reduction is
  /// collective, every rank gets the same infidelity, angles and gradient, and rank 0 the
  /// gathered columns, unitary (and superoperator) for output. `comm` carries the gather, the
  /// shard and the broadcasts (host memory: MPI), `reduce` the reductions of the fidelity and
  /// the gradient (NCCL on GPUs, comm::gpu_reductions); the first form uses `comm` for both.
  explicit GradientProblem(GradientPlan plan, int threads = 0, comm::Communicator& comm = comm::world());
  GradientProblem(GradientPlan plan, int threads, comm::Communicator& comm, comm::Communicator& reduce);
  ~GradientProblem();
  GradientProblem(const GradientProblem&) = delete;
  GradientProblem& operator=(const GradientProblem&) = delete;

  [[nodiscard]] const std::vector<ParameterInfo>& parameters() const override;
  [[nodiscard]] std::vector<std::string> names() const override;
  [[nodiscard]] RVector values() const override;
  /// Sets every parameter; NumericalError (nothing changed) if a value leaves its domain.
  void set_values(const RVector& values) override;

  /// Forward run (and adjoint pass if `with_gradient`). With compensation the angles are
  /// re-optimised (warm-started from the previous optimum) unless compensation_trainable.
  [[nodiscard]] Evaluation evaluate(bool with_gradient);
  /// The same with the pipeline's hooks (progress, column check).
  [[nodiscard]] Evaluation evaluate(bool with_gradient, const PipelineHooks& hooks) override;

  /// The step-error estimate of the evaluation `fine` just returned (include/qevolve/step_error.hpp):
  /// a coarser run of the same parameters, collective like evaluate().
  [[nodiscard]] StepError estimate_step_error(const Evaluation& fine,
                                              const std::function<void(double)>& progress = {}) override;

  /// The compensation angles the next evaluation starts its solve from (the previous optimum);
  /// part of the optimiser's checkpoint so a resumed run repeats the same solves.
  [[nodiscard]] RVector warm_angles() const override;
  /// w of the objective (1 - F) + w leakage that evaluate() returns and differentiates
  /// (`optimize.leakage_weight`; 0, the default: 1 - F).
  void set_leakage_weight(double w) override;
  /// The simulator's step count (steps: auto, optimize's certification; docs/accuracy.md).
  void set_steps(int steps) override;
  void set_warm_angles(const RVector& angles) override;
  /// The length of warm_angles() after an evaluation (0: nothing is re-optimised).
  [[nodiscard]] Index warm_angle_count() const override;

  /// The simulator's current state, for output (io::frozen_config writes what it resolved).
  [[nodiscard]] const solver::Simulator& simulator() const override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace qevolve::gradient
