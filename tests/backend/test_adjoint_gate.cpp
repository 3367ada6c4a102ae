// The fused adjoint sweep (backend::adjoint_gate) and the environment kernel
// (backend::accumulate_environment) against a dense reference: psi <- P psi, env(b, a) +=
// sum over every column and every assignment of the other modes of psi_b conj(lambda_a),
// lambda <- L lambda. Geometries cover the fused path (short contiguous runs, including runs
// shorter than a vector and vector tails), the separate path (runs >= 512), one-mode gates,
// non-adjacent pairs and gate sizes 2..9; and the CUDA executor's per-thread environment
// functor (backend::EnvironmentSum), run here on the CPU.
#include <gtest/gtest.h>

#include <complex>
#include <random>
#include <vector>

#include "local_gate_test_body.hpp"
#include "qevolve/backend/local_gate.hpp"
#include "qevolve/types.hpp"

namespace qevolve::backend::testing {
namespace {

struct Case {
  std::vector<int> dims;
  int a, b;  // gate modes (b = -1: one mode)
  Index width;
};

CMatrix random_matrix(Index rows, Index cols, std::mt19937& rng) {
  std::normal_distribution<double> nd;
  CMatrix m(rows, cols);
  for (Index j = 0; j < cols; ++j)
    for (Index i = 0; i < rows; ++i) m(i, j) = cplx(nd(rng), nd(rng));
  return m;
}

/// Column-major D x width matrix -> split planes (element (i, c) at i * width + c).
void to_planes(const CMatrix& m, std::vector<double>& re, std::vector<double>& im) {
  const Index D = m.rows(), w = m.cols();
  re.assign(static_cast<std::size_t>(D * w), 0.0);
  im.assign(re.size(), 0.0);
  for (Index i = 0; i < D; ++i)
    for (Index c = 0; c < w; ++c) {
      re[static_cast<std::size_t>(i * w + c)] = m(i, c).real();
      im[static_cast<std::size_t>(i * w + c)] = m(i, c).imag();
    }
}

CMatrix from_planes(const std::vector<double>& re, const std::vector<double>& im, Index D,
                    Index w) {
  CMatrix m(D, w);
  for (Index i = 0; i < D; ++i)
    for (Index c = 0; c < w; ++c)
      m(i, c) =
          cplx(re[static_cast<std::size_t>(i * w + c)], im[static_cast<std::size_t>(i * w + c)]);
  return m;
}

std::vector<double> split(const CMatrix& g) {
  const Index n = g.rows();
  std::vector<double> out(static_cast<std::size_t>(2 * n * n));
  for (Index i = 0; i < n; ++i)
    for (Index j = 0; j < n; ++j) {
      out[static_cast<std::size_t>(i * n + j)] = g(i, j).real();
      out[static_cast<std::size_t>(n * n + i * n + j)] = g(i, j).imag();
    }
  return out;
}

/// env(b, a) = sum over columns and the other modes of psi_b conj(lambda_a), from the digits.
CMatrix reference_environment(const Case& k, const CMatrix& psi, const CMatrix& lam) {
  const int n = static_cast<int>(k.dims.size());
  const int da = k.dims[static_cast<std::size_t>(k.a)];
  const int db = k.b >= 0 ? k.dims[static_cast<std::size_t>(k.b)] : 1;
  const int g = da * db;
  CMatrix env = CMatrix::Zero(g, g);
  const Index D = psi.rows();
  auto digits = [&](Index i) {
    std::vector<int> d(static_cast<std::size_t>(n));
    for (int q = n - 1; q >= 0; --q) {
      d[static_cast<std::size_t>(q)] = static_cast<int>(i % k.dims[static_cast<std::size_t>(q)]);
      i /= k.dims[static_cast<std::size_t>(q)];
    }
    return d;
  };
  auto local = [&](const std::vector<int>& d) {
    return d[static_cast<std::size_t>(k.a)] * db +
           (k.b >= 0 ? d[static_cast<std::size_t>(k.b)] : 0);
  };
  auto rest = [&](std::vector<int> d) {
    d[static_cast<std::size_t>(k.a)] = 0;
    if (k.b >= 0) d[static_cast<std::size_t>(k.b)] = 0;
    return d;
  };
  for (Index i = 0; i < D; ++i)
    for (Index j = 0; j < D; ++j) {
      const auto di = digits(i), dj = digits(j);
      if (rest(di) != rest(dj)) continue;
      env(local(di), local(dj)) += psi.row(i).cwiseProduct(lam.row(j).conjugate()).sum();
    }
  return env;
}

class AdjointGate : public ::testing::TestWithParam<Case> {};

TEST_P(AdjointGate, FusedSweepMatchesTheDenseReference) {
  const Case& k = GetParam();
  std::mt19937 rng(17);
  Index D = 1;
  for (int d : k.dims) D *= d;
  const int da = k.dims[static_cast<std::size_t>(k.a)];
  const int db = k.b >= 0 ? k.dims[static_cast<std::size_t>(k.b)] : 1;
  const int g = da * db;
  const CMatrix P = random_matrix(g, g, rng), L = random_matrix(g, g, rng);
  const CMatrix psi = random_matrix(D, k.width, rng), lam = random_matrix(D, k.width, rng);
  const CMatrix psi_ref = dense_gate(k.dims, k.a, k.b, P) * psi;
  const CMatrix lam_ref = dense_gate(k.dims, k.a, k.b, L) * lam;
  const CMatrix env_ref = reference_environment(k, psi_ref, lam);
  const auto geo = make_geometry(k.dims.data(), static_cast<int>(k.dims.size()), k.a, k.b, k.width);
  const auto sp = split(P), sl = split(L);

  for (const bool with_env : {true, false}) {
    std::vector<double> pr, pi, lr, li;
    to_planes(psi, pr, pi);
    to_planes(lam, lr, li);
    std::vector<double> env(static_cast<std::size_t>(2 * g * g), 0.0);
    adjoint_gate(pr.data(), pi.data(), lr.data(), li.data(), geo, sp.data(), sl.data(),
                 with_env ? env.data() : nullptr);
    EXPECT_LT((from_planes(pr, pi, D, k.width) - psi_ref).cwiseAbs().maxCoeff(), 1e-12);
    EXPECT_LT((from_planes(lr, li, D, k.width) - lam_ref).cwiseAbs().maxCoeff(), 1e-12);
    for (int b = 0; b < g; ++b)
      for (int a = 0; a < g; ++a) {
        const cplx got(env[static_cast<std::size_t>(b * g + a)],
                       env[static_cast<std::size_t>(g * g + b * g + a)]);
        const cplx want = with_env ? env_ref(b, a) : cplx(0.0);
        EXPECT_LT(std::abs(got - want), 1e-11 * (1.0 + std::abs(want)))
            << "env(" << b << ", " << a << ")";
      }
  }
  // The environment kernel alone, from the updated psi, adds to what env holds.
  std::vector<double> pr, pi, lr, li;
  to_planes(psi_ref, pr, pi);
  to_planes(lam, lr, li);
  std::vector<double> env(static_cast<std::size_t>(2 * g * g), 1.0);
  accumulate_environment(pr.data(), pi.data(), lr.data(), li.data(), geo, env.data());
  for (int b = 0; b < g; ++b)
    for (int a = 0; a < g; ++a) {
      const cplx got(env[static_cast<std::size_t>(b * g + a)],
                     env[static_cast<std::size_t>(g * g + b * g + a)]);
      const cplx want = env_ref(b, a) + cplx(1.0, 1.0);
      EXPECT_LT(std::abs(got - want), 1e-11 * (1.0 + std::abs(want)));
    }
}

// The functor the CUDA adjoint executor evaluates per thread (backend::EnvironmentSum): the
// partial sums over strided slice sets, added up, give the reference environment. Strides 1
// (one thread per pair), 3 and one larger than the slice count (threads with nothing to do).
TEST_P(AdjointGate, EnvironmentSumFunctorMatchesTheDenseReference) {
  const Case& k = GetParam();
  std::mt19937 rng(29);
  Index D = 1;
  for (int d : k.dims) D *= d;
  const CMatrix psi = random_matrix(D, k.width, rng), lam = random_matrix(D, k.width, rng);
  const CMatrix env_ref = reference_environment(k, psi, lam);
  const auto geo = make_geometry(k.dims.data(), static_cast<int>(k.dims.size()), k.a, k.b, k.width);
  std::vector<double> pr, pi, lr, li;
  to_planes(psi, pr, pi);
  to_planes(lam, lr, li);
  const EnvironmentSum f{pr.data(), pi.data(), lr.data(), li.data(), geo};
  const int g = geo.size();
  for (const std::ptrdiff_t stride : {std::ptrdiff_t{1}, std::ptrdiff_t{3}, f.slices() + 2})
    for (int b = 0; b < g; ++b)
      for (int a = 0; a < g; ++a) {
        cplx got = 0.0;
        for (std::ptrdiff_t first = 0; first < stride; ++first) {
          double re = 0.0, im = 0.0;
          f(b, a, first, stride, re, im);
          got += cplx(re, im);
        }
        EXPECT_LT(std::abs(got - env_ref(b, a)), 1e-11 * (1.0 + std::abs(env_ref(b, a))))
            << "env(" << b << ", " << a << "), stride " << stride;
      }
}

INSTANTIATE_TEST_SUITE_P(
    Geometries, AdjointGate,
    ::testing::Values(Case{{2, 2, 2, 2}, 2, 3, 1},      // run of 1 column: partial vectors only
                      Case{{2, 2, 2, 2}, 1, 2, 3},      // runs of 6: shorter than a vector
                      Case{{2, 2, 2, 2}, 0, 1, 13},     // vector plus tail
                      Case{{2, 2, 2, 2, 2}, 3, 4, 16},  // whole vectors
                      Case{
                          {2, 2, 2, 2, 2, 2, 2, 2, 2}, 0, 1, 4},  // run of 512: the separate passes
                      Case{{2, 2, 2, 2, 2}, 1, 3, 5},             // non-adjacent pair
                      Case{{3, 2, 3}, 0, 2, 7},                   // g = 9, non-adjacent
                      Case{{3, 2, 3}, 1, 2, 9},                   // g = 6
                      Case{{2, 3, 2}, 1, -1, 4},                  // one mode, g = 3
                      Case{{2, 3, 2}, 2, -1, 11},                 // one mode, g = 2
                      Case{{5, 5}, 0, 1, 3}));                    // g = 25: the separate passes

}  // namespace
}  // namespace qevolve::backend::testing
