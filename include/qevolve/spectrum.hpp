// `qevolve spectrum`: bare and dressed single-mode figures and static ZZ of coupled pairs.
#pragma once

#include <string>
#include <vector>

#include "qevolve/device.hpp"

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

}  // namespace qevolve::device
