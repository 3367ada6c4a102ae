// optimize::minimize: L-BFGS-B (LBFGSpp) or Adam behind one recording objective.
//
// Every evaluation goes through Run::evaluate: while a resumed checkpoint still has recorded
// evaluations it answers from them (checking that the optimiser asks for the recorded point),
// otherwise it evaluates the objective, appends to the record and rewrites the checkpoint
// atomically through the caller's RecordStore (settings.store; io's writes HDF5). The
// optimisers are deterministic functions of the values they are given, so a resumed run
// follows the uninterrupted run's iterates exactly.
//
// Iterations: LBFGSpp has no per-iteration callback, but it takes its line search as a template
// parameter. AcceptingLineSearch runs LBFGSpp's Moré-Thuente search and then reports the point
// it accepted (always its last evaluation) to the Run: that is the end of an iteration
// (history, progress callback, stopping rules). The stopping rules throw Stop, which unwinds
// through LBFGSpp (it holds no state that needs cleaning up); LBFGSpp's own tests are disabled
// so that both methods stop by the same rules.
#include <LBFGSB.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>

#include "qevolve/error.hpp"
#include "qevolve/optimizer.hpp"

namespace qevolve::optimize {
namespace {

using Clock = std::chrono::steady_clock;

/// Thrown by the stopping rules; unwinds through the optimiser. Not a std::exception, so that
/// nothing in between mistakes it for an error.
struct Stop {
  StopReason reason;
};

/// One optimisation: replay, live evaluations, history, stopping rules and the checkpoint.
class Run {
 public:
  Run(Objective& objective, const RVector& x0, const Settings& settings,
      const IterationCallback& callback)
      : objective_(objective),
        settings_(settings),
        callback_(callback),
        lower_(objective.lower()),
        upper_(objective.upper()),
        start_(Clock::now()) {
    const Index n = x0.size();
    if (lower_.size() != n || upper_.size() != n)
      throw Error("optimize: the objective's bounds do not have " + std::to_string(n) + " entries");
    if ((lower_.array() > upper_.array()).any())
      throw Error("optimize: a lower bound is above its upper bound");
    precondition(x0.allFinite(), "optimize::minimize", "optimize", "a start point that is not finite");
    record_.x0 = x0;
    record_.names = objective.names();
    record_.settings = settings;
    record_.settings.checkpoint.clear();
    record_.settings.resume.clear();
    record_.settings.store = nullptr;
    if (!settings.resume.empty()) open_replay();
  }

  [[nodiscard]] const RVector& lower() const { return lower_; }
  [[nodiscard]] const RVector& upper() const { return upper_; }
  [[nodiscard]] RVector clamp(const RVector& x) const {
    return x.cwiseMax(lower_).cwiseMin(upper_);
  }

  /// One evaluation at clamp(x) (replayed or live): f, and the gradient in g. The first one is
  /// iteration 0. Throws Stop when f is below the target.
  double evaluate(const RVector& x_in, RVector& g) {
    const RVector x = clamp(x_in);
    const std::size_t k = record_.evaluations.size();
    const EvaluationRecord* e = nullptr;
    if (replay_ && k < replay_->evaluations.size()) {
      e = &replay_->evaluations[k];
      const int at = static_cast<int>(k);
      if (!same_point(x, e->x)) throw ReplayMismatch(ReplayMismatch::Kind::point, at);
      if (e->gradient.size() != x.size()) throw ReplayMismatch(ReplayMismatch::Kind::gradient_length, at);
      if (k == 0) {
        // The points alone do not identify the objective (another --steps asks for the same
        // start point): evaluate the start point once more and compare with the record.
        RVector g0, aux0;
        const double f0 = objective_.evaluate(x, g0, aux0);
        if (!(std::abs(f0 - e->f) <= 1e-9 * std::max(std::abs(e->f), 1e-300)))
          throw ReplayMismatch(ReplayMismatch::Kind::start_objective, at, f0, e->f);
      }
      objective_.restore(e->aux);
      record_.evaluations.push_back(*e);
      ++replayed_;
    } else {
      go_live();
      EvaluationRecord live;
      live.x = x;
      live.f = objective_.evaluate(x, live.gradient, live.aux);
      if (live.gradient.size() != x.size())
        throw Error("optimize: the objective returned a gradient of length " +
                    std::to_string(live.gradient.size()) + " for " + std::to_string(x.size()) +
                    " parameters");
      if (!std::isfinite(live.f) || !live.gradient.allFinite())
        throw NumericalError(
            "optimize: the objective or its gradient is not finite at evaluation " +
            std::to_string(k));
      record_.evaluations.push_back(std::move(live));
      save();
    }
    const EvaluationRecord& last = record_.evaluations.back();
    if (last.f < best_f_) {
      best_f_ = last.f;
      best_x_ = last.x;
    }
    g = last.gradient;
    if (k == 0) {
      iteration();  // the start point
    } else if (last.f < settings_.target_infidelity) {
      iteration();  // the final iterate, wherever the optimiser was
    }
    return last.f;
  }

  /// Ends an iteration at the last evaluated point: history, progress, checkpoint, stopping
  /// rules (which throw Stop).
  void iteration() {
    const EvaluationRecord& e = record_.evaluations.back();
    IterationRecord it;
    it.iteration = static_cast<int>(history_.size());
    it.objective = e.f;
    it.gradient_norm = e.gradient.norm();
    it.step = history_.empty() ? 0.0 : (e.x - prev_x_).norm();
    it.wall_time_s = elapsed(static_cast<std::size_t>(it.iteration));
    it.aux = e.aux;
    prev_x_ = e.x;
    history_.push_back(it);
    best_history_.push_back(history_.size() > 1 ? std::min(best_history_.back(), e.f) : e.f);
    record_.history = history_;
    if (live_) save();
    if (callback_) callback_(it);

    if (e.f < settings_.target_infidelity) throw Stop{StopReason::target};
    const double pg = (clamp(e.x - e.gradient) - e.x).cwiseAbs().maxCoeff();
    if (pg <= settings_.gradient_tolerance) throw Stop{StopReason::gradient};
    if (it.iteration >= settings_.max_iterations) throw Stop{StopReason::max_iterations};
    const auto w = static_cast<std::size_t>(std::max(settings_.stall_window, 0));
    if (w > 0 && best_history_.size() > w) {
      const double old = best_history_[best_history_.size() - 1 - w];
      const double now = best_history_.back();
      if (old - now <= settings_.stall_tolerance * std::abs(old)) throw Stop{StopReason::stalled};
    }
  }

  /// Marks an exception from the objective, the replay or the checkpoint: the LBFGSpp driver
  /// must let it through instead of reporting it as a failed line search.
  void mark_failed() { failed_ = true; }
  [[nodiscard]] bool failed() const { return failed_; }

  [[nodiscard]] Result finish(StopReason reason) {
    record_.stop_reason = stop_description(reason, settings_, best_f_);
    // The final record. A run that ended inside the replay has nothing new: it leaves the
    // resumed file alone, but still writes a separate checkpoint file.
    if (!settings_.checkpoint.empty() &&
        (live_ || !same_file(settings_.checkpoint, settings_.resume)))
      settings_.store->write(settings_.checkpoint, record_);
    Result r;
    r.x = best_x_;
    r.objective = best_f_;
    r.history = history_;
    r.evaluations = static_cast<int>(record_.evaluations.size());
    r.stop = reason;
    r.stop_reason = record_.stop_reason;
    r.replayed = replayed_;
    return r;
  }

 private:
  /// Reads the checkpoint to resume from; the caller has refused one of another run
  /// (io::check_resume: parameters, start point, method, learning rate).
  void open_replay() {
    replay_ = settings_.store->read(settings_.resume);
    const Record& r = *replay_;
    const bool same_run = same_point(record_.x0, r.x0) && r.settings.method == settings_.method &&
                          (settings_.method != OptimizerMethod::adam ||
                           r.settings.learning_rate == settings_.learning_rate);
    precondition(same_run, "optimize::minimize", "--resume", "a checkpoint of another run");
  }

  /// Called before the first live evaluation: the clock continues from the replayed history.
  void go_live() {
    if (live_) return;
    live_ = true;
    if (replay_ && !history_.empty()) {
      clock_offset_ = history_.back().wall_time_s;
      start_ = Clock::now();
    }
  }

  /// Elapsed time of iteration i: the recorded one while replaying, else live.
  [[nodiscard]] double elapsed(std::size_t i) const {
    if (!live_ && replay_ && i < replay_->history.size()) return replay_->history[i].wall_time_s;
    return clock_offset_ + std::chrono::duration<double>(Clock::now() - start_).count();
  }

  void save() const {
    if (!settings_.checkpoint.empty()) settings_.store->write(settings_.checkpoint, record_);
  }

  static bool same_file(const std::string& a, const std::string& b) {
    if (b.empty()) return false;
    std::error_code ec;
    return a == b || std::filesystem::equivalent(a, b, ec);
  }

  Objective& objective_;
  const Settings& settings_;
  const IterationCallback& callback_;
  RVector lower_, upper_;
  Clock::time_point start_;
  double clock_offset_ = 0.0;
  Record record_;
  std::optional<Record> replay_;
  bool live_ = false;
  bool failed_ = false;
  int replayed_ = 0;
  double best_f_ = std::numeric_limits<double>::infinity();
  RVector best_x_;
  RVector prev_x_;
  std::vector<IterationRecord> history_;
  std::vector<double> best_history_;  ///< best f up to each iteration (stall test)
};

/// The function object LBFGSpp calls: f(x, grad). Exceptions other than Stop are marked, so
/// that the driver can tell them from LBFGSpp's own line-search errors.
class LbfgsFunction {
 public:
  explicit LbfgsFunction(Run& run) : run_(run) {}
  double operator()(const RVector& x, RVector& grad) {
    double f = 0.0;
    try {
      f = run_.evaluate(x, grad);
    } catch (const Stop&) {
      throw;
    } catch (...) {
      run_.mark_failed();
      throw;
    }
    note_trial(f);
    return f;
  }
  void accepted() {
    try {
      run_.iteration();
    } catch (const Stop&) {
      throw;
    } catch (...) {
      run_.mark_failed();
      throw;
    }
    start_f_ = last_f_;
    flat_trials_ = 0;
  }

 private:
  /// At the bottom of a flat minimum the line search's trial points differ from the iterate
  /// by f's rounding only (1 - F near 1e-5 moves by ~1e-16 there); Moré-Thuente would shrink
  /// the step up to max_linesearch times (on cnot_cr_pair: 40 evaluations, 57 % of the run,
  /// silent). kFlatTrials trials in a row within kFlatRounding of the iterate's f end it as a
  /// failed line search, the best point the answer. Evaluations replay identically on resume.
  static constexpr double kFlatRounding = 64 * std::numeric_limits<double>::epsilon();
  static constexpr int kFlatTrials = 5;
  void note_trial(double f) {
    last_f_ = f;
    if (!has_start_) {  // the start point
      has_start_ = true;
      start_f_ = f;
      return;
    }
    if (std::abs(f - start_f_) > kFlatRounding * std::max(1.0, std::abs(start_f_))) {
      flat_trials_ = 0;
    } else if (++flat_trials_ >= kFlatTrials) {
      throw Stop{StopReason::line_search};
    }
  }

  Run& run_;
  bool has_start_ = false;
  double start_f_ = 0.0, last_f_ = 0.0;
  int flat_trials_ = 0;
};

/// LBFGSpp's Moré-Thuente line search, then the end of the iteration. The search returns the
/// point it evaluated last, which is the last entry of the record.
template <class Scalar>
class AcceptingLineSearch {
  using Vector = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;

 public:
  template <typename Foo>
  static void LineSearch(Foo& f, Scalar& fx, Vector& x, Vector& grad, Scalar& step,
                         const Scalar& step_max, const Vector& drt, const Vector& xp,
                         const LBFGSpp::LBFGSBParam<Scalar>& param) {
    LBFGSpp::LineSearchMoreThuente<Scalar>::LineSearch(f, fx, x, grad, step, step_max, drt, xp,
                                                       param);
    f.accepted();
  }
};

StopReason run_lbfgs(Run& run, const RVector& x0) {
  LBFGSpp::LBFGSBParam<double> param;
  param.max_iterations = 0;  // Run's rules decide: target, gradient, max_iterations, stall
  param.epsilon = 0.0;
  param.epsilon_rel = 0.0;
  param.past = 0;  // LBFGSpp's absolute f-decrease test would stop at small 1 - F
  param.max_linesearch = 40;
  LBFGSpp::LBFGSBSolver<double, AcceptingLineSearch> solver(param);
  LbfgsFunction f(run);
  RVector x = x0;
  double fx = 0.0;
  try {
    (void)solver.minimize(f, x, fx, run.lower(), run.upper());
  } catch (const Stop& stop) {
    return stop.reason;
  } catch (const std::runtime_error&) {
    // LBFGSpp reports a line search that cannot decrease f as std::runtime_error: the best
    // point so far is the answer. qevolve's own errors are runtime_errors too: let them through.
    if (run.failed()) throw;
    return StopReason::line_search;
  } catch (const std::logic_error&) {
    // ... and a direction along which f does not decrease (rounding) as std::logic_error.
    if (run.failed()) throw;
    return StopReason::line_search;
  }
  // Only reached when the projected gradient is exactly 0 at the start point.
  return StopReason::gradient;
}

StopReason run_adam(Run& run, const RVector& x0, const Settings& s) {
  constexpr double kBeta1 = 0.9, kBeta2 = 0.999, kEps = 1e-12;
  RVector x = run.clamp(x0);
  RVector m = RVector::Zero(x.size()), v = RVector::Zero(x.size()), g;
  try {
    (void)run.evaluate(x, g);
    for (int t = 1;; ++t) {
      m = kBeta1 * m + (1 - kBeta1) * g;
      v = kBeta2 * v + (1 - kBeta2) * g.cwiseProduct(g);
      const RVector mh = m / (1 - std::pow(kBeta1, t));
      const RVector vh = v / (1 - std::pow(kBeta2, t));
      x = run.clamp(x -
                    s.learning_rate * mh.cwiseQuotient((vh.cwiseSqrt().array() + kEps).matrix()));
      (void)run.evaluate(x, g);
      run.iteration();
    }
  } catch (const Stop& stop) {
    return stop.reason;
  }
}

}  // namespace

std::string stop_description(StopReason reason, const Settings& s, double f) {
  char line[300];
  const char* name = s.objective_name.c_str();
  switch (reason) {
    case StopReason::target:
      std::snprintf(line, sizeof line, "target reached: %s = %.3e is below target_infidelity = %.3e", name, f,
                    s.target_infidelity);
      break;
    case StopReason::gradient:
      std::snprintf(line, sizeof line, "converged: the projected gradient is zero (at most %.0e)",
                    s.gradient_tolerance);
      break;
    case StopReason::max_iterations:
      std::snprintf(line, sizeof line, "max_iterations: %d iterations done (optimize.max_iterations)",
                    s.max_iterations);
      break;
    case StopReason::stalled:
      std::snprintf(line, sizeof line, "stalled: %s improved by less than %.0e (relative) over the last %d iterations",
                    name, s.stall_tolerance, s.stall_window);
      break;
    case StopReason::line_search:
      std::snprintf(line, sizeof line, "converged: %s no longer decreases along the search direction", name);
      break;
  }
  return line;
}

bool same_point(const RVector& a, const RVector& b) {
  if (a.size() != b.size()) return false;
  if (a.size() == 0) return true;
  return (a - b).norm() <= 1e-12 * std::max(1.0, b.norm());
}

ReplayMismatch::ReplayMismatch(Kind kind_, int evaluation_, double now_, double recorded_)
    : Error("optimize: the resumed checkpoint leaves its record at evaluation " + std::to_string(evaluation_)),
      kind(kind_),
      evaluation(evaluation_),
      now(now_),
      recorded(recorded_) {}

Result minimize(Objective& objective, const RVector& x0, const Settings& settings,
                const IterationCallback& on_iteration) {
  precondition(settings.checkpoint.empty() || settings.store != nullptr, "optimize::minimize",
               "optimize.checkpoint", "a checkpoint path without a RecordStore (settings.store)");
  precondition(settings.resume.empty() || settings.store != nullptr, "optimize::minimize", "--resume",
               "a checkpoint to resume without a RecordStore (settings.store)");
  precondition(x0.size() > 0, "optimize::minimize", "pulses", "nothing to optimise: no trainable parameter");
  Run run(objective, x0, settings, on_iteration);
  const StopReason reason =
      settings.method == OptimizerMethod::adam ? run_adam(run, x0, settings) : run_lbfgs(run, x0);
  return run.finish(reason);
}

}  // namespace qevolve::optimize
