// Small gate matrices in the kernels' layout (backend/local_gate.hpp): g x g, row-major, all
// real parts then all imaginary parts. The conversions the solvers need, in one place.
#pragma once

#include <utility>
#include <vector>

#include "qevolve/types.hpp"

namespace qevolve::solver {

/// m (g x g) into the split layout.
inline void to_split(const CMatrix& m, std::vector<double>& out) {
  const auto g = static_cast<std::size_t>(m.rows());
  out.resize(2 * g * g);
  for (std::size_t i = 0; i < g; ++i)
    for (std::size_t j = 0; j < g; ++j) {
      const cplx v = m(static_cast<Index>(i), static_cast<Index>(j));
      out[i * g + j] = v.real();
      out[g * g + i * g + j] = v.imag();
    }
}

/// The g x g matrix of a split block.
[[nodiscard]] inline CMatrix from_split(const double* e, int g) {
  CMatrix m(g, g);
  for (int b = 0; b < g; ++b)
    for (int a = 0; a < g; ++a) m(b, a) = cplx(e[b * g + a], e[g * g + b * g + a]);
  return m;
}

/// out = in^dag for split blocks (out must not alias in).
inline void split_adjoint(const double* in, int g, double* out) {
  const int gg = g * g;
  for (int i = 0; i < g; ++i)
    for (int j = 0; j < g; ++j) {
      out[i * g + j] = in[j * g + i];
      out[gg + i * g + j] = -in[gg + j * g + i];
    }
}

/// m <- m^dag for a split block, in place.
inline void split_adjoint_in_place(double* m, int g) {
  double* re = m;
  double* im = m + g * g;
  for (int i = 0; i < g; ++i) {
    im[i * g + i] = -im[i * g + i];
    for (int j = i + 1; j < g; ++j) {
      std::swap(re[i * g + j], re[j * g + i]);
      const double a = im[i * g + j], b = im[j * g + i];
      im[i * g + j] = -b;
      im[j * g + i] = -a;
    }
  }
}

}  // namespace qevolve::solver
