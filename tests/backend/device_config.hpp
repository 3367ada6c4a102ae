// The one-fluxonium config of the device-selection CLI tests, ending in `evolution.device: `
// (append cpu, cuda or auto).
#pragma once

#include <string>

namespace qevolve::testing {

inline const std::string kDeviceConfig =
    "device:\n"
    "  qubits:\n"
    "    - {name: q0, type: fluxonium, ec: 1.0, ej: 4.0, el: 1.0, flux: 0.5, levels: 6}\n"
    "pulses:\n"
    "  - {qubit: q0, shape: cos, amplitude: 0.08, frequency: 0.58, duration: 10.0}\n"
    "evolution:\n"
    "  steps: 50\n"
    "  device: ";

}  // namespace qevolve::testing
