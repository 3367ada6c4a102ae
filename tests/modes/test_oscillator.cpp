// Resonator and Duffing oscillator against their closed forms (docs/models.md "Resonator and Duffing oscillator"): exact in the Fock
// basis, so every comparison is to round-off (1e-12).
#include <gtest/gtest.h>

#include <cmath>

#include "mode_test_util.hpp"
#include "qevolve/error.hpp"
#include "qevolve/mode.hpp"

namespace qevolve::device {
namespace {

ModeParams oscillator(ModeType type, double f, double alpha, int levels) {
  ModeParams p;
  p.name = "osc";
  p.type = type;
  p.frequency = f;
  p.anharmonicity = alpha;
  p.levels = levels;
  return p;
}

TEST(Oscillator, ResonatorEnergiesKeepZeroPoint) {
  const Mode m = diagonalise_oscillator(oscillator(ModeType::resonator, 7.3, 0.0, 6));
  for (int k = 0; k < 6; ++k) EXPECT_NEAR(m.energies(k), 7.3 * (k + 0.5), 1e-12);
  EXPECT_EQ(m.internal_dim, 6);
  EXPECT_FALSE(m.is_qubit());
  EXPECT_TRUE(m.is_oscillator());
}

TEST(Oscillator, DuffingEnergiesHaveNoZeroPoint) {
  const double f = 5.1, alpha = -0.27;
  const Mode m = diagonalise_oscillator(oscillator(ModeType::duffing, f, alpha, 7));
  for (int k = 0; k < 7; ++k) {
    EXPECT_NEAR(m.energies(k), f * k + 0.5 * alpha * k * (k - 1), 1e-12) << "k=" << k;
  }
  EXPECT_NEAR(m.energies(2) - 2.0 * m.energies(1), alpha, 1e-12);  // anharmonicity
  EXPECT_TRUE(m.is_qubit());
}

TEST(Oscillator, FockOperators) {
  for (const ModeType type : {ModeType::resonator, ModeType::duffing}) {
    const int d = 5;
    const Mode m = diagonalise_oscillator(oscillator(type, 6.0, -0.2, d));
    for (int j = 0; j < d; ++j) {
      for (int k = 0; k < d; ++k) {
        const double a = j == k - 1 ? std::sqrt(double(k)) : 0.0;      // <j|a|k>
        const double adag = k == j - 1 ? std::sqrt(double(j)) : 0.0;   // <j|a^dag|k>
        EXPECT_NEAR(std::abs(m.lowering(j, k) - cplx(a, 0.0)), 0.0, 1e-15);
        EXPECT_NEAR(std::abs(m.flux(j, k) - cplx(a + adag, 0.0)), 0.0, 1e-15);        // x
        EXPECT_NEAR(std::abs(m.charge(j, k) - cplx(0.0, adag - a)), 0.0, 1e-15);      // y
        EXPECT_EQ(m.number(j, k), cplx(j == k ? double(k) : 0.0, 0.0));
      }
    }
    EXPECT_EQ(testing::hermiticity_error(m.flux), 0.0);
    EXPECT_EQ(testing::hermiticity_error(m.charge), 0.0);
    // [a, a^dag] = 1 except in the last kept level (truncation).
    const CMatrix comm = m.lowering * m.lowering.adjoint() - m.lowering.adjoint() * m.lowering;
    for (int k = 0; k + 1 < d; ++k) EXPECT_NEAR(std::abs(comm(k, k) - 1.0), 0.0, 1e-14);
    // x and y named as docs/models.md says; default drive operator is x.
    EXPECT_EQ(m.op("x"), &m.flux);
    EXPECT_EQ(m.op("y"), &m.charge);
    EXPECT_EQ(m.op("phi"), nullptr);
    EXPECT_EQ(m.op("n"), nullptr);
    EXPECT_EQ(m.default_operator(), "x");
  }
}

TEST(Oscillator, UnphysicalModelsThrow) {
  // Duffing with f + alpha (k - 1) <= 0 for a kept k: the Fock ordering is not the energy
  // ordering, so "the lowest `levels` states" are not the kept Fock states.
  EXPECT_THROW((void)diagonalise_oscillator(oscillator(ModeType::duffing, 1.0, -0.3, 6)),
               NumericalError);
  EXPECT_NO_THROW((void)diagonalise_oscillator(oscillator(ModeType::duffing, 1.0, -0.3, 4)));
  EXPECT_THROW((void)diagonalise_oscillator(oscillator(ModeType::resonator, -1.0, 0.0, 3)),
               NumericalError);
  EXPECT_THROW((void)diagonalise_oscillator(oscillator(ModeType::resonator, NAN, 0.0, 3)),
               NumericalError);
  ModeParams p = oscillator(ModeType::resonator, 5.0, 0.0, 6);
  p.basis_size = 4;
  EXPECT_THROW((void)diagonalise_oscillator(p), NumericalError);
  p.basis_size = 10;  // larger Fock spaces change nothing: exact
  EXPECT_EQ(diagonalise_oscillator(p).internal_dim, 6);
  p.type = ModeType::transmon;
  EXPECT_THROW((void)diagonalise_oscillator(p), NumericalError);
}

}  // namespace
}  // namespace qevolve::device
