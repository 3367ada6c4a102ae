// Internal: 2x2 operators on one qubit of the row or column index of a matrix, and the
// per-site derivative generators of the compensation factors.
#pragma once

#include "qevolve/fidelity.hpp"

namespace qevolve::fidelity::detail {

/// The bit of the flat index that belongs to qubit q of n (qubit 0 = most significant).
[[nodiscard]] inline Index qubit_bit(int q, int n) {
  return Index{1} << (n - 1 - q);
}

/// m <- O_q m: O acts on the row index bit `bit` (every column).
void apply_rows(CMatrix& m, const Mat2& o, Index bit);
/// m <- m O_q: O acts on the column index bit `bit` (m holds all columns).
void apply_cols(CMatrix& m, const Mat2& o, Index bit);

/// The qubit and side of a site: sites 0..N-1 are the pre layer (column side), N..2N-1 post.
struct Site {
  int qubit;
  bool post;
};
[[nodiscard]] inline Site site_of(int s, int n) {
  return {s < n ? s : s - n, s >= n};
}

/// Factor of one site from its angles (vz: 1 angle, single_qubit: 3).
[[nodiscard]] Mat2 site_factor(Compensation kind, const double* a);

/// Derivative generators G_j = (d l / d a_j) l^dag and second-order ones
/// S_jk = (d^2 l / d a_j d a_k) l^dag for the angles of one site.
struct SiteGenerators {
  int count = 0;
  Mat2 g[3];
  Mat2 s[3][3];
};
[[nodiscard]] SiteGenerators site_generators(Compensation kind, const double* a);

/// The Pauli matrix X (a = 0), Y (1) or Z (2).
[[nodiscard]] inline Mat2 pauli_matrix(int a) {
  const cplx I(0.0, 1.0);
  Mat2 s;
  if (a == 0)
    s << 0.0, 1.0, 1.0, 0.0;
  else if (a == 1)
    s << 0.0, -I, I, 0.0;
  else
    s << 1.0, 0.0, 0.0, -1.0;
  return s;
}

/// sum_{x,y} O(x,y) E(x,y)
[[nodiscard]] inline cplx contract(const Mat2& o, const Mat2& e) {
  return o.cwiseProduct(e).sum();
}

/// Euler angles (alpha, beta, gamma) with RZ(alpha) RY(beta) RZ(gamma) = c r for some phase c
/// (r any 2x2 unitary); beta in [0, pi].
void euler_angles(const Mat2& r, double* out);

}  // namespace qevolve::fidelity::detail
