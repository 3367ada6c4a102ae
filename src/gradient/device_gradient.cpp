#include "device_gradient.hpp"

#include <cmath>

namespace qevolve::gradient {

DeviceTerms device_terms_for(const solver::Simulator& sim, const device::DeviceParam& param) {
  const device::Device& dev = sim.device();
  DeviceTerms out;
  out.derivative = device::device_derivative(dev, param);
  for (const auto& term : out.derivative.static_terms) out.tangent.static_terms.push_back(term.matrix);
  for (const auto& ch : sim.drive().channels()) {
    const auto q = static_cast<std::size_t>(ch.mode);
    const CMatrix* dO = out.derivative.touches_mode[q]
                            ? device::op_derivative(dev.modes()[q], out.derivative.modes[q], ch.op)
                            : nullptr;
    out.tangent.channels.push_back(dO != nullptr ? *dO : CMatrix());
  }
  if (sim.options().basis == Basis::dressed)
    out.dressed = device::dressed_derivative(dev, *sim.dressed(), out.derivative);
  return out;
}

double basis_and_frame_term(const solver::Simulator& sim, const DeviceTerms& terms,
                            const CMatrix& psiN, const CMatrix& lambda0,
                            const CMatrix& cotangent, Index first_column) {
  const device::Device& dev = sim.device();
  const auto& o = sim.options();
  const bool dressed = o.basis == Basis::dressed;
  double total = 0.0;
  // out = Phi W^dag psi_N: d(out) = dPhi W^dag psi_N + Phi dW^dag psi_N; f = 1 - F, so
  // df = 2 Re Tr(cotangent^dag d(out)).
  CMatrix dout = CMatrix::Zero(cotangent.rows(), cotangent.cols());
  if (dressed) {
    const CMatrix& dW = terms.dressed->transform;
    CMatrix y = dW.adjoint() * psiN;  // dW^dag psi_N
    dout += y;
    // Initial columns psi_0 = W e_i: df = 2 Re Tr(lambda0^dag dW[:, init]).
    const auto& init = sim.states().initial_indices();
    for (Index c = 0; c < lambda0.cols(); ++c)
      total += 2.0 * lambda0.col(c).dot(dW.col(init[static_cast<std::size_t>(first_column + c)])).real();
  }
  if (o.frame == Frame::rotating) {
    const RVector E = sim.states().frame_energies();
    RVector dE = RVector::Zero(dev.dim());
    if (dressed) {
      dE = terms.dressed->energy_of_bare;
    } else {
      for (Index i = 0; i < dev.dim(); ++i) {
        const auto lv = dev.levels_of(i);
        for (std::size_t q = 0; q < lv.size(); ++q) {
          const RVector& de = terms.derivative.modes[q].energies;
          if (de.size() > lv[q]) dE(i) += de(lv[q]);
        }
      }
    }
    const CMatrix base = dressed ? CMatrix(sim.dressed()->transform.adjoint() * psiN) : psiN;
    for (Index i = 0; i < dev.dim(); ++i) {
      const cplx phi = std::polar(1.0, kTwoPi * E(i) * o.duration);
      // d(out_i) = i 2 pi T dE_i phi_i base_i + phi_i (dW^dag psi_N)_i
      dout.row(i) = phi * (dout.row(i) + cplx(0.0, kTwoPi * o.duration * dE(i)) * base.row(i));
    }
  }
  total += 2.0 * cotangent.conjugate().cwiseProduct(dout).sum().real();
  return total;
}

}  // namespace qevolve::gradient
