// The simulator's output map (simulator.hpp): product-basis lab-frame columns -> the
// configured basis (dressed transform) and frame (rotating-frame phases), and its adjoint.
#include <complex>

#include "qevolve/simulator.hpp"
#include "qevolve/types.hpp"

namespace qevolve::solver {

RVector Simulator::frame_energies() const {
  const Index D = device_.dim();
  RVector E(D);
  for (Index i = 0; i < D; ++i) {
    if (options_.basis == Basis::dressed) {
      E(i) = dressed_->energy_of_bare(i);
    } else {
      E(i) = 0.0;
      const auto lv = device_.levels_of(i);
      for (std::size_t q = 0; q < lv.size(); ++q) E(i) += device_.modes()[q].energies(lv[q]);
    }
  }
  return E;
}

CMatrix Simulator::to_output(const CMatrix& product_lab) const {
  CMatrix out = options_.basis == Basis::dressed ? CMatrix(dressed_->transform.adjoint() * product_lab)
                                                 : product_lab;
  if (options_.frame == Frame::rotating) {
    // exp(+i 2 pi diag(E) T) on the left, E the bare or dressed energies of each basis state.
    const RVector E = frame_energies();
    for (Index i = 0; i < out.rows(); ++i) out.row(i) *= std::polar(1.0, kTwoPi * E(i) * options_.duration);
  }
  return out;
}

CMatrix Simulator::output_adjoint(const CMatrix& cotangent) const {
  CMatrix x = cotangent;
  if (options_.frame == Frame::rotating) {
    const RVector E = frame_energies();
    for (Index i = 0; i < x.rows(); ++i) x.row(i) *= std::polar(1.0, -kTwoPi * E(i) * options_.duration);
  }
  if (options_.basis == Basis::dressed) x = dressed_->transform * x;
  return x;
}

}  // namespace qevolve::solver
