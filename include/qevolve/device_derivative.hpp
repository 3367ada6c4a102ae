// Derivatives of the device with respect to its trainable parameters (docs/models.md "Parameter derivatives";
// docs/gradients.md "Method"): eigenvalues by Hellmann–Feynman, eigenvectors by first-order perturbation
// theory in each mode's full internal basis (no truncation there), then the operators of the
// kept eigenbasis; the dressed transform by perturbation theory on the dense H0. Every
// derivative respects the same eigenvector phase conventions as the value it differentiates
// (mode: fix_phases; dressed: transform(j, j) real and positive), so it is the derivative of
// exactly what Device / DressedBasis hold.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "qevolve/config.hpp"
#include "qevolve/device.hpp"
#include "qevolve/mode.hpp"
#include "qevolve/types.hpp"

namespace qevolve::device {

/// One trainable device parameter.
struct DeviceParam {
  enum class Kind { mode, coupling };
  Kind kind = Kind::mode;
  int index = 0;    ///< index into Device::modes() or Device::couplings()
  std::string key;  ///< mode: ec ej el flux ng asymmetry frequency anharmonicity;
                    ///< coupling: capacitive inductive dipole cross_kerr
  std::string name; ///< "device.qubits[q0].el", "device.couplings[0].capacitive"
};

/// The trainable device parameters named by the `optimize:` lists of `qubits` and `couplings`
/// (config.device.qubits and device.couplings) (after preset merging), modes first (mode order, then list order), then
/// couplings (coupling order). Coupling indices are those of Device::couplings(). The loader
/// and the stage refuse (located at "<path>.optimize") a key the entry or the merged mode's type
/// does not have; here such a key is a precondition failure (std::logic_error).
[[nodiscard]] std::vector<DeviceParam> trainable_device_params(const std::vector<ModeEntry>& qubits,
                                                               const std::vector<CouplingEntry>& couplings,
                                                               const Device& device);

/// Current value of a parameter.
[[nodiscard]] double get_param(const Device& device, const DeviceParam& p);
/// A copy of `params`/`couplings` with one parameter changed (for rebuilding a device).
void set_param(ResolvedDevice& resolved, const DeviceParam& p, double value);

/// d/dtheta of a diagonalised mode, in its kept eigenbasis (same shapes as the Mode's members;
/// an operator the mode does not have stays empty).
struct ModeDerivative {
  RVector energies;  ///< dE_k/dtheta, k < levels
  CMatrix charge, flux, lowering, number;
  CMatrix cos_phi, sin_phi;  ///< tunable transmon (flux pulses); empty otherwise
};

/// Derivative of `mode` with respect to its parameter `key` (ec ej el flux ng asymmetry
/// frequency anharmonicity). NumericalError if two kept levels (or a kept and a discarded
/// level coupled by dH) are degenerate to 1e-9 GHz, where the derivative is not defined.
[[nodiscard]] ModeDerivative mode_derivative(const Mode& mode, std::string_view key);

/// Derivatives of the device pieces the solver uses, for one parameter.
struct DeviceDerivative {
  /// d(Device::static_terms())/dtheta, term by term in the same order and with the same modes
  /// (a zero matrix where the term does not depend on theta).
  std::vector<LocalTerm> static_terms;
  /// Per mode: d(mode)/dtheta (all-zero / empty for modes theta does not touch).
  std::vector<ModeDerivative> modes;
  /// Whether theta touches mode q at all (so callers may skip zero work).
  std::vector<char> touches_mode;
  /// d(bare energies of flat product states)/dtheta is sum_q modes[q].energies(level_q).
};
[[nodiscard]] DeviceDerivative device_derivative(const Device& device, const DeviceParam& p);

/// The operator called `op` ("phi", "n", "x", "y", "number", "lowering", "cos_phi", "sin_phi") of a ModeDerivative,
/// or nullptr where the mode has none (mirrors Mode::op).
[[nodiscard]] const CMatrix* op_derivative(const Mode& mode, const ModeDerivative& d,
                                           std::string_view op);

/// d(DressedBasis)/dtheta given dH0 = the embedded sum of DeviceDerivative::static_terms.
struct DressedDerivative {
  RVector energies;        ///< d(energies)/dtheta, same (ascending-at-theta) order
  RVector energy_of_bare;  ///< by bare flat index
  CMatrix transform;       ///< d(transform)/dtheta, columns by bare index
};
/// NumericalError for (near-)degenerate dressed levels coupled by dH0.
[[nodiscard]] DressedDerivative dressed_derivative(const Device& device,
                                                   const DressedBasis& dressed,
                                                   const DeviceDerivative& d);

}  // namespace qevolve::device
