// Canonical compensation angles (docs/fidelity.md "Gauge and canonical angles"): the optimum is defined only up to
// gauge -- period shifts (vz: pi, single_qubit: 2 pi, both flip the sign of one factor), the
// Euler flip (a, b, g) -> (a + pi, -b, g + pi) of a single_qubit factor (its sign again), and
// continuous directions along which F does not change (zero curvature). The reported angles
// are polished to the optimum, carry no component along the zero-curvature directions (the
// minimum-norm choice), and are reduced to (-P/2, P/2]; among the images under the discrete
// gauge moves the one of least norm is taken. For single_qubit, when the zero-curvature
// directions are exactly the target's gauge orbit (gauge_orbit.hpp), the minimum norm is found
// on the orbit itself, without the exact Hessians of the generic descent.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include <Eigen/Eigenvalues>
#include <Eigen/QR>
#include <Eigen/SVD>

#include "solver_internal.hpp"

namespace qevolve::fidelity::detail {
namespace {

/// A Hessian eigenvalue is "zero curvature" when |lambda| <= kNullRelative * max |lambda|.
/// Gauge directions give exact zeros (rounding ~1e-15 relative); genuine curvatures of a
/// compensation problem are O(1) relative to the largest.
constexpr double kNullRelative = 1e-8;

/// Extra starting points of the minimum-norm search on an exact gauge orbit.
constexpr int kOrbitStarts = 8;

struct Polished {
  RVector x;
  RMatrix null;  // orthonormal basis of the zero-curvature directions at x
};

Polished newton_polish(CompensationObjective& obj, RVector x) {
  constexpr double kEps = std::numeric_limits<double>::epsilon();
  Polished out;
  for (int it = 0; it < 10; ++it) {
    RVector g;
    const double f = fidelity_at(obj, x, &g);
    const RMatrix h = objective_hessian(obj.kind(), obj.dim(), x, obj.hessian_sums());
    const Eigen::SelfAdjointEigenSolver<RMatrix> es(h);
    const RVector& lam = es.eigenvalues();
    const RMatrix& q = es.eigenvectors();
    const double lmax = lam.cwiseAbs().maxCoeff();
    std::vector<Index> null_cols;
    RVector delta = RVector::Zero(x.size());
    for (Index j = 0; j < lam.size(); ++j) {
      if (std::abs(lam(j)) <= kNullRelative * lmax || lmax == 0.0) {
        null_cols.push_back(j);
      } else {
        // Newton step towards the maximum (a positive curvature would be a saddle: ascend).
        delta += (q.col(j).dot(g) / std::abs(lam(j))) * q.col(j);
      }
    }
    out.null.resize(x.size(), static_cast<Index>(null_cols.size()));
    for (std::size_t c = 0; c < null_cols.size(); ++c)
      out.null.col(static_cast<Index>(c)) = q.col(null_cols[c]);
    if (delta.lpNorm<Eigen::Infinity>() < 1e-15) break;
    bool accepted = false;
    for (double t = 1.0; t > 1e-6; t *= 0.5) {
      const RVector xn = x + t * delta;
      if (fidelity_at(obj, xn) >= f - 4.0 * kEps) {
        x = xn;
        accepted = true;
        break;
      }
    }
    if (!accepted || delta.lpNorm<Eigen::Infinity>() < 1e-13) break;
  }
  out.x = std::move(x);
  return out;
}

RVector representative(Compensation kind, const RVector& x, const RMatrix& null) {
  return reduce_angles(kind, x - null * (null.transpose() * x));
}

/// The discrete gauge moves of n angles: +-P on each angle, then (single_qubit) the Euler
/// flip (a, b, g) -> (a + pi, -b, g + pi) of each site.
Index discrete_moves(Compensation kind, Index n) {
  return 2 * n + (kind == Compensation::single_qubit ? n / 3 : 0);
}

/// Applies move `mv` to z; returns the flipped site for an Euler flip, -1 otherwise.
Index apply_discrete_move(Compensation kind, Index mv, RVector& z) {
  const Index n = z.size();
  if (mv < 2 * n) {
    z(mv / 2) += (mv % 2 == 0) ? angle_period(kind) : -angle_period(kind);
    return -1;
  }
  const Index s = mv - 2 * n;
  z(3 * s) += kPi;
  z(3 * s + 1) = -z(3 * s + 1);
  z(3 * s + 2) += kPi;
  return s;
}

/// Greedy descent in norm over the discrete gauge moves.
void lower_norm(Compensation kind, RVector& y, RMatrix& null) {
  double best = y.squaredNorm();
  for (int round = 0; round < 8; ++round) {
    bool improved = false;
    for (Index mv = 0; mv < discrete_moves(kind, y.size()); ++mv) {
      RVector z = y;
      RMatrix nz = null;
      const Index flipped = apply_discrete_move(kind, mv, z);
      if (flipped >= 0) nz.row(3 * flipped + 1) *= -1.0;
      z = representative(kind, z, nz);
      if (z.squaredNorm() < best - 1e-10) {
        y = z;
        null = nz;
        best = z.squaredNorm();
        improved = true;
      }
    }
    if (!improved) break;
  }
}

}  // namespace

namespace {

/// Minimises |x|^2 / 2 over the optimal set from the polished point `start`: gradient descent
/// along the set (the gradient is the null-space component P x of x, P the projector on the
/// tangent = zero-curvature space), each step re-polished onto the set, with Barzilai-Borwein
/// step lengths and Armijo backtracking. The first step is the full projection, exact for
/// linear gauges; curved ones (Euler coordinates) take a few more.
Polished minimise_norm_on_set(CompensationObjective& obj, const Polished& start, double f_floor) {
  if (start.null.cols() == 0) return start;
  auto tangent = [](const Polished& p) -> RVector { return p.null * (p.null.transpose() * p.x); };
  Polished cur = start;
  RVector g = tangent(cur);
  double t = 1.0;
  for (int it = 0; it < 50; ++it) {
    if (g.lpNorm<Eigen::Infinity>() < 1e-11) break;
    const double phi = 0.5 * cur.x.squaredNorm(), g2 = g.squaredNorm();
    bool accepted = false;
    for (int trial = 0; trial < 16; ++trial, t *= 0.5) {
      Polished next = newton_polish(obj, cur.x - t * g);
      const RVector gn = tangent(next);
      const double phin = 0.5 * next.x.squaredNorm();
      // Armijo, or (once the decrease is below the rounding of |x|^2) a smaller gradient.
      const bool decrease =
          phin <= phi - 1e-4 * t * g2 || (phin <= phi + 1e-15 * phi && gn.norm() < 0.5 * g.norm());
      if (decrease && fidelity_at(obj, next.x) >= f_floor) {
        const RVector dx = next.x - cur.x, dg = gn - g;
        const double sy = dx.dot(dg);
        t = sy > 0.0 ? std::clamp(dx.squaredNorm() / sy, 1e-3, 10.0) : 1.0;
        cur = std::move(next);
        g = gn;
        accepted = true;
        break;
      }
    }
    if (!accepted) break;
  }
  // Near a gimbal lock (beta ~ 0) the set is strongly curved in Euler coordinates and the
  // descent slows down: finish with Newton steps in the k null coordinates, the k x k Hessian
  // of |x|^2/2 along the set taken by finite differences (h = 1e-6) of the tangent gradient.
  const Index k = cur.null.cols();
  for (int it = 0; it < 8 && g.lpNorm<Eigen::Infinity>() >= 1e-11; ++it) {
    const RMatrix n0 = cur.null;
    const RVector g0 = n0.transpose() * g;
    RMatrix hk(k, k);
    const double h = 1e-6;
    for (Index j = 0; j < k; ++j) {
      const Polished p = newton_polish(obj, cur.x + h * n0.col(j));
      hk.col(j) = (n0.transpose() * tangent(p) - g0) / h;
    }
    hk = 0.5 * (hk + hk.transpose());
    const RVector step = hk.completeOrthogonalDecomposition().solve(g0);
    Polished next = newton_polish(obj, cur.x - n0 * step);
    const RVector gn = tangent(next);
    if (!(gn.norm() < g.norm()) || fidelity_at(obj, next.x) < f_floor) break;
    cur = std::move(next);
    g = gn;
  }
  return cur;
}

/// The null space at the polished point is the orbit's tangent (same dimension, principal
/// angles ~0): then the optimal set near it is the orbit.
bool null_space_is_orbit(const GaugeOrbit& orbit, const Polished& p) {
  if (orbit.dimension() != p.null.cols()) return false;
  const auto j = orbit.tangent(p.x);
  if (!j) return false;
  const Eigen::JacobiSVD<RMatrix> svd(p.null.transpose() * orthonormal_columns(*j));
  return svd.singularValues().minCoeff() > 1.0 - 1e-6;
}

/// lower_norm on the orbit: each discrete gauge move followed by one Gauss-Newton projection
/// along the orbit (which keeps F exactly, unlike the linear projection of the generic path).
void lower_norm_on_orbit(const GaugeOrbit& orbit, RVector& y) {
  double best = y.squaredNorm();
  for (int round = 0; round < 8; ++round) {
    bool improved = false;
    for (Index mv = 0; mv < discrete_moves(Compensation::single_qubit, y.size()); ++mv) {
      RVector z = y;
      apply_discrete_move(Compensation::single_qubit, mv, z);
      const auto j = orbit.tangent(z);
      if (!j) continue;
      const RVector dw = -(j->transpose() * *j).ldlt().solve(j->transpose() * z);
      z = reduce_angles(Compensation::single_qubit, orbit.move(z, dw, z));
      if (z.squaredNorm() < best - 1e-10) {
        y = z;
        best = z.squaredNorm();
        improved = true;
      }
    }
    if (!improved) break;
  }
}

/// A point of the orbit through x where the Euler chart is regular (x itself if it is).
std::optional<RVector> regular_point(const GaugeOrbit& orbit, const RVector& x) {
  if (orbit.tangent(x)) return x;
  const RVector dir = RVector::Ones(orbit.dimension()) / std::sqrt(orbit.dimension());
  for (const double c : {0.5, 1.0, 1.5}) {
    const RVector x1 = orbit.move(x, c * dir, x);
    if (orbit.tangent(x1)) return x1;
  }
  return std::nullopt;
}

/// orbit_least_norm with the check that the optimal set near the polished point is the orbit.
std::optional<RVector> orbit_canonical(CompensationObjective& obj, const GaugeOrbit& orbit,
                                       const Polished& polished) {
  // Near the Euler chart's singularity (some beta ~ 0) the angles are not smooth along the
  // orbit and the Hessian gains chart directions: move along the orbit (F unchanged) to a
  // regular point first and take the null space there.
  Polished first = polished;
  if (!orbit.tangent(first.x)) {
    const std::optional<RVector> x1 = regular_point(orbit, first.x);
    if (!x1) return std::nullopt;
    first = newton_polish(obj, *x1);
  }
  if (!null_space_is_orbit(orbit, first)) return std::nullopt;
  return orbit_least_norm(orbit, first.x);
}

}  // namespace

std::optional<RVector> orbit_least_norm(const GaugeOrbit& orbit, const RVector& x0) {
  const std::optional<RVector> start = regular_point(orbit, x0);
  if (!start) return std::nullopt;
  // The norm can have several local minima along a curved orbit: besides the start itself,
  // descend from the start moved by a fixed set of w (a seeded stream, the same for every
  // candidate), so that the least-norm local minimum is found more often. The starts are
  // compared after a rough descent; the best one is refined.
  std::optional<RVector> x = orbit.minimum_norm(*start);
  std::optional<RVector> best;
  std::uint64_t state = 0x6A09E667F3BCC909ULL;
  for (int k = 0; k < kOrbitStarts; ++k) {
    RVector w(orbit.dimension());
    for (Index i = 0; i < w.size(); ++i) w(i) = kTwoPi * (uniform(state) - 0.5);
    const std::optional<RVector> m = orbit.rough_minimum_norm(orbit.move(*start, w, *start));
    if (m && (!best || m->squaredNorm() < best->squaredNorm())) best = m;
  }
  if (best && (!x || best->squaredNorm() < x->squaredNorm() - 1e-6)) {
    const std::optional<RVector> refined = orbit.minimum_norm(*best);
    if (refined && (!x || refined->squaredNorm() < x->squaredNorm() - 1e-10)) x = refined;
  }
  // Range reduction and the discrete moves, to a fixed point.
  for (int round = 0; round < 20 && x; ++round) {
    const RVector reduced = reduce_angles(Compensation::single_qubit, *x);
    RVector y = reduced;
    lower_norm_on_orbit(orbit, y);
    if ((y - reduced).lpNorm<Eigen::Infinity>() < 1e-12) return reduced;
    x = orbit.minimum_norm(y);
  }
  return std::nullopt;
}

RVector canonical_angles(CompensationObjective& obj, const RVector& x0, const GaugeOrbit* orbit) {
  const Compensation kind = obj.kind();
  const Polished first = newton_polish(obj, x0);
  const double f_first = fidelity_at(obj, first.x);
  const double f_floor = f_first - 1e-12;
  if (orbit != nullptr && kind == Compensation::single_qubit && first.null.cols() > 0) {
    const std::optional<RVector> x = orbit_canonical(obj, *orbit, first);
    if (x && fidelity_at(obj, *x) >= f_floor) return *x;
  }
  // Minimum norm on the optimal set, then the discrete gauge moves and range reduction; a
  // discrete move that lowered the norm lands elsewhere on the set: minimise again from there.
  Polished pol = first;
  RVector x = first.x;
  for (int round = 0; round < 20; ++round) {
    pol = minimise_norm_on_set(obj, pol, f_floor);
    RVector y = reduce_angles(kind, pol.x);
    RMatrix null = pol.null;
    lower_norm(kind, y, null);
    x = y;
    if ((y - reduce_angles(kind, pol.x)).lpNorm<Eigen::Infinity>() < 1e-12) break;
    pol = newton_polish(obj, y);
    x = pol.x;
  }
  x = reduce_angles(kind, x);
  // The gauge moves never change F; if rounding or a misjudged curvature did, keep the
  // polished optimum itself.
  if (fidelity_at(obj, x) < f_floor) return reduce_angles(kind, first.x);
  return x;
}

}  // namespace qevolve::fidelity::detail
