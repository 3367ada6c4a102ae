// The leakage-aware average gate fidelity against analytic values and an exact state 2-design
// average: E_psi |<psi| U_t^dag U |psi>|^2 = (Tr(M^dag M) + |Tr M|^2) / (d(d+1)), M = U_t^dag U.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <random>

#include "fidelity_test_util.hpp"
#include "qevolve/error.hpp"
#include "qevolve/fidelity.hpp"

namespace qevolve::fidelity {
namespace {

using namespace testing;

TEST(FidelityFormula, PerfectGate) {
  std::mt19937_64 rng(11);
  for (Index d : {1, 2, 4, 8, 16}) {
    const CMatrix u = random_unitary(d, rng);
    // Sums of d^2 products of O(1/sqrt(d)) numbers: rounding ~1e-15.
    EXPECT_NEAR(average_gate_fidelity(u, u), 1.0, 1e-14) << d;
    EXPECT_NEAR(leakage(u), 0.0, 1e-14) << d;
  }
}

TEST(FidelityFormula, AnalyticLeakyGates) {
  // One amplitude of four lost to 0.6: Tr(U^dag U) = 3.36, Tr(U) = 3.6,
  // F = (3.36 + 12.96) / 20 = 0.816, leakage = 1 - 3.36 / 4 = 0.16.
  CMatrix u = CMatrix::Identity(4, 4);
  u(3, 3) = 0.6;
  EXPECT_NEAR(average_gate_fidelity(u, CMatrix::Identity(4, 4)), 0.816, 1e-15);
  EXPECT_NEAR(leakage(u), 0.16, 1e-15);
  // Uniform loss U = sqrt(1 - p) U_t: F = 1 - p, leakage = p, for any unitary U_t.
  std::mt19937_64 rng(12);
  const CMatrix ut = random_unitary(8, rng);
  const double p = 0.0371;
  EXPECT_NEAR(average_gate_fidelity(std::sqrt(1.0 - p) * ut, ut), 1.0 - p, 1e-14);
  EXPECT_NEAR(leakage(std::sqrt(1.0 - p) * ut), p, 1e-14);
  // Orthogonal unitary: X against I on a qubit, F = (2 + 0) / 6.
  EXPECT_NEAR(average_gate_fidelity(pauli('X'), pauli('I')), 1.0 / 3.0, 1e-15);
}

/// Mean of |<psi|M|psi>|^2 over a set of states.
double design_average(const std::vector<CVector>& states, const CMatrix& m) {
  double s = 0.0;
  for (const auto& psi : states) s += std::norm(psi.dot(m * psi));
  return s / static_cast<double>(states.size());
}

TEST(FidelityFormula, QubitStateTwoDesign) {
  // The six Pauli eigenstates form a 2-design on C^2.
  std::vector<CVector> states;
  for (char p : {'X', 'Y', 'Z'}) {
    Eigen::SelfAdjointEigenSolver<CMatrix> es(pauli(p));
    for (int k = 0; k < 2; ++k) states.emplace_back(es.eigenvectors().col(k));
  }
  std::mt19937_64 rng(13);
  std::normal_distribution<double> g(0.0, 1.0);
  for (int trial = 0; trial < 5; ++trial) {
    const CMatrix ut = random_unitary(2, rng);
    CMatrix u = 0.8 * random_unitary(2, rng);  // leaky, not unitary
    for (Index i = 0; i < 2; ++i)
      for (Index j = 0; j < 2; ++j) u(i, j) += 0.1 * cplx(g(rng), g(rng));
    EXPECT_NEAR(average_gate_fidelity(u, ut), design_average(states, ut.adjoint() * u), 1e-14);
  }
}

TEST(FidelityFormula, TwoQubitMutuallyUnbiasedBases) {
  // The 5 mutually unbiased bases of C^4 (common eigenbases of commuting Pauli triples) form
  // a 2-design.
  const char* triples[5][2] = {
      {"ZI", "IZ"}, {"XI", "IX"}, {"YI", "IY"}, {"XY", "YZ"}, {"YX", "ZY"}};
  auto p2 = [](const char* s) { return kron(pauli(s[0]), pauli(s[1])); };
  std::vector<CVector> states;
  for (auto& t : triples) {
    Eigen::SelfAdjointEigenSolver<CMatrix> es(p2(t[0]) + 2.0 * p2(t[1]));  // eigenvalues -3,-1,1,3
    for (int k = 0; k < 4; ++k) states.emplace_back(es.eigenvectors().col(k));
  }
  // Mutual unbiasedness, as a check of the construction: |<a|b>|^2 = 1/4 across bases.
  for (std::size_t a = 0; a < states.size(); ++a)
    for (std::size_t b = a + 1; b < states.size(); ++b)
      if (a / 4 != b / 4) {
        EXPECT_NEAR(std::norm(states[a].dot(states[b])), 0.25, 1e-14);
      }
  std::mt19937_64 rng(14);
  std::normal_distribution<double> g(0.0, 1.0);
  for (int trial = 0; trial < 5; ++trial) {
    const CMatrix ut = random_unitary(4, rng);
    CMatrix u = 0.9 * random_unitary(4, rng);
    for (Index i = 0; i < 4; ++i)
      for (Index j = 0; j < 4; ++j) u(i, j) += 0.05 * cplx(g(rng), g(rng));
    EXPECT_NEAR(average_gate_fidelity(u, ut), design_average(states, ut.adjoint() * u), 1e-14);
  }
}

TEST(FidelityFormula, EvaluateWithoutCompensation) {
  std::mt19937_64 rng(15);
  const CMatrix ut = random_unitary(4, rng);
  const CMatrix u = 0.95 * random_unitary(4, rng);
  const FidelityResult r = evaluate_fidelity(u, ut, Compensation::none);
  EXPECT_EQ(r.angles.size(), 0);
  EXPECT_DOUBLE_EQ(r.fidelity, r.fidelity_uncompensated);
  EXPECT_NEAR(r.fidelity, reference_fidelity(u, ut), 1e-14);
  EXPECT_NEAR(r.leakage, 1.0 - 0.95 * 0.95, 1e-14);
  EXPECT_LT((r.unitary_compensated - u).cwiseAbs().maxCoeff(), 1e-15);
  EXPECT_LT((r.pre_layer() - CMatrix::Identity(4, 4)).cwiseAbs().maxCoeff(), 1e-15);
}

TEST(FidelityFormula, BadInput) {
  CMatrix u = CMatrix::Identity(4, 4);
  EXPECT_THROW(static_cast<void>(evaluate_fidelity(u, CMatrix::Identity(2, 2), Compensation::vz)),
               Error);
  EXPECT_THROW(static_cast<void>(evaluate_fidelity(CMatrix::Identity(3, 3), CMatrix::Identity(3, 3),
                                                   Compensation::vz)),
               Error);
  u(1, 2) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(static_cast<void>(evaluate_fidelity(u, CMatrix::Identity(4, 4), Compensation::vz)),
               NumericalError);
}

}  // namespace
}  // namespace qevolve::fidelity
