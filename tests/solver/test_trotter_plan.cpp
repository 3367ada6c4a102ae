// The Trotter factor sequence and its fusion into local gates.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "../../src/solver/trotter_plan.hpp"
#include "qevolve/linalg.hpp"
#include "qevolve/types.hpp"

namespace qevolve::solver {
namespace {

TEST(TrotterSequence, Orders) {
  const auto s1 = trotter_sequence(3, 1);
  ASSERT_EQ(s1.size(), 3u);
  for (int t = 0; t < 3; ++t) {
    EXPECT_EQ(s1[static_cast<std::size_t>(t)].term, t);
    EXPECT_EQ(s1[static_cast<std::size_t>(t)].frac, 1.0);
  }
  const auto s2 = trotter_sequence(3, 2);
  ASSERT_EQ(s2.size(), 5u);  // 0 1 2(full) 1 0
  const int terms2[5] = {0, 1, 2, 1, 0};
  const double frac2[5] = {0.5, 0.5, 1.0, 0.5, 0.5};
  for (int k = 0; k < 5; ++k) {
    EXPECT_EQ(s2[static_cast<std::size_t>(k)].term, terms2[k]);
    EXPECT_EQ(s2[static_cast<std::size_t>(k)].frac, frac2[k]);
  }
  // Order 4: every term's fractions add up to one step; the sequence is a palindrome.
  const auto s4 = trotter_sequence(3, 4);
  double total[3] = {0, 0, 0};
  for (const auto& f : s4) total[f.term] += f.frac;
  for (double t : total) EXPECT_NEAR(t, 1.0, 1e-15);
  for (std::size_t k = 0; k < s4.size(); ++k) {
    EXPECT_EQ(s4[k].term, s4[s4.size() - 1 - k].term);
    EXPECT_NEAR(s4[k].frac, s4[s4.size() - 1 - k].frac, 1e-15);
  }
  const double p = 1.0 / (2.0 - std::cbrt(2.0));
  EXPECT_NEAR(s4.front().frac, 0.5 * p, 1e-15);
}

/// Random Hermitian term matrices on a small device; dense exponentials embedded in the full
/// space; the fused gates must reproduce the plain product of the factor sequence exactly.
class FusionTest : public ::testing::TestWithParam<int> {};

CMatrix embed(const std::vector<int>& dims, const std::vector<int>& modes, const CMatrix& m) {
  // Build by Kronecker products with identities (modes adjacent or not), via index loops.
  Index D = 1;
  for (int d : dims) D *= d;
  std::vector<Index> stride(dims.size());
  Index s = 1;
  for (int q = static_cast<int>(dims.size()) - 1; q >= 0; --q) {
    stride[static_cast<std::size_t>(q)] = s;
    s *= dims[static_cast<std::size_t>(q)];
  }
  CMatrix out = CMatrix::Zero(D, D);
  for (Index col = 0; col < D; ++col) {
    Index local_col = 0, base = col;
    for (int q : modes) {
      const Index j = (col / stride[static_cast<std::size_t>(q)]) % dims[static_cast<std::size_t>(q)];
      local_col = local_col * dims[static_cast<std::size_t>(q)] + j;
      base -= j * stride[static_cast<std::size_t>(q)];
    }
    for (Index r = 0; r < m.rows(); ++r) {
      Index row = base, rem = r;
      for (int k = static_cast<int>(modes.size()) - 1; k >= 0; --k) {
        const int q = modes[static_cast<std::size_t>(k)];
        row += (rem % dims[static_cast<std::size_t>(q)]) * stride[static_cast<std::size_t>(q)];
        rem /= dims[static_cast<std::size_t>(q)];
      }
      out(row, col) += m(r, local_col);
    }
  }
  return out;
}

TEST_P(FusionTest, FusedGatesEqualTheFactorProduct) {
  const int order = GetParam();
  const std::vector<int> dims{2, 3, 2, 2};
  // Terms in the order of docs/solvers.md "Time stepping": 4 energies, couplings (0,1) (1,2) (2,3) (0,3), 3 drives.
  std::vector<TermModes> terms{{{0}}, {{1}}, {{2}}, {{3}}, {{0, 1}}, {{1, 2}}, {{2, 3}},
                               {{0, 3}}, {{0}}, {{2}}, {{1}}};
  std::mt19937 rng(5);
  std::normal_distribution<double> nd;
  std::vector<CMatrix> h;
  for (const auto& t : terms) {
    Index g = 1;
    for (int q : t.modes) g *= dims[static_cast<std::size_t>(q)];
    CMatrix a(g, g);
    for (Index i = 0; i < a.size(); ++i) a.data()[i] = {nd(rng), nd(rng)};
    h.push_back(a + a.adjoint());
  }
  const double dt = 0.37;
  auto factor = [&](const Factor& f) {
    return embed(dims, terms[static_cast<std::size_t>(f.term)].modes,
                 linalg::expm_hermitian(h[static_cast<std::size_t>(f.term)], dt * f.frac));
  };
  const auto seq = trotter_sequence(static_cast<int>(terms.size()), order);
  CMatrix direct = CMatrix::Identity(24, 24);
  for (const auto& f : seq) direct = factor(f) * direct;
  const auto gates = fuse(seq, terms);
  CMatrix fused = CMatrix::Identity(24, 24);
  std::size_t factors = 0;
  for (const auto& g : gates) {
    EXPECT_LE(g.modes.size(), 2u);
    for (const auto& f : g.factors) {
      for (int q : terms[static_cast<std::size_t>(f.term)].modes)
        EXPECT_NE(std::find(g.modes.begin(), g.modes.end(), q), g.modes.end());
      fused = factor(f) * fused;
      ++factors;
    }
  }
  EXPECT_LT((direct - fused).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_LE(factors, seq.size());
  // Fusion must remove passes: fewer gates than factors.
  EXPECT_LT(gates.size(), seq.size());
}

INSTANTIATE_TEST_SUITE_P(Orders, FusionTest, ::testing::Values(1, 2, 4));

TEST(Fusion, StrangChainNeedsTwoNMinusThreeGates) {
  // N-mode chain, terms E_q, C_(q,q+1), D_q: every one-mode factor folds into a coupling gate;
  // the two halves of the middle coupling merge.
  for (int n = 3; n <= 8; ++n) {
    std::vector<TermModes> terms;
    for (int q = 0; q < n; ++q) terms.push_back({{q}});
    for (int q = 0; q + 1 < n; ++q) terms.push_back({{q, q + 1}});
    for (int q = 0; q < n; ++q) terms.push_back({{q}});
    const auto gates = fuse(trotter_sequence(static_cast<int>(terms.size()), 2), terms);
    EXPECT_EQ(static_cast<int>(gates.size()), 2 * n - 3) << n;
  }
}

}  // namespace
}  // namespace qevolve::solver
