// Test body of the dense adjoint executor (backend.hpp, DenseAdjointExecutor), written once and
// instantiated per backend that has one (backend/capabilities.hpp: the CPU today). A backend's
// test file supplies, besides the executor_test_body.hpp members,
//   static std::unique_ptr<DenseAdjointExecutor> dense_adjoint_executor();
// and instantiates DenseAdjointExecutorTest<Backend>. Reference: the dense inverse step
// U^dag = W diag(back) W^dag applied to psi and lambda, and B = W^dag (psi_s lambda_{s+1}^dag) W
// formed from the stepped psi and the lambda before the step, for a random unitary W and random
// phases per step.
#pragma once

#include <cmath>
#include <limits>

#include "executor_test_body.hpp"

namespace qevolve::backend::testing {

template <typename Backend>
class DenseAdjointExecutorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const std::string why = Backend::unavailable(); !why.empty()) GTEST_SKIP() << why;
  }
};

TYPED_TEST_SUITE_P(DenseAdjointExecutorTest);

/// Unit-modulus phases exp(i theta), theta uniform in [0, 2 pi).
inline CVector random_phases(std::mt19937& rng, Index D) {
  std::uniform_real_distribution<double> u(0.0, 2.0 * 3.141592653589793);
  CVector back(D);
  for (Index k = 0; k < D; ++k) back(k) = std::polar(1.0, u(rng));
  return back;
}

// Tolerance: every entry compared is a sum of D (psi, lambda: one product with W^dag, one with
// W) or n (B) products of O(1) numbers, so each step adds a few ulps times D (or n) relative to
// the largest entry; over `steps` steps, 8 ulps x max(D, n) x steps of the largest entry. The
// executor and the reference round differently (W diag(back) W^dag is formed first here), so
// the two differ at that level but not by more: a dropped phase or a swapped factor is O(1).
TYPED_TEST_P(DenseAdjointExecutorTest, StepsAndBMatchTheDenseInverseSteps) {
  using Backend = TypeParam;
  constexpr double eps = std::numeric_limits<double>::epsilon();
  constexpr int steps = 4;
  std::mt19937 rng(23);
  for (const auto& [D, n] : {std::pair<Index, Index>{16, 5}, {9, 9}, {4, 1}, {40, 40}}) {
    CMatrix psi = random_matrix(rng, D, n), lambda = random_matrix(rng, D, n);
    CMatrix psi_ref = psi, lambda_ref = lambda;
    const double tol = 8.0 * eps * static_cast<double>(std::max(D, n)) * steps;
    const auto relative = [](const CMatrix& a, const CMatrix& ref) {
      return (a - ref).cwiseAbs().maxCoeff() / ref.cwiseAbs().maxCoeff();
    };
    const auto executor = Backend::dense_adjoint_executor();
    executor->upload(psi, lambda);
    for (int step = 0; step < steps; ++step) {
      const CMatrix W = random_unitary(rng, D);
      const CVector back = random_phases(rng, D);
      const CMatrix inverse = W * back.asDiagonal() * W.adjoint();  // U^dag
      const CMatrix lambda_after = lambda_ref;                       // lambda_{s+1}
      psi_ref = (inverse * psi_ref).eval();
      lambda_ref = (inverse * lambda_ref).eval();
      const CMatrix B_ref = W.adjoint() * (psi_ref * lambda_after.adjoint()) * W;
      const CMatrix B = executor->step_back(W, back);
      ASSERT_EQ(B.rows(), D);
      ASSERT_EQ(B.cols(), D);
      EXPECT_LT(relative(B, B_ref), tol) << Backend::name << ": D = " << D << ", n = " << n << ", step " << step;
    }
    executor->download(psi, lambda);
    EXPECT_LT(relative(psi, psi_ref), tol) << Backend::name << ": psi, D = " << D << ", n = " << n;
    EXPECT_LT(relative(lambda, lambda_ref), tol) << Backend::name << ": lambda, D = " << D << ", n = " << n;
  }
}

TYPED_TEST_P(DenseAdjointExecutorTest, MisuseIsRefused) {
  using Backend = TypeParam;
  std::mt19937 rng(29);
  CMatrix psi = random_matrix(rng, 4, 2), lambda = random_matrix(rng, 4, 2), other = psi;
  CMatrix narrow = random_matrix(rng, 4, 1);
  const CMatrix W = random_unitary(rng, 4);
  const CVector back = random_phases(rng, 4);
  const auto executor = Backend::dense_adjoint_executor();
  EXPECT_THROW((void)executor->step_back(W, back), std::logic_error);
  EXPECT_THROW(executor->upload(psi, narrow), std::invalid_argument);
  executor->upload(psi, lambda);
  EXPECT_THROW((void)executor->step_back(random_unitary(rng, 5), back), std::invalid_argument);
  EXPECT_THROW((void)executor->step_back(W, random_phases(rng, 3)), std::invalid_argument);
  EXPECT_THROW(executor->download(other, lambda), std::logic_error);
  executor->download(psi, lambda);
}

REGISTER_TYPED_TEST_SUITE_P(DenseAdjointExecutorTest, StepsAndBMatchTheDenseInverseSteps, MisuseIsRefused);

}  // namespace qevolve::backend::testing
