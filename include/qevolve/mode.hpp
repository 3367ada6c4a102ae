// Single-mode models (docs/models.md): each is diagonalised once in a converged
// internal basis and truncated to its lowest `levels` eigenstates, with its operators expressed
// in that kept eigenbasis and eigenvector phases fixed by the convention of docs/models.md "Phase convention".
#pragma once

#include <string>
#include <string_view>

#include "qevolve/config.hpp"
#include "qevolve/types.hpp"

namespace qevolve::device {

/// Complete, validated parameters of one mode (GHz, flux in units of the flux quantum).
struct ModeParams {
  std::string name;
  ModeType type = ModeType::fluxonium;
  /// `role` of docs/config.md; a resonator is never a qubit, whatever this says (is_qubit).
  ModeRole role = ModeRole::qubit;
  int levels = 2;
  double ec = 0.0, ej = 0.0, el = 0.0;  // fluxonium (ec, ej, el), transmon (ec, ej)
  double flux = 0.0;                    // fluxonium, transmon (tunable)
  double ng = 0.0;                      // transmon offset charge
  double asymmetry = 0.0;               // transmon; used only when has_asymmetry
  bool has_asymmetry = false;           // absent: fixed-frequency transmon, EJ_eff = EJ
  double frequency = 0.0;               // resonator, duffing
  double anharmonicity = 0.0;           // duffing
  int basis_size = 0;                   // internal basis size; 0 = automatic (converged)
};

/// Whether the mode has a bit in the computational subspace: role qubit and not a resonator
/// (docs/device.md "Qubits and couplers"). Every other mode is held in its ground state there.
[[nodiscard]] inline bool is_qubit(const ModeParams& p) {
  return p.role == ModeRole::qubit && p.type != ModeType::resonator;
}
/// The role a mode plays: qubit when is_qubit, else coupler (a resonator's role is coupler).
[[nodiscard]] inline ModeRole effective_role(const ModeParams& p) {
  return is_qubit(p) ? ModeRole::qubit : ModeRole::coupler;
}

/// The internal basis a mode was diagonalised in. Derivatives are taken in it, and a gradient
/// problem rebuilds modes on it (diagonalise_on), so the discretisation does not jump with the
/// parameters (the automatic basis rules depend on them).
struct InternalBasis {
  double grid_center = 0.0, grid_half_width = 0.0;  ///< fluxonium phase grid
  int grid_points = 0;
  double charge_centre = 0.0;  ///< transmon: n0 of the charge basis n0 - cutoff .. n0 + cutoff
  int charge_cutoff = 0;
};

/// A diagonalised, truncated mode. Operators are levels x levels in the kept eigenbasis.
struct Mode {
  ModeParams params;
  RVector energies;   ///< kept eigenvalues, ascending (GHz, absolute)
  CMatrix charge;     ///< `n` (fluxonium, transmon) or `y` = i(a^dag - a) (oscillators)
  CMatrix flux;       ///< `phi` = phi + phi_ext (fluxonium) or `x` = a + a^dag; empty: transmon
  CMatrix lowering;   ///< sum_k sqrt(k)|k-1><k| in the kept basis (a for oscillators)
  CMatrix number;     ///< sum_k k|k><k|
  /// Tunable transmon (asymmetry given): cos(phi) and sin(phi) in the kept eigenbasis, the
  /// operators a flux pulse multiplies (docs/models.md "Flux pulses"); empty otherwise.
  CMatrix cos_phi, sin_phi;
  int internal_dim = 0;  ///< size of the internal basis actually used
  InternalBasis basis;   ///< the internal basis itself (fluxonium, transmon)

  [[nodiscard]] int levels() const { return params.levels; }
  [[nodiscard]] const std::string& name() const { return params.name; }
  [[nodiscard]] bool is_oscillator() const {
    return params.type == ModeType::resonator || params.type == ModeType::duffing;
  }
  /// A qubit: role qubit and not a resonator (docs/device.md "Qubits and couplers").
  [[nodiscard]] bool is_qubit() const { return device::is_qubit(params); }
  [[nodiscard]] bool has_flux_operator() const { return params.type != ModeType::transmon; }
  /// Name of the default drive operator: "phi" (fluxonium, transmon has none -> "n") or "x".
  [[nodiscard]] std::string_view default_operator() const;
  /// The operator called `name` ("phi", "n", "x", "y", "number", "lowering"; and the flux
  /// pulses' "cos_phi", "sin_phi" of a tunable transmon), or nullptr if this mode has no such
  /// operator (e.g. "phi" on a transmon, "x" on a fluxonium).
  [[nodiscard]] const CMatrix* op(std::string_view name) const;
};

/// The default drive operator of a mode type: "phi" (fluxonium), "n" (transmon), "x"
/// (resonator, duffing).
[[nodiscard]] std::string_view default_operator(ModeType type);
/// Whether a mode of this type has the operator called `name` ("phi", "n", "x", "y", "number",
/// "lowering"): Mode::op() returns it exactly then.
[[nodiscard]] bool has_operator(ModeType type, std::string_view name);

/// Whether a pulse with `operator: op` ("phi", "n", "x", "y", "flux", "number") may drive this
/// mode (docs/device.md "Drive operators"): flux on a fluxonium or a transmon with `asymmetry`,
/// number on a resonator or duffing oscillator, the others as has_operator.
[[nodiscard]] bool accepts_pulse_operator(const ModeParams& mode, std::string_view op);
/// The pulse operators a mode accepts, for messages ("phi | n | flux").
[[nodiscard]] std::string pulse_operators(const ModeParams& mode);

/// Diagonalises one mode (dispatch on params.type). Throws NumericalError if the internal basis
/// cannot be converged.
[[nodiscard]] Mode diagonalise(const ModeParams& params);

/// Diagonalises a mode in a given internal basis (from an earlier Mode::basis) instead of the
/// automatic one; oscillators ignore it.
[[nodiscard]] Mode diagonalise_on(const ModeParams& params, const InternalBasis& basis);

/// Model-specific entry points (also used directly by tests).
[[nodiscard]] Mode diagonalise_fluxonium(const ModeParams& params);
[[nodiscard]] Mode diagonalise_transmon(const ModeParams& params);
[[nodiscard]] Mode diagonalise_oscillator(const ModeParams& params);  // resonator, duffing

/// Re-phases the columns of `vectors` (eigenvectors, ascending) so that <k-1|n|k> is real and
/// positive for k >= 1, given the matrix of n in that eigenbasis; when |<k-1|n|k>| < 1e-10, the
/// largest component of vector k is made real and positive instead.
/// `charge_in_eigenbasis` is updated in place.
void fix_phases(CMatrix& vectors, CMatrix& charge_in_eigenbasis);

}  // namespace qevolve::device
