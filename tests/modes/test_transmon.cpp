// Transmon: the asymmetric-SQUID formula against an explicit two-junction Hamiltonian, the
// free-rotor limit, ng -> ng + 1 gauge invariance, the n - ng charge operator, convergence of
// the automatic charge cutoff, conventions and errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include <Eigen/Eigenvalues>

#include "mode_internal.hpp"
#include "mode_test_util.hpp"
#include "qevolve/error.hpp"
#include "qevolve/mode.hpp"

namespace qevolve::device {
namespace {

using testing::transmon;
using testing::tunable_transmon;

std::vector<ModeParams> transmon_sets() {
  return {
      transmon(0.105, 33.063, 0.5, 5),  transmon(0.120, 22.234, 0.5, 5),
      transmon(0.185, 30.694, 0.5, 3),  transmon(0.2, 10.0, 0.3, 10),
      transmon(0.3, 15.0, 0.0, 10),     transmon(1.0, 1.0, 0.25, 6),
      transmon(0.05, 50.0, 0.1, 20),    transmon(0.01, 100.0, 0.5, 10),
      transmon(0.5, 3.0, -0.4, 8),      tunable_transmon(0.2, 20.0, 0.1, 0.3, 0.23, 6),
      tunable_transmon(0.25, 15.0, 0.7, 0.6, 0.4, 6),
  };
}

// ------------------------------------------------------------------------------------------
// EJ_eff of the asymmetric SQUID. Independent check: the two-junction Hamiltonian
//   H = 4EC (n - ng)^2 - EJ1 cos(phi - phi_ext/2) - EJ2 cos(phi + phi_ext/2),
//   EJ1 = EJ (1 + a)/2, EJ2 = EJ (1 - a)/2,
// built here as a complex Hermitian charge-basis matrix (ncut 60, converged far beyond 1e-12
// for these parameters) and diagonalised by Eigen, not by qevolve. Energies agree to 1e-9 GHz.
// ------------------------------------------------------------------------------------------

RVector squid_energies(double ec, double ej, double a, double flux, double ng, int levels) {
  const int ncut = 60, dim = 2 * ncut + 1;
  const double ej1 = 0.5 * ej * (1.0 + a), ej2 = 0.5 * ej * (1.0 - a);
  const double half = kPi * flux;
  CMatrix h = CMatrix::Zero(dim, dim);
  for (int j = 0; j < dim; ++j) {
    const double n = j - ncut;
    h(j, j) = 4.0 * ec * (n - ng) * (n - ng);
    if (j + 1 < dim) {  // <n+1| e^{i phi} |n> = 1; cos(phi - t) = (e^{i(phi - t)} + h.c.)/2
      h(j + 1, j) = -0.5 * (ej1 * std::polar(1.0, -half) + ej2 * std::polar(1.0, half));
      h(j, j + 1) = std::conj(h(j + 1, j));
    }
  }
  Eigen::SelfAdjointEigenSolver<CMatrix> solver(h, Eigen::EigenvaluesOnly);
  return solver.eigenvalues().head(levels);
}

TEST(TransmonAsymmetry, MatchesExplicitTwoJunctionSquid) {
  for (const double a : {0.0, 0.3, 0.6, 1.0}) {
    for (const double flux : {0.0, 0.17, 0.25, 0.43, 0.5, 1.31}) {
      if (a == 0.0 && flux == 0.5) continue;  // EJ_eff = 0: tested as the free rotor below
      const ModeParams p = tunable_transmon(0.25, 15.0, 0.3, a, flux, 6);
      const Mode m = diagonalise_transmon(p);
      const RVector ref = squid_energies(0.25, 15.0, a, flux, 0.3, 6);
      EXPECT_LT((m.energies - ref).cwiseAbs().maxCoeff(), 1e-9) << "a=" << a << " flux=" << flux;
    }
  }
}

TEST(TransmonAsymmetry, EffectiveJosephsonEnergyFormula) {
  ModeParams p = tunable_transmon(0.2, 20.0, 0.0, 0.4, 0.0, 3);
  EXPECT_DOUBLE_EQ(detail::transmon_ej_eff(p), 20.0);  // zero flux: full EJ
  p.flux = 0.5;
  EXPECT_NEAR(detail::transmon_ej_eff(p), 20.0 * 0.4, 1e-14);  // half flux: a EJ
  p.flux = 0.2;
  const double c = std::cos(kPi * 0.2), s = std::sin(kPi * 0.2);
  EXPECT_NEAR(detail::transmon_ej_eff(p), 20.0 * std::sqrt(c * c + 0.16 * s * s), 1e-13);
  p.asymmetry = 1.0;  // a single junction: no flux dependence
  EXPECT_NEAR(detail::transmon_ej_eff(p), 20.0, 1e-13);
  // Without `asymmetry` the transmon is fixed-frequency: flux is ignored.
  ModeParams fixed = transmon(0.2, 20.0, 0.1, 4);
  const Mode m0 = diagonalise_transmon(fixed);
  fixed.flux = 0.3;
  EXPECT_DOUBLE_EQ(detail::transmon_ej_eff(fixed), 20.0);
  EXPECT_EQ((diagonalise_transmon(fixed).energies - m0.energies).cwiseAbs().maxCoeff(), 0.0);
}

TEST(TransmonLimits, FreeRotorIsPureChargingEnergy) {
  // EJ_eff = 0 (a = 0 at half flux): E = 4EC (m - ng)^2 over the integers m, sorted.
  const double ec = 0.7, ng = 0.3;
  const Mode m = diagonalise_transmon(tunable_transmon(ec, 12.0, ng, 0.0, 0.5, 7));
  std::vector<double> ref;
  for (int q = -10; q <= 10; ++q) ref.push_back(4.0 * ec * (q - ng) * (q - ng));
  std::sort(ref.begin(), ref.end());
  for (int k = 0; k < 7; ++k) EXPECT_NEAR(m.energies(k), ref[k], 1e-12) << "k=" << k;
}

// ------------------------------------------------------------------------------------------
// Charge operator n - ng: gauge invariance and Hellmann-Feynman.
// ------------------------------------------------------------------------------------------

TEST(TransmonCharge, OffsetChargeShiftByOneChangesNothing) {
  for (ModeParams p : transmon_sets()) {
    const Mode a = diagonalise_transmon(p);
    p.ng += 1.0;
    const Mode b = diagonalise_transmon(p);
    p.ng -= 3.0;
    const Mode c = diagonalise_transmon(p);
    // The basis is centred on floor(ng + 1/2), so the matrices are identical up to the
    // rounding of ng +- integers (1e-15 relative); the eigensolver amplifies that to <1e-12.
    for (const Mode* o : {&b, &c}) {
      EXPECT_LT((a.energies - o->energies).cwiseAbs().maxCoeff(), 1e-11) << testing::describe(p);
      EXPECT_LT((a.charge - o->charge).cwiseAbs().maxCoeff(), 1e-11) << testing::describe(p);
      EXPECT_EQ(a.internal_dim, o->internal_dim);
    }
  }
}

TEST(TransmonCharge, ParitySymmetryInOffsetCharge) {
  // n -> -n maps ng to -ng: same energies.
  const Mode a = diagonalise_transmon(transmon(0.5, 3.0, 0.37, 8));
  const Mode b = diagonalise_transmon(transmon(0.5, 3.0, -0.37, 8));
  EXPECT_LT((a.energies - b.energies).cwiseAbs().maxCoeff(), 1e-12);
}

TEST(TransmonCharge, DiagonalObeysHellmannFeynman) {
  // dE_k/dng = <k| dH/dng |k> = -8 EC <k| n - ng |k>. A raw `n` operator would be off by ng.
  // Central difference with step 1e-4: truncation error ~ h^2 E''' / 6 ~ 1e-8 here; 1e-6.
  const double ec = 1.0, ej = 1.0, ng = 0.25, h = 1e-4;
  const Mode m = diagonalise_transmon(transmon(ec, ej, ng, 5));
  const Mode up = diagonalise_transmon(transmon(ec, ej, ng + h, 5));
  const Mode dn = diagonalise_transmon(transmon(ec, ej, ng - h, 5));
  for (int k = 0; k < 5; ++k) {
    const double slope = (up.energies(k) - dn.energies(k)) / (2.0 * h);
    EXPECT_NEAR(-8.0 * ec * m.charge(k, k).real(), slope, 1e-6) << "k=" << k;
    EXPECT_EQ(m.charge(k, k).imag(), 0.0);
  }
  EXPECT_GT(std::abs(m.charge(0, 0).real()), 0.01);  // a real test: the diagonal is not ~0
}

// ------------------------------------------------------------------------------------------
// Convergence of the automatic cutoff: doubling it changes kept energies by < 1e-9 GHz
// (measured: round-off, ~1e-13) and |<j|n|k>| by < 1e-9.
// ------------------------------------------------------------------------------------------

TEST(TransmonConvergence, AutomaticCutoffSurvivesDoubling) {
  for (ModeParams p : transmon_sets()) {
    const int ncut = detail::transmon_auto_cutoff(p);
    const Mode base = diagonalise_transmon(p);
    EXPECT_EQ(base.internal_dim, 2 * ncut + 1);
    p.basis_size = 2 * ncut;
    const Mode big = diagonalise_transmon(p);
    EXPECT_EQ(big.internal_dim, 4 * ncut + 1);
    EXPECT_LT((base.energies - big.energies).cwiseAbs().maxCoeff(), 1e-9) << testing::describe(p);
    EXPECT_LT((base.charge.cwiseAbs() - big.charge.cwiseAbs()).cwiseAbs().maxCoeff(), 1e-9)
        << testing::describe(p);
  }
}

// ------------------------------------------------------------------------------------------
// Conventions and errors.
// ------------------------------------------------------------------------------------------

TEST(TransmonConventions, RealPositiveChargeSuperdiagonalAndNoFluxOperator) {
  for (const ModeParams& p : transmon_sets()) {
    const Mode m = diagonalise_transmon(p);
    EXPECT_EQ(m.flux.size(), 0);
    EXPECT_EQ(m.op("phi"), nullptr);
    EXPECT_EQ(m.op("n"), &m.charge);
    EXPECT_EQ(m.default_operator(), "n");
    EXPECT_EQ(testing::hermiticity_error(m.charge), 0.0);
    EXPECT_EQ(m.charge.imag().cwiseAbs().maxCoeff(), 0.0);  // real-symmetric H, real n
    for (int k = 1; k < m.levels(); ++k) {
      EXPECT_GT(m.charge(k - 1, k).real(), 1e-10) << testing::describe(p) << " k=" << k;
      EXPECT_GE(m.energies(k), m.energies(k - 1));
    }
  }
}

TEST(TransmonErrors, UnphysicalParametersThrowNumericalError) {
  EXPECT_THROW((void)diagonalise_transmon(transmon(0.0, 10.0, 0.0, 3)), NumericalError);
  EXPECT_THROW((void)diagonalise_transmon(transmon(0.2, INFINITY, 0.0, 3)), NumericalError);
  ModeParams p = transmon(0.2, 10.0, 0.0, 6);
  p.basis_size = 2;  // 5 charge states < 6 levels
  EXPECT_THROW((void)diagonalise_transmon(p), NumericalError);
  p.basis_size = 3;  // 7 states: allowed
  EXPECT_NO_THROW((void)diagonalise_transmon(p));
  p = tunable_transmon(0.2, 10.0, 0.0, NAN, 0.1, 3);
  EXPECT_THROW((void)diagonalise_transmon(p), NumericalError);
}

}  // namespace
}  // namespace qevolve::device
