// `qevolve spectrum`: bare and dressed single-mode figures and static ZZ of coupled pairs.
#pragma once

#include <string>
#include <vector>

#include "qevolve/device.hpp"
#include "qevolve/device_derivative.hpp"
#include "qevolve/types.hpp"

namespace qevolve::device {

struct ModeFigures {
  std::string name;
  std::string type;
  bool qubit = true;         ///< is_qubit: a qubit, else a coupler or resonator (held in 0)
  double f01_bare = 0.0;     ///< GHz
  double f12_bare = 0.0;     ///< GHz (from the mode with at least 3 levels)
  double phi01 = 0.0;        ///< |<0|phi|1>| (x for oscillators); NaN for a transmon
  double n01 = 0.0;          ///< |<0|n|1>| (y for oscillators)
  double f01_dressed = 0.0;  ///< E(1_q, others 0) - E(0...0) of H0, GHz
};

struct PairZZ {
  std::string a, b;
  double zz_khz = 0.0;  ///< E(11) - E(10) - E(01) + E(00), dressed, in kHz
};

struct SpectrumReport {
  std::vector<ModeFigures> modes;
  /// One per pair of qubits joined by a coupling or through one coupler (a non-qubit mode
  /// coupled to both), in coupling order; couplers and resonators in 0.
  std::vector<PairZZ> zz;
};

/// Figures for every mode and ZZ for every pair of qubits joined directly or through a coupler,
/// from the dressed basis.
[[nodiscard]] SpectrumReport analyse_spectrum(const Device& device, const DressedBasis& dressed);

/// d/dtheta of the spectrum's energy figures for one device parameter (Hellmann-Feynman: each
/// figure is a sum of eigenvalues, dE = <v|dH|v> with dH the derivative of the truncated
/// Hamiltonian that analyse_spectrum diagonalises, device_derivative). In the units of the
/// figures per unit of theta (GHz, or kHz for ZZ, per GHz of EJ, per flux quantum of flux, ...).
/// The matrix elements phi01, n01 have no derivative here.
struct SpectrumDerivative {
  RVector energies;  ///< d DressedBasis::energies (the k-th lowest level at theta)
  std::vector<double> f01_bare, f12_bare, f01_dressed;  ///< per mode, SpectrumReport::modes order
  std::vector<double> zz_khz;                           ///< per pair, SpectrumReport::zz order
};
/// NumericalError where two dressed levels are degenerate (1e-9 GHz) and coupled by dH: the
/// derivative of the ordered levels is not defined there.
[[nodiscard]] SpectrumDerivative spectrum_derivative(const Device& device, const DressedBasis& dressed,
                                                     const DeviceParam& p);

}  // namespace qevolve::device
