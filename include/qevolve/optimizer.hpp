// The optimisation layer (`qevolve optimize`): L-BFGS-B with bounds (LBFGSpp) and Adam over an
// abstract objective, with an atomic per-iteration checkpoint that makes a resumed run follow
// exactly the iterates of an uninterrupted one (the checkpoint records every objective
// evaluation; a resumed run replays them instead of recomputing, so the optimiser's internal
// state is rebuilt bit for bit). The checkpoint is a Record; how it is written and read is a
// RecordStore the caller hands in (io::optimize_checkpoint_store(), include/qevolve/
// optimize_record.hpp: HDF5), so this layer includes no io header.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "qevolve/config.hpp"
#include "qevolve/error.hpp"
#include "qevolve/types.hpp"

namespace qevolve::optimize {

class RecordStore;

/// What the optimiser minimises. evaluate() may be expensive; it is called once per point.
class Objective {
 public:
  virtual ~Objective() = default;
  [[nodiscard]] virtual std::vector<std::string> names() const = 0;
  [[nodiscard]] virtual RVector lower() const = 0;  ///< per-parameter bounds (+-inf: none)
  [[nodiscard]] virtual RVector upper() const = 0;
  /// f(x) and its gradient at x. `aux` is opaque per-evaluation state the objective wants back
  /// on replay (e.g. the optimal compensation angles used to warm-start the next solve);
  /// restore(aux) is called for each replayed evaluation in order.
  virtual double evaluate(const RVector& x, RVector& gradient, RVector& aux) = 0;
  virtual void restore(const RVector& aux) = 0;
};

struct Settings {
  OptimizerMethod method = OptimizerMethod::lbfgs;
  int max_iterations = 200;
  double target_infidelity = 1e-4;  ///< stop when f < this
  double learning_rate = 1e-3;      ///< adam
  /// Stalled objective: stop when the relative decrease of f over the last `stall_window`
  /// iterations is below `stall_tolerance` (at most, in fact; window 0: no such test). The best
  /// f so far is compared: for L-BFGS-B that is the current f, Adam's f is not monotone.
  int stall_window = 10;
  double stall_tolerance = 1e-10;
  /// Converged: the projected gradient ||P(x - g) - x||_inf is at most this (both methods).
  double gradient_tolerance = 1e-12;
  /// How the stop reasons name f (plain words for people: "1 - F", "(1 - F) + 0.1 leakage").
  std::string objective_name = "f";
  std::string checkpoint;  ///< empty: none
  std::string resume;      ///< checkpoint file to resume from (empty: fresh start)
  /// Writes and reads the checkpoint (io::optimize_checkpoint_store()); not owned, it must
  /// outlive minimize. None: a checkpoint or resume path is a precondition failure.
  const RecordStore* store = nullptr;
};

struct IterationRecord {
  int iteration = 0;
  double objective = 0.0;  ///< f at the iterate (1 - F, plus the leakage term when weighted)
  double gradient_norm = 0.0;
  double step = 0.0;  ///< |x_k - x_{k-1}|
  double wall_time_s = 0.0;
  RVector aux;  ///< the objective's aux of the iterate (not stored in the checkpoint's history)
};

/// One objective evaluation, as the checkpoint records it.
struct EvaluationRecord {
  RVector x;
  double f = 0.0;
  RVector gradient;
  RVector aux;
};

/// The record behind checkpoint and resume: the start point, the settings, every objective
/// evaluation (x, f, gradient, aux) in order and the iteration history. Rewritten after every
/// evaluation and every iteration; a resumed run replays the evaluations so the optimiser's
/// internal state is rebuilt exactly.
struct Record {
  RVector x0;
  std::vector<std::string> names;  ///< written only
  Settings settings;  ///< the numeric settings (checkpoint/resume paths and store not stored)
  std::vector<EvaluationRecord> evaluations;
  std::vector<IterationRecord> history;
  std::string stop_reason;  ///< empty while running
};

/// Where minimize keeps its Record: write(path, record) replaces the file at `path` atomically
/// (a reader never sees a partial record); read(path) returns a record written by write. Both
/// throw an InputError naming the file when it cannot be written, or is missing or unusable.
class RecordStore {
 public:
  virtual ~RecordStore() = default;
  virtual void write(const std::string& path, const Record& record) const = 0;
  [[nodiscard]] virtual Record read(const std::string& path) const = 0;
};

/// The replay's test of a recorded point: the same size and |a - b| <= 1e-12 max(1, |b|).
[[nodiscard]] bool same_point(const RVector& a, const RVector& b);

/// A resumed checkpoint that the replay finds to be of another run: the optimiser asks for
/// evaluation `evaluation` at another point than the recorded one (point), the recorded
/// gradient has another length (gradient_length), or the objective at the start point is `now`
/// but `recorded` in the file (start_objective: another device, pulse, solver, number of steps,
/// ...). Only the replay can find these; minimize throws this, and the caller, which named the
/// file, refuses it as its input error (io::resume_mismatch). What the file shows before any
/// evaluation (another number of parameters, start point, method or learning rate) the caller
/// checks first (io::check_resume).
class ReplayMismatch : public Error {
 public:
  enum class Kind { point, gradient_length, start_objective };
  ReplayMismatch(Kind kind, int evaluation, double now = 0.0, double recorded = 0.0);
  Kind kind;
  int evaluation;
  double now, recorded;
};

/// Why an optimisation ended (docs/optimize.md "Stopping").
enum class StopReason {
  target,          ///< f below target_infidelity
  gradient,        ///< projected gradient at most gradient_tolerance
  max_iterations,  ///< max_iterations iterations done
  stalled,         ///< the best f improved too little over stall_window iterations
  line_search,     ///< L-BFGS-B: no step along the search direction decreases f
};

struct Result {
  RVector x;
  double objective = 0.0;  ///< the best f
  std::vector<IterationRecord> history;
  int evaluations = 0;  ///< objective evaluations, the replayed ones included
  StopReason stop = StopReason::max_iterations;
  /// The stop in plain words, with the numbers that decided it, e.g. "converged: 1 - F no
  /// longer decreases along the search direction" (stop_description()).
  std::string stop_reason;
  int replayed = 0;  ///< evaluations answered from the resumed checkpoint (0: fresh start)
};

/// The stop in plain words: `objective_name` names f, the settings give the thresholds.
[[nodiscard]] std::string stop_description(StopReason reason, const Settings& settings, double f);

/// Called after every iteration (the command prints a progress line).
using IterationCallback = std::function<void(const IterationRecord&)>;

/// Runs the optimisation from x0. With settings.resume, the checkpoint must be of this run (its
/// start point x0, as many parameters, the method and learning rate: io::check_resume refuses
/// another first; here a precondition, std::logic_error) and the recorded evaluations are
/// replayed; a replay that leaves the record throws ReplayMismatch. x0 is non-empty and finite
/// (the resolution stage refuses a config with nothing trainable; precondition).
///
/// history[0] is the start point; every further record is an accepted iterate (L-BFGS-B: the
/// point its line search accepted; Adam: the point after the step). Result::x is the best point
/// evaluated (all evaluated points lie within the bounds). With settings.checkpoint, the record
/// is rewritten atomically after every live evaluation and iteration and once at the end,
/// through settings.store (a checkpoint or resume path without a store: std::logic_error).
/// Exceptions thrown by the objective propagate unchanged (the checkpoint keeps everything
/// evaluated before); a missing or unreadable resume file is the store's error (io's: an
/// InputError naming it); a non-finite f or gradient is a NumericalError.
[[nodiscard]] Result minimize(Objective& objective, const RVector& x0, const Settings& settings,
                              const IterationCallback& on_iteration = {});

}  // namespace qevolve::optimize
