// The small configs of the --set, stdin and sweep CLI tests.
#pragma once

namespace qevolve::testing {

/// One fluxonium (4 levels, D = 4), a 40 ns cos pulse near its 0-1 frequency, expm, X with vz
/// compensation: a point costs about a millisecond.
constexpr const char* kSmallFluxonium =
    "device:\n"
    "  qubits:\n"
    "    - {name: q0, type: fluxonium, ec: 1.0, ej: 4.0, el: 1.0, flux: 0.5, levels: 4}\n"
    "pulses:\n"
    "  - {qubit: q0, shape: cos, amplitude: 0.08, frequency: 0.58, phase: 0.6, duration: 40}\n"
    "evolution: {solver: expm, steps: 300, error_estimate: false}\n"  // its own warning: CliAccuracy
    "target:\n"
    "  gates: [{gate: X, qubits: [q0]}]\n"
    "  compensation: vz\n";

/// The same without a target (no fidelity: populations and leakage only).
constexpr const char* kSmallFluxoniumNoTarget =
    "device:\n"
    "  qubits:\n"
    "    - {name: q0, type: fluxonium, ec: 1.0, ej: 4.0, el: 1.0, flux: 0.5, levels: 4}\n"
    "pulses:\n"
    "  - {qubit: q0, shape: cos, amplitude: 0.08, frequency: 0.58, phase: 0.6, duration: 40}\n"
    "evolution: {solver: expm, steps: 300}\n";

}  // namespace qevolve::testing
