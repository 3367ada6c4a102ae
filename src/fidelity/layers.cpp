// Compensation layers: per-qubit factors, their derivative generators, local application.
#include <cmath>

#include "local_ops.hpp"
#include "qevolve/error.hpp"

namespace qevolve::fidelity {

namespace detail {

void apply_rows(CMatrix& m, const Mat2& o, Index bit) {
  const Index rows = m.rows();
  const cplx o00 = o(0, 0), o01 = o(0, 1), o10 = o(1, 0), o11 = o(1, 1);
  CVector tmp(bit >= 8 ? bit : 0);
  for (Index c = 0; c < m.cols(); ++c) {
    cplx* p = m.col(c).data();
    for (Index hi = 0; hi < rows; hi += 2 * bit) {
      if (bit >= 8) {  // contiguous runs: vectorised by Eigen
        Eigen::Map<CVector> x0(p + hi, bit), x1(p + hi + bit, bit);
        tmp = x0;
        x0 = o00 * tmp + o01 * x1;
        x1 = o10 * tmp + o11 * x1;
        continue;
      }
      for (Index i0 = hi; i0 < hi + bit; ++i0) {
        const cplx a = p[i0], b = p[i0 + bit];
        p[i0] = o00 * a + o01 * b;
        p[i0 + bit] = o10 * a + o11 * b;
      }
    }
  }
}

void apply_cols(CMatrix& m, const Mat2& o, Index bit) {
  const Index cols = m.cols();
  const cplx o00 = o(0, 0), o01 = o(0, 1), o10 = o(1, 0), o11 = o(1, 1);
  CVector tmp(m.rows());
  for (Index hi = 0; hi < cols; hi += 2 * bit) {
    for (Index k0 = hi; k0 < hi + bit; ++k0) {
      const Index k1 = k0 + bit;
      tmp = m.col(k0);
      m.col(k0) = o00 * tmp + o10 * m.col(k1);
      m.col(k1) = o01 * tmp + o11 * m.col(k1);
    }
  }
}

Mat2 site_factor(Compensation kind, const double* a) {
  if (kind == Compensation::vz) return vz_factor(a[0]);
  return euler_factor(a[0], a[1], a[2]);
}

SiteGenerators site_generators(Compensation kind, const double* a) {
  const cplx I(0.0, 1.0);
  SiteGenerators out;
  if (kind == Compensation::vz) {
    out.count = 1;
    out.g[0] << I, 0.0, 0.0, -I;  // d/dth diag(e^{ith}, e^{-ith}) = diag(i, -i) Z
    out.s[0][0] = -Mat2::Identity();
    return out;
  }
  out.count = 3;
  Mat2 y, z;
  y << 0.0, -I, I, 0.0;
  z << 1.0, 0.0, 0.0, -1.0;
  const Mat2 rz_a = euler_factor(a[0], 0.0, 0.0);
  const Mat2 r = euler_factor(a[0], a[1], a[2]);
  out.g[0] = -0.5 * I * z;                            // RZ(a) is leftmost
  out.g[1] = rz_a * (-0.5 * I * y) * rz_a.adjoint();  // RY(b) in the middle
  out.g[2] = r * (-0.5 * I * z) * r.adjoint();        // RZ(g) is rightmost
  for (int j = 0; j < 3; ++j) {
    out.s[j][j] = -0.25 * Mat2::Identity();
    for (int k = j + 1; k < 3; ++k) {
      // d_j d_k (A_j ... A_k ...) l^dag with j left of k: G_j G_k.
      out.s[j][k] = out.g[j] * out.g[k];
      out.s[k][j] = out.s[j][k];
    }
  }
  return out;
}

void euler_angles(const Mat2& r, double* out) {
  // RZ(a) RY(b) RZ(g) = [[al, -conj(be)], [be, conj(al)]] with al = e^{-i(a+g)/2} cos(b/2),
  // be = e^{i(a-g)/2} sin(b/2). Bring r to SU(2) first (either root: -r only shifts a, g by a
  // consistent multiple of 2 pi), then read a, g from the phases of al and be directly --
  // halving phase differences would lose the branch and could flip the sign of b.
  const cplx det = r.determinant();
  const Mat2 su = std::abs(det) > 0.0 ? Mat2(r / std::sqrt(det)) : r;
  const cplx al = 0.5 * (su(0, 0) + std::conj(su(1, 1)));
  const cplx be = 0.5 * (su(1, 0) - std::conj(su(0, 1)));
  const double arg_al = std::abs(al) > 0.0 ? std::arg(al) : 0.0;
  const double arg_be = std::abs(be) > 0.0 ? std::arg(be) : 0.0;
  out[0] = arg_be - arg_al;
  out[1] = 2.0 * std::atan2(std::abs(be), std::abs(al));
  out[2] = -arg_al - arg_be;
}

}  // namespace detail

int angles_per_site(Compensation kind) {
  switch (kind) {
    case Compensation::none:
      return 0;
    case Compensation::vz:
      return 1;
    case Compensation::single_qubit:
      return 3;
  }
  return 0;
}

int compensation_angle_count(Compensation kind, int num_qubits) {
  return 2 * num_qubits * angles_per_site(kind);
}

Mat2 vz_factor(double theta) {
  Mat2 z = Mat2::Zero();
  z(0, 0) = std::polar(1.0, theta);
  z(1, 1) = std::polar(1.0, -theta);
  return z;
}

Mat2 euler_factor(double alpha, double beta, double gamma) {
  const double c = std::cos(0.5 * beta), s = std::sin(0.5 * beta);
  Mat2 r;
  r(0, 0) = std::polar(c, -0.5 * (alpha + gamma));
  r(0, 1) = -std::polar(s, -0.5 * (alpha - gamma));
  r(1, 0) = std::polar(s, 0.5 * (alpha - gamma));
  r(1, 1) = std::polar(c, 0.5 * (alpha + gamma));
  return r;
}

std::vector<Mat2> layer_factors(Compensation kind, const RVector& angles, int num_qubits,
                                bool post) {
  const int m = angles_per_site(kind);
  std::vector<Mat2> out(static_cast<std::size_t>(num_qubits), Mat2::Identity());
  if (m == 0) return out;
  if (angles.size() != compensation_angle_count(kind, num_qubits))
    throw Error("compensation: expected " +
                std::to_string(compensation_angle_count(kind, num_qubits)) + " angles, got " +
                std::to_string(angles.size()));
  for (int q = 0; q < num_qubits; ++q) {
    const int site = post ? num_qubits + q : q;
    out[static_cast<std::size_t>(q)] =
        detail::site_factor(kind, angles.data() + static_cast<Index>(m) * site);
  }
  return out;
}

CMatrix dense_layer(const std::vector<Mat2>& factors) {
  CMatrix out = CMatrix::Identity(1, 1);
  for (const Mat2& f : factors) {
    CMatrix next(out.rows() * 2, out.cols() * 2);
    for (Index i = 0; i < out.rows(); ++i)
      for (Index j = 0; j < out.cols(); ++j) next.block<2, 2>(2 * i, 2 * j) = out(i, j) * f;
    out = std::move(next);
  }
  return out;
}

CMatrix apply_compensation(Compensation kind, const CMatrix& u, const RVector& angles) {
  CMatrix out = u;
  if (kind == Compensation::none) return out;
  int n = 0;
  while ((Index{1} << n) < u.rows()) ++n;
  const auto pre = layer_factors(kind, angles, n, false);
  const auto post = layer_factors(kind, angles, n, true);
  for (int q = 0; q < n; ++q) {
    detail::apply_rows(out, post[static_cast<std::size_t>(q)], detail::qubit_bit(q, n));
    detail::apply_cols(out, pre[static_cast<std::size_t>(q)], detail::qubit_bit(q, n));
  }
  return out;
}

}  // namespace qevolve::fidelity
