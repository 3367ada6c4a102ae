// Test body of the term executor (backend.hpp, TermExecutor), written once and instantiated per
// backend that has one (backend/capabilities.hpp: the CPU today). A backend's test file supplies,
// besides the executor_test_body.hpp members,
//   static std::unique_ptr<TermExecutor> term_executor(const TermSchedule&, Index columns,
//       Index block_width, int threads);
// and instantiates TermExecutorTest<Backend>. Reference: the generator as a dense D x D sum of
// embedded terms; the integrator below takes one explicit Euler step y <- y + h k per block
// (through a swapped vector, as the adaptive integrator swaps its stages), so the stored result
// is (I + h A) Y.
#pragma once

#include <atomic>
#include <stdexcept>

#include "executor_test_body.hpp"

namespace qevolve::backend::testing {

template <typename Backend>
class TermExecutorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const std::string why = Backend::unavailable(); !why.empty()) GTEST_SKIP() << why;
  }

  struct Case {
    TermSchedule schedule;
    std::vector<double> c;  ///< the channels' coefficients (channel 1's is 0: its term is skipped)
    CMatrix A;              ///< sum_k alpha_k c_k O_k, embedded
  };

  static Case make_case(std::mt19937& rng) {
    Case k;
    k.schedule.dims = {3, 2, 2};
    k.c = {0.7, 0.0};
    k.A = CMatrix::Zero(12, 12);
    const std::vector<std::pair<GateModes, int>> terms{
        {{0, 1}, -1}, {{1, 2}, 0}, {{0, -1}, 1}, {{2, -1}, -1}, {{0, 2}, 0}};
    for (const auto& [modes, channel] : terms) {
      const auto& [a, b] = modes;
      const Index g = k.schedule.dims[static_cast<std::size_t>(a)] * (b >= 0 ? k.schedule.dims[static_cast<std::size_t>(b)] : 1);
      const CMatrix O = random_matrix(rng, g, g);
      TermSchedule::Term& t = k.schedule.terms.emplace_back();
      t.mode_a = a;
      t.mode_b = b;
      t.channel = channel;
      t.alpha = cplx(0.3, -1.1);
      for (Index i = 0; i < g * g; ++i) t.matrix.push_back(O(i / g, i % g).real());
      for (Index i = 0; i < g * g; ++i) t.matrix.push_back(O(i / g, i % g).imag());
      const double cj = channel < 0 ? 1.0 : k.c[static_cast<std::size_t>(channel)];
      k.A += t.alpha * cj * dense_gate(k.schedule.dims, a, b, O);
    }
    return k;
  }

  void check(Index columns, Index width, int threads) {
    std::mt19937 rng(static_cast<unsigned>(3 * columns + width + 7 * threads));
    const Case k = make_case(rng);
    const Index D = 12;
    const double h = 0.25;
    const CMatrix start = random_matrix(rng, D, columns);
    CMatrix state = start;
    std::atomic<Index> blocks{0}, widths{0};
    const auto executor = Backend::term_executor(k.schedule, columns, width, threads);
    executor->upload(state);
    Index last_done = 0;
    executor->run(
        [&](TermBlock& block) {
          const Index w = block.columns();
          std::vector<double>& y = block.state();
          ASSERT_EQ(y.size(), static_cast<std::size_t>(2 * D * w));
          std::vector<double> d(y.size()), next(y.size());
          block.derivative(k.c, y.data(), d.data());
          for (std::size_t i = 0; i < y.size(); ++i) next[i] = y[i] + h * d[i];
          y.swap(next);  // the result is what the block's vector holds at the end
          ++blocks;
          widths += w;
        },
        [&](Index done) {
          EXPECT_GT(done, last_done);
          last_done = done;
        });
    executor->download(state);
    const CMatrix expected = start + h * (k.A * start);
    const std::string where = std::string(Backend::name) + ": " + std::to_string(columns) + " columns, width " +
                              std::to_string(width) + ", " + std::to_string(threads) + " threads";
    EXPECT_EQ(widths.load(), columns) << where;
    EXPECT_EQ(blocks.load(), (columns + width - 1) / width) << where;
    EXPECT_LT((state - expected).cwiseAbs().maxCoeff(), 1e-12 * (1.0 + expected.cwiseAbs().maxCoeff())) << where;
  }
};

TYPED_TEST_SUITE_P(TermExecutorTest);

TYPED_TEST_P(TermExecutorTest, DerivativeIsTheDenseGeneratorAndTheBlocksAreStoredBack) {
  for (const auto& [columns, width, threads] : std::vector<std::tuple<Index, Index, int>>{{5, 5, 1}, {7, 3, 2}, {9, 2, 2}})
    this->check(columns, width, threads);
}

TYPED_TEST_P(TermExecutorTest, AnIntegratorsExceptionReachesTheCaller) {
  std::mt19937 rng(2);
  const auto k = this->make_case(rng);
  CMatrix state = random_matrix(rng, 12, 6);
  const auto executor = TypeParam::term_executor(k.schedule, 6, 2, 2);
  executor->upload(state);
  EXPECT_THROW(executor->run([](TermBlock& block) {
    if (block.columns() > 0) throw std::runtime_error("gave up");
  }, {}), std::runtime_error);
}

REGISTER_TYPED_TEST_SUITE_P(TermExecutorTest, DerivativeIsTheDenseGeneratorAndTheBlocksAreStoredBack,
                            AnIntegratorsExceptionReachesTheCaller);

}  // namespace qevolve::backend::testing
