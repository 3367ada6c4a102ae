// splitting: bonds (docs/solvers.md "`splitting: bonds`"): the bond decomposition of H,
// its colouring, convergence at the stated order against expm, agreement with the term-by-term
// splitting, and the exact single-mode case.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "../../src/solver/bond_list.hpp"
#include "qevolve/plan.hpp"
#include "qevolve/resolve.hpp"
#include "qevolve/linalg.hpp"
#include "qevolve/simulator.hpp"
#include "solver_fixtures.hpp"

namespace qevolve::solver {
namespace {

double max_abs(const CMatrix& m) { return m.cwiseAbs().maxCoeff(); }

std::vector<DriveEigen> drive_eigen(const Simulator& sim) {
  std::vector<DriveEigen> out;
  for (const auto& ch : sim.drive().channels()) {
    DriveEigen de;
    de.mode = ch.mode;
    linalg::hermitian_eigen(*sim.device().modes()[static_cast<std::size_t>(ch.mode)].op(ch.op), de.lambda, de.V);
    out.push_back(std::move(de));
  }
  return out;
}

/// sum_b h_b(c(t)) embedded into the full space, against the dense H(t) (brute force).
void expect_bonds_sum_to_h(const Config& c, int expected_colours, std::size_t expected_bonds) {
  Simulator sim(io::evolution_plan(c), 1);
  const auto drives = drive_eigen(sim);
  const BondList bl = make_bond_list(sim.device(), drives);
  EXPECT_EQ(bl.colours, expected_colours);
  ASSERT_EQ(bl.bonds.size(), expected_bonds);
  for (const auto& b : bl.bonds)
    for (const auto& o : bl.bonds) {
      if (&b == &o || b.colour != o.colour) continue;
      for (int m : b.modes) EXPECT_EQ(std::count(o.modes.begin(), o.modes.end(), m), 0);
    }
  const double t = 7.3;
  std::vector<double> coeff;
  sim.drive().drive_coefficients(t, coeff);
  const Index D = sim.device().dim();
  CMatrix H = CMatrix::Zero(D, D);
  for (const auto& b : bl.bonds) {
    CMatrix h = b.S;
    for (std::size_t i = 0; i < b.channels.size(); ++i)
      h += coeff[static_cast<std::size_t>(b.channels[i])] * b.drive_ops[i];
    sim.device().add_embedded({b.modes, h}, H);
  }
  EXPECT_LT(max_abs(H - dense_hamiltonian(sim, t)), 1e-12);
}

TEST(BondList, ChainRingAndUncoupledModesSumToH) {
  expect_bonds_sum_to_h(testing::driven_chain(3, 3), 2, 2);
  expect_bonds_sum_to_h(testing::driven_chain(4, 2), 2, 3);
  Config ring = testing::driven_chain(3, 2);
  ring.device.preset->periodic = true;
  expect_bonds_sum_to_h(ring, 3, 3);  // an odd ring needs three colours
  Config ring4 = testing::driven_chain(4, 2);
  ring4.device.preset->periodic = true;
  expect_bonds_sum_to_h(ring4, 2, 4);
  // One mode, no couplings: a single one-mode bond.
  expect_bonds_sum_to_h(testing::single_fluxonium_x(Solver::trotter, 10), 1, 1);
}

CMatrix evolve_all(Config c) {
  c.evolution.initial_states.kind = InitialStates::Kind::all;
  Simulator sim(io::evolution_plan(c), 2);
  return sim.evolve().columns;
}

TEST(Bonds, ConvergeToExpmAtTheirOrder) {
  // As for splitting: terms (test_simulator): 3-qubit chain, 3 levels, all 27 columns; the ratio
  // of the differences to expm on halving dt within 20 % of 2, 4, 16; unitary to 1e-12.
  const Config base = testing::driven_chain(3, 3);
  const int ladder[3][2] = {{4000, 8000}, {1000, 2000}, {1000, 2000}};
  const int orders[3] = {1, 2, 4};
  for (int k = 0; k < 3; ++k) {
    double diff[2], diff_terms[2];
    for (int h = 0; h < 2; ++h) {
      Config c = base;
      c.evolution.steps = ladder[k][h];
      c.evolution.solver = Solver::expm;
      const CMatrix ref = evolve_all(c);
      c.evolution.solver = Solver::trotter;
      c.evolution.order = orders[k];
      const CMatrix terms = evolve_all(c);
      c.evolution.splitting = Splitting::bonds;
      const CMatrix U = evolve_all(c);
      diff[h] = max_abs(U - ref);
      diff_terms[h] = max_abs(terms - ref);
      EXPECT_LT(max_abs(U.adjoint() * U - CMatrix::Identity(27, 27)), 1e-12);
      // Two splittings of the same midpoint step: they differ by no more than their errors.
      EXPECT_LE(max_abs(U - terms), diff[h] + diff_terms[h] + 1e-12);
    }
    const double ratio = diff[0] / diff[1];
    const double expected = std::pow(2.0, orders[k]);
    std::printf("order %d bonds: |U - U_expm| = %.3e, %.3e (%d, %d steps), ratio %.3f; terms %.3e, %.3e\n",
                orders[k], diff[0], diff[1], ladder[k][0], ladder[k][1], ratio, diff_terms[0], diff_terms[1]);
    EXPECT_NEAR(ratio, expected, 0.2 * expected) << "order " << orders[k];
  }
}

TEST(Bonds, Magnus4ConvergesAtFourthOrder) {
  const Config base = testing::driven_chain(3, 3);
  Config c = base;
  c.evolution.solver = Solver::magnus4;
  c.evolution.order = 4;
  c.evolution.splitting = Splitting::dense;
  c.evolution.steps = 3200;
  const CMatrix ref = evolve_all(c);
  c.evolution.splitting = Splitting::bonds;
  double err[3];
  const int ladder[3] = {200, 400, 800};
  for (int h = 0; h < 3; ++h) {
    c.evolution.steps = ladder[h];
    err[h] = max_abs(evolve_all(c) - ref);
  }
  std::printf("magnus4 bonds: |U - U_ref| = %.3e, %.3e, %.3e (200, 400, 800 steps); ratios %.2f, %.2f\n",
              err[0], err[1], err[2], err[0] / err[1], err[1] / err[2]);
  EXPECT_NEAR(err[1] / err[2], 16.0, 0.2 * 16.0);
}

TEST(Bonds, OneModeIsTheExactMidpointExponential) {
  // A single mode is one bond: each step is exp(-i 2 pi dt H(t_mid)) exactly, i.e. expm.
  const Config e = testing::single_fluxonium_x(Solver::expm, 1279);
  Config b = e;
  b.evolution.solver = Solver::trotter;
  b.evolution.splitting = Splitting::bonds;
  for (int order : {1, 2, 4}) {
    b.evolution.order = order;
    EXPECT_LT(max_abs(evolve_all(b) - evolve_all(e)), 1e-11) << "order " << order;
  }
}

TEST(Bonds, FewerGatesThanTerms) {
  // Chain of N modes, order 2: terms fuse to 2N - 3 gates per step and apply 2N - 4 (the last
  // gate, on the first coupling's modes, is multiplied into the next step's first gate); bonds
  // apply N - 1 (the trailing layer is multiplied into the next step's first layer).
  for (int n : {3, 6}) {
    Config c = testing::driven_chain(n, 2);
    c.evolution.splitting = Splitting::terms;
    Simulator terms(io::evolution_plan(c), 1);
    c.evolution.splitting = Splitting::bonds;
    Simulator bonds(io::evolution_plan(c), 1);
    EXPECT_EQ(terms.work().gates_per_step, 2 * n - 4);
    EXPECT_EQ(bonds.work().gates_per_step, n - 1);
  }
}

}  // namespace
}  // namespace qevolve::solver
