// linalg helpers not covered elsewhere: the allocation-free small Hermitian exponential of the
// bond gates, and `--threads N` bounding OpenBLAS (set_blas_threads; without it OpenBLAS keeps
// one spinning worker per core even for a one-thread run).
#include <gtest/gtest.h>

#include <unsupported/Eigen/KroneckerProduct>
#include <omp.h>

#include <algorithm>
#include <limits>
#include <random>
#include <vector>

#include "qevolve/error.hpp"
#include "qevolve/linalg.hpp"

namespace qevolve {
namespace {

TEST(ExpmHermitianSmall, AgreesWithTheEigendecomposition) {
  // Random Hermitian H of every supported size, |scale| ||H||_1 from 0 to ~1200 (up to 12
  // squarings; a bond step has ||2 pi dt frac h_b||_1 of order 1). Both routes lose accuracy in
  // proportion to nu = |scale| ||H||_1: the eigen route's phases exp(-i s w) carry absolute
  // error ~eps nu, and squaring multiplies the Taylor result's rounding by 2^j ~ nu. So the
  // tolerance is 4 eps nu + 1e-15 (worst seen: 1.9e-13 at nu ~ 1200, i.e. 0.7 eps nu).
  std::mt19937_64 rng(7);
  std::normal_distribution<double> n01;
  double worst = 0.0, worst_unitary = 0.0;
  for (int g = 1; g <= linalg::kSmallExpm; ++g) {
    for (double scale : {0.0, 1e-3, 0.3, -1.7, 12.0, 60.0}) {
      CMatrix H(g, g);
      for (int i = 0; i < g; ++i)
        for (int j = 0; j <= i; ++j) {
          H(i, j) = i == j ? cplx(n01(rng), 0.0) : cplx(n01(rng), n01(rng));
          H(j, i) = std::conj(H(i, j));
        }
      std::vector<cplx> h(static_cast<std::size_t>(g * g)), out(h.size());
      for (int i = 0; i < g; ++i)
        for (int j = 0; j < g; ++j) h[static_cast<std::size_t>(i * g + j)] = H(i, j);
      linalg::expm_hermitian_small(h.data(), g, scale, out.data());
      const CMatrix ref = linalg::expm_hermitian(H, scale);
      CMatrix U(g, g);
      for (int i = 0; i < g; ++i)
        for (int j = 0; j < g; ++j) U(i, j) = out[static_cast<std::size_t>(i * g + j)];
      const double nu = std::abs(scale) * H.cwiseAbs().colwise().sum().maxCoeff();
      const double tol = 4.0 * std::numeric_limits<double>::epsilon() * nu + 1e-15;
      worst = std::max(worst, (U - ref).cwiseAbs().maxCoeff() / tol);
      worst_unitary = std::max(worst_unitary, (U.adjoint() * U - CMatrix::Identity(g, g)).cwiseAbs().maxCoeff());
    }
  }
  EXPECT_LT(worst, 1.0);  // every case within its tolerance
  EXPECT_LT(worst_unitary, 1e-14);
}

/// H = D + i A (A real antisymmetric on a path and a triangle-free pattern) is real up to the
/// phases i^k; the rephased decomposition (dsyevd) must reconstruct H and match zheevd's
/// eigenvalues to rounding. A general complex H (phases not quarter turns) and one whose
/// cycle forbids consistent phases fall back to zheevd, bitwise.
TEST(HermitianEigenRephased, RealUpToQuarterPhasesAndFallback) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const Index n = 10;
  CMatrix H = CMatrix::Zero(n, n);
  for (Index k = 0; k < n; ++k) H(k, k) = 3.0 * u(rng);
  for (Index j = 0; j < n; ++j)  // opposite-parity pairs only: a fluxonium phi drive at half flux
    for (Index k = j + 1; k < n; k += 2) {
      H(j, k) = cplx(0.0, u(rng));
      H(k, j) = std::conj(H(j, k));
    }
  RVector w, w_ref;
  CMatrix V, V_ref;
  linalg::hermitian_eigen_rephased(H, w, V);
  linalg::hermitian_eigen(H, w_ref, V_ref);
  EXPECT_LT((w - w_ref).cwiseAbs().maxCoeff(), 1e-13);
  EXPECT_LT((V * w.cast<cplx>().asDiagonal() * V.adjoint() - H).cwiseAbs().maxCoeff(), 1e-13);
  EXPECT_LT((V.adjoint() * V - CMatrix::Identity(n, n)).cwiseAbs().maxCoeff(), 1e-13);
  CMatrix U = CMatrix::Identity(n, n);
  linalg::apply_expm_hermitian_rephased(H, 0.7, U);
  const CMatrix U_ref = linalg::expm_hermitian(H, 0.7);
  EXPECT_LT((U - U_ref).cwiseAbs().maxCoeff(), 1e-13);

  CMatrix G = H;
  G(0, 1) = cplx(0.3, 0.4);  // a general phase: no quarter-turn S
  G(1, 0) = std::conj(G(0, 1));
  linalg::hermitian_eigen_rephased(G, w, V);
  linalg::hermitian_eigen(G, w_ref, V_ref);
  EXPECT_TRUE(w == w_ref && V == V_ref);
  CMatrix C = CMatrix::Zero(3, 3);  // a triangle of imaginary entries: i * i * i has no real gauge
  C(0, 1) = C(1, 2) = C(2, 0) = cplx(0.0, 1.0);
  C(1, 0) = C(2, 1) = C(0, 2) = cplx(0.0, -1.0);
  linalg::hermitian_eigen_rephased(C, w, V);
  linalg::hermitian_eigen(C, w_ref, V_ref);
  EXPECT_TRUE(w == w_ref && V == V_ref);
}

/// The rephased path's real eigensolver: Eigen's QR iteration plus one Ogita-Aishima
/// refinement up to n = 32, LAPACK's dsyevd above. Both sides of the switch, with and without
/// exact degeneracies (I2 (x) A: every eigenvalue twice, the refinement's cluster branch) and
/// with a near-degenerate pair (a gap of 1e-11 |A|, above the cluster threshold), give
/// LAPACK-level residuals and orthogonality per entry (n eps = 1e-14 at n = 40 bounds both), and the
/// exponential applied to a block of columns equals the exponential matrix times it.
TEST(HermitianEigenRephased, SmallAndLargeRealSolversAreAccurate) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (const Index n : {Index{2}, Index{10}, Index{32}, Index{33}, Index{40}})
    for (const bool degenerate : {false, true}) {
      if (degenerate && n % 2 != 0) continue;
      const Index h = degenerate ? n / 2 : n;
      RMatrix A(h, h);
      for (Index j = 0; j < h; ++j)
        for (Index k = 0; k <= j; ++k) A(j, k) = A(k, j) = u(rng) + (j == k ? 3.0 * static_cast<double>(j) : 0.0);
      RMatrix B = degenerate ? RMatrix(Eigen::kroneckerProduct(RMatrix::Identity(2, 2), A)) : A;
      if (!degenerate && n >= 10) {
        // A near-degenerate pair just above the refinement's cluster threshold, in a random
        // eigenbasis P: Eigen's vectors turn within the pair by ~eps |A| / gap, which one
        // refinement step alone leaves as a non-orthogonality of that order squared (~1e-9
        // here: the Newton step after it is what this case checks).
        const RMatrix P = Eigen::HouseholderQR<RMatrix>(RMatrix::Random(n, n)).householderQ();
        RVector lambda(n);
        for (Index j = 0; j < n; ++j) lambda(j) = 3.0 * static_cast<double>(j) + u(rng);
        lambda(1) = lambda(0) + 1e-11 * lambda.cwiseAbs().maxCoeff();
        B = P * lambda.asDiagonal() * P.transpose();
        B = (0.5 * (B + B.transpose())).eval();
      }
      const CMatrix H = B.cast<cplx>();
      RVector w;
      CMatrix V;
      linalg::hermitian_eigen_rephased(H, w, V);
      const double norm = H.norm();
      const std::string where = "n " + std::to_string(n) + (degenerate ? " degenerate" : "");
      EXPECT_LT((H * V - V * w.cast<cplx>().asDiagonal()).cwiseAbs().maxCoeff() / norm, 1e-14) << where;
      EXPECT_LT((V.adjoint() * V - CMatrix::Identity(n, n)).cwiseAbs().maxCoeff(), 1e-14) << where;
      // ascending (a degenerate pair may come out an ulp apart, in either order)
      for (Index k = 1; k < n; ++k) EXPECT_LE(w(k - 1), w(k) + 1e-14 * norm) << where;
      CMatrix X = CMatrix::Random(n, 3);
      const CMatrix want = linalg::expm_hermitian(H, 0.7) * X;
      linalg::apply_expm_hermitian_rephased(H, 0.7, X);
      EXPECT_LT((X - want).cwiseAbs().maxCoeff(), 1e-13) << where;
    }
}

TEST(PatternBlocks, ConnectedComponentsOfThePattern) {
  // The two-qubit parity pattern {00, 11}, {01, 10}; a pattern joined through one entry above
  // the tolerance; a dense matrix is one block.
  CMatrix m = CMatrix::Zero(4, 4);
  for (int i : {0, 3})
    for (int j : {0, 3}) m(i, j) = cplx(1.0 + i, j);
  m(1, 1) = 2.0;
  m(2, 2) = 3.0;
  m(1, 2) = cplx(0.0, 0.5);
  EXPECT_EQ(linalg::pattern_blocks(m), (std::vector<std::vector<int>>{{0, 3}, {1, 2}}));
  m(2, 0) = 1e-15;  // one direction suffices
  EXPECT_EQ(linalg::pattern_blocks(m).size(), 1u);
  EXPECT_EQ(linalg::pattern_blocks(m, 1e-14), (std::vector<std::vector<int>>{{0, 3}, {1, 2}}));
  CMatrix d = CMatrix::Zero(3, 3);
  EXPECT_EQ(linalg::pattern_blocks(d), (std::vector<std::vector<int>>{{0}, {1}, {2}}));
  d.setConstant(1.0);
  EXPECT_EQ(linalg::pattern_blocks(d), (std::vector<std::vector<int>>{{0, 1, 2}}));
}

TEST(ExpmHermitianBlocks, ExactZerosBetweenBlocksAndTheSameExponential) {
  // A 6 x 6 Hermitian H with blocks {0, 2, 5}, {1, 4}, {3}, plus rounding-size entries
  // (1e-14 of the largest) between them: the blockwise exponential has exact zeros there and
  // differs from the full one by the dropped entries' effect, O(1e-14 scale ||H||); with a
  // zero tolerance (or a dense H) it is expm_hermitian itself, bitwise.
  std::mt19937_64 rng(3);
  std::normal_distribution<double> n01;
  const std::vector<std::vector<int>> groups{{0, 2, 5}, {1, 4}, {3}};
  CMatrix H = CMatrix::Zero(6, 6);
  for (const auto& g : groups)
    for (int i : g)
      for (int j : g) {
        if (j < i) continue;
        H(i, j) = i == j ? cplx(n01(rng), 0.0) : cplx(n01(rng), n01(rng));
        H(j, i) = std::conj(H(i, j));
      }
  const double largest = H.cwiseAbs().maxCoeff();
  CMatrix noisy = H;
  noisy(0, 1) = noisy(1, 0) = 1e-14 * largest;
  noisy(3, 5) = cplx(0.0, 1e-14 * largest);
  noisy(5, 3) = std::conj(noisy(3, 5));
  const double scale = 0.8;
  const CMatrix U = linalg::expm_hermitian_blocks(noisy, scale, 1e-12);
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) {
      const bool same = std::any_of(groups.begin(), groups.end(), [&](const auto& g) {
        return std::count(g.begin(), g.end(), i) && std::count(g.begin(), g.end(), j);
      });
      if (!same) {
        EXPECT_EQ(U(i, j), cplx{}) << i << ", " << j;
      }
    }
  EXPECT_LT((U - linalg::expm_hermitian(noisy, scale)).cwiseAbs().maxCoeff(), 1e-13);
  EXPECT_LT((U - linalg::expm_hermitian(H, scale)).cwiseAbs().maxCoeff(), 1e-13);
  EXPECT_LT((U.adjoint() * U - CMatrix::Identity(6, 6)).cwiseAbs().maxCoeff(), 1e-14);
  const CMatrix same = linalg::expm_hermitian_blocks(noisy, scale, 0.0);
  EXPECT_EQ((same - linalg::expm_hermitian(noisy, scale)).cwiseAbs().maxCoeff(), 0.0);
}

TEST(ExpmHermitianSmall, RejectsSizesAndNonFiniteInput) {
  std::vector<cplx> h(static_cast<std::size_t>(17 * 17)), out(h.size());
  EXPECT_THROW(linalg::expm_hermitian_small(h.data(), 17, 1.0, out.data()), NumericalError);
  h[0] = cplx(std::numeric_limits<double>::quiet_NaN(), 0.0);
  EXPECT_THROW(linalg::expm_hermitian_small(h.data(), 1, 1.0, out.data()), NumericalError);
}

TEST(BlasThreads, OneThreadOutsideDensePhases) {
  // set_blas_threads records the dense-phase count and leaves OpenBLAS on one thread, so no
  // BLAS worker competes with the solvers' OpenMP teams; a DenseBlasPhase raises it.
  EXPECT_EQ(linalg::set_blas_threads(1), 1);
  EXPECT_EQ(linalg::blas_threads(), 1);
  const int all = linalg::set_blas_threads(0);  // 0 = all cores
  EXPECT_EQ(all, std::max(1, omp_get_num_procs()));
  EXPECT_EQ(linalg::blas_threads(), 1);
  if (omp_get_num_procs() >= 2) {
    EXPECT_EQ(linalg::set_blas_threads(2), 2);
    {
      const linalg::DenseBlasPhase outer(300);
      EXPECT_EQ(linalg::blas_threads(), 2);
      {
        const linalg::DenseBlasPhase inner(300);  // nested: no change, and its end keeps the outer's
      }
      EXPECT_EQ(linalg::blas_threads(), 2);
      // A threaded product inside the phase is still right after the workers were parked.
      const CMatrix A = CMatrix::Random(300, 300), B = CMatrix::Random(300, 300);
      const CMatrix C1 = A * B;
      linalg::park_blas_workers();
      const CMatrix C2 = A * B;
      EXPECT_EQ((C1 - C2).cwiseAbs().maxCoeff(), 0.0);
    }
    EXPECT_EQ(linalg::blas_threads(), 1);
    {
      const linalg::DenseBlasPhase small(linalg::kThreadedBlasDim - 1);  // too small for threads
      EXPECT_EQ(linalg::blas_threads(), 1);
    }
  } else {
    GTEST_SKIP() << "one core: the two-thread dense phase is not exercised";
  }
}

}  // namespace
}  // namespace qevolve
