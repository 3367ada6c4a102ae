// Dense linear algebra helpers on top of LAPACKE (OpenBLAS): used by the dense reference
// paths (dressed basis, expm solver) and by small per-step exponentials.
#pragma once

#include "qevolve/types.hpp"

namespace qevolve::linalg {

/// Eigen-decomposition of a Hermitian matrix: H = V diag(w) V^dag, w ascending.
/// Uses the divide-and-conquer driver (zheevd), or dsyevd when H is exactly real.
/// Throws NumericalError if LAPACK fails or H contains NaN/inf.
void hermitian_eigen(const CMatrix& H, RVector& w, CMatrix& V);

/// One Newton step towards the unitary polar factor, U <- U + U (I - U^dag U) / 2: takes a
/// matrix that is unitary up to rounding (defect delta) to one with defect O(delta^2).
void refine_unitary(CMatrix& U);

/// exp(-i * scale * H) for Hermitian H, through its eigen-decomposition (eigenvectors refined
/// with refine_unitary, so the result is unitary to rounding).
[[nodiscard]] CMatrix expm_hermitian(const CMatrix& H, double scale);

/// Largest g handled by expm_hermitian_small.
inline constexpr int kSmallExpm = 16;

/// exp(-i * scale * H) for a small Hermitian H (g <= kSmallExpm), row-major in and out,
/// without allocation: Taylor series of degree 14 after scaling by 2^-j so that the scaled
/// 1-norm is <= 1/2 (truncation error < 2.3e-17 relative), j squarings, then one Newton step to
/// the unitary polar factor. Agrees with expm_hermitian to ~1e-14 (tests); per-step bond
/// exponentials (`splitting: bonds`) use it instead of a LAPACK eigensolver call.
void expm_hermitian_small(const cplx* H, int g, double scale, cplx* out);

/// First divided differences of f(x) = exp(-i scale x) on the eigenvalues w:
/// G(k, l) = (f(w_k) - f(w_l)) / (w_k - w_l), and f'(w_k) = -i scale f(w_k) on (near-)ties
/// (evaluated stably for close eigenvalues). The Frechet derivative of exp(-i scale H) in the
/// direction dH is then V (G o (V^dag dH V)) V^dag (Daleckii-Krein), H = V diag(w) V^dag.
[[nodiscard]] CMatrix exp_divided_differences(const RVector& w, double scale);

/// d/de exp(-i scale (H + e dH)) at e = 0, given the eigen-decomposition (w, V) of H.
[[nodiscard]] CMatrix expm_hermitian_frechet(const RVector& w, const CMatrix& V, double scale,
                                             const CMatrix& dH);

/// Threads OpenBLAS may use for one call (the `--threads` of a command, resolved: 0 = all
/// cores). Without it OpenBLAS keeps one worker per core, which spin-wait (sched_yield) between
/// calls even when the user asked for one thread. Returns the value set.
int set_blas_threads(int threads);

/// exp(A) for a general complex square matrix: scaling and squaring with the
/// [13/13] Pade approximant (Higham 2005).
[[nodiscard]] CMatrix expm(const CMatrix& A);

}  // namespace qevolve::linalg
