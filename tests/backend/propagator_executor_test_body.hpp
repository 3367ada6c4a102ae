// Test body of the propagator executor (backend.hpp, PropagatorExecutor), written once and
// instantiated per backend that has one (backend/capabilities.hpp: the CPU today). A backend's
// test file supplies, besides the executor_test_body.hpp members,
//   static std::unique_ptr<PropagatorExecutor> propagator_executor();
// and instantiates PropagatorExecutorTest<Backend>. Reference: the dense product of the general
// (non-Hermitian, non-unitary) step matrices, as the dense open step exp(L dt) is.
#pragma once

#include "executor_test_body.hpp"

namespace qevolve::backend::testing {

template <typename Backend>
class PropagatorExecutorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const std::string why = Backend::unavailable(); !why.empty()) GTEST_SKIP() << why;
  }
};

TYPED_TEST_SUITE_P(PropagatorExecutorTest);

TYPED_TEST_P(PropagatorExecutorTest, StepsMatchTheProductOfMatrices) {
  using Backend = TypeParam;
  std::mt19937 rng(13);
  for (const auto& [D, n] : {std::pair<Index, Index>{16, 5}, {9, 9}, {4, 1}}) {
    CMatrix state = random_matrix(rng, D, n);
    CMatrix expected = state;
    const auto executor = Backend::propagator_executor();
    executor->upload(state);
    for (int step = 0; step < 4; ++step) {
      const CMatrix L = random_matrix(rng, D, D) * 0.3;  // a general generator
      const CMatrix M = linalg::expm(L);
      expected = M * expected;
      executor->apply(M);
    }
    executor->download(state);
    EXPECT_LT((state - expected).cwiseAbs().maxCoeff(), 1e-12) << Backend::name << ": D = " << D << ", n = " << n;
  }
}

TYPED_TEST_P(PropagatorExecutorTest, DownloadAndUploadBetweenSteps) {
  // An observer reads the state between steps: download, read, upload, go on.
  using Backend = TypeParam;
  std::mt19937 rng(17);
  const Index D = 9, n = 3;
  CMatrix state = random_matrix(rng, D, n);
  const CMatrix start = state;
  const CMatrix M1 = random_matrix(rng, D, D), M2 = random_matrix(rng, D, D);
  const auto executor = Backend::propagator_executor();
  executor->upload(state);
  executor->apply(M1);
  executor->download(state);
  EXPECT_LT((state - M1 * start).cwiseAbs().maxCoeff(), 1e-12) << Backend::name;
  executor->upload(state);
  executor->apply(M2);
  executor->download(state);
  EXPECT_LT((state - M2 * (M1 * start)).cwiseAbs().maxCoeff(), 1e-11) << Backend::name;
}

TYPED_TEST_P(PropagatorExecutorTest, MisuseIsRefused) {
  using Backend = TypeParam;
  std::mt19937 rng(19);
  CMatrix state = random_matrix(rng, 4, 2), other = state;
  const auto executor = Backend::propagator_executor();
  EXPECT_THROW(executor->apply(CMatrix::Identity(4, 4)), std::logic_error);
  executor->upload(state);
  EXPECT_THROW(executor->apply(CMatrix::Identity(5, 5)), std::invalid_argument);
  EXPECT_THROW(executor->download(other), std::logic_error);
  executor->download(state);
}

REGISTER_TYPED_TEST_SUITE_P(PropagatorExecutorTest, StepsMatchTheProductOfMatrices, DownloadAndUploadBetweenSteps,
                            MisuseIsRefused);

}  // namespace qevolve::backend::testing
