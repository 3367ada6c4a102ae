// Test body of the closed adjoint executor (backend.hpp, AdjointExecutor), written once and
// instantiated per backend (as executor_test_body.hpp). A backend's test file supplies, besides
// the executor_test_body.hpp members,
//   static std::unique_ptr<AdjointExecutor> adjoint_executor(const GateSchedule&,
//       std::vector<bool> environment, Index columns, Index block_width, int threads);
// and instantiates AdjointExecutorTest<Backend>. Reference: dense D x D embeddings; the
// environment is checked through its defining identity Tr(X env) = sum_c <lambda_c| X |psi_c>
// for a random gate-local X (X embedded), psi after and lambda before the gate's step back.
#pragma once

#include "executor_test_body.hpp"

namespace qevolve::backend::testing {

template <typename Backend>
class AdjointExecutorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const std::string why = Backend::unavailable(); !why.empty()) GTEST_SKIP() << why;
  }

  /// Steps back through `steps` steps of random unitary gates on `gates` in chunks of `chunk`,
  /// environments of every other gate, against the dense reference.
  void check(const std::vector<int>& dims, const std::vector<GateModes>& gates, int steps, Index columns,
             Index width, int threads, int chunk) {
    std::mt19937 rng(static_cast<unsigned>(7 * steps + columns + 31 * threads));
    const GateSchedule s = test_schedule(dims, gates, 0, steps);
    const Index D = s.dim();
    const auto per_step = s.step_size;
    std::vector<double> adj(per_step * static_cast<std::size_t>(steps));  // g^dag, split re/im
    std::vector<std::vector<CMatrix>> G(static_cast<std::size_t>(steps));
    std::vector<bool> environment(gates.size());
    for (std::size_t k = 0; k < gates.size(); ++k) environment[k] = k % 2 == 0;
    for (int t = 0; t < steps; ++t)
      for (int k = 0; k < s.num_gates(); ++k) {
        const Index g = s.size(k);
        const CMatrix U = random_unitary(rng, g);
        const CMatrix Ud = U.adjoint();
        double* out = adj.data() + per_step * static_cast<std::size_t>(t) + s.gates[static_cast<std::size_t>(k)].offset;
        for (Index o = 0; o < g; ++o)
          for (Index j = 0; j < g; ++j) {
            out[o * g + j] = Ud(o, j).real();
            out[g * g + o * g + j] = Ud(o, j).imag();
          }
        G[static_cast<std::size_t>(t)].push_back(U);
      }
    const CMatrix psiN = random_matrix(rng, D, columns), lambdaN = random_matrix(rng, D, columns);

    // Reference, and the expected Tr(X env) of a random X per (step, gate).
    CMatrix psi = psiN, lambda = lambdaN;
    std::vector<std::vector<CMatrix>> X(static_cast<std::size_t>(steps));
    std::vector<std::vector<cplx>> expected(static_cast<std::size_t>(steps));
    for (int t = steps - 1; t >= 0; --t) {
      X[static_cast<std::size_t>(t)].resize(gates.size());
      expected[static_cast<std::size_t>(t)].resize(gates.size());
      for (int k = s.num_gates() - 1; k >= 0; --k) {
        const auto kk = static_cast<std::size_t>(k);
        const auto& [a, b] = gates[kk];
        const CMatrix Ud = dense_gate(dims, a, b, G[static_cast<std::size_t>(t)][kk].adjoint());
        psi = Ud * psi;
        X[static_cast<std::size_t>(t)][kk] = random_matrix(rng, s.size(k), s.size(k));
        const CMatrix Xd = dense_gate(dims, a, b, X[static_cast<std::size_t>(t)][kk]);
        expected[static_cast<std::size_t>(t)][kk] = (lambda.adjoint() * Xd * psi).trace();
        lambda = Ud * lambda;
      }
    }

    CMatrix p = psiN, l = lambdaN;
    std::vector<double> env(per_step * static_cast<std::size_t>(steps), 0.0);
    const auto executor = Backend::adjoint_executor(s, environment, columns, width, threads);
    executor->upload(p, l);
    const int num_chunks = (steps + chunk - 1) / chunk;
    for (int ci = num_chunks - 1; ci >= 0; --ci) {
      const int s0 = ci * chunk, s1 = std::min(steps, s0 + chunk);
      const auto at = per_step * static_cast<std::size_t>(s0);
      executor->apply(adj.data() + at, s0, s1, env.data() + at);
    }
    executor->download(p, l);
    const std::string where = std::string(Backend::name) + ": " + std::to_string(columns) + " columns, width " +
                              std::to_string(width) + ", " + std::to_string(threads) + " threads";
    EXPECT_LT((p - psi).cwiseAbs().maxCoeff(), 1e-12) << where;
    EXPECT_LT((l - lambda).cwiseAbs().maxCoeff(), 1e-12) << where;
    for (int t = 0; t < steps; ++t)
      for (int k = 0; k < s.num_gates(); ++k) {
        const auto kk = static_cast<std::size_t>(k);
        const Index g = s.size(k);
        const double* e = env.data() + per_step * static_cast<std::size_t>(t) + s.gates[kk].offset;
        cplx tr = 0.0;  // Tr(X env) = sum_{x,y} X(x, y) env(y, x)
        for (Index x = 0; x < g; ++x)
          for (Index y = 0; y < g; ++y) tr += X[static_cast<std::size_t>(t)][kk](x, y) * cplx(e[y * g + x], e[g * g + y * g + x]);
        if (environment[kk])
          EXPECT_LT(std::abs(tr - expected[static_cast<std::size_t>(t)][kk]), 1e-11 * (1.0 + std::abs(tr))) << where;
        else
          EXPECT_EQ(tr, cplx(0.0)) << where << ": gate " << k << " has no environment";
      }
  }
};

TYPED_TEST_SUITE_P(AdjointExecutorTest);

TYPED_TEST_P(AdjointExecutorTest, MatchesTheDenseAdjointAndItsEnvironments) {
  const std::vector<GateModes> gates{{0, 1}, {1, 2}, {0, -1}, {2, -1}};
  for (const auto& [width, threads, chunk] : std::vector<std::tuple<Index, int, int>>{{4, 1, 2}, {3, 2, 3}, {11, 2, 5}})
    this->check({3, 2, 2}, gates, 5, 11, width, threads, chunk);
}

REGISTER_TYPED_TEST_SUITE_P(AdjointExecutorTest, MatchesTheDenseAdjointAndItsEnvironments);

}  // namespace qevolve::backend::testing
