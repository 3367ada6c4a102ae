// sparse_columns_step (include/qevolve/backend/sparse_columns.hpp): per row, the columns in chunks
// of up to eight held in registers while the row's entries stream by; each entry is one
// multiply-add per column on the real part and one on the imaginary part (four for a complex
// entry), vectorised over the chunk's columns (contiguous in the row-major layout).
#include "qevolve/backend/sparse_columns.hpp"

#include <cstring>

namespace qevolve::backend {
namespace {

struct Args {
  const SparseRows* a;
  const double *xr, *xi, *pr, *pi;
  Index m;
  double scale, shift;
  double *yr, *yi;
};

/// C doubles in one vector register (GCC vector extension).
template <int C>
struct ColumnLanes {
  typedef double T __attribute__((vector_size(8 * C)));
};
template <>
struct ColumnLanes<1> {
  typedef double T;
};

// Builds without -march=native (debug, sanitize) note that returning a 256/512-bit vector
// without AVX changes the ABI (-Wpsabi); these helpers are internal and always inlined, so no
// call crosses an ABI boundary. The note is reported where they are inlined: off to the end
// of this namespace.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
template <int C>
[[gnu::always_inline]] inline typename ColumnLanes<C>::T load(const double* p) {
  typename ColumnLanes<C>::T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

template <int C>
[[gnu::always_inline]] inline void store(double* p, const typename ColumnLanes<C>::T& v) {
  std::memcpy(p, &v, sizeof v);
}

/// Columns [c0, c0 + C) of row i, held in one vector of C lanes each for re and im.
template <bool Cx, int C>
[[gnu::always_inline]] inline void row_chunk(const Args& g, Index i, Index c0) {
  using T = typename ColumnLanes<C>::T;
  const SparseRows& A = *g.a;
  const Index m = g.m;
  T accr = T{}, acci = T{};
  const Index end = A.start[static_cast<std::size_t>(i) + 1];
  for (Index k = A.start[static_cast<std::size_t>(i)]; k < end; ++k) {
    const std::size_t q = static_cast<std::size_t>(k);
    const Index at = A.col[q] * m + c0;
    const T xr = load<C>(g.xr + at), xi = load<C>(g.xi + at);
    const double ar = A.re[q];
    accr += ar * xr;
    acci += ar * xi;
    if constexpr (Cx) {
      const double ai = A.im[q];
      accr -= ai * xi;
      acci += ai * xr;
    }
  }
  const Index at = i * m + c0;
  T yr = g.scale * (accr - g.shift * load<C>(g.xr + at));
  T yi = g.scale * (acci - g.shift * load<C>(g.xi + at));
  if (g.pr) {
    yr -= load<C>(g.pr + at);
    yi -= load<C>(g.pi + at);
  }
  store<C>(g.yr + at, yr);
  store<C>(g.yi + at, yi);
}

template <bool Cx>
void all_rows(const Args& g) {
  const Index n = g.a->n, m = g.m;
  for (Index i = 0; i < n; ++i) {
    Index c = 0;
    for (; c + 8 <= m; c += 8) row_chunk<Cx, 8>(g, i, c);
    if (c + 4 <= m) {
      row_chunk<Cx, 4>(g, i, c);
      c += 4;
    }
    if (c + 2 <= m) {
      row_chunk<Cx, 2>(g, i, c);
      c += 2;
    }
    if (c < m) row_chunk<Cx, 1>(g, i, c);
  }
}

#pragma GCC diagnostic pop
}  // namespace

void sparse_columns_step(const SparseRows& A, const double* x_re, const double* x_im, const double* p_re,
                         const double* p_im, Index m, double scale, double shift, double* y_re, double* y_im) {
  const Args g{&A, x_re, x_im, p_re, p_im, m, scale, shift, y_re, y_im};
  if (A.im.empty())
    all_rows<false>(g);
  else
    all_rows<true>(g);
}

}  // namespace qevolve::backend
