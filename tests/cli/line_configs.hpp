// Configs with control lines (docs/config.md "lines") for the CLI tests: the CZ of
// examples/cz_transmon_coupler.yaml with its flux pulse delayed by 5 ns and sent through `zline`
// (sampled at 2.4 GS/s, a 0.5 ns Gaussian and a 1000 ns bias tee), optionally pre-distorted;
// the small fluxonium of sweep_configs.hpp with its pulse split over lines of every kind.
#pragma once

#include <stdexcept>
#include <string>

#include "cli_util.hpp"

namespace qevolve::testing {

/// The CZ example with its pulse on `zline`; `predistort` adds `predistort: true` to the line.
inline std::string zline_cz_config(bool predistort = false) {
  std::string text = read_file(std::string(QEVOLVE_SOURCE_DIR) + "/examples/cz_transmon_coupler.yaml");
  const std::string end = "duration: 50}";
  const auto at = text.find(end);
  const auto device = text.find("\ndevice:\n");
  if (at == std::string::npos || device == std::string::npos || device > at)
    throw std::runtime_error("zline_cz_config: examples/cz_transmon_coupler.yaml changed its pulse or device");
  text.replace(at, end.size(), "duration: 50, delay: 5, line: zline}");
  text.insert(device + 1, std::string("lines:\n"
                                      "  - name: zline\n"
                                      "    sample_rate: 2.4\n"
                                      "    filters:\n"
                                      "      - {type: gaussian, sigma: 0.5}\n"
                                      "      - {type: highpass, tau: 1000.0}\n") +
                              (predistort ? "    predistort: true\n" : ""));
  return text;
}

/// The small fluxonium (D = 4, a point costs milliseconds) driven by five pulses on four lines
/// (pulses[0] and [2] share `xy`; `unused` has no pulse: a plausibility warning): every kind of
/// filter, sampling or none, predistortion, a line without filters.
constexpr const char* kSmallFluxoniumLines =
    "lines:\n"
    "  - {name: zline, sample_rate: 2.4, filters: [{type: gaussian, sigma: 0.5}, {type: highpass, tau: 1000.0}]}\n"
    "  - {name: unused, filters: [{type: gaussian, sigma: 1}]}\n"
    "  - name: xy\n"
    "    filters: [{type: exponential, amplitude: -0.02, tau: 30}, {type: exponential, amplitude: 0.1, tau: 5}]\n"
    "    predistort: true\n"
    "  - {name: bare}\n"
    "  - {name: taps, sample_rate: 2, filters: [{type: fir, taps: [0.1, 0.8, 0.1]}]}\n"
    "device:\n"
    "  qubits:\n"
    "    - {name: q0, type: fluxonium, ec: 1.0, ej: 4.0, el: 1.0, flux: 0.5, levels: 4}\n"
    "pulses:\n"
    "  - {qubit: q0, shape: cos, amplitude: 0.04, frequency: 0.58, phase: 0.6, duration: 40, line: xy}\n"
    "  - {qubit: q0, shape: cos, amplitude: 0.04, frequency: 0.58, phase: 0.6, duration: 40, line: zline}\n"
    "  - {qubit: q0, shape: cos, amplitude: 0.01, frequency: 0.58, duration: 40, line: xy}\n"
    "  - {qubit: q0, shape: cos, amplitude: 0.01, frequency: 0.58, duration: 40, line: bare}\n"
    "  - {qubit: q0, shape: cos, amplitude: 0.01, frequency: 0.58, duration: 40, line: taps}\n"
    "evolution: {solver: expm, steps: 300}\n"
    "target:\n"
    "  gates: [{gate: X, qubits: [q0]}]\n"
    "  compensation: vz\n";

}  // namespace qevolve::testing
