// Chebyshev series of exp(-i tau H) and its adjoint (chebyshev.hpp).
#include "chebyshev.hpp"

#include <algorithm>
#include <cmath>

namespace qevolve::solver {
std::vector<double> bessel_j_orders(double x, int n) {
  std::vector<double> J(static_cast<std::size_t>(n) + 1, 0.0);
  if (x == 0.0) {
    J[0] = 1.0;
    return J;
  }
  const double top = std::max(static_cast<double>(n), x);
  int m = static_cast<int>(top + 30.0 + std::sqrt(40.0 * top));
  m += m % 2;
  // Backward from J_{m+1} = 0, J_m = tiny: J_{k-1} = (2k / x) J_k - J_{k+1}.
  double next = 0.0, cur = 1e-300, even_sum = 0.0;
  for (int k = m; k > 0; --k) {
    const double prev = 2.0 * k / x * cur - next;
    next = cur;
    cur = prev;  // J_{k-1}
    const int order = k - 1;
    if (order <= n) J[static_cast<std::size_t>(order)] = cur;
    if (order > 0 && order % 2 == 0) even_sum += cur;
    if (std::abs(cur) > 1e250) {  // rescale everything kept so far
      for (double& v : J) v *= 1e-250;
      next *= 1e-250;
      cur *= 1e-250;
      even_sum *= 1e-250;
    }
  }
  const double norm = cur + 2.0 * even_sum;  // J_0 + 2 sum J_2k = 1
  for (double& v : J) v /= norm;
  return J;
}

ChebyshevSeries chebyshev_exponential(double tau, double lo, double hi, double tol) {
  ChebyshevSeries s;
  s.center = 0.5 * (lo + hi);
  s.radius = std::max(0.5 * (hi - lo), 1e-12 * std::max({std::abs(lo), std::abs(hi), 1.0}));
  const double R = tau * s.radius;
  int n = static_cast<int>(std::ceil(R + 16.0 + 4.0 * std::cbrt(R)));
  std::vector<double> J;
  int K = -1;
  while (K < 0) {
    J = bessel_j_orders(R, n + 1);
    for (int k = 0; k <= n; ++k)
      if (k > R && 2.0 * (std::abs(J[static_cast<std::size_t>(k)]) + std::abs(J[static_cast<std::size_t>(k) + 1])) < tol) {
        K = k;
        break;
      }
    n *= 2;
  }
  const cplx phase = std::polar(1.0, -tau * s.center);
  static constexpr cplx kMinusIPowers[4] = {{1.0, 0.0}, {0.0, -1.0}, {-1.0, 0.0}, {0.0, 1.0}};
  s.a.resize(static_cast<std::size_t>(K) + 1);
  for (int k = 0; k <= K; ++k)
    s.a[static_cast<std::size_t>(k)] =
        (k == 0 ? 1.0 : 2.0) * J[static_cast<std::size_t>(k)] * kMinusIPowers[k % 4] * phase;
  return s;
}

std::vector<cplx> chebyshev_adjoint(const ChebyshevSeries& s, const Generator& H,
                                    backend::ChebyshevAdjointExecutor& executor, const Entries& at) {
  std::vector<double> vr(at.row.size(), 0.0), vi(at.row.size(), 0.0);
  executor.step_back(s, H, [&](double coef, const PlanarBlock& t, const PlanarBlock& w) {
    // M(j, i) += coef sum_c T(j, c) conj(W(i, c)) at every (i, j) = (row_k, col_k).
    const Index m = t.cols;
    for (std::size_t k = 0; k < at.row.size(); ++k) {
      const std::size_t i = static_cast<std::size_t>(at.row[k] * m), j = static_cast<std::size_t>(at.col[k] * m);
      double sr = 0.0, si = 0.0;
      for (Index c = 0; c < m; ++c) {
        const std::size_t jc = j + static_cast<std::size_t>(c), ic = i + static_cast<std::size_t>(c);
        sr += t.re[jc] * w.re[ic] + t.im[jc] * w.im[ic];
        si += t.im[jc] * w.re[ic] - t.re[jc] * w.im[ic];
      }
      vr[k] += coef * sr;
      vi[k] += coef * si;
    }
  });
  std::vector<cplx> out(at.row.size());
  for (std::size_t k = 0; k < out.size(); ++k) out[k] = cplx(vr[k], vi[k]);
  return out;
}

}  // namespace qevolve::solver
