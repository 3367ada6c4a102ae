// The output map of a run's states (state_map.hpp): product-basis lab-frame columns -> the
// configured basis (dressed transform) and frame (rotating-frame phases), and its adjoint.
#include <cmath>
#include <complex>

#include "qevolve/state_map.hpp"
#include "qevolve/types.hpp"

namespace qevolve::solver {
namespace {

/// m.row(i) *= exp(i angle(i)). Each element a + ib times c + id (c = cos, d = sin) is formed as
/// re = fma(a, c, -(b d)), im = fma(a, d, b c): written out because the rounding otherwise
/// depends on which of Eigen's complex kernels the compiler inlines, which changed the
/// rotating-frame outputs by 1 ulp when this code moved from simulator.cpp into this file.
/// This is the arithmetic the earlier build used, so the outputs are again bitwise its own.
void multiply_rows_by_phases(CMatrix& m, const RVector& angle) {
  RVector c(angle.size()), d(angle.size());
  for (Index i = 0; i < angle.size(); ++i) {  // libm's, as std::polar used: not Eigen's packet sin/cos
    c(i) = std::cos(angle(i));
    d(i) = std::sin(angle(i));
  }
  for (Index j = 0; j < m.cols(); ++j)  // down each column: m is column-major
    for (Index i = 0; i < m.rows(); ++i) {
      const double a = m(i, j).real(), b = m(i, j).imag();
      m(i, j) = cplx(std::fma(a, c(i), -(b * d(i))), std::fma(a, d(i), b * c(i)));
    }
}

}  // namespace

RVector StateMap::frame_energies() const {
  const Index D = device_->dim();
  RVector E(D);
  for (Index i = 0; i < D; ++i) {
    if (basis_ == Basis::dressed) {
      E(i) = (*dressed_)->energy_of_bare(i);
    } else {
      E(i) = 0.0;
      const auto lv = device_->levels_of(i);
      for (std::size_t q = 0; q < lv.size(); ++q) E(i) += device_->modes()[q].energies(lv[q]);
    }
  }
  return E;
}

CMatrix StateMap::to_output(const CMatrix& product_lab) const {
  CMatrix out = basis_ == Basis::dressed ? CMatrix((*dressed_)->transform.adjoint() * product_lab)
                                                 : product_lab;
  if (frame_ == Frame::rotating) {
    // exp(+i 2 pi diag(E) T) on the left, E the bare or dressed energies of each basis state.
    const RVector E = frame_energies();
    multiply_rows_by_phases(out, (kTwoPi * E.array() * duration_).matrix());
  }
  return out;
}

CMatrix StateMap::output_adjoint(const CMatrix& cotangent) const {
  CMatrix x = cotangent;
  if (frame_ == Frame::rotating) {
    const RVector E = frame_energies();
    multiply_rows_by_phases(x, (-kTwoPi * E.array() * duration_).matrix());
  }
  if (basis_ == Basis::dressed) x = (*dressed_)->transform * x;
  return x;
}

}  // namespace qevolve::solver
