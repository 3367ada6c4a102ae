#include "bspline.hpp"

#include <algorithm>
#include <cmath>

namespace qevolve::pulse::detail {
namespace {

constexpr int kDegree = 3;

/// Knot t_i of the uniform clamped knot vector with n control points on [0, L].
double knot(int n, double L, int i) {
  const int segments = n - kDegree;
  if (i <= kDegree) return 0.0;
  if (i >= n) return L;
  return L * static_cast<double>(i - kDegree) / static_cast<double>(segments);
}

}  // namespace

SplineBasis cubic_basis(int n, double L, double tau) {
  // Knot span s with t_s <= tau < t_{s+1}, s in [3, n-1]; tau = L goes to the last span.
  const int segments = n - kDegree;
  const double x = tau / L * static_cast<double>(segments);
  const int cell = std::clamp(static_cast<int>(std::floor(x)), 0, segments - 1);
  const int s = cell + kDegree;

  // Cox-de Boor triangle with first derivatives (Piegl & Tiller, The NURBS Book, A2.3, n = 1).
  double ndu[kDegree + 1][kDegree + 1] = {};
  double left[kDegree + 1] = {};
  double right[kDegree + 1] = {};
  ndu[0][0] = 1.0;
  for (int j = 1; j <= kDegree; ++j) {
    left[j] = tau - knot(n, L, s + 1 - j);
    right[j] = knot(n, L, s + j) - tau;
    double saved = 0.0;
    for (int r = 0; r < j; ++r) {
      ndu[j][r] = right[r + 1] + left[j - r];  // knot differences (lower triangle)
      const double temp = ndu[r][j - 1] / ndu[j][r];
      ndu[r][j] = saved + right[r + 1] * temp;  // basis functions (upper triangle)
      saved = left[j - r] * temp;
    }
    ndu[j][j] = saved;
  }

  SplineBasis out;
  out.first = s - kDegree;
  for (int j = 0; j <= kDegree; ++j) out.value[j] = ndu[j][kDegree];
  // dN_{i,3}/dtau = 3 [N_{i,2}/(t_{i+3}-t_i) - N_{i+1,2}/(t_{i+4}-t_{i+1})]; the degree-2 functions
  // sit in column kDegree-1 of ndu and the knot differences in row kDegree.
  for (int r = 0; r <= kDegree; ++r) {
    double d = 0.0;
    if (r >= 1) d += ndu[r - 1][kDegree - 1] / ndu[kDegree][r - 1];
    if (r <= kDegree - 1) d -= ndu[r][kDegree - 1] / ndu[kDegree][r];
    out.slope[r] = kDegree * d;
  }
  return out;
}

double cubic_basis_integral(int n, double L, int k) {
  return (knot(n, L, k + kDegree + 1) - knot(n, L, k)) / (kDegree + 1);
}

}  // namespace qevolve::pulse::detail
