// Plausibility warnings (docs/config.md "Plausibility warnings"): values inside the physical
// ranges, so not errors, that are nonetheless most likely a unit mistake -- a flux in radians,
// an angular frequency where GHz is meant, EC and EJ swapped. Part of the resolution stage:
// every command that validates a config (`check`, `run`, `optimize`, `sweep`, `spectrum`) and
// the library's Session print or return them.
#pragma once

#include <string>
#include <vector>

#include "qevolve/config.hpp"
#include "qevolve/mode.hpp"

namespace qevolve::io {

/// A static `flux` (fluxonium, tunable transmon) beyond +/- this many flux quanta.
inline constexpr double kPlausibleStaticFlux = 1.0;
/// A flux pulse's amplitude (or a `values` entry) beyond +/- this many flux quanta.
inline constexpr double kPlausibleFluxPulse = 0.5;
/// A pulse frequency above this (GHz) that is near no transition of the device.
inline constexpr double kPlausibleDriveGHz = 20.0;
/// "Near" a transition: within this fraction of its frequency.
inline constexpr double kTransitionMatch = 0.05;

/// The EJ/EC a mode type usually has; outside it warns (EJ = 0, no junction, never does).
struct EjEcRange {
  double lo = 0.0, hi = 0.0;
};
/// Transmons (qubits and couplers): charge-qubit regime below, an anharmonicity of a
/// per mille of the frequency above.
inline constexpr EjEcRange kTransmonEjEc{10.0, 1000.0};
/// Fluxonium: light (~1) to heavy (~10-30) fluxonium.
inline constexpr EjEcRange kFluxoniumEjEc{0.5, 50.0};

/// The warnings of a config that passed the resolution stage, with its resolved modes (in
/// device order): each one line `FILE:LINE:COL: key.path: what (did you mean ...?)` without
/// the `qevolve: warning: ` prefix, located as the stage's errors are (Config::locate).
[[nodiscard]] std::vector<std::string> plausibility_warnings(const Config& config,
                                                             const std::vector<device::ModeParams>& modes);

}  // namespace qevolve::io
