// The bad-input corpus's `stage` class (tests/cli/corpus.hpp): configs whose error needs the
// merged device or several sections, so that only the resolution stage finds it; `check` must
// refuse each with the line `run` gives.
#pragma once

#include <string>
#include <vector>

#include "cli/corpus.hpp"

namespace qevolve::testing {

/// Errors that need the merged device or several sections: `check` finds each as `run` does.
inline std::vector<CorpusCase> stage_cases() {
  const std::string transmon =
      "device:\n"
      "  qubits:\n"
      "    - {name: t0, type: transmon, ec: 0.2, ej: 15.0, levels: 3}\n";
  const std::string pulse = "pulses:\n  - {qubit: t0, shape: cos, amplitude: 0.01, duration: 20}\n";
  auto row = [&](const char* name, const std::string& yaml, const char* message) {
    return CorpusCase{"stage", name, {{"bad.yaml", transmon + yaml}}, "bad.yaml", message, true};
  };
  return {
      row("PhiDriveOnATransmon",
          "pulses:\n  - {qubit: t0, operator: phi, shape: cos, amplitude: 0.01, duration: 20}\n",
          "pulses[0].operator: mode `t0` has no drive operator `phi` (expected n)"),
      row("FluxPulseOnAFixedFrequencyTransmon",
          "pulses:\n  - {qubit: t0, operator: flux, shape: cos, amplitude: 0.1, duration: 20}\n",
          "pulses[0].operator: mode `t0` is a fixed-frequency transmon (no `asymmetry`): it takes no flux pulse"
          " (expected n)"),
      row("NumberPulseOnATransmon",
          "pulses:\n  - {qubit: t0, operator: number, shape: cos, amplitude: 0.1, duration: 20}\n",
          "pulses[0].operator: mode `t0` is a transmon: `operator: number` drives a resonator or duffing mode"),
      row("PulseOnAModeSpeltInCapitals",
          "pulses:\n  - {qubit: T0, shape: cos, amplitude: 0.01, duration: 20}\n",
          "bad.yaml:5:6: pulses[0].qubit: unknown mode `T0`, did you mean `t0`? (expected a mode name of the "
          "device: t0)"),
      row("PulseOnAnUnknownMode",
          "pulses:\n  - {qubit: q9, shape: cos, amplitude: 0.01, duration: 20}\n",
          "pulses[0].qubit: unknown mode `q9`"),
      row("CrosstalkOnAnUnknownMode",
          "pulses:\n  - {qubit: t0, shape: cos, amplitude: 0.01, duration: 20, crosstalk: {q5: "
          "0.1}}\n",
          "bad.yaml:5:72: pulses[0].crosstalk.q5: unknown mode `q5` (expected a mode name of the "
          "device: t0)"),
      row("DurationShorterThanThePulse", pulse + "evolution: {duration: 10}\n",
          "evolution.duration: duration 10.000000 ns is shorter than the latest pulse end"),
      row("InitialStateLevelNotKept", pulse + "evolution: {initial_states: ['5']}\n",
          "level 5 of mode `t0` is not kept (levels 3)"),
      row("InitialStateTooLong", pulse + "evolution: {initial_states: ['01']}\n",
          "bad.yaml:6:30: evolution.initial_states[0]: label `01` has 2 digits but the device has "
          "1 mode"),
      row("NoiseOnAMissingMode", pulse + "evolution: {noise: {q7: {t1: 1000}}}\n",
          "evolution.noise.q7: unknown mode `q7`"),
      row("SinglePrecisionWithNoise",
          pulse + "evolution: {precision: single, noise: {t0: {t1: 1000}}}\n",
          "precision: single is for closed systems"),
      // A key missing at the top level is located at the document's start.
      row("GradientsWithoutATarget",
          "pulses:\n  - {qubit: t0, shape: cos, amplitude: 0.01, duration: 20, optimize: [amplitude]}\n",
          "bad.yaml:1:1: target: gradients need a `target` (expected a target section)"),
      // Trotter has an open-system adjoint on local gates only; the dense splitting evolves an
      // open system but has none (it used to pass the stage and fail inside the simulator).
      row("OpenGradientWithTheDenseSplitting",
          "pulses:\n  - {qubit: t0, shape: cos, amplitude: 0.01, duration: 20, optimize: [amplitude]}\n"
          "evolution: {solver: trotter, splitting: dense, noise: {t0: {t1: 1000}}}\n"
          "target: {gates: [{gate: X, qubits: [t0]}]}\n",
          "evolution.splitting: open-system gradients with solver trotter are computed on local gates only (the "
          "checkpointed adjoint of the split Lindblad step) (expected splitting: terms | bonds)"),
      row("TargetOnAMissingQubit", pulse + "target: {gates: [{gate: X, qubits: [q3]}]}\n",
          "target.gates[0].qubits: `q3` is not a qubit of the device"),
      row("TwoQubitGateOnOneQubit", pulse + "target: {gates: [{gate: CZ, qubits: [t0]}]}\n",
          "bad.yaml:6:37: target.gates[0].qubits: gate `CZ` acts on two qubits, but 1 given"),
      row("MissingMatrixFile",
          pulse + "target: {gates: [{matrix_file: absent.h5, qubits: [t0]}]}\n",
          "target.gates[0].matrix_file: cannot read the gate matrix"),
      row("GradientWithAdaptiveSolver",
          "pulses:\n  - {qubit: t0, shape: cos, amplitude: 0.01, duration: 20, optimize: "
          "[amplitude]}\n"
          "evolution: {solver: adaptive}\ntarget: {gates: [{gate: X, qubits: [t0]}]}\n",
          "evolution.solver: solver `adaptive` gives no gradient"),
      // A line's panels follow its shortest time scale and the evolution's length.
      row("LineWithTooManyPanels",
          "lines:\n  - {name: z, filters: [{type: gaussian, sigma: 1e-4}]}\n"
          "pulses:\n  - {qubit: t0, shape: cos, amplitude: 0.01, duration: 20, line: z}\n",
          "bad.yaml:5:5: lines[0]: the line's output over the 20 ns evolution needs about 400045 panels, more than "
          "200000"),
  };
}

}  // namespace qevolve::testing
