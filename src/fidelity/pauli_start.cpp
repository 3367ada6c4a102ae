// Analytic single_qubit starts from the weight-1 Pauli transfer blocks.
//
// For U = L_post U_t L_pre (L = (x)_q l_q), conjugation by l maps Paulis to rotated Paulis,
// l s_a l^dag = sum_b R(l)_ba s_b with R(l) in SO(3), and leaves the identity (and the support
// of a Pauli string) unchanged. Hence the blocks M(p,q)_ba = Tr(s_b^(p) U s_a^(q) U^dag) / d
// (inputs of weight one on q, outputs of weight one on p) obey
//   M_U(p,q) = R(l_post,p) M_t(p,q) R(l_pre,q)
// exactly, however entangling U_t is. Fitting the 2N rotations in least squares is a small
// problem (N^2 3x3 blocks) that alternating Procrustes solves from a few starts; the
// compensation is the inverse of the fitted errors. This start removes the local maxima that
// trap site sweeps when the single-qubit errors are large and the target is entangling.
#include <Eigen/Geometry>
#include <Eigen/SVD>
#include <algorithm>

#include "local_ops.hpp"
#include "solver_internal.hpp"

namespace qevolve::fidelity::detail {
namespace {

using M3 = Eigen::Matrix3d;

/// The rotation closest to a (maximises Tr(R^T a) over SO(3)).
M3 nearest_rotation(const M3& a) {
  const Eigen::JacobiSVD<M3> svd(a, Eigen::ComputeFullU | Eigen::ComputeFullV);
  M3 fix = M3::Identity();
  if ((svd.matrixU() * svd.matrixV().transpose()).determinant() < 0.0) fix(2, 2) = -1.0;
  return svd.matrixU() * fix * svd.matrixV().transpose();
}

/// A unitary l with R(l) = r: l = w I - i (x X + y Y + z Z) for the unit quaternion of r.
Mat2 unitary_of_rotation(const M3& r) {
  Eigen::Quaterniond q(r);
  q.normalize();
  const cplx I(0.0, 1.0);
  Mat2 l;
  l << cplx(q.w(), -q.z()), -I * q.x() - q.y(), -I * q.x() + q.y(), cplx(q.w(), q.z());
  return l;
}

std::uint64_t splitmix(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/// A rotation from a uniformly random unit quaternion (seeded, library independent).
M3 random_rotation(std::uint64_t& state) {
  double v[4];
  double norm = 0.0;
  do {
    norm = 0.0;
    for (double& c : v) {
      c = 2.0 * (static_cast<double>(splitmix(state) >> 11) * 0x1.0p-53) - 1.0;
      norm += c * c;
    }
  } while (norm > 1.0 || norm < 1e-6);
  Eigen::Quaterniond q(v[0], v[1], v[2], v[3]);
  q.normalize();
  return q.toRotationMatrix();
}

}  // namespace

std::vector<RVector> pauli_frame_starts(const StartSums& sums, int n, std::uint64_t seed,
                                        int count) {
  const auto nn = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
  if (n == 0 || sums.pauli_u.size() != 9 * nn || sums.pauli_t.size() != 9 * nn) return {};
  std::vector<M3> mu(nn), mt(nn);
  for (std::size_t b = 0; b < nn; ++b)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        mu[b](i, j) = sums.pauli_u[9 * b + static_cast<std::size_t>(3 * i + j)];
        mt[b](i, j) = sums.pauli_t[9 * b + static_cast<std::size_t>(3 * i + j)];
      }
  auto blk = [n](int p, int q) {
    return static_cast<std::size_t>(p) * static_cast<std::size_t>(n) + static_cast<std::size_t>(q);
  };

  struct Fit {
    double residual;
    std::vector<M3> post, pre;
  };
  std::vector<Fit> fits;
  std::uint64_t state = seed ^ 0x6A09E667F3BCC909ULL;
  const int trials = 12;
  for (int t = 0; t < trials; ++t) {
    std::vector<M3> post(static_cast<std::size_t>(n)), pre(static_cast<std::size_t>(n));
    for (auto& r : pre) r = t == 0 ? M3::Identity() : random_rotation(state);
    double residual = 0.0, previous = -1.0;
    for (int it = 0; it < 200; ++it) {
      // post_p = argmax sum_q Tr(P^T M_U (M_t Q_q)^T); pre_q likewise with the posts fixed.
      for (int p = 0; p < n; ++p) {
        M3 acc = M3::Zero();
        for (int q = 0; q < n; ++q)
          acc += mu[blk(p, q)] * (mt[blk(p, q)] * pre[static_cast<std::size_t>(q)]).transpose();
        post[static_cast<std::size_t>(p)] = nearest_rotation(acc);
      }
      for (int q = 0; q < n; ++q) {
        M3 acc = M3::Zero();
        for (int p = 0; p < n; ++p)
          acc += (post[static_cast<std::size_t>(p)] * mt[blk(p, q)]).transpose() * mu[blk(p, q)];
        pre[static_cast<std::size_t>(q)] = nearest_rotation(acc);
      }
      residual = 0.0;
      for (int p = 0; p < n; ++p)
        for (int q = 0; q < n; ++q)
          residual += (mu[blk(p, q)] - post[static_cast<std::size_t>(p)] * mt[blk(p, q)] *
                                           pre[static_cast<std::size_t>(q)])
                          .squaredNorm();
      if (previous >= 0.0 && previous - residual <= 1e-14 * (1.0 + residual)) break;
      previous = residual;
    }
    fits.push_back({residual, std::move(post), std::move(pre)});
  }
  std::stable_sort(fits.begin(), fits.end(),
                   [](const Fit& a, const Fit& b) { return a.residual < b.residual; });

  std::vector<RVector> out;
  for (const Fit& f : fits) {
    if (static_cast<int>(out.size()) >= count) break;
    RVector x(6 * n);
    for (int q = 0; q < n; ++q) {
      // The fitted rotations are the errors; the compensation undoes them.
      euler_angles(unitary_of_rotation(f.pre[static_cast<std::size_t>(q)]).adjoint(),
                   x.data() + Index{3} * q);
      euler_angles(unitary_of_rotation(f.post[static_cast<std::size_t>(q)]).adjoint(),
                   x.data() + Index{3} * (n + q));
    }
    bool duplicate = false;
    for (const RVector& y : out) duplicate = duplicate || (x - y).lpNorm<Eigen::Infinity>() < 1e-6;
    if (!duplicate) out.push_back(std::move(x));
  }
  return out;
}

}  // namespace qevolve::fidelity::detail
