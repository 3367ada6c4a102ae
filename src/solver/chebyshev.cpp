// Chebyshev series of exp(-i tau H) and its adjoint (chebyshev.hpp).
#include "chebyshev.hpp"

#include <algorithm>
#include <cmath>

namespace qevolve::solver {
namespace {

/// out = (2 / r) (H in - c in) - prev  (scale 2; scale 1 and no prev for the first product).
void chebyshev_product(const CMatrix& H, const CMatrix& in, const CMatrix* prev, double c, double scale,
                       CMatrix& out) {
  out.noalias() = H * in;
  if (prev)
    out = scale * (out - c * in) - *prev;
  else
    out = scale * (out - c * in);
}

}  // namespace

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

ChebyshevSeries conjugate(const ChebyshevSeries& s) {
  ChebyshevSeries out = s;
  for (cplx& a : out.a) a = std::conj(a);
  return out;
}

void apply_chebyshev(const ChebyshevSeries& s, const CMatrix& H, CMatrix& x, std::vector<CMatrix>& work) {
  const std::size_t K = s.a.size() - 1;
  if (K == 0) {
    x *= s.a[0];
    return;
  }
  work.resize(3);
  CMatrix* prev = &work[0];
  CMatrix* cur = &work[1];
  CMatrix* next = &work[2];
  *prev = x;
  chebyshev_product(H, *prev, nullptr, s.center, 1.0 / s.radius, *cur);
  x = s.a[0] * *prev + s.a[1] * *cur;
  for (std::size_t k = 2; k <= K; ++k) {
    chebyshev_product(H, *cur, prev, s.center, 2.0 / s.radius, *next);
    x += s.a[k] * *next;
    std::swap(prev, cur);
    std::swap(cur, next);
  }
}

CMatrix chebyshev_adjoint(const ChebyshevSeries& s, const CMatrix& H, CMatrix& psi, CMatrix& lambda,
                          std::vector<CMatrix>& work) {
  const std::size_t K = s.a.size() - 1;
  apply_chebyshev(conjugate(s), H, psi, work);  // psi before the step
  const Index D = H.rows();
  CMatrix M = CMatrix::Zero(D, D);
  if (K == 0) {
    lambda *= std::conj(s.a[0]);
    return M;
  }
  // T_j psi, j = 0 .. K - 1 (the forward recurrence of the step, kept).
  work.resize(K + 3);
  work[0] = psi;
  if (K > 1) chebyshev_product(H, work[0], nullptr, s.center, 1.0 / s.radius, work[1]);
  for (std::size_t j = 2; j < K; ++j) chebyshev_product(H, work[j - 1], &work[j - 2], s.center, 2.0 / s.radius, work[j]);
  // Clenshaw backward: W_m = conj(a_m) lambda + 2 Ht W_{m+1} - W_{m+2}, m = K .. 0.
  CMatrix* w2 = &work[K];      // W_{m+2}
  CMatrix* w1 = &work[K + 1];  // W_{m+1}
  CMatrix* w0 = &work[K + 2];  // W_m
  w2->setZero(D, lambda.cols());
  w1->setZero(D, lambda.cols());
  CMatrix W2_at_0;             // W_2, kept for lambda's update
  for (std::size_t m = K + 1; m-- > 0;) {
    if (m == K) {
      *w0 = std::conj(s.a[m]) * lambda;
    } else {
      chebyshev_product(H, *w1, w2, s.center, 2.0 / s.radius, *w0);
      *w0 += std::conj(s.a[m]) * lambda;
    }
    if (m >= 1) M.noalias() += ((m == 1 ? 1.0 : 2.0) / s.radius) * work[m - 1] * w0->adjoint();
    if (m == 0) W2_at_0 = *w2;
    std::swap(w2, w1);
    std::swap(w1, w0);
  }
  // After the loop w1 holds W_0.
  lambda = 0.5 * (*w1 - W2_at_0 + std::conj(s.a[0]) * lambda);
  return M;
}

}  // namespace qevolve::solver
