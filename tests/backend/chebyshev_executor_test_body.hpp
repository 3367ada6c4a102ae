// Test body of the Chebyshev executor (backend.hpp, ChebyshevExecutor), written once and
// instantiated per backend that has one (backend/capabilities.hpp: the CPU today). A backend's
// test file supplies, besides the executor_test_body.hpp members,
//   static std::unique_ptr<ChebyshevExecutor> chebyshev_executor(Index dim, Index columns,
//       Index block_width, int threads, double run_flops);
// and instantiates ChebyshevExecutorTest<Backend>. Reference: per step the dense
// H_u = A_u + alpha_u O (O on one mode, embedded) and x <- sum_k a_k T_k((H_u - c) / r) x by the
// dense three-term recurrence (random a_k: the executor's arithmetic does not need a true
// exponential); a block observer's blocks against the reference at their boundaries.
#pragma once

#include <mutex>

#include "executor_test_body.hpp"
#include "qevolve/backend/chebyshev_series.hpp"

namespace qevolve::backend::testing {

template <typename Backend>
class ChebyshevExecutorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const std::string why = Backend::unavailable(); !why.empty()) GTEST_SKIP() << why;
  }

  /// dims {3, 4, 2}: a sparse complex A_u and a local term on mode 1 (outer 3, inner 2).
  static constexpr Index kDim = 24;

  struct Step {
    ChebyshevStep data;
    CMatrix H;
  };

  static std::vector<Step> make_steps(std::mt19937& rng, int steps) {
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    const CMatrix O = random_hermitian(rng, 4);
    std::vector<Step> out(static_cast<std::size_t>(steps));
    for (Step& s : out) {
      CMatrix A = CMatrix::Zero(kDim, kDim);
      for (Index i = 0; i < kDim; ++i)
        for (Index j = i; j < kDim; ++j)
          if ((i * 7 + j * 3) % 5 < 2) {
            A(i, j) = cplx(u(rng), i == j ? 0.0 : u(rng));
            A(j, i) = std::conj(A(i, j));
          }
      s.data.h.assign(A);
      ChebyshevGenerator::Local t;
      t.d = 4;
      t.outer = 3;
      t.inner = 2;
      for (Index k = 0; k < 16; ++k) {
        t.re.push_back(O(k / 4, k % 4).real());
        t.im.push_back(O(k / 4, k % 4).imag());
      }
      t.alpha = 0.5 * u(rng);
      s.data.h.locals.push_back(t);
      s.H = A + t.alpha * linalg::kron(linalg::kron(CMatrix::Identity(3, 3), O), CMatrix::Identity(2, 2));
      s.data.series.center = 0.3 * u(rng);
      s.data.series.radius = 2.0 + u(rng);
      for (int k = 0; k < 9; ++k) s.data.series.a.emplace_back(u(rng) / (1 + k), u(rng) / (1 + k));
    }
    return out;
  }

  static CMatrix reference_step(const Step& s, const CMatrix& x) {
    const ChebyshevSeries& p = s.data.series;
    const CMatrix Ht = (s.H - p.center * CMatrix::Identity(kDim, kDim)) / p.radius;
    CMatrix prev = x, cur = Ht * x, sum = p.a[0] * x + p.a[1] * cur;
    for (std::size_t k = 2; k < p.a.size(); ++k) {
      CMatrix next = 2.0 * (Ht * cur) - prev;
      sum += p.a[k] * next;
      prev = std::move(cur);
      cur = std::move(next);
    }
    return sum;
  }

  void check(Index columns, Index width, int threads, const std::vector<int>& segments) {
    std::mt19937 rng(static_cast<unsigned>(5 * columns + width + 13 * threads));
    const int steps = segments.back();
    const std::vector<Step> data = make_steps(rng, steps);
    const CMatrix start = random_matrix(rng, kDim, columns);
    std::vector<CMatrix> expected{start};
    for (int u = 0; u < steps; ++u) expected.push_back(reference_step(data[static_cast<std::size_t>(u)], expected.back()));

    CMatrix state = start;
    const auto executor = Backend::chebyshev_executor(kDim, columns, width, threads, 1e9);
    std::mutex seen_lock;
    std::vector<std::pair<int, double>> seen;  // (boundary, error of the block)
    BlockObserver<double> o{{2, steps - 1}, [&](int b, Index c0, Index w, const double* re, const double* im) {
                              double err = 0.0;
                              for (Index i = 0; i < kDim; ++i)
                                for (Index c = 0; c < w; ++c)
                                  err = std::max(err, std::abs(cplx(re[i * w + c], im[i * w + c]) -
                                                               expected[static_cast<std::size_t>(b)](i, c0 + c)));
                              const std::lock_guard<std::mutex> lock(seen_lock);
                              seen.emplace_back(b, err);
                            }};
    const bool observed = executor->observe_blocks(std::move(o));
    executor->upload(state);
    int u0 = 0, last_done = -1;
    for (int u1 : segments) {
      executor->apply(
          u0, u1, [&](int u, ChebyshevStep& d) { d = data[static_cast<std::size_t>(u)].data; },
          [&, u0, u1](int u) {  // the calling thread's blocks, each through every step
            EXPECT_TRUE(u >= u0 && u < u1) << u;
            last_done = std::max(last_done, u);
          });
      u0 = u1;
    }
    executor->download(state);
    const std::string where = std::string(Backend::name) + ": " + std::to_string(columns) + " columns, width " +
                              std::to_string(width) + ", " + std::to_string(threads) + " threads";
    const double scale = 1.0 + expected.back().cwiseAbs().maxCoeff();
    EXPECT_LT((state - expected.back()).cwiseAbs().maxCoeff(), 1e-12 * scale) << where;
    if (threads == 1) {  // (with more, the calling thread may get no block)
      EXPECT_EQ(last_done, steps - 1) << where;
    }
    if (!observed) return;
    EXPECT_EQ(seen.size(), static_cast<std::size_t>(2 * ((columns + width - 1) / width))) << where;
    for (const auto& [b, err] : seen) EXPECT_LT(err, 1e-12 * scale) << where << ", boundary " << b;
  }
};

TYPED_TEST_SUITE_P(ChebyshevExecutorTest);

TYPED_TEST_P(ChebyshevExecutorTest, MatchesTheDenseRecurrenceAndShowsTheBlocks) {
  this->check(3, 3, 1, {5});
  this->check(5, 3, 2, {2, 5, 6});
  this->check(7, 1, 2, {1, 4, 6});
}

REGISTER_TYPED_TEST_SUITE_P(ChebyshevExecutorTest, MatchesTheDenseRecurrenceAndShowsTheBlocks);

}  // namespace qevolve::backend::testing
