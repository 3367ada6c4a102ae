// Canonical compensation angles (docs/fidelity.md "Gauge and canonical angles"): ranges, independence of the starts, zero
// component along zero-curvature directions, and analytic minimum-norm solutions.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <random>

#include "fidelity_test_util.hpp"
#include "qevolve/fidelity.hpp"

namespace qevolve::fidelity {
namespace {

using namespace testing;

double reduce(double x, double p) {
  double v = x - p * std::round(x / p);
  if (v <= -0.5 * p) v += p;
  if (v > 0.5 * p) v -= p;
  return v;
}

void expect_in_range(Compensation kind, const RVector& a) {
  const double half = kind == Compensation::vz ? 0.5 * kPi : kPi;
  for (Index i = 0; i < a.size(); ++i) {
    EXPECT_GT(a(i), -half) << i;
    EXPECT_LE(a(i), half) << i;
  }
}

CMatrix cnot() {
  CMatrix m = CMatrix::Identity(4, 4);
  m.block(2, 2, 2, 2) = pauli('X');
  return m;
}

/// U = L_post U_t L_pre with random layers of the given kind.
CMatrix scramble(Compensation kind, const CMatrix& ut, int n, std::mt19937_64& rng) {
  if (kind == Compensation::vz) {
    const RVector a = random_angles(2 * n, kPi, rng);
    return layer(false, a, n, true) * ut * layer(false, a, n, false);
  }
  std::vector<CMatrix> fa, fb;
  for (int q = 0; q < n; ++q) {
    fa.push_back(random_unitary(2, rng));
    fb.push_back(random_unitary(2, rng));
  }
  return kron_all(fb) * ut * kron_all(fa);
}

struct Problem {
  std::string name;
  Compensation kind;
  int n;
  CMatrix u, ut;
};

std::vector<Problem> problems() {
  std::mt19937_64 rng(51);
  std::vector<Problem> p;
  const CMatrix x = pauli('X');
  CMatrix cz = CMatrix::Identity(4, 4);
  cz(3, 3) = -1.0;
  CMatrix iswap = CMatrix::Identity(4, 4);
  iswap(1, 1) = iswap(2, 2) = 0.0;
  iswap(1, 2) = iswap(2, 1) = kI;
  const CMatrix r2 = random_unitary(4, rng), r3 = random_unitary(8, rng);
  std::normal_distribution<double> g(0.0, 1.0);
  CMatrix noise(8, 8);
  for (Index i = 0; i < 8; ++i)
    for (Index j = 0; j < 8; ++j) noise(i, j) = cplx(g(rng), g(rng));
  for (Compensation k : {Compensation::vz, Compensation::single_qubit}) {
    p.push_back({"X", k, 1, scramble(k, x, 1, rng), x});
    p.push_back({"CNOT", k, 2, scramble(k, cnot(), 2, rng), cnot()});
    p.push_back({"CZ", k, 2, scramble(k, cz, 2, rng), cz});
    p.push_back({"ISWAP", k, 2, scramble(k, iswap, 2, rng), iswap});
    p.push_back({"random2", k, 2, scramble(k, r2, 2, rng), r2});
    // Near the target up to local errors, with leakage and a non-local error (not recoverable).
    const CMatrix leaky = 0.97 * scramble(k, r3, 3, rng) + 0.01 * noise;
    p.push_back({"leaky3", k, 3, leaky, r3});
  }
  return p;
}

TEST(Canonical, SameAnglesFromDifferentStarts) {
  std::mt19937_64 rng(52);
  for (const Problem& pb : problems()) {
    // Note (docs/fidelity.md): for single_qubit targets with curved gauge orbits (X, CNOT) or
    // discrete symmetries (a generic two-qubit gate) the least-norm representative is taken
    // over the optima the starts reach; other seeds occasionally reach a different,
    // equally optimal one (docs/fidelity.md: 9 of 90 random re-solves). These fixed instances
    // agree.
    const FidelityResult ref = evaluate_fidelity(pb.u, pb.ut, pb.kind);
    expect_in_range(pb.kind, ref.angles);
    for (std::uint64_t seed : {7ULL, 123456789ULL}) {
      CompensationOptions o;
      o.seed = seed;
      o.initial_angles = random_angles(compensation_angle_count(pb.kind, pb.n), 3.0, rng);
      const FidelityResult r = evaluate_fidelity(pb.u, pb.ut, pb.kind, o);
      EXPECT_NEAR(r.fidelity, ref.fidelity, 1e-12) << pb.name;
      EXPECT_LT((r.angles - ref.angles).cwiseAbs().maxCoeff(), 1e-8)
          << pb.name << " kind " << static_cast<int>(pb.kind) << "\n"
          << ref.angles.transpose() << "\n"
          << r.angles.transpose();
    }
    // Without canonicalisation the optimum is as good, only its representative differs.
    CompensationOptions raw;
    raw.canonicalize = false;
    const FidelityResult r = evaluate_fidelity(pb.u, pb.ut, pb.kind, raw);
    expect_in_range(pb.kind, r.angles);
    EXPECT_NEAR(r.fidelity, ref.fidelity, 1e-12) << pb.name;
  }
}

TEST(Canonical, NoComponentAlongZeroCurvature) {
  for (const Problem& pb : problems()) {
    const FidelityResult r = evaluate_fidelity(pb.u, pb.ut, pb.kind);
    SerialObjective obj(pb.kind, pb.u, pb.ut);
    obj.set_angles(r.angles);
    const RVector g = objective(pb.kind, pb.ut.rows(), r.angles, obj.sums()).gradient;
    EXPECT_LT(g.cwiseAbs().maxCoeff(), 1e-10) << pb.name;  // a stationary point
    const RMatrix h = objective_hessian(pb.kind, pb.ut.rows(), r.angles, obj.hessian_sums());
    const Eigen::SelfAdjointEigenSolver<RMatrix> es(h);
    const double lmax = es.eigenvalues().cwiseAbs().maxCoeff();
    EXPECT_LT(es.eigenvalues().maxCoeff(), 1e-10 * lmax) << pb.name;  // a maximum
    for (Index j = 0; j < h.rows(); ++j)
      if (std::abs(es.eigenvalues()(j)) <= 1e-8 * lmax) {
        EXPECT_LT(std::abs(es.eigenvectors().col(j).dot(r.angles)), 1e-8) << pb.name;
      }
  }
}

TEST(Canonical, VzAnalyticMinimumNorm) {
  std::mt19937_64 rng(53);
  for (int trial = 0; trial < 6; ++trial) {
    const double a = 3.0 * (static_cast<double>(rng() % 2001) / 1000.0 - 1.0);
    const double b = 3.0 * (static_cast<double>(rng() % 2001) / 1000.0 - 1.0);
    // X-like: Z(b) X Z(a) = X Z(a - b); F = 1 iff th_pre - th_post = b - a (mod pi);
    // minimum norm: th_pre = c/2, th_post = -c/2, c = b - a reduced to (-pi/2, pi/2].
    const CMatrix u = vz(b) * pauli('X') * vz(a);
    const FidelityResult rx = evaluate_fidelity(u, pauli('X'), Compensation::vz);
    const double c = reduce(b - a, kPi);
    EXPECT_NEAR(rx.angles(0), 0.5 * c, 1e-10) << a << " " << b;
    EXPECT_NEAR(rx.angles(1), -0.5 * c, 1e-10) << a << " " << b;
    // Diagonal target (CZ): everything commutes; th_pre_q = th_post_q = c_q / 2 with
    // c_q = -(a_q + b_q) reduced.
    CMatrix cz = CMatrix::Identity(4, 4);
    cz(3, 3) = -1.0;
    const RVector pre = random_angles(2, 1.5, rng), post = random_angles(2, 1.5, rng);
    const CMatrix u2 = kron(vz(post(0)), vz(post(1))) * cz * kron(vz(pre(0)), vz(pre(1)));
    const FidelityResult rz = evaluate_fidelity(u2, cz, Compensation::vz);
    for (int q = 0; q < 2; ++q) {
      const double cq = reduce(-(pre(q) + post(q)), kPi);
      EXPECT_NEAR(rz.angles(q), 0.5 * cq, 1e-10);
      EXPECT_NEAR(rz.angles(2 + q), 0.5 * cq, 1e-10);
    }
    EXPECT_NEAR(rz.fidelity, 1.0, 1e-13);
  }
}

TEST(Canonical, SingleQubitAnalyticMinimumNorm) {
  // U = RZ(phi) against I: R_post R_pre must be RZ(-phi) (up to phase); the least-norm split
  // puts RZ(-phi/2) on each side as alpha = gamma = -phi/4, beta = 0.
  for (double phi : {0.8, -1.9, 2.6}) {
    const FidelityResult r =
        evaluate_fidelity(rotation('Z', phi), pauli('I'), Compensation::single_qubit);
    RVector want(6);
    want << -phi / 4, 0.0, -phi / 4, -phi / 4, 0.0, -phi / 4;
    EXPECT_LT((r.angles - want).cwiseAbs().maxCoeff(), 1e-9) << r.angles.transpose();
    EXPECT_NEAR(r.fidelity, 1.0, 1e-14);
  }
}

TEST(Canonical, ExactTargetGivesZeroAngles) {
  std::mt19937_64 rng(54);
  CMatrix cz = CMatrix::Identity(4, 4);
  cz(3, 3) = -1.0;
  for (const CMatrix& ut :
       {pauli('X'), cnot(), cz, random_unitary(4, rng), CMatrix(CMatrix::Identity(8, 8))}) {
    for (Compensation k : {Compensation::vz, Compensation::single_qubit}) {
      const FidelityResult r = evaluate_fidelity(ut, ut, k);
      EXPECT_LT(r.angles.cwiseAbs().maxCoeff(), 1e-10) << r.angles.transpose();
      EXPECT_NEAR(r.fidelity, 1.0, 1e-14);
    }
  }
}

}  // namespace
}  // namespace qevolve::fidelity
