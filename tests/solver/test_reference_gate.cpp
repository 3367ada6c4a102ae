// docs/reference.md: the single-fluxonium X gate with the expm and adaptive solvers.
#include <gtest/gtest.h>

#include <cstdio>

#include "qevolve/plan.hpp"
#include "qevolve/resolve.hpp"
#include "qevolve/simulator.hpp"
#include "solver_fixtures.hpp"

namespace qevolve::solver {
namespace {

double infidelity(const Config& c) {
  Simulator sim(io::evolution_plan(c), 2);
  const CMatrix cols = sim.evolve().columns;
  const auto comp = sim.device().computational_indices();
  CMatrix U(2, 2);
  for (int r = 0; r < 2; ++r)
    for (int k = 0; k < 2; ++k) U(r, k) = cols(comp[static_cast<std::size_t>(r)], k);
  CMatrix X(2, 2);
  X << 0, 1, 1, 0;
  return 1.0 - testing::gate_fidelity(U, X);
}

TEST(ReferenceGate, ExpmMidpointRule) {
  // docs/reference.md: 1 - F = 1.0059e-5 at 1279 steps and 5.979e-5 at 5000 steps. The acceptance is
  // 3 significant digits: relative 5e-4 (half a unit of the third digit).
  const double e1279 = infidelity(testing::single_fluxonium_x(Solver::expm, 1279));
  const double e5000 = infidelity(testing::single_fluxonium_x(Solver::expm, 5000));
  std::printf("expm: 1-F = %.6e (1279 steps), %.6e (5000 steps)\n", e1279, e5000);
  EXPECT_NEAR(e1279, 1.0059e-5, 5e-4 * 1.0059e-5);
  EXPECT_NEAR(e5000, 5.979e-5, 5e-4 * 5.979e-5);
}

TEST(ReferenceGate, AdaptiveAtTightTolerance) {
  // docs/reference.md: adaptive at rtol 1e-10 gives 6.45e-5 +- 0.05e-5 (continuum limit 6.4827e-5).
  Config c = testing::single_fluxonium_x(Solver::adaptive, 1);
  c.evolution.rtol = 1e-10;
  c.evolution.atol = 1e-12;
  const double e = infidelity(c);
  std::printf("adaptive rtol 1e-10: 1-F = %.6e\n", e);
  EXPECT_NEAR(e, 6.45e-5, 0.05e-5);
}

TEST(ReferenceGate, TrotterOrdersApproachExpmOnOneMode) {
  // With a single mode every Trotter order uses the exact exponential of each term; the
  // splitting error is that of [E, f(t) phi] only, and order 4 is closest to expm.
  const double ref = infidelity(testing::single_fluxonium_x(Solver::expm, 2000));
  double diff[3];
  const int orders[3] = {1, 2, 4};
  for (int k = 0; k < 3; ++k) {
    Config c = testing::single_fluxonium_x(Solver::trotter, 2000);
    c.evolution.order = orders[k];
    c.evolution.splitting = Splitting::terms;  // (bonds on one mode is exactly expm)
    diff[k] = std::abs(infidelity(c) - ref);
    std::printf("order %d at 2000 steps: |1-F - (1-F)_expm| = %.3e\n", orders[k], diff[k]);
  }
  // Each higher order must be a clear improvement (at dt = 0.02 ns the splitting errors are
  // well inside the asymptotic regime).
  EXPECT_LT(diff[1], 0.1 * diff[0]);
  EXPECT_LT(diff[2], 0.1 * diff[1]);
}

}  // namespace
}  // namespace qevolve::solver
