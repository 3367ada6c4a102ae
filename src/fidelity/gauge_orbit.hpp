// Internal: the exact gauge orbit of single_qubit compensation, known from the target alone.
//
// F depends on the layers only through Tr(T^dag U') and Tr(U'^dag U') with U' = L_post U L_pre,
// so (L_pre, L_post) -> (L_pre V, W L_post) with V = T^dag W^dag T leaves F unchanged for every
// U whenever both W and V are tensor products of one-qubit unitaries. With W = exp(-i G),
// G = sum_{q,a} g_(q,a) s_a^(q) / 2, this holds iff T^dag G T is local again, i.e. iff g lies in
// the eigenvalue-1 eigenspace of R R^T, R the weight-1 Pauli transfer matrix of T
// (StartSums::pauli_t); then T^dag G T = sum h_(p,b) s_b^(p) / 2 with h = R^T g. Examples:
// X on every qubit, k = 3N (the SU(2) orbit of each X); CNOT, k = 2 (Z on the control, X on the
// target); a generic two-qubit gate, k = 0.
//
// Moving along the orbit needs no U: it is 2 x 2 algebra on the site factors. The canonical
// angles (canonical.cpp) use it to find the minimum-norm point of the optimal set without the
// exact Hessians of the generic descent, when the Hessian's null space at the polished optimum
// is exactly this orbit's tangent (otherwise the generic path runs).
#pragma once

#include <optional>
#include <vector>

#include "qevolve/fidelity.hpp"

namespace qevolve::fidelity::detail {

class GaugeOrbit {
 public:
  GaugeOrbit() = default;
  /// From the transfer blocks pauli_t[9 (p N + q) + 3 b + a] = Tr(s_b^(p) T s_a^(q) T^dag) / d.
  GaugeOrbit(const std::vector<double>& pauli_t, int num_qubits);

  [[nodiscard]] int dimension() const { return static_cast<int>(g_.cols()); }

  /// Angles (single_qubit, 6N) after the move exp(-i G(w)) from angles x; each site's
  /// (alpha, beta, gamma) is the representative of +-factor nearest to `reference`.
  [[nodiscard]] RVector move(const RVector& x, const RVector& w, const RVector& reference) const;
  /// d(angles)/dw at w = 0 (6N x k); empty when a site is within `min_sin_beta` of the Euler
  /// chart's singularity (beta = 0 or pi), where the angles are not smooth in w.
  [[nodiscard]] std::optional<RMatrix> tangent(const RVector& x, double min_sin_beta = 1e-3) const;
  /// The nearest point of least norm on the orbit through x: Newton iterations on
  /// |x(w)|^2 / 2 in w, to a tangent component of x below 1e-12. Empty if it does not get
  /// there (chart singularity, no convergence).
  [[nodiscard]] std::optional<RVector> minimum_norm(const RVector& x) const;
  /// A cheap approximation for comparing starting points: Gauss-Newton steps only, to a
  /// tangent component of 1e-6 or 30 iterations (then the point reached). Empty at a chart
  /// singularity.
  [[nodiscard]] std::optional<RVector> rough_minimum_norm(const RVector& x) const;

 private:
  [[nodiscard]] std::optional<RVector> descend(const RVector& x, bool newton, double tolerance,
                                               int max_iterations) const;

  int n_ = 0;
  RMatrix g_;  // 3N x k: post-side generator coefficients (qubit-major X Y Z)
  RMatrix h_;  // 3N x k: the pre-side ones, R^T g
};

/// An orthonormal basis of the column space of j (full column rank), by Householder QR.
[[nodiscard]] RMatrix orthonormal_columns(const RMatrix& j);

/// Euler angles of r (up to sign and phase) nearest to `reference` among the equivalent
/// representatives: alpha, beta, gamma shifted by 2 pi, and the flip (a + pi, -b, g + pi).
void nearest_euler_angles(const Mat2& r, const double* reference, double* out);

}  // namespace qevolve::fidelity::detail
