// The sane ranges of physical parameters (docs/config.md "Physical ranges"): a value outside
// them is an input error at its key (exit 2), so that exit 3 is left for a genuine numerical
// failure of a sensible input. The bounds are generous — orders of magnitude beyond any
// superconducting device — and exist to stop values like `ec: 1e308` or `el: 1e-300`, which
// otherwise overflow a phase grid or a Hamiltonian long after the input was read.
#pragma once

#include "yaml_values.hpp"

namespace qevolve::io::physical {

/// EC, EL (GHz): 1e-4 GHz (100 kHz) to 100 GHz.
inline const Range kEnergy = Range::closed(1e-4, 100.0, "GHz");
/// EJ (GHz): 0 (no junction) to 1000 GHz.
inline const Range kJosephson = Range::closed(0.0, 1000.0, "GHz");
/// External flux (flux quanta) and offset charge: |x| <= 1000.
inline const Range kFlux = Range::closed(-1000.0, 1000.0, "flux quanta");
inline const Range kOffsetCharge = Range::closed(-1000.0, 1000.0);
/// SQUID junction asymmetry d = (EJ1 - EJ2)/(EJ1 + EJ2): [0, 1].
inline const Range kAsymmetry = Range::closed(0.0, 1.0);
/// Oscillator frequency (GHz): 1e-4 to 1000 GHz.
inline const Range kModeFrequency = Range::closed(1e-4, 1000.0, "GHz");
/// Couplings and anharmonicities (GHz): |g| <= 100 GHz.
inline const Range kCoupling = Range::closed(-100.0, 100.0, "GHz");
/// Pulse amplitudes and sample values (GHz): |A| <= 100 GHz.
inline const Range kAmplitude = Range::closed(-100.0, 100.0, "GHz");
/// Pulse (drive) frequencies (GHz): 0 to 1000 GHz.
inline const Range kDriveFrequency = Range::closed(0.0, 1000.0, "GHz");
/// Times (ns): durations, sigma (> 0) and delays, ramps, plateaus (>= 0) up to 1e9 ns (1 s).
inline const Range kDuration = Range::open_closed(0.0, 1e9, "ns");
inline const Range kTimeOffset = Range::closed(0.0, 1e9, "ns");
/// T1, Tphi (ns): 1e-3 ns to 1e15 ns.
inline const Range kCoherenceTime = Range::closed(1e-3, 1e15, "ns");
/// Smallest c of a Gaussian envelope, given or derived: e(tau) = (q - e^{-c^2/2}) / (1 - e^{-c^2/2})
/// loses about log10(2 / c^2) of its 16 digits to cancellation (4.3 at c = 0.01, so ~1e-12
/// accurate); at c < 1.5e-8 the denominator is 0 and the evolution NaN.
inline constexpr double kMinGaussianC = 0.01;
/// Collapse rates (1/ns): up to 1e3 / ns.
inline const Range kRate = Range::open_closed(0.0, 1e3, "1/ns");

}  // namespace qevolve::io::physical
