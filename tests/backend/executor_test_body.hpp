// Test bodies of the executors (backend.hpp) and of the phase functor (phase.hpp), written once
// and instantiated per backend (the qsim fixture pattern, as local_gate_test_body.hpp). A
// backend's test file supplies a `Backend` type with
//   static constexpr const char* name;
//   static std::string unavailable();   // empty, or why the tests skip
//   template <class Real> static std::unique_ptr<GateExecutor<Real>> gate_executor(
//       const GateSchedule&, Index columns, Index block_width, int threads, int chunk_steps);
//   static std::unique_ptr<DenseExecutor> dense_executor(Index dim, Index columns);
//   static void apply_phases(const double* v, double* w, const double* lambda, double scale,
//                            std::ptrdiff_t rows, std::ptrdiff_t cols);
// and instantiates GateExecutorTest<Combo<Backend, Real>>, DenseExecutorTest<Backend> and
// PhaseTest<Backend>. References are dense products of D x D embeddings (Eigen, LAPACK).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "local_gate_test_body.hpp"
#include "qevolve/backend/backend.hpp"
#include "qevolve/linalg.hpp"

namespace qevolve::backend::testing {

inline CMatrix random_matrix(std::mt19937& rng, Index rows, Index cols) {
  std::normal_distribution<double> nd;
  CMatrix M(rows, cols);
  for (Index i = 0; i < M.size(); ++i) M.data()[i] = {nd(rng), nd(rng)};
  return M;
}

/// A random unitary (Q of a QR factorisation): products of many stay O(1).
inline CMatrix random_unitary(std::mt19937& rng, Index g) {
  const CMatrix M = random_matrix(rng, g, g);
  return Eigen::HouseholderQR<CMatrix>(M).householderQ() * CMatrix::Identity(g, g);
}

inline CMatrix random_hermitian(std::mt19937& rng, Index d) {
  const CMatrix M = random_matrix(rng, d, d);
  return 0.5 * (M + M.adjoint());
}

/// A gate on modes (a, b), b = -1 for one mode.
using GateModes = std::pair<int, int>;

/// A schedule of `gates` on a state of `dims`, gate buffers one after another; `blocks` per gate
/// (GateSchedule::Gate::blocks; empty: dense).
inline GateSchedule test_schedule(const std::vector<int>& dims, const std::vector<GateModes>& gates, int boundary,
                                  int steps, const std::vector<std::vector<std::vector<int>>>& blocks = {}) {
  GateSchedule s;
  s.dims = dims;
  for (std::size_t k = 0; k < gates.size(); ++k) {
    const auto& [a, b] = gates[k];
    s.gates.push_back({a, b, s.step_size, k < blocks.size() ? blocks[k] : std::vector<std::vector<int>>{}});
    const auto g = static_cast<std::size_t>(dims[static_cast<std::size_t>(a)] *
                                            (b >= 0 ? dims[static_cast<std::size_t>(b)] : 1));
    s.step_size += 2 * g * g;
  }
  s.boundary = boundary;
  s.steps = steps;
  return s;
}

template <typename C>
class GateExecutorTest : public ::testing::Test {
 protected:
  using Backend = typename C::backend;
  using Real = typename C::real;
  void SetUp() override {
    if (const std::string why = Backend::unavailable(); !why.empty()) GTEST_SKIP() << why;
  }
  // Per gate application the error is a few ulp of a g-term sum of O(1) terms.
  static double tolerance() { return sizeof(Real) == 8 ? 1e-13 : 3e-5; }

  /// Block structure per gate (GateSchedule::Gate::blocks; empty: dense).
  using Blocks = std::vector<std::vector<std::vector<int>>>;

  static GateSchedule schedule(const std::vector<int>& dims, const std::vector<GateModes>& gates,
                               int boundary, int steps, const Blocks& blocks = {}) {
    return test_schedule(dims, gates, boundary, steps, blocks);
  }

  /// Random unitary gates for every step, uploaded in chunks of `chunk` steps (blocks of
  /// `width` columns, `threads` threads on the CPU), against the dense product of the same
  /// (Real-rounded) gates applied to the same (Real-rounded) columns.
  /// A gate with `blocks` is a random unitary on each block and exactly zero between them.
  void check(const std::vector<int>& dims, const std::vector<GateModes>& gates, int boundary,
             int steps, Index columns, Index width, int threads, int chunk, const Blocks& blocks = {}) {
    std::mt19937 rng(static_cast<unsigned>(steps * 1000 + columns * 10 + gates.size()));
    const GateSchedule s = schedule(dims, gates, boundary, steps, blocks);
    const Index D = s.dim();
    std::vector<Real> buffer(s.step_size * static_cast<std::size_t>(steps));
    std::vector<std::vector<CMatrix>> dense(static_cast<std::size_t>(steps));
    for (int t = 0; t < steps; ++t)
      for (int k = 0; k < s.num_gates(); ++k) {
        const Index g = s.size(k);
        CMatrix G = CMatrix::Zero(g, g);
        const auto& groups = s.gates[static_cast<std::size_t>(k)].blocks;
        if (groups.empty()) {
          G = random_unitary(rng, g);
        } else {
          for (const auto& group : groups) {
            const auto n = static_cast<Index>(group.size());
            const CMatrix B = random_unitary(rng, n);
            for (Index i = 0; i < n; ++i)
              for (Index j = 0; j < n; ++j) G(group[static_cast<std::size_t>(i)], group[static_cast<std::size_t>(j)]) = B(i, j);
          }
        }
        Real* out = buffer.data() + s.step_size * static_cast<std::size_t>(t) + s.gates[static_cast<std::size_t>(k)].offset;
        CMatrix rounded(g, g);
        for (Index o = 0; o < g; ++o)
          for (Index j = 0; j < g; ++j) {
            out[o * g + j] = static_cast<Real>(G(o, j).real());
            out[g * g + o * g + j] = static_cast<Real>(G(o, j).imag());
            rounded(o, j) = {static_cast<double>(out[o * g + j]), static_cast<double>(out[g * g + o * g + j])};
          }
        const auto& [a, b] = gates[static_cast<std::size_t>(k)];
        dense[static_cast<std::size_t>(t)].push_back(dense_gate(dims, a, b, rounded));
      }
    CMatrix state = random_matrix(rng, D, columns);
    for (Index i = 0; i < state.size(); ++i)
      state.data()[i] = {static_cast<double>(static_cast<Real>(state.data()[i].real())),
                         static_cast<double>(static_cast<Real>(state.data()[i].imag()))};
    CMatrix expected = state;
    for (int t = 0; t < steps; ++t)
      for (int k = 0; k < s.applied(t); ++k) expected = dense[static_cast<std::size_t>(t)][static_cast<std::size_t>(k)] * expected;

    const auto executor = Backend::template gate_executor<Real>(s, columns, width, threads, chunk);
    executor->upload(state);
    for (int s0 = 0; s0 < steps; s0 += chunk) {
      const int s1 = std::min(steps, s0 + chunk);
      executor->apply(buffer.data() + s.step_size * static_cast<std::size_t>(s0), s0, s1);
    }
    executor->download(state);
    double worst = 0.0;
    for (Index i = 0; i < D; ++i)
      for (Index c = 0; c < columns; ++c)
        worst = std::max(worst, std::abs(state(i, c) - expected(i, c)) / (1.0 + std::abs(expected(i, c))));
    EXPECT_LT(worst, tolerance()) << Backend::name << ": " << gates.size() << " gates, " << steps
                                  << " steps, " << columns << " columns, width " << width << ", "
                                  << threads << " threads, chunks of " << chunk;
  }
};

/// Factored gates (GateSchedule::Gate::factor_position): G = D S on two 2-level modes, S
/// block diagonal over {0, 3}, {1, 2}, D = [[c, d01], [d10, c]] of the given kind on one mode;
/// the full matrix at the gate's offset, c S and R = D / c in its factor region. Against the
/// dense product (an executor may use either form).
template <typename Real, typename Backend>
void check_factored(int kind, Index width, int threads) {
  std::mt19937 rng(static_cast<unsigned>(100 * kind + 10 * width + threads));
  std::uniform_real_distribution<double> angle(-3.0, 3.0);
  GateSchedule s;
  s.dims = {2, 2, 2};
  s.steps = 3;
  const std::vector<GateModes> modes{{0, 1}, {1, 2}, {0, 2}};
  for (const auto& [a, b] : modes) {
    s.gates.push_back({a, b, s.step_size, {}});
    s.step_size += 32;
  }
  for (int k = 0; k < 2; ++k) {  // the first two are factored, on positions 0 and 1
    auto& gate = s.gates[static_cast<std::size_t>(k)];
    gate.blocks = {{0, 3}, {1, 2}};
    gate.factor_position = k;
    gate.factor_kind = kind;
    gate.factor_offset = s.step_size;
    s.step_size += 32 + kDriveFactorSize;
  }
  std::vector<Real> buffer(s.step_size * 3);
  CMatrix state = random_matrix(rng, 8, 6);
  CMatrix expected = state;
  for (int t = 0; t < 3; ++t) {
    Real* step = buffer.data() + s.step_size * static_cast<std::size_t>(t);
    for (std::size_t k = 0; k < 3; ++k) {
      const auto& gate = s.gates[k];
      CMatrix G(4, 4);
      if (gate.factor_position < 0) {
        G = random_unitary(rng, 4);
      } else {
        CMatrix S = CMatrix::Zero(4, 4);
        const CMatrix even = random_unitary(rng, 2), odd = random_unitary(rng, 2);
        const int e[2] = {0, 3}, o[2] = {1, 2};
        for (int i = 0; i < 2; ++i)
          for (int j = 0; j < 2; ++j) {
            S(e[i], e[j]) = even(i, j);
            S(o[i], o[j]) = odd(i, j);
          }
        // D = exp(-i a (u |0><1| + conj(u) |1><0|)), u = 1 (kind 1: real o), i (kind 0), e^{i phi}.
        const double a = angle(rng);
        const cplx u = kind == 0 ? cplx(0.0, 1.0) : kind == 1 ? cplx(1.0, 0.0) : std::polar(1.0, angle(rng));
        const cplx d01 = cplx(0.0, -std::sin(a)) * u, d10 = cplx(0.0, -std::sin(a)) * std::conj(u);
        // Stored as R (c S) with R = D / c (GateSchedule::Gate); the reference uses the stored
        // (rounded) numbers.
        const double c = std::cos(a);
        Real* f = step + gate.factor_offset;
        for (int i = 0; i < 16; ++i) {
          f[i] = static_cast<Real>(c * S(i / 4, i % 4).real());
          f[16 + i] = static_cast<Real>(c * S(i / 4, i % 4).imag());
        }
        const Real w[kDriveFactorSize] = {static_cast<Real>(d01.real() / c), static_cast<Real>(d01.imag() / c),
                                          static_cast<Real>(d10.real() / c), static_cast<Real>(d10.imag() / c)};
        std::copy(w, w + kDriveFactorSize, f + 32);
        for (int i = 0; i < 4; ++i)
          for (int j = 0; j < 4; ++j) S(i, j) = {static_cast<double>(f[i * 4 + j]), static_cast<double>(f[16 + i * 4 + j])};
        CMatrix R(2, 2);
        R << 1.0, cplx(w[0], w[1]), cplx(w[2], w[3]), 1.0;
        G = (gate.factor_position == 0 ? linalg::kron(R, CMatrix::Identity(2, 2))
                                       : linalg::kron(CMatrix::Identity(2, 2), R)) *
            S;
      }
      Real* out = step + gate.offset;
      for (int i = 0; i < 16; ++i) {
        out[i] = static_cast<Real>(G(i / 4, i % 4).real());
        out[16 + i] = static_cast<Real>(G(i / 4, i % 4).imag());
      }
      expected = dense_gate(s.dims, gate.mode_a, gate.mode_b, G) * expected;
    }
  }
  const auto executor = Backend::template gate_executor<Real>(s, 6, width, threads, 3);
  executor->upload(state);
  executor->apply(buffer.data(), 0, 3);
  executor->download(state);
  const double tol = sizeof(Real) == 8 ? 1e-13 : 3e-5;  // the dense full matrix rounds too
  EXPECT_LT((state - expected).cwiseAbs().maxCoeff(), tol)
      << Backend::name << ": kind " << kind << ", width " << width << ", " << threads << " threads";
}

TYPED_TEST_SUITE_P(GateExecutorTest);

TYPED_TEST_P(GateExecutorTest, MixedGatesMatchTheDenseProduct) {
  const std::vector<int> dims{3, 2, 4, 2};
  const std::vector<GateModes> gates{{0, -1}, {0, 1}, {1, 3}, {2, -1}, {2, 3}, {0, 3}, {3, -1}};
  for (Index width : {1, 3, 10})
    for (int threads : {1, 2})
      for (int chunk : {1, 3, 7}) this->check(dims, gates, 0, 7, 10, width, threads, chunk);
}

TYPED_TEST_P(GateExecutorTest, BoundaryGatesOnlyInTheLastStep) {
  // splitting: bonds: the trailing gates of a step were merged into the next step's leading
  // gates on the host; only the last step applies them.
  const std::vector<int> dims{2, 3, 2};
  const std::vector<GateModes> gates{{0, 1}, {1, 2}, {0, 1}, {1, 2}};
  for (int chunk : {1, 2, 5}) this->check(dims, gates, 2, 5, 6, 4, 2, chunk);
  this->check(dims, gates, 2, 1, 6, 4, 1, 1);
}

TYPED_TEST_P(GateExecutorTest, RuntimeGateSizes) {
  // g = 49 and 14: the runtime-g functor; g = 4: compile-time.
  this->check({7, 7, 2}, {{0, 1}, {1, 2}, {2, -1}}, 0, 3, 5, 2, 2, 2);
}

TYPED_TEST_P(GateExecutorTest, BlockGatesMatchTheDenseProduct) {
  // Gates with GateSchedule::Gate::blocks: equal groups applied in one sweep by the CPU
  // executor (the parity pair {00, 11}, {01, 10}; 3 + 3 on a 2 x 3 gate), unequal groups one
  // by one, a one-mode gate split into singletons (a diagonal), among dense gates; a blocked
  // boundary gate. Executors may also apply the full matrix (its zeros included).
  const std::vector<int> dims{2, 2, 3, 2};
  const std::vector<GateModes> gates{{0, 1}, {1, 2}, {2, 3}, {2, -1}, {0, 3}, {0, 1}};
  const typename TestFixture::Blocks blocks{{{0, 3}, {1, 2}},
                                            {{0, 2, 4}, {1, 3, 5}},
                                            {{0, 1, 5}, {2}, {3, 4}},
                                            {{0}, {1}, {2}},
                                            {},
                                            {{0, 3}, {1, 2}}};
  for (Index width : {1, 3, 10})
    for (int threads : {1, 2}) this->check(dims, gates, 0, 4, 10, width, threads, 3, blocks);
  this->check(dims, gates, 1, 5, 7, 4, 2, 2, blocks);
}

TYPED_TEST_P(GateExecutorTest, FactoredGatesMatchTheDenseProduct) {
  for (int kind : {0, 1, 2})
    for (Index width : {1, 3, 10})
      for (int threads : {1, 2})
        check_factored<typename TestFixture::Real, typename TestFixture::Backend>(kind, width, threads);
}

REGISTER_TYPED_TEST_SUITE_P(GateExecutorTest, MixedGatesMatchTheDenseProduct,
                            BoundaryGatesOnlyInTheLastStep, RuntimeGateSizes,
                            BlockGatesMatchTheDenseProduct, FactoredGatesMatchTheDenseProduct);

template <typename Backend>
class DenseExecutorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const std::string why = Backend::unavailable(); !why.empty()) GTEST_SKIP() << why;
  }
};

TYPED_TEST_SUITE_P(DenseExecutorTest);

TYPED_TEST_P(DenseExecutorTest, StepsMatchTheProductOfExponentials) {
  using Backend = TypeParam;
  std::mt19937 rng(7);
  for (const auto& [D, n] : {std::pair<Index, Index>{12, 5}, {9, 9}, {5, 1}}) {
    const double scale = 0.37;
    CMatrix state = random_matrix(rng, D, n);
    CMatrix expected = state;
    const auto executor = Backend::dense_executor(D, n);
    executor->upload(state);
    for (int step = 0; step < 4; ++step) {
      const CMatrix H = random_hermitian(rng, D);
      expected = linalg::expm_hermitian(H, scale) * expected;
      executor->apply_exponential(H, scale);
    }
    executor->download(state);
    EXPECT_LT((state - expected).cwiseAbs().maxCoeff(), 1e-12) << Backend::name << ": D = " << D << ", n = " << n;
  }
}

TYPED_TEST_P(DenseExecutorTest, ColumnsStayNormalised) {
  // The eigenvectors are refined to unitarity, so 200 steps keep every column's norm.
  using Backend = TypeParam;
  std::mt19937 rng(11);
  const Index D = 16, n = 4;
  CMatrix state = random_matrix(rng, D, n);
  state.colwise().normalize();
  const auto executor = Backend::dense_executor(D, n);
  executor->upload(state);
  const CMatrix H = random_hermitian(rng, D);
  for (int step = 0; step < 200; ++step) executor->apply_exponential(H, 0.05);
  executor->download(state);
  for (Index c = 0; c < n; ++c) EXPECT_NEAR(state.col(c).norm(), 1.0, 1e-13) << Backend::name;
}

REGISTER_TYPED_TEST_SUITE_P(DenseExecutorTest, StepsMatchTheProductOfExponentials, ColumnsStayNormalised);

template <typename Backend>
class PhaseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const std::string why = Backend::unavailable(); !why.empty()) GTEST_SKIP() << why;
  }
};

TYPED_TEST_SUITE_P(PhaseTest);

TYPED_TEST_P(PhaseTest, ColumnsTimesPhases) {
  using Backend = TypeParam;
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> ud(-20.0, 20.0);
  const Index rows = 7, cols = 5;
  const CMatrix V = random_matrix(rng, rows, cols);
  RVector lambda(cols);
  for (Index k = 0; k < cols; ++k) lambda(k) = ud(rng);
  const double scale = 0.73;
  CMatrix W(rows, cols);
  Backend::apply_phases(reinterpret_cast<const double*>(V.data()), reinterpret_cast<double*>(W.data()),
                        lambda.data(), scale, rows, cols);
  for (Index k = 0; k < cols; ++k)
    for (Index i = 0; i < rows; ++i)
      EXPECT_LT(std::abs(W(i, k) - V(i, k) * std::polar(1.0, -scale * lambda(k))), 1e-14 * (1.0 + std::abs(V(i, k))))
          << Backend::name << " (" << i << ", " << k << ")";
}

TYPED_TEST_P(PhaseTest, GivesTheExponentialWithTheEigenvectors) {
  // exp(-i scale H) = W V^dag with H = V diag(lambda) V^dag.
  using Backend = TypeParam;
  std::mt19937 rng(5);
  const Index D = 10;
  const CMatrix H = random_hermitian(rng, D);
  RVector lambda;
  CMatrix V;
  linalg::hermitian_eigen(H, lambda, V);
  CMatrix W(D, D);
  Backend::apply_phases(reinterpret_cast<const double*>(V.data()), reinterpret_cast<double*>(W.data()),
                        lambda.data(), 0.3, D, D);
  EXPECT_LT((W * V.adjoint() - linalg::expm_hermitian(H, 0.3)).cwiseAbs().maxCoeff(), 1e-13) << Backend::name;
}

REGISTER_TYPED_TEST_SUITE_P(PhaseTest, ColumnsTimesPhases, GivesTheExponentialWithTheEigenvectors);

}  // namespace qevolve::backend::testing
