// optimize.leakage_weight (issue 21, acceptance 6; docs/optimize.md): the objective
// (1 - F) + w leakage and its adjoint gradient against central finite differences of the same
// objective, closed (vz re-optimised, and trainable angles) and open (Lindblad).
//
// The device is a two-transmon pair with 3 levels each and a weak anharmonicity, driven hard
// and fast, so that leakage (~1e-2 .. 1e-1) is a real part of the objective: w = 5 makes the
// leakage term comparable to 1 - F. Tolerance as test_gradient.cpp (docs/reference.md
// "Gradients"): max(1e-6 |FD|, 1e-9) against a Richardson-extrapolated central difference.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "qevolve/plan.hpp"
#include "qevolve/config_loader.hpp"
#include "qevolve/gradient.hpp"

namespace qevolve::testing {
namespace {

constexpr const char* kPair = R"(
device:
  qubits:
    - {name: q0, type: transmon, ec: 0.12, ej: 12.0, levels: 3, optimize: [ej]}
    - {name: q1, type: transmon, ec: 0.13, ej: 13.0, levels: 3}
  couplings:
    - {qubits: [q0, q1], capacitive: 0.01, optimize: [capacitive]}
pulses:
  - {qubit: q0, shape: gaussian, amplitude: 0.06, frequency: 3.3, phase: 0.2, duration: 8, sigma: 2,
     optimize: [amplitude, frequency, phase, sigma]}
  - {qubit: q1, shape: drag, base: gaussian, amplitude: 0.05, frequency: 3.5, duration: 8, sigma: 2,
     lambda: 0.2, optimize: [amplitude, lambda]}
evolution: {solver: trotter, order: 2, steps: 200, frame: FRAME NOISE}
target:
  gates: [{gate: X, qubits: [q0]}]
  compensation: COMPENSATION
  compensation_trainable: TRAINABLE
)";

constexpr double kWeight = 5.0;

std::string pair_config(const std::string& compensation, bool trainable, bool noise) {
  std::string s = kPair;
  auto put = [&s](const std::string& key, const std::string& value) { s.replace(s.find(key), key.size(), value); };
  put("COMPENSATION", compensation);
  put("TRAINABLE", trainable ? "true" : "false");
  // Open-system gradients of device parameters are computed in the lab frame only.
  put("FRAME", noise ? "lab" : "rotating");
  put(" NOISE", noise ? ", noise: {q0: {t1: 500.0, tphi: 800.0}}" : "");
  return s;
}

/// The weighted objective's adjoint gradient against central differences of the objective.
void expect_weighted_gradient_matches_fd(gradient::GradientProblem& problem, const std::string& label) {
  problem.set_leakage_weight(kWeight);
  const auto names = problem.names();
  const RVector x0 = problem.values();
  const gradient::Evaluation ev = problem.evaluate(true);
  const double leakage = ev.fidelity->leakage;
  EXPECT_GT(leakage, 1e-4) << "the device should leak for the test to mean anything";
  EXPECT_DOUBLE_EQ(ev.objective, ev.infidelity + kWeight * leakage);
  auto f_at = [&](Index i, double v) {
    RVector x = x0;
    x(i) = v;
    problem.set_values(x);
    return problem.evaluate(false).objective;
  };
  double worst = 0.0;
  for (Index i = 0; i < x0.size(); ++i) {
    const double h = 1e-4 * std::max(std::abs(x0(i)), 0.05);
    const double d1 = (f_at(i, x0(i) + h) - f_at(i, x0(i) - h)) / (2 * h);
    const double d2 = (f_at(i, x0(i) + 2 * h) - f_at(i, x0(i) - 2 * h)) / (4 * h);
    const double fd = (4 * d1 - d2) / 3;
    const double tol = std::max(1e-6 * std::abs(fd), 1e-9);
    EXPECT_NEAR(ev.gradient(i), fd, tol) << names[static_cast<std::size_t>(i)];
    worst = std::max(worst, std::abs(ev.gradient(i) - fd) / std::max(std::abs(fd), 1e-3));
  }
  problem.set_values(x0);
  // The weight must matter: the unweighted gradient differs from the weighted one.
  problem.set_leakage_weight(0.0);
  const gradient::Evaluation plain = problem.evaluate(true);
  EXPECT_EQ(plain.objective, plain.infidelity);
  EXPECT_GT((plain.gradient - ev.gradient).norm(), 1e-3 * ev.gradient.norm());
  std::printf("[ leakage_weight ] %s: 1-F = %.4e, leakage = %.4e, worst |adjoint - FD| / max(|FD|, 1e-3) = %.2e\n",
              label.c_str(), ev.infidelity, leakage, worst);
}

TEST(LeakageWeight, ClosedVzReoptimised) {
  const Config config = io::parse_config(pair_config("vz", false, false), "leak.yaml");
  gradient::GradientProblem problem(io::gradient_plan(config), 1);
  expect_weighted_gradient_matches_fd(problem, "closed, vz re-optimised");
}

TEST(LeakageWeight, ClosedTrainableAngles) {
  const Config config = io::parse_config(pair_config("vz", true, false), "leak.yaml");
  gradient::GradientProblem problem(io::gradient_plan(config), 1);
  expect_weighted_gradient_matches_fd(problem, "closed, trainable vz angles");
}

TEST(LeakageWeight, OpenLindblad) {
  const Config config = io::parse_config(pair_config("none", false, true), "leak.yaml");
  gradient::GradientProblem problem(io::gradient_plan(config), 1);
  expect_weighted_gradient_matches_fd(problem, "open (Lindblad)");
}

}  // namespace
}  // namespace qevolve::testing
