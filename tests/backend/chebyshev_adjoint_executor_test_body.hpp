// Test body of the Chebyshev adjoint executor (backend.hpp, ChebyshevAdjointExecutor), written
// once and instantiated per backend that has one (backend/capabilities.hpp: the CPU today). A
// backend's test file supplies, besides the executor_test_body.hpp members,
//   static std::unique_ptr<ChebyshevAdjointExecutor> chebyshev_adjoint_executor();
// and instantiates ChebyshevAdjointExecutorTest<Backend>. Reference: the dense polynomial
// p(Ht) = sum_k a_k T_k(Ht) (random a_k: the arithmetic needs no true exponential): psi back
// through the conjugated series, lambda through p(Ht)^dag, and the accumulated M against central
// differences of <lambda| p((H + h E - c) / r) psi> in a random direction E.
#pragma once

#include "executor_test_body.hpp"
#include "qevolve/backend/chebyshev_series.hpp"

namespace qevolve::backend::testing {

template <typename Backend>
class ChebyshevAdjointExecutorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const std::string why = Backend::unavailable(); !why.empty()) GTEST_SKIP() << why;
  }

  /// sum_k a_k T_k((H - c) / r), dense.
  static CMatrix dense_series(const std::vector<cplx>& a, const CMatrix& H, double c, double r) {
    const Index D = H.rows();
    const CMatrix Ht = (H - c * CMatrix::Identity(D, D)) / r;
    CMatrix t0 = CMatrix::Identity(D, D), t1 = Ht, out = a[0] * t0;
    if (a.size() > 1) out += a[1] * t1;
    for (std::size_t k = 2; k < a.size(); ++k) {
      CMatrix t2 = 2.0 * Ht * t1 - t0;
      out += a[k] * t2;
      t0 = std::move(t1);
      t1 = std::move(t2);
    }
    return out;
  }
};

TYPED_TEST_SUITE_P(ChebyshevAdjointExecutorTest);

TYPED_TEST_P(ChebyshevAdjointExecutorTest, StepsBackAndAccumulatesTheDerivative) {
  using Backend = TypeParam;
  using Fixture = ChebyshevAdjointExecutorTest<Backend>;
  std::mt19937 rng(31);
  std::normal_distribution<double> nd;
  const Index D = 10, n = 3;
  CMatrix psi = random_matrix(rng, D, n), lambda = random_matrix(rng, D, n);
  const auto executor = Backend::chebyshev_adjoint_executor();
  executor->upload(psi, lambda);
  for (int step = 0; step < 2; ++step) {  // the second step reuses the executor's buffers
    ChebyshevSeries s;
    s.center = 0.1;
    s.radius = 4.0;
    for (int k = 0; k < 9 - 3 * step; ++k) s.a.emplace_back(0.5 * nd(rng), 0.5 * nd(rng));
    const CMatrix H = 0.5 * random_hermitian(rng, D), E = random_hermitian(rng, D);
    ChebyshevGenerator G;
    G.assign(H);
    std::vector<cplx> conj_a;
    for (const cplx& a : s.a) conj_a.push_back(std::conj(a));
    const CMatrix psi_before = Fixture::dense_series(conj_a, H, s.center, s.radius) * psi;
    const CMatrix lambda_after = lambda;
    const CMatrix P = Fixture::dense_series(s.a, H, s.center, s.radius);
    CMatrix M = CMatrix::Zero(D, D);  // M(j, i) = sum_m coef_m T(j, c) conj(W(i, c))
    executor->step_back(s, G, [&](double coef, const PlanarBlock& t, const PlanarBlock& w) {
      for (Index j = 0; j < D; ++j)
        for (Index i = 0; i < D; ++i)
          for (Index c = 0; c < n; ++c)
            M(j, i) += coef * cplx(t.re[static_cast<std::size_t>(j * n + c)], t.im[static_cast<std::size_t>(j * n + c)]) *
                       std::conj(cplx(w.re[static_cast<std::size_t>(i * n + c)], w.im[static_cast<std::size_t>(i * n + c)]));
    });
    EXPECT_LT((psi - psi_before).cwiseAbs().maxCoeff(), 1e-12) << Backend::name << ": step " << step;
    EXPECT_LT((lambda - P.adjoint() * lambda_after).cwiseAbs().maxCoeff(), 1e-12) << Backend::name;
    const double h = 1e-5;
    const CMatrix dP = (Fixture::dense_series(s.a, H + h * E, s.center, s.radius) -
                        Fixture::dense_series(s.a, H - h * E, s.center, s.radius)) / (2 * h);
    const cplx fd = (lambda_after.adjoint() * dP * psi_before).trace();
    const cplx adj = (E * M).trace();
    EXPECT_LT(std::abs(adj - fd), 1e-7 * std::abs(fd)) << Backend::name << ": " << adj << " vs " << fd;
  }
  executor->download(psi, lambda);
}

TYPED_TEST_P(ChebyshevAdjointExecutorTest, MisuseIsRefused) {
  using Backend = TypeParam;
  std::mt19937 rng(37);
  CMatrix psi = random_matrix(rng, 4, 2), lambda = random_matrix(rng, 4, 2), other = psi, wide = random_matrix(rng, 4, 3);
  ChebyshevSeries s;
  s.a = {1.0};
  ChebyshevGenerator G;
  G.assign(CMatrix::Identity(4, 4));
  const auto executor = Backend::chebyshev_adjoint_executor();
  EXPECT_THROW(executor->step_back(s, G, [](double, const PlanarBlock&, const PlanarBlock&) {}), std::logic_error);
  EXPECT_THROW(executor->upload(psi, wide), std::invalid_argument);
  executor->upload(psi, lambda);
  EXPECT_THROW(executor->download(other, lambda), std::logic_error);
  executor->download(psi, lambda);
}

REGISTER_TYPED_TEST_SUITE_P(ChebyshevAdjointExecutorTest, StepsBackAndAccumulatesTheDerivative, MisuseIsRefused);

}  // namespace qevolve::backend::testing
