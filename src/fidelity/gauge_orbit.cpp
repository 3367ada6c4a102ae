// The target's exact single_qubit gauge orbit (gauge_orbit.hpp): construction from the Pauli
// transfer blocks, moves and tangents in Euler coordinates, and the minimum-norm point.
#include "gauge_orbit.hpp"

#include <cmath>

#include <Eigen/Eigenvalues>
#include <Eigen/QR>

#include "local_ops.hpp"

namespace qevolve::fidelity::detail {
namespace {

/// An eigenvalue of R R^T counts as 1 (an exact gauge direction) within this; R is built from
/// the target by sums of O(d) rounded products, so exact gauges give 1 to ~1e-15.
constexpr double kUnit = 1e-9;

/// v . sigma for a real 3-vector.
Mat2 pauli_sum(const double* v) {
  return v[0] * pauli_matrix(0) + v[1] * pauli_matrix(1) + v[2] * pauli_matrix(2);
}

/// exp(-i (v . sigma) / 2) in closed form.
Mat2 su2(const double* v) {
  const double theta = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  if (theta == 0.0) return Mat2::Identity();
  const double u[3] = {v[0] / theta, v[1] / theta, v[2] / theta};
  return std::cos(0.5 * theta) * Mat2::Identity() - cplx(0.0, std::sin(0.5 * theta)) * pauli_sum(u);
}

/// Coordinates v of a traceless anti-Hermitian A = -i (v . sigma) / 2: v_k = Re(i Tr(A s_k)).
void su2_coordinates(const Mat2& a, double* v) {
  for (int k = 0; k < 3; ++k) v[k] = (cplx(0.0, 1.0) * (a * pauli_matrix(k)).trace()).real();
}

double nearest_shift(double value, double reference) {
  return value + kTwoPi * std::round((reference - value) / kTwoPi);
}

/// Tangent component (orthogonal projection onto the columns of j) of x, max norm.
double tangent_component(const RMatrix& j, const RVector& x) {
  const RMatrix q = orthonormal_columns(j);
  return (q * (q.transpose() * x)).lpNorm<Eigen::Infinity>();
}

}  // namespace

RMatrix orthonormal_columns(const RMatrix& j) {
  const Eigen::HouseholderQR<RMatrix> qr(j);
  return qr.householderQ() * RMatrix::Identity(j.rows(), j.cols());
}

void nearest_euler_angles(const Mat2& r, const double* reference, double* out) {
  double e[3];
  euler_angles(r, e);
  double best = -1.0;
  for (int flip = 0; flip < 2; ++flip) {
    // (a, b, g) and (a + pi, -b, g + pi) are the same factor up to sign.
    double c[3] = {e[0] + (flip ? kPi : 0.0), flip ? -e[1] : e[1], e[2] + (flip ? kPi : 0.0)};
    for (int i = 0; i < 3; ++i) c[i] = nearest_shift(c[i], reference[i]);
    const double dist = (c[0] - reference[0]) * (c[0] - reference[0]) +
                        (c[1] - reference[1]) * (c[1] - reference[1]) +
                        (c[2] - reference[2]) * (c[2] - reference[2]);
    if (best < 0.0 || dist < best) {
      best = dist;
      for (int i = 0; i < 3; ++i) out[i] = c[i];
    }
  }
}

GaugeOrbit::GaugeOrbit(const std::vector<double>& pauli_t, int num_qubits) : n_(num_qubits) {
  const Index m = 3 * Index{n_};
  if (static_cast<Index>(pauli_t.size()) != m * m) {
    g_.resize(m, 0);
    h_.resize(m, 0);
    return;
  }
  RMatrix r(m, m);
  for (int p = 0; p < n_; ++p)
    for (int q = 0; q < n_; ++q)
      for (int b = 0; b < 3; ++b)
        for (int a = 0; a < 3; ++a)
          r(3 * p + b, 3 * q + a) = pauli_t[static_cast<std::size_t>(9 * (p * n_ + q) + 3 * b + a)];
  // g is a gauge generator iff |R^T g| = |g| (R is a contraction: conjugation keeps the norm
  // and R^T g is the local part of T^dag G T).
  const Eigen::SelfAdjointEigenSolver<RMatrix> es(r * r.transpose());
  std::vector<Index> keep;
  for (Index j = 0; j < m; ++j)
    if (es.eigenvalues()(j) > 1.0 - kUnit) keep.push_back(j);
  g_.resize(m, static_cast<Index>(keep.size()));
  for (std::size_t c = 0; c < keep.size(); ++c)
    g_.col(static_cast<Index>(c)) = es.eigenvectors().col(keep[c]);
  h_ = r.transpose() * g_;
}

RVector GaugeOrbit::move(const RVector& x, const RVector& w, const RVector& reference) const {
  const RVector g = g_ * w, h = h_ * w;
  RVector out(x.size());
  for (int s = 0; s < 2 * n_; ++s) {
    const auto [q, post] = site_of(s, n_);
    const Mat2 l = site_factor(Compensation::single_qubit, x.data() + 3 * s);
    Mat2 moved;
    if (post) {
      moved = su2(g.data() + 3 * q) * l;  // W L_post
    } else {
      const double minus_h[3] = {-h(3 * q), -h(3 * q + 1), -h(3 * q + 2)};
      moved = l * su2(minus_h);  // L_pre V, V = exp(+i T^dag G T)
    }
    nearest_euler_angles(moved, reference.data() + 3 * s, out.data() + 3 * s);
  }
  return out;
}

std::optional<RMatrix> GaugeOrbit::tangent(const RVector& x, double min_sin_beta) const {
  const Index k = g_.cols();
  RMatrix j(x.size(), k);
  for (int s = 0; s < 2 * n_; ++s) {
    const auto [q, post] = site_of(s, n_);
    const double* a = x.data() + 3 * s;
    if (std::abs(std::sin(a[1])) < min_sin_beta) return std::nullopt;
    // The angles' derivative generators G_i = (dl/da_i) l^dag in su(2) coordinates.
    const SiteGenerators sg = site_generators(Compensation::single_qubit, a);
    Eigen::Matrix3d m;
    for (int i = 0; i < 3; ++i) {
      double v[3];
      su2_coordinates(sg.g[i], v);
      m.col(i) << v[0], v[1], v[2];
    }
    // The orbit's generators at this site: post, dl = -i (g . sigma / 2) l, coordinates g;
    // pre, dl = l (i h . sigma / 2) = -i (-(l (h . sigma) l^dag) / 2) l, coordinates -Ad(l) h.
    Eigen::Matrix<double, 3, Eigen::Dynamic> v(3, k);
    if (post) {
      v = g_.middleRows(3 * q, 3);
    } else {
      const Mat2 l = site_factor(Compensation::single_qubit, a);
      Eigen::Matrix3d ad;  // Ad(l)_ib = Tr(s_i l s_b l^dag) / 2
      for (int b = 0; b < 3; ++b) {
        const Mat2 rotated = l * pauli_matrix(b) * l.adjoint();
        for (int i = 0; i < 3; ++i) ad(i, b) = 0.5 * (rotated * pauli_matrix(i)).trace().real();
      }
      v = -ad * h_.middleRows(3 * q, 3);
    }
    j.middleRows(3 * s, 3) = m.partialPivLu().solve(v);
  }
  return j;
}

std::optional<RVector> GaugeOrbit::minimum_norm(const RVector& x0) const {
  return descend(x0, true, 1e-12, 100);
}

std::optional<RVector> GaugeOrbit::rough_minimum_norm(const RVector& x0) const {
  return descend(x0, false, 1e-6, 30);
}

std::optional<RVector> GaugeOrbit::descend(const RVector& x0, bool newton, double tolerance,
                                           int max_iterations) const {
  const Index k = g_.cols();
  RVector x = x0;
  if (k == 0) return x;
  auto gradient = [this](const RVector& at) -> std::optional<RVector> {
    const auto j = tangent(at);
    if (!j) return std::nullopt;
    return RVector(j->transpose() * at);
  };
  constexpr double kH = 1e-5;             // finite-difference step of the Hessian in w
  std::optional<RMatrix> j = tangent(x);  // at the current x (the accepted step's)
  for (int it = 0; it < max_iterations; ++it) {
    if (!j) return std::nullopt;
    const double t0 = tangent_component(*j, x);
    if (t0 < tolerance) return x;
    const RVector gw = j->transpose() * x;
    // Hessian of |x(w)|^2 / 2 by central differences of the gradient (re-centred coordinates
    // differ at second order by commutators, an error proportional to the gradient: the
    // symmetric part still gives quadratic convergence near the minimum).
    RMatrix hess(k, k);
    bool ok = newton;
    for (Index c = 0; c < k && ok; ++c) {
      const RVector e = RVector::Unit(k, c) * kH;
      const auto gp = gradient(move(x, e, x)), gm = gradient(move(x, -e, x));
      if (!gp || !gm) {
        ok = false;
        break;
      }
      hess.col(c) = (*gp - *gm) / (2.0 * kH);
    }
    RVector dw;
    if (ok) {
      hess = 0.5 * (hess + hess.transpose());
      const Eigen::LDLT<RMatrix> ldlt(hess);
      if (ldlt.info() == Eigen::Success && ldlt.isPositive() && ldlt.vectorD().minCoeff() > 0.0)
        dw = -ldlt.solve(gw);
    }
    if (dw.size() == 0) dw = -RMatrix(j->transpose() * *j).ldlt().solve(gw);  // Gauss-Newton
    const double phi = 0.5 * x.squaredNorm(), slope = gw.dot(dw);
    bool accepted = false;
    for (double s = 1.0; s > 1e-8; s *= 0.5) {
      const RVector xn = move(x, s * dw, x);
      auto jn = tangent(xn);
      if (!jn) continue;  // a step onto the chart's singularity: shorter
      const double phin = 0.5 * xn.squaredNorm();
      const bool better = phin <= phi + 1e-4 * s * slope ||
                          (phin <= phi * (1.0 + 1e-14) &&  // rounding level: smaller tangent part
                           tangent_component(*jn, xn) < 0.5 * t0);
      if (better) {
        x = xn;
        j = std::move(jn);
        accepted = true;
        break;
      }
    }
    if (!accepted) return t0 < 10.0 * tolerance ? std::optional<RVector>(x) : std::nullopt;
  }
  return newton ? std::nullopt : std::optional<RVector>(x);
}

}  // namespace qevolve::fidelity::detail
