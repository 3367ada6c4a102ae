// Model-independent parts: fix_phases, diagonalise() dispatch and its memo cache, Mode::op.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <thread>
#include <vector>

#include "mode_test_util.hpp"
#include "qevolve/error.hpp"
#include "qevolve/mode.hpp"

namespace qevolve::device {
namespace {

// Random orthonormal real vectors (N x m) and a Hermitian operator in their span.
struct Synthetic {
  CMatrix vectors;
  CMatrix op_full;  // N x N Hermitian, "n"
};

Synthetic synthetic(int n, int m, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> g;
  RMatrix a(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) a(i, j) = g(rng);
  const Eigen::HouseholderQR<RMatrix> qr(a);
  const RMatrix q = qr.householderQ();
  CMatrix h(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) h(i, j) = cplx(g(rng), g(rng));
  return {q.leftCols(m).cast<cplx>(), (h + h.adjoint()) / 2.0};
}

void scramble(CMatrix& vectors, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, kTwoPi);
  for (Index k = 0; k < vectors.cols(); ++k) vectors.col(k) *= std::polar(1.0, u(rng));
}

TEST(FixPhases, ConventionHoldsAndResultIsUnique) {
  const Synthetic s = synthetic(12, 5, 7);
  CMatrix v1 = s.vectors, v2 = s.vectors;
  scramble(v1, 1);
  scramble(v2, 2);
  CMatrix c1 = v1.adjoint() * s.op_full * v1;
  CMatrix c2 = v2.adjoint() * s.op_full * v2;
  fix_phases(v1, c1);
  fix_phases(v2, c2);
  // The convention fixes every vector's phase: both scrambles end in the same basis.
  EXPECT_LT((v1 - v2).cwiseAbs().maxCoeff(), 1e-13);
  // The in-place charge update equals the transformed operator.
  EXPECT_LT((c1 - v1.adjoint() * s.op_full * v1).cwiseAbs().maxCoeff(), 1e-13);
  for (Index k = 1; k < 5; ++k) {
    EXPECT_GT(c1(k - 1, k).real(), 0.0);
    EXPECT_LT(std::abs(c1(k - 1, k).imag()), 1e-15);
  }
  // |0>: its largest component is real positive.
  Index i0 = 0;
  v1.col(0).cwiseAbs().maxCoeff(&i0);
  EXPECT_GT(v1(i0, 0).real(), 0.0);
  EXPECT_LT(std::abs(v1(i0, 0).imag()), 1e-15);
}

TEST(FixPhases, FallbackWhenChargeElementVanishes) {
  // <1|n|2> = 0 (n block-diagonal): vector 2 is fixed by its largest component instead.
  CMatrix v = CMatrix::Identity(4, 3);
  v(0, 2) = cplx(0.0, -0.3);  // largest component of column 2 is v(2,2) = 1 -> still real > 0
  v(2, 2) = cplx(-0.9, 0.1);
  v.col(2).normalize();
  CMatrix n = CMatrix::Zero(3, 3);
  n(0, 1) = cplx(0.0, 0.5);
  n(1, 0) = std::conj(n(0, 1));
  fix_phases(v, n);
  EXPECT_NEAR(n(0, 1).real(), 0.5, 1e-15);
  EXPECT_NEAR(n(0, 1).imag(), 0.0, 1e-15);
  EXPECT_GT(v(2, 2).real(), 0.0);
  EXPECT_NEAR(v(2, 2).imag(), 0.0, 1e-15);
  CMatrix bad = CMatrix::Zero(2, 2);
  EXPECT_THROW(fix_phases(v, bad), NumericalError);
}

TEST(Diagonalise, DispatchesAndCaches) {
  ModeParams p = testing::fluxonium(1.0, 4.0, 0.9, 0.5, 5);
  const Mode direct = diagonalise_fluxonium(p);
  const Mode first = diagonalise(p);
  p.name = "another_name";
  p.ng = 0.3;  // not a fluxonium parameter: same cache entry
  const Mode second = diagonalise(p);
  EXPECT_EQ(second.name(), "another_name");
  EXPECT_EQ(second.params.ng, 0.3);
  for (const Mode* m : {&first, &second}) {
    EXPECT_EQ((m->energies - direct.energies).cwiseAbs().maxCoeff(), 0.0);
    EXPECT_EQ((m->flux - direct.flux).cwiseAbs().maxCoeff(), 0.0);
    EXPECT_EQ((m->charge - direct.charge).cwiseAbs().maxCoeff(), 0.0);
    EXPECT_EQ(m->internal_dim, direct.internal_dim);
  }
  p.flux = 0.4;  // a different value is a different mode
  EXPECT_GT((diagonalise(p).energies - direct.energies).cwiseAbs().maxCoeff(), 1e-3);
  ModeParams t = testing::transmon(0.2, 10.0, 0.3, 4);
  EXPECT_EQ((diagonalise(t).energies - diagonalise_transmon(t).energies).cwiseAbs().maxCoeff(),
            0.0);
  EXPECT_THROW((void)diagonalise(testing::fluxonium(1.0, 4.0, -1.0, 0.5, 3)), NumericalError);
  EXPECT_THROW((void)diagonalise(testing::fluxonium(NAN, 4.0, 1.0, 0.5, 3)), NumericalError);
}

TEST(Diagonalise, CacheIsThreadSafe) {
  std::vector<ModeParams> params;
  for (int i = 0; i < 6; ++i) params.push_back(testing::fluxonium(1.0, 4.0, 0.8 + 0.05 * i, 0.5, 4));
  std::vector<RVector> expected;
  for (const ModeParams& p : params) expected.push_back(diagonalise_fluxonium(p).energies);
  std::vector<int> mismatches(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int rep = 0; rep < 20; ++rep) {
        const std::size_t i = static_cast<std::size_t>((rep + t) % 6);
        if ((diagonalise(params[i]).energies - expected[i]).cwiseAbs().maxCoeff() != 0.0) {
          ++mismatches[static_cast<std::size_t>(t)];
        }
      }
    });
  }
  for (std::thread& th : threads) th.join();
  for (int t = 0; t < 4; ++t) EXPECT_EQ(mismatches[static_cast<std::size_t>(t)], 0);
}

TEST(Mode, OperatorNamesAndDefaults) {
  const Mode f = diagonalise(testing::fluxonium(1.0, 4.0, 1.0, 0.5, 3));
  EXPECT_EQ(f.default_operator(), "phi");
  EXPECT_EQ(f.op("phi"), &f.flux);
  EXPECT_EQ(f.op("n"), &f.charge);
  EXPECT_EQ(f.op("number"), &f.number);
  EXPECT_EQ(f.op("lowering"), &f.lowering);
  EXPECT_EQ(f.op("x"), nullptr);
  EXPECT_EQ(f.op("y"), nullptr);
  EXPECT_EQ(f.op("bogus"), nullptr);
  EXPECT_TRUE(f.is_qubit());
  EXPECT_TRUE(f.has_flux_operator());
  const Mode t = diagonalise(testing::transmon(0.2, 10.0, 0.0, 3));
  EXPECT_EQ(t.op("number"), &t.number);
  EXPECT_EQ(t.op("lowering"), &t.lowering);
  EXPECT_FALSE(t.has_flux_operator());
  for (const Mode* m : {&f, &t}) {
    ASSERT_EQ(m->lowering.rows(), 3);
    EXPECT_EQ(m->lowering(0, 1), cplx(1.0, 0.0));
    EXPECT_EQ(m->lowering(1, 2), cplx(std::sqrt(2.0), 0.0));
    EXPECT_EQ(m->lowering(1, 0), cplx(0.0, 0.0));
    EXPECT_EQ(m->number(2, 2), cplx(2.0, 0.0));
  }
}

}  // namespace
}  // namespace qevolve::device
