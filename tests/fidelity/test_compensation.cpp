// Compensation: exact gradients and Hessians against finite differences of an independent
// dense F, sharded sums against the serial ones, recovery of random VZ / single-qubit layers
// (docs/fidelity.md "Tests"), and optima at least as good as a brute-force search.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <numeric>
#include <random>

#include <Eigen/SVD>

#include "fidelity_test_util.hpp"
#include "qevolve/fidelity.hpp"

namespace qevolve::fidelity {
namespace {

using namespace testing;

/// A random contraction (a leaky block: singular values <= 1) near a random unitary.
CMatrix leaky_random(Index d, std::mt19937_64& rng, double noise = 0.1) {
  std::normal_distribution<double> g(0.0, 1.0);
  CMatrix u = random_unitary(d, rng);
  for (Index i = 0; i < d; ++i)
    for (Index j = 0; j < d; ++j) u(i, j) += noise * cplx(g(rng), g(rng));
  const double smax = Eigen::JacobiSVD<CMatrix>(u).singularValues()(0);
  return (0.98 / smax) * u;
}

/// A random monomial unitary (a permuted diagonal of random phases): the sparse form of the
/// vz objective (M = conj(U_t) o U kept as its d non-zeros) is used for such targets.
CMatrix random_monomial(Index d, std::mt19937_64& rng) {
  std::vector<Index> perm(static_cast<std::size_t>(d));
  std::iota(perm.begin(), perm.end(), Index{0});
  std::shuffle(perm.begin(), perm.end(), rng);
  std::uniform_real_distribution<double> phase(-3.14, 3.14);
  CMatrix m = CMatrix::Zero(d, d);
  for (Index i = 0; i < d; ++i)
    m(perm[static_cast<std::size_t>(i)], i) = std::polar(1.0, phase(rng));
  return m;
}

/// A random objective on n qubits: a dense or monomial target, a leaky U near a random
/// unitary, and random angles of `kind` (drawn in that order from rng).
struct RandomObjective {
  CMatrix ut, u;
  RVector x;
};
RandomObjective random_objective(Compensation kind, bool monomial, int n, std::mt19937_64& rng) {
  const Index d = Index{1} << n;
  RandomObjective r;
  r.ut = monomial ? random_monomial(d, rng) : random_unitary(d, rng);
  r.u = leaky_random(d, rng);
  r.x = random_angles(compensation_angle_count(kind, n), 3.0, rng);
  return r;
}

bool is_sq(Compensation k) {
  return k == Compensation::single_qubit;
}

// --- gradients ---------------------------------------------------------------------------

TEST(CompensationObjective, GradientAndHessianMatchFiniteDifferences) {
  std::mt19937_64 rng(21);
  // Dense targets and monomial ones (the sparse form of the vz sums).
  for (Compensation kind : {Compensation::vz, Compensation::single_qubit})
    for (const bool monomial : {false, true}) {
      // n = 5: qubits whose index runs are 8 and 16 long (the vectorised column loops).
      for (int n : {1, 2, 3, 5}) {
        const Index d = Index{1} << n;
        const auto [ut, u, x] = random_objective(kind, monomial, n, rng);
        const Index p = x.size();
        SerialObjective obj(kind, u, ut);
        obj.set_angles(x);
        const ObjectiveValue v = objective(kind, d, x, obj.sums());
        EXPECT_NEAR(v.fidelity, compensated_fidelity(is_sq(kind), u, ut, x, n), 1e-14);
        // Central differences of the dense reference, h = 1e-5: truncation h^2/6 F''' ~ 1e-11,
        // rounding 1e-16 / h ~ 1e-11.
        const double h = 1e-5;
        for (Index a = 0; a < p; ++a) {
          RVector xp = x, xm = x;
          xp(a) += h;
          xm(a) -= h;
          const double fd = (compensated_fidelity(is_sq(kind), u, ut, xp, n) -
                             compensated_fidelity(is_sq(kind), u, ut, xm, n)) /
                            (2 * h);
          EXPECT_NEAR(v.gradient(a), fd, 1e-9)
              << "kind " << static_cast<int>(kind) << " n " << n << " a " << a;
        }
        // Hessian against central differences of the (verified) exact gradient: same error budget.
        const RMatrix hess = objective_hessian(kind, d, x, obj.hessian_sums());
        EXPECT_LT((hess - hess.transpose()).cwiseAbs().maxCoeff(), 1e-15);
        for (Index a = 0; a < p; ++a) {
          RVector xp = x, xm = x;
          xp(a) += h;
          xm(a) -= h;
          obj.set_angles(xp);
          const RVector gp = objective(kind, d, xp, obj.sums()).gradient;
          obj.set_angles(xm);
          const RVector gm = objective(kind, d, xm, obj.sums()).gradient;
          const RVector fd = (gp - gm) / (2 * h);
          EXPECT_LT((hess.col(a) - fd).cwiseAbs().maxCoeff(), 1e-9)
              << "kind " << static_cast<int>(kind) << " n " << n << " a " << a;
        }
      }
    }
}

TEST(CompensationObjective, SiteUpdatesMatchFullRecomputation) {
  std::mt19937_64 rng(22);
  // Dense targets and monomial ones (the sparse form of the vz sums).
  for (Compensation kind : {Compensation::vz, Compensation::single_qubit})
    for (const bool monomial : {false, true}) {
      const int n = 3;
      auto [ut, u, x] = random_objective(kind, monomial, n, rng);
      const int m = angles_per_site(kind);
      CompensationShard inc(kind, ut, u, 0);
      inc.set_angles(x);
      for (int s = 0; s < 2 * n; ++s) {
        const RVector seg = random_angles(m, 3.0, rng);
        x.segment(m * s, m) = seg;
        inc.set_site(s, seg);
      }
      CompensationShard full(kind, ut, u, 0);
      full.set_angles(x);
      const PartialSums a = inc.sums(), b = full.sums();
      EXPECT_LT(std::abs(a.tau - b.tau), 1e-13);
      for (int s = 0; s < 2 * n; ++s) {
        EXPECT_LT((a.env[static_cast<std::size_t>(s)] - b.env[static_cast<std::size_t>(s)])
                      .cwiseAbs()
                      .maxCoeff(),
                  1e-13);
        EXPECT_LT(
            (full.site_environment(s) - b.env[static_cast<std::size_t>(s)]).cwiseAbs().maxCoeff(),
            1e-13);
      }
    }
}

// --- sharded sums (docs/fidelity.md "The objective as column sums") --------------------------------------------------------

/// The distributed pattern in one process: each shard holds a block of columns; every call is
/// answered by the sum over shards (what an all-reduce gives).
class ShardedObjective final : public CompensationObjective {
 public:
  ShardedObjective(Compensation kind, const CMatrix& u, const CMatrix& ut, int shards)
      : u_(u), ut_(ut) {
    const Index b = u.cols() / shards;
    for (int r = 0; r < shards; ++r) shards_.emplace_back(kind, ut, u.middleCols(r * b, b), r * b);
  }
  [[nodiscard]] Compensation kind() const override { return shards_[0].kind(); }
  [[nodiscard]] int num_qubits() const override { return shards_[0].num_qubits(); }
  [[nodiscard]] Index dim() const override { return shards_[0].dim(); }
  void set_angles(const RVector& x) override {
    for (auto& s : shards_) s.set_angles(x);
  }
  void set_site(int site, const RVector& a) override {
    for (auto& s : shards_) s.set_site(site, a);
  }
  [[nodiscard]] PartialSums sums() override {
    PartialSums t;
    for (auto it = shards_.rbegin(); it != shards_.rend(); ++it) t += it->sums();  // any order
    return t;
  }
  [[nodiscard]] Mat2 site_environment(int site) override {
    Mat2 e = Mat2::Zero();
    for (auto& s : shards_) e += s.site_environment(site);
    return e;
  }
  [[nodiscard]] PartialHessianSums hessian_sums() override {
    PartialHessianSums t;
    for (auto& s : shards_) t += s.hessian_sums();
    return t;
  }
  [[nodiscard]] StartSums start_sums() override {
    // single_qubit start sums pair columns across shards: a distributed caller gathers U once
    // (emulated by a shard holding every column).
    if (kind() == Compensation::single_qubit)
      return CompensationShard(kind(), ut_, u_, 0).start_sums();
    StartSums t;
    for (auto& s : shards_) t += s.start_sums();
    return t;
  }

 private:
  std::vector<CompensationShard> shards_;
  CMatrix u_, ut_;
};

TEST(CompensationObjective, ShardedSumsEqualSerial) {
  std::mt19937_64 rng(23);
  // Dense targets and monomial ones (the sparse form of the vz sums).
  for (Compensation kind : {Compensation::vz, Compensation::single_qubit})
    for (const bool monomial : {false, true}) {
      const auto [ut, u, x] = random_objective(kind, monomial, 3, rng);
      SerialObjective serial(kind, u, ut);
      serial.set_angles(x);
      for (int shards : {2, 4, 8}) {
        ShardedObjective sharded(kind, u, ut, shards);
        sharded.set_angles(x);
        const PartialSums a = serial.sums(), b = sharded.sums();
        EXPECT_LT(std::abs(a.tau - b.tau), 1e-13);
        EXPECT_NEAR(a.trace_uu, b.trace_uu, 1e-13);
        for (std::size_t s = 0; s < a.env.size(); ++s)
          EXPECT_LT((a.env[s] - b.env[s]).cwiseAbs().maxCoeff(), 1e-13);
        const PartialHessianSums ha = serial.hessian_sums(), hb = sharded.hessian_sums();
        for (std::size_t s = 0; s < ha.env2.size(); ++s)
          EXPECT_LT((ha.env2[s] - hb.env2[s]).cwiseAbs().maxCoeff(), 1e-13);
        if (kind == Compensation::vz) {
          const StartSums sa = serial.start_sums(), sb = sharded.start_sums();
          EXPECT_LT((sa.row_sums - sb.row_sums).cwiseAbs().maxCoeff(), 1e-13);
          EXPECT_LT((sa.col_sums - sb.col_sums).cwiseAbs().maxCoeff(), 1e-13);
        } else {
          EXPECT_THROW(
              static_cast<void>(CompensationShard(kind, ut, u.leftCols(4), 0).start_sums()), Error);
        }
      }
      // docs/reference.md "Distributed runs": distributed runs give the same F to 1e-12 and canonical angles to 1e-8.
      SerialObjective s1(kind, u, ut);
      ShardedObjective s4(kind, u, ut, 4);
      const CompensationSolution a = solve_compensation(s1), b = solve_compensation(s4);
      EXPECT_NEAR(a.fidelity, b.fidelity, 1e-12);
      EXPECT_LT((a.angles - b.angles).cwiseAbs().maxCoeff(), 1e-8) << a.angles.transpose() << "\n"
                                                                   << b.angles.transpose();
    }
}

// --- recovery of random layers (docs/fidelity.md "Tests") -------------------------------------

struct Case {
  std::string name;
  CMatrix gate;  // acts on q0 (1 qubit) or q0, q1 (2 qubits)
};

std::vector<Case> targets(int n, std::mt19937_64& rng) {
  std::vector<Case> out;
  CMatrix x(2, 2), cnot = CMatrix::Identity(4, 4), cz = CMatrix::Identity(4, 4),
                   iswap = CMatrix::Identity(4, 4);
  x << 0, 1, 1, 0;
  cnot.block(2, 2, 2, 2) = x;
  cz(3, 3) = -1;
  iswap(1, 1) = iswap(2, 2) = 0;
  iswap(1, 2) = iswap(2, 1) = kI;
  out.push_back({"X", x});
  out.push_back({"random1", random_unitary(2, rng)});
  if (n >= 2) {
    out.push_back({"CNOT", cnot});
    out.push_back({"CZ", cz});
    out.push_back({"ISWAP", iswap});
    out.push_back({"random2", random_unitary(4, rng)});
  }
  return out;
}

CMatrix pad(const CMatrix& g, int n) {
  CMatrix u = g;
  while (u.rows() < (Index{1} << n)) u = kron(u, pauli('I'));
  return u;
}

TEST(Compensation, RecoversRandomLayers) {
  std::mt19937_64 rng(31);
  double worst[2] = {0.0, 0.0};
  for (int n = 1; n <= 4; ++n) {
    const Index d = Index{1} << n;
    for (const Case& c : targets(n, rng)) {
      const CMatrix ut = pad(c.gate, n);
      for (Compensation kind : {Compensation::vz, Compensation::single_qubit}) {
        CMatrix pre, post;
        if (kind == Compensation::vz) {
          const RVector a = random_angles(2 * n, kPi, rng);
          pre = layer(false, a, n, false);
          post = layer(false, a, n, true);
        } else {  // Haar-random single-qubit factors, independent of the Euler parametrisation
          std::vector<CMatrix> fa, fb;
          for (int q = 0; q < n; ++q) {
            fa.push_back(random_unitary(2, rng));
            fb.push_back(random_unitary(2, rng));
          }
          pre = kron_all(fa);
          post = kron_all(fb);
        }
        const CMatrix u = post * ut * pre;
        const FidelityResult r = evaluate_fidelity(u, ut, kind);
        const double infid = 1.0 - r.fidelity;
        worst[is_sq(kind) ? 1 : 0] = std::max(worst[is_sq(kind) ? 1 : 0], infid);
        EXPECT_LT(infid, 1e-12) << c.name << " n=" << n << " kind=" << static_cast<int>(kind);
        // Consistency of the reported pieces with an independent dense evaluation.
        EXPECT_NEAR(r.fidelity, compensated_fidelity(is_sq(kind), u, ut, r.angles, n), 1e-13);
        EXPECT_LT(
            (r.post_layer() * u * r.pre_layer() - r.unitary_compensated).cwiseAbs().maxCoeff(),
            1e-13);
        EXPECT_LT((r.pre_layer() - layer(is_sq(kind), r.angles, n, false)).cwiseAbs().maxCoeff(),
                  1e-13);
        EXPECT_NEAR(r.fidelity_uncompensated, reference_fidelity(u, ut), 1e-14);
        EXPECT_NEAR(r.leakage, 0.0, 1e-14);
        (void)d;
      }
    }
  }
  std::cout << "[ recovery ] worst 1-F: vz " << worst[0] << ", single_qubit " << worst[1] << "\n";
}

TEST(Compensation, RecoversLeakyGateUpToItsLoss) {
  // U = sqrt(1 - p) L_post U_t L_pre: compensation restores F = 1 - p exactly.
  std::mt19937_64 rng(32);
  const int n = 2;
  const CMatrix ut = random_unitary(4, rng);
  const double p = 0.02;
  const RVector a = random_angles(4, kPi, rng);
  const CMatrix u = std::sqrt(1.0 - p) * layer(false, a, n, true) * ut * layer(false, a, n, false);
  const FidelityResult r = evaluate_fidelity(u, ut, Compensation::vz);
  EXPECT_NEAR(r.fidelity, 1.0 - p, 1e-13);
  EXPECT_NEAR(r.leakage, p, 1e-14);
}

// --- brute force -----------------------------------------------------------------------------

TEST(Compensation, AtLeastAsGoodAsBruteForce) {
  std::mt19937_64 rng(41);
  // vz, one qubit: a 361 x 361 grid over the (pre, post) torus (-pi/2, pi/2]^2.
  for (int trial = 0; trial < 3; ++trial) {
    const CMatrix ut = random_unitary(2, rng), u = leaky_random(2, rng, 0.2);
    const FidelityResult r = evaluate_fidelity(u, ut, Compensation::vz);
    double best = 0.0;
    const int g = 361;
    for (int i = 0; i < g; ++i)
      for (int j = 0; j < g; ++j) {
        RVector a(2);
        a << kPi * (i / (g - 1.0) - 0.5), kPi * (j / (g - 1.0) - 0.5);
        best = std::max(best, compensated_fidelity(false, u, ut, a, 1));
      }
    EXPECT_GE(r.fidelity, best - 1e-12);
    EXPECT_LT(r.fidelity - best, 1e-3);  // the grid (spacing 9e-3 rad) comes close
  }
  // vz, two qubits: a 24^4 grid, phases applied directly (U'_ij = z_i U_ij w_j).
  for (int trial = 0; trial < 2; ++trial) {
    const CMatrix ut = random_unitary(4, rng), u = leaky_random(4, rng, 0.2);
    const FidelityResult r = evaluate_fidelity(u, ut, Compensation::vz);
    const int g = 24;
    double best = 0.0;
    const CMatrix m = ut.conjugate().cwiseProduct(u);
    const double tr = u.squaredNorm();
    std::vector<double> th(static_cast<std::size_t>(g));
    for (int i = 0; i < g; ++i)
      th[static_cast<std::size_t>(i)] = kPi * (i / static_cast<double>(g) - 0.5);
    for (int a0 = 0; a0 < g; ++a0)
      for (int a1 = 0; a1 < g; ++a1)
        for (int b0 = 0; b0 < g; ++b0)
          for (int b1 = 0; b1 < g; ++b1) {
            const double pa = th[static_cast<std::size_t>(a0)],
                         pb = th[static_cast<std::size_t>(a1)];
            const double qa = th[static_cast<std::size_t>(b0)],
                         qb = th[static_cast<std::size_t>(b1)];
            const double zpre[4] = {pa + pb, pa - pb, -pa + pb, -pa - pb};
            const double zpost[4] = {qa + qb, qa - qb, -qa + qb, -qa - qb};
            cplx tau = 0.0;
            for (int i = 0; i < 4; ++i)
              for (int k = 0; k < 4; ++k) tau += m(i, k) * std::polar(1.0, zpost[i] + zpre[k]);
            best = std::max(best, (tr + std::norm(tau)) / 20.0);
          }
    EXPECT_GE(r.fidelity, best - 1e-12);
  }
  // single_qubit: random search over the 6 (one qubit) or 12 (two qubits) Euler angles.
  for (int n = 1; n <= 2; ++n) {
    const Index d = Index{1} << n;
    const CMatrix ut = random_unitary(d, rng), u = leaky_random(d, rng, 0.2);
    const FidelityResult r = evaluate_fidelity(u, ut, Compensation::single_qubit);
    double best = 0.0;
    const int samples = n == 1 ? 100000 : 40000;
    std::uniform_real_distribution<double> ang(-kPi, kPi);
    for (int s = 0; s < samples; ++s) {
      CMatrix lpre = CMatrix::Identity(1, 1), lpost = CMatrix::Identity(1, 1);
      for (int q = 0; q < n; ++q) {
        const double a0 = ang(rng), a1 = ang(rng), a2 = ang(rng);
        lpre = kron(lpre, euler_fast(a0, a1, a2));
      }
      for (int q = 0; q < n; ++q) {
        const double a0 = ang(rng), a1 = ang(rng), a2 = ang(rng);
        lpost = kron(lpost, euler_fast(a0, a1, a2));
      }
      best = std::max(best, reference_fidelity(lpost * u * lpre, ut));
    }
    EXPECT_GE(r.fidelity, best - 1e-12) << n;
    std::cout << "[ brute force ] single_qubit n=" << n << ": solver " << r.fidelity << ", best of "
              << samples << " samples " << best << "\n";
  }
}

}  // namespace
}  // namespace qevolve::fidelity
