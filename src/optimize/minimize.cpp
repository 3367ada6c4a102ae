// optimize::minimize: L-BFGS-B (LBFGSpp) or Adam behind one recording objective.
//
// Every evaluation goes through Recorder: it answers from the checkpoint's record while
// replaying (resume), otherwise evaluates the objective, appends to the record and rewrites the
// checkpoint atomically. Because the optimisers are deterministic functions of the values they
// are given, a resumed run follows the uninterrupted run's iterates exactly.
//
// Iterations: LBFGSpp has no per-iteration callback. Its line search evaluates trial points
// x_k + t d_k on one ray; an evaluation that leaves the current ray starts a new iteration, so
// the previous evaluation was the accepted point x_{k+1}. Recorder detects that and emits the
// iteration record (progress line, /history, stall test).
#include <LBFGSB.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "qevolve/error.hpp"
#include "qevolve/optimizer.hpp"
#include "record.hpp"

namespace qevolve::optimize {
namespace {

using Clock = std::chrono::steady_clock;

/// Thrown through LBFGSpp to stop it (target reached, stalled).
struct Stop {
  std::string reason;
};

class Recorder {
 public:
  Recorder(Objective& objective, const RVector& x0, const Settings& settings,
           const IterationCallback& callback)
      : objective_(objective), settings_(settings), callback_(callback), start_(Clock::now()) {
    record_.x0 = x0;
    if (!settings.resume.empty()) {
      replay_ = read_record(settings.resume);
      if (replay_->x0.size() != x0.size() ||
          (replay_->x0 - x0).cwiseAbs().maxCoeff() > 1e-12 * std::max(1.0, x0.cwiseAbs().maxCoeff()))
        throw InputError(settings.resume +
                         ": checkpoint does not match this configuration (different start point)");
    }
  }

  /// One evaluation (replayed or live). Returns f and fills g.
  double operator()(const RVector& x, RVector& g) {
    double f = 0.0;
    const std::size_t k = record_.evaluations.size();
    if (replay_ && k < replay_->evaluations.size()) {
      const EvaluationRecord& e = replay_->evaluations[k];
      if (e.x.size() != x.size() ||
          (e.x - x).cwiseAbs().maxCoeff() > 1e-12 * std::max(1.0, x.cwiseAbs().maxCoeff()))
        throw InputError(settings_.resume +
                         ": checkpoint does not match this configuration (evaluation " +
                         std::to_string(k) + " is at a different point)");
      objective_.restore(e.aux);
      record_.evaluations.push_back(e);
      f = e.f;
      g = e.gradient;
    } else {
      EvaluationRecord e;
      e.x = x;
      e.f = objective_.evaluate(x, e.gradient, e.aux);
      if (!std::isfinite(e.f) || !e.gradient.allFinite())
        throw NumericalError("the objective or its gradient is not finite at evaluation " +
                             std::to_string(k));
      f = e.f;
      g = e.gradient;
      record_.evaluations.push_back(std::move(e));
      if (!settings_.checkpoint.empty()) write_record(settings_.checkpoint, record_);
    }
    if (f < best_f_) {
      best_f_ = f;
      best_x_ = x;
    }
    track(x, f, g);
    if (f < settings_.target_infidelity) {
      if (!detect_iterations) emit(x, f, g, false);
      throw Stop{"target reached"};
    }
    return f;
  }

  /// Adam (and other explicit-iteration methods) mark iteration ends themselves.
  void end_iteration(const RVector& x, double f, const RVector& g) { emit(x, f, g, true); }

  /// The accepted point of the last (unfinished) L-BFGS iteration, at the end of the run.
  void flush() {
    if (pending_) emit(last_x_, last_f_, last_g_, false);
    pending_ = false;
  }

  [[nodiscard]] Result result(std::string reason) {
    Result r;
    r.x = best_x_;
    r.infidelity = best_f_;
    r.history = history_;
    r.evaluations = static_cast<int>(record_.evaluations.size());
    r.stop_reason = std::move(reason);
    return r;
  }
  [[nodiscard]] int iterations() const { return static_cast<int>(history_.size()) - 1; }
  bool detect_iterations = true;

 private:
  /// Ray bookkeeping for L-BFGS iteration detection.
  void track(const RVector& x, double f, const RVector& g) {
    if (!detect_iterations) return;
    if (history_.empty()) {  // the start point is iteration 0
      base_ = x;
      emit(x, f, g, true);
      return;
    }
    if (pending_) {
      const RVector a = last_x_ - base_, b = x - base_;
      const double na = a.norm(), nb = b.norm();
      const bool same_ray = na > 0.0 && nb > 0.0 && a.dot(b) >= (1.0 - 1e-9) * na * nb;
      if (!same_ray) {
        base_ = last_x_;
        pending_ = false;
        emit(last_x_, last_f_, last_g_, true);
      }
    }
    pending_ = true;
    last_x_ = x;
    last_f_ = f;
    last_g_ = g;
  }

  void emit(const RVector& x, double f, const RVector& g, bool check_stall) {
    IterationRecord it;
    it.iteration = static_cast<int>(history_.size());
    it.infidelity = f;
    it.gradient_norm = g.norm();
    it.step = history_.empty() ? 0.0 : (x - prev_x_).norm();
    it.wall_time_s = std::chrono::duration<double>(Clock::now() - start_).count();
    prev_x_ = x;
    history_.push_back(it);
    if (callback_) callback_(it);
    // Stalled: relative decrease over the last stall_window iterations below tolerance.
    const auto w = static_cast<std::size_t>(settings_.stall_window);
    if (check_stall && w > 0 && history_.size() > w) {
      const double old = history_[history_.size() - 1 - w].infidelity;
      if (old - f <= settings_.stall_tolerance * std::max(std::abs(old), 1e-300)) throw Stop{"stalled"};
    }
  }

  Objective& objective_;
  const Settings& settings_;
  const IterationCallback& callback_;
  Clock::time_point start_;
  Record record_;
  std::optional<Record> replay_;
  double best_f_ = std::numeric_limits<double>::infinity();
  RVector best_x_;
  std::vector<IterationRecord> history_;
  RVector prev_x_, base_, last_x_, last_g_;
  double last_f_ = 0.0;
  bool pending_ = false;
};

Result run_lbfgs(Recorder& rec, Objective& objective, const RVector& x0, const Settings& s) {
  LBFGSpp::LBFGSBParam<double> param;
  param.max_iterations = s.max_iterations;
  param.epsilon = 1e-12;  // the gradient test rarely decides: target / stall / max_iterations do
  param.epsilon_rel = 0.0;
  param.past = 0;  // LBFGSpp's absolute f-decrease test (1e-10) would stop at small 1 - F; the
                   // relative stall test of Settings does that job
  param.max_linesearch = 40;
  LBFGSpp::LBFGSBSolver<double> solver(param);
  RVector x = x0;
  const RVector lb = objective.lower(), ub = objective.upper();
  double fx = 0.0;
  std::string reason = "converged (projected gradient)";
  try {
    const int k = solver.minimize(rec, x, fx, lb, ub);
    if (k >= s.max_iterations) reason = "max_iterations";
  } catch (const Stop& stop) {
    reason = stop.reason;
  } catch (const std::runtime_error& e) {
    // LBFGSpp reports a failed line search (no decrease along the direction, usually at the
    // limit of floating-point resolution) as runtime_error: the best point so far is the answer.
    reason = std::string("line search ended: ") + e.what();
  }
  rec.flush();
  return rec.result(reason);
}

Result run_adam(Recorder& rec, Objective& objective, const RVector& x0, const Settings& s) {
  rec.detect_iterations = false;
  constexpr double kBeta1 = 0.9, kBeta2 = 0.999, kEps = 1e-12;
  const RVector lb = objective.lower(), ub = objective.upper();
  RVector x = x0.cwiseMax(lb).cwiseMin(ub);
  RVector m = RVector::Zero(x.size()), v = RVector::Zero(x.size()), g;
  std::string reason = "max_iterations";
  try {
    double f = rec(x, g);
    rec.end_iteration(x, f, g);
    for (int t = 1; t <= s.max_iterations; ++t) {
      m = kBeta1 * m + (1 - kBeta1) * g;
      v = kBeta2 * v + (1 - kBeta2) * g.cwiseProduct(g);
      const RVector mh = m / (1 - std::pow(kBeta1, t));
      const RVector vh = v / (1 - std::pow(kBeta2, t));
      x = (x - s.learning_rate * mh.cwiseQuotient((vh.cwiseSqrt().array() + kEps).matrix()))
              .cwiseMax(lb)
              .cwiseMin(ub);
      f = rec(x, g);
      rec.end_iteration(x, f, g);
    }
  } catch (const Stop& stop) {
    reason = stop.reason;
  }
  return rec.result(reason);
}

}  // namespace

Result minimize(Objective& objective, const RVector& x0, const Settings& settings,
                const IterationCallback& on_iteration) {
  if (x0.size() == 0) throw InputError("nothing to optimise: no trainable parameter");
  Recorder rec(objective, x0, settings, on_iteration);
  return settings.method == OptimizerMethod::adam ? run_adam(rec, objective, x0, settings)
                                                  : run_lbfgs(rec, objective, x0, settings);
}

}  // namespace qevolve::optimize
