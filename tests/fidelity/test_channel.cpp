// Channels (open systems): the Kraus decomposition of a channel block, the channel fidelity
// formula against its dense definition, and compensation of a noisy channel whose ideal part
// is the target behind random layers.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "fidelity_test_util.hpp"
#include "qevolve/fidelity.hpp"

namespace qevolve::fidelity {
namespace {

using namespace testing;

/// Column-stacking superoperator of rho -> sum_k K_k rho K_k^dag.
CMatrix superoperator_of(const std::vector<CMatrix>& kraus) {
  const Index d = kraus.front().rows();
  CMatrix S = CMatrix::Zero(d * d, d * d);
  for (const CMatrix& K : kraus)
    for (Index j = 0; j < d; ++j)
      for (Index b = 0; b < d; ++b) S.block(b * d, j * d, d, d) += std::conj(K(b, j)) * K;
  return S;
}

/// (1 - p) U rho U^dag + p Tr(rho) I / d as Kraus operators: sqrt(1-p) U and sqrt(p/d) E_ai.
std::vector<CMatrix> depolarised(const CMatrix& U, double p) {
  const Index d = U.rows();
  std::vector<CMatrix> out = {std::sqrt(1.0 - p) * U};
  for (Index a = 0; a < d; ++a)
    for (Index i = 0; i < d; ++i) {
      CMatrix E = CMatrix::Zero(d, d);
      E(a, i) = std::sqrt(p / static_cast<double>(d));
      out.push_back(E);
    }
  return out;
}

TEST(Channel, KrausOperatorsReproduceTheChannel) {
  std::mt19937_64 rng(5);
  const CMatrix U = random_unitary(4, rng);
  const CMatrix S = superoperator_of(depolarised(U, 0.03));
  EXPECT_LT((superoperator_of(kraus_operators(S)) - S).cwiseAbs().maxCoeff(), 1e-13);
}

TEST(Channel, CompensationRecoversRandomLayersUnderDepolarisingNoise) {
  // E = depolarised(L_post U_t L_pre, p): the best compensation undoes the layers and leaves
  // F = (d + (1 - p) d^2 + p) / (d (d + 1)) (the depolarised target; Tr(S_t^dag S_dep) = 1).
  std::mt19937_64 rng(17);
  for (int n = 1; n <= 2; ++n) {
    const Index d = Index{1} << n;
    const CMatrix ut = n == 1 ? standard_gate("X") : standard_gate("CNOT");
    for (Compensation kind : {Compensation::vz, Compensation::single_qubit}) {
      const bool sq = kind == Compensation::single_qubit;
      const RVector a = random_angles(sq ? 6 * n : 2 * n, kPi, rng);
      const CMatrix pre = layer(sq, a, n, false), post = layer(sq, a, n, true);
      const double p = 0.02;
      const CMatrix S = superoperator_of(depolarised(post * ut * pre, p));
      const FidelityResult r = evaluate_channel_fidelity(S, ut, kind);
      const double dd = static_cast<double>(d);
      const double expected = (dd + (1.0 - p) * dd * dd + p) / (dd * (dd + 1.0));
      EXPECT_NEAR(r.fidelity, expected, 1e-12) << "n " << n << " kind " << static_cast<int>(kind);
      EXPECT_LT(r.fidelity_uncompensated, expected - 1e-3);
      // The reported compensated channel is the layers applied to S, and F is its fidelity.
      EXPECT_NEAR(channel_fidelity(r.superoperator_compensated, ut), r.fidelity, 1e-14);
      std::vector<CMatrix> conj_layers = kraus_operators(S);
      for (CMatrix& K : conj_layers) K = dense_layer(r.post_factors) * K * dense_layer(r.pre_factors);
      EXPECT_LT((superoperator_of(conj_layers) - r.superoperator_compensated).cwiseAbs().maxCoeff(), 1e-13);
      EXPECT_NEAR(r.leakage, 0.0, 1e-13);
    }
  }
}

TEST(Channel, UnitaryChannelMatchesTheClosedFidelity) {
  std::mt19937_64 rng(9);
  const CMatrix U = random_unitary(4, rng), T = standard_gate("CNOT");
  const CMatrix S = superoperator_of({U});
  for (Compensation kind : {Compensation::none, Compensation::vz, Compensation::single_qubit})
    EXPECT_NEAR(evaluate_channel_fidelity(S, T, kind).fidelity, evaluate_fidelity(U, T, kind).fidelity, 1e-12);
}

}  // namespace
}  // namespace qevolve::fidelity
