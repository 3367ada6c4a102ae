// Uniform clamped cubic B-splines (docs/pulses.md "Shapes", shape `spline`): n >= 4 basis functions
// on [0, L], knots t_0 = ... = t_3 = 0, t_{3+j} = j L/(n-3) (j = 1..n-4), t_n = ... = t_{n+3} = L.
#pragma once

namespace qevolve::pulse::detail {

/// The (at most) four basis functions that are nonzero at one point, and their first
/// derivatives: B_{first+j}(tau) = value[j], dB_{first+j}/dtau = slope[j].
struct SplineBasis {
  int first = 0;
  double value[4] = {0.0, 0.0, 0.0, 0.0};
  double slope[4] = {0.0, 0.0, 0.0, 0.0};
};

/// Evaluates the basis at 0 <= tau <= L (tau = L belongs to the last knot span, so that
/// B_{n-1}(L) = 1). No allocation.
[[nodiscard]] SplineBasis cubic_basis(int n, double L, double tau);

/// Integral of B_k over [0, L]: (t_{k+4} - t_k) / 4.
[[nodiscard]] double cubic_basis_integral(int n, double L, int k);

}  // namespace qevolve::pulse::detail
