// Device-parameter pieces of the gradient (docs/gradients.md): the Hamiltonian tangent
// handed to the adjoint pass, and the terms through the dressed transform (initial columns
// and output basis) and the rotating frame, which the adjoint pass does not see.
#pragma once

#include <optional>

#include "qevolve/device_derivative.hpp"
#include "qevolve/simulator.hpp"

namespace qevolve::gradient {

struct DeviceTerms {
  device::DeviceDerivative derivative;
  std::optional<device::DressedDerivative> dressed;  ///< when the simulator uses the dressed basis
  solver::HamiltonianTangent tangent;
};

/// Derivatives of every device piece the simulator uses, for one parameter.
[[nodiscard]] DeviceTerms device_terms_for(const solver::Simulator& sim,
                                           const device::DeviceParam& param);

/// d(1 - F)/d(theta) through the dressed initial columns, the dressed output basis and the
/// rotating-frame phases. lambda0: the adjoint pass's cotangent at t = 0 (for 1 - F);
/// cotangent: d(1 - F)/d(out^*) of the output columns (fidelity::evaluate_with_cotangent). The
/// columns are the initial states
/// [first_column, first_column + psiN.cols()) (a rank's shard; the term is a sum over them).
[[nodiscard]] double basis_and_frame_term(const solver::Simulator& sim, const DeviceTerms& terms,
                                          const CMatrix& psiN, const CMatrix& lambda0,
                                          const CMatrix& cotangent, Index first_column = 0);

}  // namespace qevolve::gradient
