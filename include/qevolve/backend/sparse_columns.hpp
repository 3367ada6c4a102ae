// The product of a sparse complex matrix with a few columns, in planar (split re/im) row-major
// form: the kernel of splitting: chebyshev (src/solver/chebyshev.cpp, docs/solvers.md), whose
// series multiplies one D x D generator into the m evolved columns some R + 15 times per step.
// The generator in the product basis is sparse -- every term acts on one or two modes, and the
// transmons' and fluxonia's parity makes half of each mode operator vanish -- so a row holds
// about sum over couplings of (d_a d_b)/4 entries instead of D; a BLAS zgemm would also repack
// the whole matrix on every call, which costs as much as the product itself when m is small.
#pragma once

#include <vector>

#include "qevolve/types.hpp"

namespace qevolve::backend {

/// Compressed rows: the entries of row i are k in [start[i], start[i + 1]), at column col[k],
/// value re[k] + i im[k] (im empty: a real matrix, half the work).
struct SparseRows {
  Index n = 0;
  std::vector<Index> start, col;
  std::vector<double> re, im;
};

/// y = scale (A x - shift x) - p for A n x n, x, p and y n x m (row-major planar: x_re[i m + c]).
/// p may be null (then nothing is subtracted). y must not alias x or p. One thread.
void sparse_columns_step(const SparseRows& A, const double* x_re, const double* x_im, const double* p_re,
                         const double* p_im, Index m, double scale, double shift, double* y_re, double* y_im);

}  // namespace qevolve::backend
