// exp(-i tau H) applied to a block of columns by a Chebyshev series (docs/solvers.md
// "`splitting: chebyshev`"): with the spectrum of the Hermitian H inside [lo, hi], centre
// c = (lo + hi) / 2 and radius r = (hi - lo) / 2, Ht = (H - c) / r has its spectrum in [-1, 1] and
//   exp(-i tau H) = exp(-i tau c) sum_k (2 - delta_k0) (-i)^k J_k(tau r) T_k(Ht)
// (Jacobi-Anger), T_k the Chebyshev polynomials, J_k the Bessel functions of the first kind.
// J_k(R) falls faster than exponentially once k > R, so the series is cut where the tail is
// below kChebyshevTolerance: about R + 10 to 20 products H x per exponential. Only the evolved
// columns are touched: O(D^2 m) per product for m columns instead of the O(D^3) of a dense
// exponential.
//
// The adjoint (chebyshev_adjoint) differentiates the truncated series itself: for
// y = sum a_n T_n(Ht) psi and a direction E of H, <lambda| dy> = sum_{m >= 1} <W_m| s_m> with
// s_1 = E T_0 psi / r, s_m = 2 E T_{m-1} psi / r, and W_m = sum_{n >= m} conj(a_n) U_{n-m}(Ht)
// lambda (U the Chebyshev polynomials of the second kind), which Clenshaw's backward recurrence
// W_m = conj(a_m) lambda + 2 Ht W_{m+1} - W_{m+2} gives; lambda carried back is
// p(Ht)^dag lambda = (W_0 - W_2 + conj(a_0) lambda) / 2.
#pragma once

#include <vector>

#include "qevolve/backend/backend.hpp"
#include "qevolve/backend/chebyshev_series.hpp"
#include "qevolve/types.hpp"

namespace qevolve::solver {

/// The series' types and kernels live in the backend (backend/chebyshev_series.hpp: the
/// Chebyshev executor's and this adjoint's).
using backend::ChebyshevSeries;
using backend::ChebyshevWork;
using backend::PlanarBlock;
using backend::apply_chebyshev;
using backend::conjugate;
using backend::kMaxLocalLevels;
using Generator = backend::ChebyshevGenerator;

/// The largest tail the series leaves per exponential (absolute, per unit-norm column).
inline constexpr double kChebyshevTolerance = 1e-14;

/// J_0(x), ..., J_n(x) for x >= 0 (Miller's backward recurrence, normalised by
/// J_0 + 2 sum J_2k = 1): accurate to rounding relative to 1 for every order.
[[nodiscard]] std::vector<double> bessel_j_orders(double x, int n);

/// The series of exp(-i tau H) for a spectrum inside [lo, hi] (lo <= hi), cut where
/// 2 (|J_K| + |J_{K+1}|) < tol past K > tau r.
[[nodiscard]] ChebyshevSeries chebyshev_exponential(double tau, double lo, double hi,
                                                    double tol = kChebyshevTolerance);

/// Positions (row[k], col[k]) of a D x D matrix.
struct Entries {
  std::vector<Index> row, col;
};

/// One step of the adjoint pass for y = p(Ht) psi on the executor's psi and lambda
/// (backend.hpp ChebyshevAdjointExecutor): on entry psi = y (the state after the step) and
/// lambda the cotangent after the step; on exit psi is the state before the step
/// (the inverse series) and lambda = p(Ht)^dag lambda. With M = sum_m coef_m T_{m-1} psi
/// W_m^dag / r (coef_1 = 1, coef_m = 2), <lambda| dp(Ht)[E] psi> = Tr(E M) for any direction E
/// of H (the derivative of the truncated series at fixed centre, radius and coefficients).
/// M is formed only where it is needed: the returned values are M(col_k, row_k), so that
/// Tr(E M) = sum_k E(row_k, col_k) values_k for every E that vanishes outside `at` (the drive
/// operators and device tangents act on one or two modes: O(|at| m) per term instead of the
/// O(D^2 m) of the whole M).
[[nodiscard]] std::vector<cplx> chebyshev_adjoint(const ChebyshevSeries& s, const Generator& H,
                                                  backend::ChebyshevAdjointExecutor& executor, const Entries& at);

}  // namespace qevolve::solver
