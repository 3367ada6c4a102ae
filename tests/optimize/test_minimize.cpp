// optimize::minimize on synthetic objectives with known minima: L-BFGS-B on Rosenbrock (free
// and with an active bound), Adam on a quadratic, the stopping rules, and checkpoint/resume:
// a run resumed from the checkpoint of an interrupted run ends at exactly the point of an
// uninterrupted run (replay makes the iterates identical, so the comparison is exact).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <unistd.h>

#include "qevolve/error.hpp"
#include "qevolve/optimizer.hpp"

namespace qevolve::testing {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// f = (1 - x)^2 + 100 (y - x^2)^2 (+ 1e-9 so that the target test never fires by accident).
class Rosenbrock final : public optimize::Objective {
 public:
  RVector lo = RVector::Constant(2, -kInf), hi = RVector::Constant(2, kInf);
  int evaluations = 0, restores = 0;
  [[nodiscard]] std::vector<std::string> names() const override { return {"x", "y"}; }
  [[nodiscard]] RVector lower() const override { return lo; }
  [[nodiscard]] RVector upper() const override { return hi; }
  double evaluate(const RVector& v, RVector& g, RVector& aux) override {
    ++evaluations;
    const double x = v(0), y = v(1);
    g.resize(2);
    g(0) = -2 * (1 - x) - 400 * x * (y - x * x);
    g(1) = 200 * (y - x * x);
    aux = RVector::Constant(1, static_cast<double>(evaluations));
    return (1 - x) * (1 - x) + 100 * (y - x * x) * (y - x * x) + 1e-9;
  }
  void restore(const RVector& aux) override {
    ++restores;
    EXPECT_EQ(aux.size(), 1);
  }
};

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("qevolve-opt-" + std::to_string(::getpid()) + "-" + name))
      .string();
}

optimize::Settings settings(int iterations) {
  optimize::Settings s;
  s.max_iterations = iterations;
  s.target_infidelity = 0.0;  // never
  return s;
}

TEST(Minimize, LbfgsFindsTheRosenbrockMinimum) {
  Rosenbrock f;
  const auto r = optimize::minimize(f, RVector::Constant(2, -1.2), settings(500));
  EXPECT_NEAR(r.x(0), 1.0, 1e-6);
  EXPECT_NEAR(r.x(1), 1.0, 1e-6);
  EXPECT_GT(r.history.size(), 5U);
  EXPECT_EQ(r.history.front().iteration, 0);
  for (std::size_t k = 1; k < r.history.size(); ++k)  // accepted points only: f decreases
    EXPECT_LE(r.history[k].infidelity, r.history[k - 1].infidelity);
}

TEST(Minimize, LbfgsRespectsAnActiveBound) {
  Rosenbrock f;
  f.hi(0) = 0.5;  // constrained minimum at x = 0.5, y = 0.25
  const auto r = optimize::minimize(f, RVector::Constant(2, -1.2), settings(500));
  EXPECT_LE(r.x(0), 0.5);
  EXPECT_NEAR(r.x(0), 0.5, 1e-9);
  EXPECT_NEAR(r.x(1), 0.25, 1e-6);
}

TEST(Minimize, AdamFindsAQuadraticMinimum) {
  struct Quadratic final : optimize::Objective {
    [[nodiscard]] std::vector<std::string> names() const override { return {"a", "b"}; }
    [[nodiscard]] RVector lower() const override { return RVector::Constant(2, -kInf); }
    [[nodiscard]] RVector upper() const override { return RVector::Constant(2, kInf); }
    double evaluate(const RVector& v, RVector& g, RVector&) override {
      g = 2 * (v - RVector::Constant(2, 0.3));
      return (v - RVector::Constant(2, 0.3)).squaredNorm();
    }
    void restore(const RVector&) override {}
  } q;
  optimize::Settings s = settings(3000);
  s.method = OptimizerMethod::adam;
  s.learning_rate = 0.01;
  s.stall_window = 0;
  const auto r = optimize::minimize(q, RVector::Zero(2), s);
  EXPECT_NEAR(r.x(0), 0.3, 1e-4);
  EXPECT_NEAR(r.x(1), 0.3, 1e-4);
  EXPECT_EQ(r.stop_reason, "max_iterations");
}

TEST(Minimize, StopsAtTargetAndAtMaxIterations) {
  Rosenbrock f;
  optimize::Settings s = settings(500);
  s.target_infidelity = 1e-3;
  const auto r = optimize::minimize(f, RVector::Constant(2, -1.2), s);
  EXPECT_EQ(r.stop_reason, "target reached");
  EXPECT_LT(r.infidelity, 1e-3);
  Rosenbrock g;
  const auto m = optimize::minimize(g, RVector::Constant(2, -1.2), settings(3));
  EXPECT_EQ(m.stop_reason, "max_iterations");
  EXPECT_GT(m.infidelity, 1e-3);
}

TEST(Minimize, ResumeFollowsTheUninterruptedIterates) {
  const std::string ck_full = temp_path("full.h5"), ck_part = temp_path("part.h5");
  Rosenbrock a;
  optimize::Settings s = settings(25);
  s.checkpoint = ck_full;
  const auto full = optimize::minimize(a, RVector::Constant(2, -1.2), s);

  Rosenbrock b;  // interrupted after 5 iterations
  s = settings(5);
  s.checkpoint = ck_part;
  (void)optimize::minimize(b, RVector::Constant(2, -1.2), s);

  Rosenbrock c;  // resumed with the full budget
  s = settings(25);
  s.checkpoint = ck_part;
  s.resume = ck_part;
  const auto resumed = optimize::minimize(c, RVector::Constant(2, -1.2), s);
  EXPECT_EQ(resumed.x(0), full.x(0));
  EXPECT_EQ(resumed.x(1), full.x(1));
  EXPECT_EQ(resumed.history.size(), full.history.size());
  EXPECT_GT(c.restores, 0);                        // replayed evaluations restored their aux
  EXPECT_EQ(c.evaluations + c.restores, a.evaluations);  // and were not recomputed

  // Another start point, a missing file and a file that is not a checkpoint: InputError.
  Rosenbrock d;
  s.resume = ck_full;
  EXPECT_THROW((void)optimize::minimize(d, RVector::Constant(2, 0.0), s), InputError);
  s.resume = temp_path("missing.h5");
  EXPECT_THROW((void)optimize::minimize(d, RVector::Constant(2, -1.2), s), InputError);
  const std::string junk = temp_path("junk.h5");
  std::ofstream(junk) << "not hdf5";
  s.resume = junk;
  EXPECT_THROW((void)optimize::minimize(d, RVector::Constant(2, -1.2), s), InputError);
  for (const auto& p : {ck_full, ck_part, junk}) std::filesystem::remove(p);
}

}  // namespace
}  // namespace qevolve::testing
