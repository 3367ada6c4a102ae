// The Chebyshev series on column blocks (docs/solvers.md "`splitting: chebyshev`"): the kernels of
// the CPU Chebyshev executor (backend.hpp ChebyshevExecutor) and of the series' adjoint
// (chebyshev_step_back, on the CPU Chebyshev adjoint executor). x <- sum_k a_k T_k(Ht) x, Ht = (H - center) / radius, by the
// three-term recurrence T_{k+1} = 2 Ht T_k - T_{k-1}, each product one sweep of the sparse
// generator over the block (backend/sparse_columns.hpp) plus its one-mode local terms. The
// series' coefficients and the spectral interval are the solver's (chebyshev_exponential).
#pragma once

#include <functional>
#include <vector>

#include "qevolve/backend/sparse_columns.hpp"
#include "qevolve/types.hpp"

namespace qevolve::backend {

/// The most levels of a mode whose drive operator is applied as a local term.
inline constexpr int kMaxLocalLevels = 64;

/// A complex n x m block in planar row-major form (re[i m + j], im[i m + j]): the layout of
/// sparse_columns_step, and of a column block's split planes (block_layout.hpp).
struct PlanarBlock {
  Index rows = 0, cols = 0;
  std::vector<double> re, im;
  void assign(const CMatrix& m);
  void to(CMatrix& m) const;
  void resize(Index r, Index c);
};

/// H as the series multiplies it: a sparse part (complex, or real: half the work) plus
/// one-mode terms alpha O applied locally (a drive operator with imaginary entries, such as a
/// fluxonium's n or a tunable transmon's sin phi, beside a real H0).
struct ChebyshevGenerator {
  struct Local {
    int d = 0;                    ///< the mode's levels
    Index outer = 1, inner = 1;   ///< dimensions of the modes before / after it
    std::vector<double> re, im;   ///< O, d x d row-major
    cplx alpha{0.0, 0.0};
  };
  SparseRows sparse;
  std::vector<Local> locals;
  /// A dense complex H (its nonzero entries), no local terms.
  void assign(const CMatrix& H);
};

/// The series of one step: x <- sum_k a_k T_k((H - center) / radius) x.
struct ChebyshevSeries {
  double center = 0.0;
  double radius = 1.0;
  std::vector<cplx> a;  ///< a_k, k = 0 .. K (the phase exp(-i tau c) included)
};

/// The buffers of the series between calls (the recurrence's blocks), reused without
/// allocation from one step to the next.
struct ChebyshevWork {
  std::vector<PlanarBlock> blocks;
  ChebyshevGenerator h;  ///< the CMatrix overloads' generator
};

/// The same series with conjugated coefficients: exp(+i tau H), the inverse step.
[[nodiscard]] ChebyshevSeries conjugate(const ChebyshevSeries& s);

/// x <- p(Ht) x for the series p, H Hermitian, x D x m.
void apply_chebyshev(const ChebyshevSeries& s, const ChebyshevGenerator& H, PlanarBlock& x, ChebyshevWork& work);
/// The same on Eigen matrices (converted; tests).
void apply_chebyshev(const ChebyshevSeries& s, const CMatrix& H, CMatrix& x, ChebyshevWork& work);

/// out = scale (H in - c in) - prev (prev may be null): one step of the recurrence.
void chebyshev_product(const ChebyshevGenerator& H, const PlanarBlock& in, const PlanarBlock* prev, double c,
                       double scale, PlanarBlock& out);

/// y += a x (planar).
void add_scaled(cplx a, const PlanarBlock& x, PlanarBlock& y);

/// What the series' adjoint step hands its caller for m = K .. 1: accumulate(coef, T, W) with
/// coef = coef_m / r (coef_1 = 1, coef_m = 2), T = T_{m-1} psi and W = W_m.
using ChebyshevAccumulate = std::function<void(double coef, const PlanarBlock& t, const PlanarBlock& w)>;

/// One step of the series' adjoint (solver/chebyshev.hpp, chebyshev_adjoint) for y = p(Ht) psi:
/// on entry psi = y and lambda the cotangent after the step; on exit psi is the state before the
/// step (the inverse series) and lambda = p(Ht)^dag lambda; the terms of M = sum_m coef_m
/// T_{m-1} psi W_m^dag / r go to `accumulate` (Clenshaw's backward recurrence for W_m).
void chebyshev_step_back(const ChebyshevSeries& s, const ChebyshevGenerator& H, CMatrix& psi, CMatrix& lambda,
                         ChebyshevWork& work, const ChebyshevAccumulate& accumulate);

}  // namespace qevolve::backend
