// Test body of the open-system adjoint executor (backend.hpp, OpenAdjointExecutor), written once
// and instantiated per backend that has one (backend/capabilities.hpp: the CPU today). A
// backend's test file supplies, besides the executor_test_body.hpp members,
//   static std::unique_ptr<OpenAdjointExecutor> open_adjoint_executor(const OpenAdjointSchedule&,
//       Index columns, Index block_width, int threads);
// and instantiates OpenAdjointExecutorTest<Backend>. Reference: dense D x D embeddings. Each
// step starts from its own given state (the caller's recomputation); step-dependent gates get a
// random (not unitary) adjoint per step, fixed gates a random inverse and adjoint once; the
// environments are checked through Tr(X env) = sum_c <lambda_c| X |x_c> for a random X, x after
// the gate's P and lambda before its A (fixed gates: summed over every step).
#pragma once

#include "executor_test_body.hpp"

namespace qevolve::backend::testing {

template <typename Backend>
class OpenAdjointExecutorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const std::string why = Backend::unavailable(); !why.empty()) GTEST_SKIP() << why;
  }

  /// O(1) and not unitary (a dissipator's exponential is not).
  static CMatrix near_unitary(std::mt19937& rng, Index g) { return random_unitary(rng, g) + 0.1 * random_matrix(rng, g, g); }

  static void put(const CMatrix& m, double* out) {
    const Index g = m.rows();
    for (Index o = 0; o < g; ++o)
      for (Index j = 0; j < g; ++j) {
        out[o * g + j] = m(o, j).real();
        out[g * g + o * g + j] = m(o, j).imag();
      }
  }

  static cplx trace_with(const CMatrix& X, const double* e) {  // Tr(X env)
    const Index g = X.rows();
    cplx tr = 0.0;
    for (Index x = 0; x < g; ++x)
      for (Index y = 0; y < g; ++y) tr += X(x, y) * cplx(e[y * g + x], e[g * g + y * g + x]);
    return tr;
  }

  /// `steps` steps of `gates` (every third fixed) walked back in segments of `segment` steps.
  void check(const std::vector<int>& dims, const std::vector<GateModes>& gates, int steps, Index columns,
             Index width, int threads, int segment) {
    std::mt19937 rng(static_cast<unsigned>(11 * steps + columns + 17 * threads + segment));
    OpenAdjointSchedule s;
    s.gates = test_schedule(dims, gates, 0, steps);
    s.gates.step_size = 0;
    std::size_t fixed_size = 0;
    for (std::size_t k = 0; k < gates.size(); ++k) {
      const auto gg2 = static_cast<std::size_t>(2 * s.gates.size(static_cast<int>(k)) * s.gates.size(static_cast<int>(k)));
      s.fixed.push_back(k % 3 == 1);
      std::size_t& size = s.fixed.back() ? fixed_size : s.gates.step_size;
      s.gates.gates[k].offset = size;
      size += gg2;
    }
    s.fixed_inverse.assign(fixed_size, 0.0);
    s.fixed_adjoint.assign(fixed_size, 0.0);
    const std::size_t per_step = s.gates.step_size;
    const Index D = s.gates.dim();
    const auto num = static_cast<std::size_t>(s.gates.num_gates());
    // Gates: P (applied to x) and A (to lambda) per step and gate (fixed: the same every step).
    std::vector<CMatrix> fixed_p(num), fixed_a(num);
    for (std::size_t k = 0; k < num; ++k)
      if (s.fixed[k]) {
        const Index g = s.gates.size(static_cast<int>(k));
        fixed_p[k] = near_unitary(rng, g);
        fixed_a[k] = near_unitary(rng, g);
        put(fixed_p[k], s.fixed_inverse.data() + s.gates.gates[k].offset);
        put(fixed_a[k], s.fixed_adjoint.data() + s.gates.gates[k].offset);
      }
    std::vector<double> adj(per_step * static_cast<std::size_t>(steps));
    std::vector<std::vector<CMatrix>> step_gate(static_cast<std::size_t>(steps), std::vector<CMatrix>(num));
    std::vector<CMatrix> after;
    for (int t = 0; t < steps; ++t) {
      for (std::size_t k = 0; k < num; ++k)
        if (!s.fixed[k]) {
          const Index g = s.gates.size(static_cast<int>(k));
          step_gate[static_cast<std::size_t>(t)][k] = near_unitary(rng, g);
          put(step_gate[static_cast<std::size_t>(t)][k], adj.data() + per_step * static_cast<std::size_t>(t) + s.gates.gates[k].offset);
        }
      after.push_back(random_matrix(rng, D, columns));
    }
    const CMatrix lambdaN = random_matrix(rng, D, columns);
    std::vector<CMatrix> X(num);
    for (std::size_t k = 0; k < num; ++k) {
      const Index g = s.gates.size(static_cast<int>(k));
      X[k] = random_matrix(rng, g, g);
    }

    // Reference.
    CMatrix lambda = lambdaN;
    std::vector<std::vector<cplx>> expected(static_cast<std::size_t>(steps), std::vector<cplx>(num));
    std::vector<cplx> expected_fixed(num);
    for (int t = steps - 1; t >= 0; --t) {
      CMatrix x = after[static_cast<std::size_t>(t)];
      for (std::size_t k = num; k-- > 0;) {
        const auto& [a, b] = gates[k];
        const CMatrix& P = s.fixed[k] ? fixed_p[k] : step_gate[static_cast<std::size_t>(t)][k];
        const CMatrix& A = s.fixed[k] ? fixed_a[k] : step_gate[static_cast<std::size_t>(t)][k];
        x = dense_gate(dims, a, b, P) * x;
        const cplx tr = (lambda.adjoint() * dense_gate(dims, a, b, X[k]) * x).trace();
        (s.fixed[k] ? expected_fixed[k] : expected[static_cast<std::size_t>(t)][k]) += tr;
        lambda = dense_gate(dims, a, b, A) * lambda;
      }
    }

    CMatrix l = lambdaN;
    std::vector<double> env(per_step * static_cast<std::size_t>(steps), 0.0), fixed_env(fixed_size, 0.0);
    const auto executor = Backend::open_adjoint_executor(s, columns, width, threads);
    executor->upload(l);
    const int num_segments = (steps + segment - 1) / segment;
    for (int ci = num_segments - 1; ci >= 0; --ci) {
      const int s0 = ci * segment, s1 = std::min(steps, s0 + segment);
      std::vector<const CMatrix*> states;
      for (int t = s0; t < s1; ++t) states.push_back(&after[static_cast<std::size_t>(t)]);
      const auto at = per_step * static_cast<std::size_t>(s0);
      executor->apply(states, adj.data() + at, s0, s1, env.data() + at, fixed_env.data());
    }
    executor->download(l);
    const std::string where = std::string(Backend::name) + ": " + std::to_string(columns) + " columns, width " +
                              std::to_string(width) + ", " + std::to_string(threads) + " threads, segments of " +
                              std::to_string(segment);
    EXPECT_LT((l - lambda).cwiseAbs().maxCoeff(), 1e-12 * (1.0 + lambda.cwiseAbs().maxCoeff())) << where;
    for (std::size_t k = 0; k < num; ++k) {
      if (s.fixed[k]) {
        const cplx tr = trace_with(X[k], fixed_env.data() + s.gates.gates[k].offset);
        EXPECT_LT(std::abs(tr - expected_fixed[k]), 1e-11 * (1.0 + std::abs(tr))) << where << ": fixed gate " << k;
        continue;
      }
      for (int t = 0; t < steps; ++t) {
        const cplx tr = trace_with(X[k], env.data() + per_step * static_cast<std::size_t>(t) + s.gates.gates[k].offset);
        EXPECT_LT(std::abs(tr - expected[static_cast<std::size_t>(t)][k]), 1e-11 * (1.0 + std::abs(tr)))
            << where << ": gate " << k << ", step " << t;
      }
    }
  }
};

TYPED_TEST_SUITE_P(OpenAdjointExecutorTest);

TYPED_TEST_P(OpenAdjointExecutorTest, MatchesTheDenseSweepAndItsEnvironments) {
  // A doubled register of two modes (column digits 0, 1; row digits 2, 3): row gates, column
  // gates and dissipator-like gates on a (column, row) pair.
  const std::vector<GateModes> gates{{2, 3}, {0, 2}, {0, 1}, {3, -1}, {1, 3}, {1, -1}};
  for (const auto& [width, threads, segment] : std::vector<std::tuple<Index, int, int>>{{4, 1, 3}, {3, 2, 4}, {9, 2, 7}})
    this->check({2, 3, 2, 3}, gates, 7, 9, width, threads, segment);
}

REGISTER_TYPED_TEST_SUITE_P(OpenAdjointExecutorTest, MatchesTheDenseSweepAndItsEnvironments);

}  // namespace qevolve::backend::testing
