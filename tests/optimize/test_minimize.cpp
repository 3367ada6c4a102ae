// optimize::minimize on synthetic objectives with known minima: L-BFGS-B on Rosenbrock (free
// and with an active bound), Adam on a quadratic (free and with a bound), the stopping rules,
// a failed line search, errors of the objective, and the history and callback.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "optimize_testing.hpp"
#include "qevolve/error.hpp"
#include "qevolve/optimizer.hpp"

namespace qevolve::testing {
namespace {


TEST(Minimize, LbfgsFindsTheRosenbrockMinimum) {
  Rosenbrock f;
  const auto r = optimize::minimize(f, start(), settings(500));
  EXPECT_NEAR(r.x(0), 1.0, 1e-6);
  EXPECT_NEAR(r.x(1), 1.0, 1e-6);
  EXPECT_NEAR(r.objective, 1e-9, 1e-12);
  EXPECT_NE(r.stop, optimize::StopReason::max_iterations);
  EXPECT_GT(r.history.size(), 10U);
  EXPECT_LT(r.history.size(), 200U);
  EXPECT_EQ(r.evaluations, f.evaluations);
  EXPECT_EQ(r.replayed, 0);
  for (std::size_t k = 1; k < r.history.size(); ++k)  // accepted points only: f decreases
    EXPECT_LE(r.history[k].objective, r.history[k - 1].objective) << "iteration " << k;
}

TEST(Minimize, LbfgsRespectsAnActiveBound) {
  Rosenbrock f;
  f.hi(0) = 0.5;  // constrained minimum at x = 0.5, y = 0.25
  const auto r = optimize::minimize(f, start(), settings(500));
  EXPECT_LE(r.x(0), 0.5);
  EXPECT_NEAR(r.x(0), 0.5, 1e-12);
  EXPECT_NEAR(r.x(1), 0.25, 1e-6);
  EXPECT_LE(f.max_x, 0.5);  // no evaluation outside the box either
}

TEST(Minimize, LbfgsProjectsAStartPointOutsideTheBounds) {
  Rosenbrock f;
  f.lo(0) = -1.0;
  const auto r = optimize::minimize(f, start(), settings(500));
  EXPECT_GE(f.min_x, -1.0);
  EXPECT_NEAR(r.x(0), 1.0, 1e-6);
}

TEST(Minimize, LbfgsConvergesExactlyOnAQuadratic) {
  Quadratic q;
  const auto r = optimize::minimize(q, RVector::Zero(2), settings(100));
  EXPECT_EQ(r.stop, optimize::StopReason::gradient);
  EXPECT_NEAR(r.x(0), 0.3, 1e-12);
  EXPECT_NEAR(r.x(1), -0.7, 1e-12);
  EXPECT_LT(r.history.size(), 10U);
}

TEST(Minimize, AdamFindsAQuadraticMinimum) {
  Quadratic q;
  optimize::Settings s = settings(3000);
  s.method = OptimizerMethod::adam;
  s.learning_rate = 0.01;
  s.stall_window = 0;
  const auto r = optimize::minimize(q, RVector::Zero(2), s);
  // Adam lands on the minimum to rounding: its projected gradient test stops it.
  EXPECT_EQ(r.stop, optimize::StopReason::gradient);
  EXPECT_NEAR(r.x(0), 0.3, 1e-12);
  EXPECT_NEAR(r.x(1), -0.7, 1e-12);
  EXPECT_GT(r.history.size(), 100U);
  EXPECT_EQ(r.evaluations, static_cast<int>(r.history.size()));  // one evaluation per step
}

TEST(Minimize, AdamProjectsOntoTheBounds) {
  Quadratic q;
  q.lo(1) = -0.5;  // the minimum -0.7 is outside: the answer is the bound
  optimize::Settings s = settings(2000);
  s.method = OptimizerMethod::adam;
  s.learning_rate = 0.01;
  s.stall_window = 0;
  const auto r = optimize::minimize(q, RVector::Zero(2), s);
  EXPECT_NEAR(r.x(0), 0.3, 1e-4);
  EXPECT_EQ(r.x(1), -0.5);
  EXPECT_GE(q.min_y, -0.5);
}

TEST(Minimize, StopsAtTheTarget) {
  for (const auto method : {OptimizerMethod::lbfgs, OptimizerMethod::adam}) {
    Rosenbrock f;
    optimize::Settings s = settings(5000);
    s.method = method;
    s.learning_rate = 0.05;
    s.target_infidelity = 1e-2;
    const auto r = optimize::minimize(f, start(), s);
    EXPECT_EQ(r.stop, optimize::StopReason::target);
    EXPECT_LT(r.objective, 1e-2);
    // The run stops at the first evaluation below the target, and that is the last record.
    EXPECT_EQ(r.history.back().objective, r.objective);
    EXPECT_EQ(f.values.back(), r.objective);
    for (std::size_t k = 0; k + 1 < f.values.size(); ++k) EXPECT_GE(f.values[k], 1e-2);
  }
}

TEST(Minimize, StopsAtMaxIterations) {
  for (const auto method : {OptimizerMethod::lbfgs, OptimizerMethod::adam}) {
    Rosenbrock f;
    optimize::Settings s = settings(7);
    s.method = method;
    const auto r = optimize::minimize(f, start(), s);
    EXPECT_EQ(r.stop, optimize::StopReason::max_iterations);
    ASSERT_EQ(r.history.size(), 8U);  // iteration 0 (the start point) and 7 iterations
    EXPECT_EQ(r.history.back().iteration, 7);
  }
  Rosenbrock f;
  const auto r = optimize::minimize(f, start(), settings(0));
  EXPECT_EQ(r.stop, optimize::StopReason::max_iterations);
  EXPECT_EQ(r.history.size(), 1U);
  EXPECT_EQ(f.evaluations, 1);
}

TEST(Minimize, StopsWhenStalled) {
  // A flat objective: the best f does not improve, so the run stops after stall_window
  // iterations.
  struct Flat final : Quadratic {
    double evaluate(const RVector& v, RVector& g, RVector& aux) override {
      (void)Quadratic::evaluate(v, g, aux);
      return 1.0;
    }
  } flat;
  optimize::Settings s = settings(100);
  s.method = OptimizerMethod::adam;
  s.stall_window = 5;
  const auto r = optimize::minimize(flat, RVector::Zero(2), s);
  EXPECT_EQ(r.stop, optimize::StopReason::stalled);
  EXPECT_EQ(r.history.size(), 6U);

  // L-BFGS-B on Rosenbrock with a loose stall test: stops early, and only when the relative
  // decrease over the window is below the tolerance.
  Rosenbrock f;
  s = settings(500);
  s.stall_window = 3;
  s.stall_tolerance = 0.2;
  const auto l = optimize::minimize(f, start(), s);
  EXPECT_EQ(l.stop, optimize::StopReason::stalled);
  const std::size_t n = l.history.size();
  ASSERT_GT(n, 4U);
  const double old = l.history[n - 4].objective, now = l.history[n - 1].objective;
  EXPECT_LE(old - now, 0.2 * old);
  EXPECT_GT(now, 1e-6);  // far from the minimum: it was the stall test that stopped it
}

TEST(Minimize, AFailedLineSearchIsAStopReasonAndTheBestPointIsReturned) {
  // The gradient has the wrong sign: the line search cannot decrease f along -g.
  struct Wrong final : Quadratic {
    double evaluate(const RVector& v, RVector& g, RVector& aux) override {
      const double f = Quadratic::evaluate(v, g, aux);
      g = -g;
      return f;
    }
  } q;
  const RVector x0 = RVector::Zero(2);
  const auto r = optimize::minimize(q, x0, settings(100));
  EXPECT_EQ(r.stop, optimize::StopReason::line_search) << r.stop_reason;
  EXPECT_EQ(r.stop_reason, "converged: f no longer decreases along the search direction");
  EXPECT_EQ(r.x, x0);
  EXPECT_GT(r.evaluations, 1);
}

TEST(Minimize, ALineSearchThatOnlySeesRoundingEndsAfterFiveTrials) {
  // At a flat minimum f changes by rounding only while the gradient still points somewhere:
  // here f is constant, so every trial step returns the start value (within 64 eps) and the
  // search cannot decrease it.
  struct Flat final : Quadratic {
    double evaluate(const RVector& v, RVector& g, RVector& aux) override {
      (void)Quadratic::evaluate(v, g, aux);
      g = RVector::Constant(v.size(), 1e-3);  // a direction to search along
      return 1e-5;
    }
  } q;
  const RVector x0 = RVector::Zero(2);
  const auto r = optimize::minimize(q, x0, settings(100));
  EXPECT_EQ(r.stop, optimize::StopReason::line_search) << r.stop_reason;
  EXPECT_EQ(r.x, x0);
  EXPECT_EQ(r.evaluations, 1 + 5);  // the start point and five flat trials (40 allowed)
}

TEST(Minimize, ErrorsOfTheObjectivePropagate) {
  struct Throwing final : Rosenbrock {
    int fail_at = 4;
    bool nan = false;
    double evaluate(const RVector& v, RVector& g, RVector& aux) override {
      const double f = Rosenbrock::evaluate(v, g, aux);
      if (evaluations == fail_at) {
        if (nan) return std::numeric_limits<double>::quiet_NaN();
        throw std::runtime_error("simulated failure");  // not a line-search failure
      }
      return f;
    }
  };
  for (const auto method : {OptimizerMethod::lbfgs, OptimizerMethod::adam}) {
    optimize::Settings s = settings(100);
    s.method = method;
    Throwing a;
    EXPECT_THROW((void)optimize::minimize(a, start(), s), std::runtime_error);
    Throwing b;
    b.nan = true;
    EXPECT_THROW((void)optimize::minimize(b, start(), s), NumericalError);
  }
  Quadratic q;
  EXPECT_THROW((void)optimize::minimize(q, RVector(), settings(10)), std::logic_error);  // the stage refuses it
}

TEST(Minimize, HistoryAndCallback) {
  Rosenbrock f;
  std::vector<optimize::IterationRecord> seen;
  const auto r = optimize::minimize(
      f, start(), settings(20), [&](const optimize::IterationRecord& it) { seen.push_back(it); });
  ASSERT_EQ(seen.size(), r.history.size());
  ASSERT_EQ(r.history.size(), 21U);
  double previous_time = 0.0;
  for (std::size_t k = 0; k < seen.size(); ++k) {
    EXPECT_EQ(seen[k].iteration, static_cast<int>(k));
    EXPECT_EQ(seen[k].objective, r.history[k].objective);
    EXPECT_GE(seen[k].wall_time_s, previous_time);
    previous_time = seen[k].wall_time_s;
  }
  EXPECT_EQ(r.history[0].step, 0.0);
  EXPECT_EQ(r.history[0].objective, f.values.front());  // iteration 0 is the start point
  // Each record's step and |grad| belong to an evaluated point: the accepted iterates.
  for (std::size_t k = 1; k < r.history.size(); ++k) {
    EXPECT_GT(r.history[k].step, 0.0);
    EXPECT_GT(r.history[k].gradient_norm, 0.0);
    bool found = false;
    for (double v : f.values) found = found || v == r.history[k].objective;
    EXPECT_TRUE(found) << "iteration " << k;
  }
}

}  // namespace
}  // namespace qevolve::testing
