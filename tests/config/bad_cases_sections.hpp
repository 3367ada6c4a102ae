// Bad configs, part 2 (pulses, evolution, target, optimize, output, across sections): each is a
// YAML text that the loader refuses with exactly one InputError whose full text
// `FILE:LINE:COL: key.path: problem (expected ...)` is given (texts: src/io/messages.cpp). Used by test_config_bad_sections.cpp (the loader, in process) and by the
// CLI corpus (tests/cli/test_cli_corpus.cpp: `check` and `run` refuse each alike, exit 2).
#pragma once

#include "bad_config_case.hpp"

namespace qevolve::test {

inline constexpr BadCase kSectionsCases[] = {
    {"PulseWithoutQubit",
     "device: {preset: mpc_fluxonium_1d}\n"
     "pulses:\n"
     "  - shape: cos\n"
     "    amplitude: 0.1\n"
     "    duration: 50\n",
     "bad.yaml:3:5: pulses[0]: missing required key `qubit`"
     " (expected the name of the driven mode)"},
    {"PulseWithoutShape",
     "device: {preset: mpc_fluxonium_1d}\n"
     "pulses:\n"
     "  - qubit: q0\n"
     "    amplitude: 0.1\n"
     "    duration: 50\n",
     "bad.yaml:3:5: pulses[0]: missing required key `shape`"
     " (expected one of: cos, rampcos, trapezoid, gaussian, tanh, erf, drag, piecewise_constant, spline)"},
    {"ShapeSuggest",
     "device: {preset: mpc_fluxonium_1d}\n"
     "pulses:\n"
     "  - qubit: q0\n"
     "    shape: gausian\n"
     "    amplitude: 0.1\n"
     "    duration: 50\n"
     "    sigma: 10\n",
     "bad.yaml:4:12: pulses[0].shape: unknown value `gausian`, did you mean `gaussian`?"
     " (expected one of: cos, rampcos, trapezoid, gaussian, tanh, erf, drag, piecewise_constant, spline)"},
    {"SigmaOnCos",
     "device: {preset: mpc_fluxonium_1d}\n"
     "pulses:\n"
     "  - qubit: q0\n"
     "    shape: cos\n"
     "    amplitude: 0.1\n"
     "    duration: 50\n"
     "    sigma: 10\n",
     "bad.yaml:7:5: pulses[0].sigma: key `sigma` does not apply to a `cos` pulse"
     " (expected one of: qubit, operator, shape, amplitude, angle, frequency, phase, duration, delay, crosstalk, line, optimize)"},
    {"PulseWithoutAmplitude",
     "device: {preset: mpc_fluxonium_1d}\n"
     "pulses:\n"
     "  - qubit: q0\n"
     "    shape: cos\n"
     "    duration: 50\n",
     "bad.yaml:3:5: pulses[0]: missing required key `amplitude`"
     " (expected a number in [-100, 100] (GHz), or auto with angle)"},
    {"AmplitudeNotANumber",
     "device: {preset: mpc_fluxonium_1d}\n"
     "pulses:\n"
     "  - qubit: q0\n"
     "    shape: cos\n"
     "    amplitude: big\n"
     "    duration: 50\n",
     "bad.yaml:5:16: pulses[0].amplitude: `big` is not a number"
     " (expected a number in [-100, 100] (GHz), or auto with angle)"},
    {"AmplitudeAbsurd",
     "device: {preset: mpc_fluxonium_1d}\n"
     "pulses:\n"
     "  - {qubit: q0, shape: cos, amplitude: 1e3, frequency: 0.5, duration: 50}\n",
     "bad.yaml:3:40: pulses[0].amplitude: `1e3` is out of range"
     " (expected a number in [-100, 100] (GHz), or auto with angle)"},
    {"AutoWithoutAngle",
     "device: {preset: mpc_fluxonium_1d}\n"
     "pulses:\n"
     "  - qubit: q0\n"
     "    shape: cos\n"
     "    amplitude: auto\n"
     "    duration: 50\n",
     "bad.yaml:3:5: pulses[0]: `amplitude: auto` needs the key `angle`"
     " (expected the rotation angle in radians)"},
    {"AngleWithoutAuto",
     "device: {preset: mpc_fluxonium_1d}\n"
     "pulses:\n"
     "  - qubit: q0\n"
     "    shape: cos\n"
     "    amplitude: 0.1\n"
     "    duration: 50\n"
     "    angle: 3.14\n",
     "bad.yaml:7:5: pulses[0].angle: `angle` is only used with `amplitude: auto`"
     " (expected `amplitude: auto` with `angle`, or a numeric amplitude without `angle`)"},
    {"DurationZero",
     "device: {preset: mpc_fluxonium_1d}\n"
     "pulses:\n"
     "  - qubit: q0\n"
     "    shape: cos\n"
     "    amplitude: 0.1\n"
     "    duration: 0\n",
     "bad.yaml:6:15: pulses[0].duration: `0` is out of range (expected a number in (0, 1e9] (ns))"},
    {"SigmaNegative",
     "device: {preset: mpc_fluxonium_1d}\n"
     "pulses:\n"
     "  - qubit: q0\n"
     "    shape: gaussian\n"
     "    amplitude: 0.1\n"
     "    duration: 50\n"
     "    sigma: -1\n",
     "bad.yaml:7:12: pulses[0].sigma: `-1` is out of range (expected a number in (0, 1e9] (ns))"},
    {"RampNegative",
     "device: {preset: mpc_fluxonium_1d}\n"
     "pulses:\n"
     "  - qubit: q0\n"
     "    shape: rampcos\n"
     "    amplitude: 0.1\n"
     "    duration: 50\n"
     "    ramp: -1\n",
     "bad.yaml:7:11: pulses[0].ramp: `-1` is out of range (expected a number in (0, 1e9] (ns))"},
    {"ShapeKeysMissing",
     "device: {preset: mpc_fluxonium_1d}\n"
     "pulses:\n"
     "  - qubit: q0\n"
     "    shape: gaussian\n"
     "    amplitude: 0.1\n"
     "    sigma: 10\n",
     "bad.yaml:3:5: pulses[0]: a `gaussian` pulse needs two of duration, sigma, c, but only `sigma` given"
     " (expected two of duration, sigma, c; the third follows from duration = 2*c*sigma)"},
    {"EdgeKeysMissing",
     "device: {preset: mpc_fluxonium_1d}\n"
     "pulses:\n"
     "  - qubit: q0\n"
     "    shape: tanh\n"
     "    amplitude: 0.1\n"
     "    duration: 30\n"
     "    sigma: 3\n",
     "bad.yaml:3:5: pulses[0]: a `tanh` pulse needs all three of duration, sigma, c, but only duration, sigma given"
     " (expected duration, sigma and c (rise centred at c*sigma, fall at duration - c*sigma, width sigma))"},
    {"EdgesOverlap",
     "device: {preset: mpc_fluxonium_1d}\n"
     "pulses:\n"
     "  - qubit: q0\n"
     "    shape: erf\n"
     "    amplitude: 0.1\n"
     "    duration: 12\n"
     "    sigma: 3\n"
     "    c: 2\n",
     "bad.yaml:6:15: pulses[0].duration: duration 12 <= 2*c*sigma = 12: the rise and the fall overlap"
     " (expected duration > 2*c*sigma)"},
    {"ShapeKeysInconsistent",
     "device: {preset: mpc_fluxonium_1d}\n"
     "pulses:\n"
     "  - qubit: q0\n"
     "    shape: rampcos\n"
     "    amplitude: 0.1\n"
     "    duration: 50\n"
     "    plateau: 30\n"
     "    ramp: 5\n",
     "bad.yaml:6:15: pulses[0].duration: duration, plateau, ramp are inconsistent: duration = plateau + 2*ramp does not hold (50 vs 40)"
     " (expected only two of them, or values with duration = plateau + 2*ramp)"},
    {"ShapeKeyNegative",
     "device: {preset: mpc_fluxonium_1d}\n"
     "pulses:\n"
     "  - qubit: q0\n"
     "    shape: trapezoid\n"
     "    amplitude: 0.1\n"
     "    duration: 10\n"
     "    ramp: 6\n",
     "bad.yaml:3:5: pulses[0]: the derived plateau = duration - 2*ramp = -2 is negative"
     " (expected duration >= 2*ramp)"},
    {"DerivedRampNotPositive",
     "device: {preset: mpc_fluxonium_1d}\n"
     "pulses:\n"
     "  - qubit: q0\n"
     "    shape: rampcos\n"
     "    amplitude: 0.1\n"
     "    duration: 10\n"
     "    plateau: 10\n",
     "bad.yaml:3:5: pulses[0]: the derived ramp = (duration - plateau)/2 = 0 is not positive"
     " (expected duration > plateau)"},
    {"RampZero",
     "device: {preset: mpc_fluxonium_1d}\n"
     "pulses:\n"
     "  - qubit: q0\n"
     "    shape: trapezoid\n"
     "    amplitude: 0.1\n"
     "    plateau: 10\n"
     "    ramp: 0\n",
     "bad.yaml:7:11: pulses[0].ramp: `0` is out of range (expected a number in (0, 1e9] (ns))"},
    {"DerivedDurationTooLong",
     "device: {preset: mpc_fluxonium_1d}\n"
     "pulses:\n"
     "  - qubit: q0\n"
     "    shape: gaussian\n"
     "    amplitude: 0.1\n"
     "    sigma: 3\n"
     "    c: 1e12\n",
     "bad.yaml:3:5: pulses[0]: the derived duration = 2*c*sigma = 6e12 ns exceeds 1e9 ns"
     " (expected sigma and c giving a duration in (0, 1e9] ns)"},
    {"GaussianTooFlat",
     "device: {preset: mpc_fluxonium_1d}\n"
     "pulses:\n"
     "  - qubit: q0\n"
     "    shape: gaussian\n"
     "    amplitude: 0.1\n"
     "    duration: 10\n"
     "    c: 1e-12\n",
     "bad.yaml:7:8: pulses[0].c: c = 1e-12 is too small: the Gaussian's normalisation 1/(1 - e^(-c^2/2))"
     " loses the envelope to rounding (expected c >= 0.01, c = duration/(2*sigma), usually 2 to 4)"},
    {"DerivedGaussianTooFlat",
     "device: {preset: mpc_fluxonium_1d}\n"
     "pulses:\n"
     "  - qubit: q0\n"
     "    shape: drag\n"
     "    base: gaussian\n"
     "    amplitude: 0.1\n"
     "    duration: 10\n"
     "    sigma: 1000\n",
     "bad.yaml:3:5: pulses[0]: the derived c = duration/(2*sigma) = 0.005 is too small: the Gaussian's"
     " normalisation 1/(1 - e^(-c^2/2)) loses the envelope to rounding (expected c >= 0.01, c = duration/(2*sigma),"
     " usually 2 to 4)"},
    {"SplineTooFewValues",
     "device: {preset: mpc_fluxonium_1d}\n"
     "pulses:\n"
     "  - qubit: q0\n"
     "    shape: spline\n"
     "    duration: 50\n"
     "    values: [0.1, 0.2, 0.1]\n",
     "bad.yaml:6:13: pulses[0].values: 3 control values given"
     " (expected at least 4 values for a `spline` pulse)"},
    {"PiecewiseEmptyValues",
     "device: {preset: mpc_fluxonium_1d}\n"
     "pulses:\n"
     "  - qubit: q0\n"
     "    shape: piecewise_constant\n"
     "    duration: 50\n"
     "    values: []\n",
     "bad.yaml:6:13: pulses[0].values: empty list (expected a list of finite numbers (GHz))"},
    {"PiecewiseAmplitude",
     "device: {preset: mpc_fluxonium_1d}\n"
     "pulses:\n"
     "  - qubit: q0\n"
     "    shape: piecewise_constant\n"
     "    duration: 50\n"
     "    amplitude: 0.1\n"
     "    values: [0.1]\n",
     "bad.yaml:6:5: pulses[0].amplitude: key `amplitude` does not apply to a `piecewise_constant` pulse"
     " (expected one of: qubit, operator, shape, frequency, phase, duration, delay, values, crosstalk, line, optimize)"},
    {"DragBaseSuggest",
     "device: {preset: mpc_fluxonium_1d}\n"
     "pulses:\n"
     "  - qubit: q0\n"
     "    shape: drag\n"
     "    amplitude: 0.1\n"
     "    duration: 50\n"
     "    base: gaussain\n",
     "bad.yaml:7:11: pulses[0].base: unknown value `gaussain`, did you mean `gaussian`?"
     " (expected one of: cos, gaussian)"},
    {"DragCosBaseSigma",
     "device: {preset: mpc_fluxonium_1d}\n"
     "pulses:\n"
     "  - qubit: q0\n"
     "    shape: drag\n"
     "    amplitude: 0.1\n"
     "    duration: 50\n"
     "    sigma: 10\n",
     "bad.yaml:7:5: pulses[0].sigma: key `sigma` does not apply to a `drag` pulse with base `cos`"
     " (expected one of: qubit, operator, shape, amplitude, angle, frequency, phase, duration, delay, lambda, base, crosstalk, line, optimize)"},
    {"BadOperator",
     "device: {preset: mpc_fluxonium_1d}\n"
     "pulses:\n"
     "  - qubit: q0\n"
     "    operator: charge\n"
     "    shape: cos\n"
     "    amplitude: 0.1\n"
     "    duration: 50\n",
     "bad.yaml:4:15: pulses[0].operator: unknown value `charge` (expected one of: phi, n, x, y, flux, number)"},
    // A flux pulse's amplitude is in flux quanta, with the static flux's range.
    {"FluxAmplitudeOutOfRange",
     "device:\n"
     "  qubits:\n"
     "    - {name: f0, type: fluxonium, ec: 1.0, ej: 4.0, el: 1.0, flux: 0.5, levels: 4}\n"
     "pulses:\n"
     "  - {qubit: f0, operator: flux, shape: cos, amplitude: 2000, duration: 20}\n",
     "bad.yaml:5:56: pulses[0].amplitude: `2000` is out of range"
     " (expected a number in [-1000, 1000] (flux quanta))"},
    {"PulseFrequencyNegative",
     "device: {preset: mpc_fluxonium_1d}\n"
     "pulses:\n"
     "  - qubit: q0\n"
     "    shape: cos\n"
     "    amplitude: 0.1\n"
     "    duration: 50\n"
     "    frequency: -1\n",
     "bad.yaml:7:16: pulses[0].frequency: `-1` is out of range"
     " (expected a number in [0, 1000] (GHz), auto or auto_dressed)"},
    {"DelayNegative",
     "device: {preset: mpc_fluxonium_1d}\n"
     "pulses:\n"
     "  - qubit: q0\n"
     "    shape: cos\n"
     "    amplitude: 0.1\n"
     "    duration: 50\n"
     "    delay: -2\n",
     "bad.yaml:7:12: pulses[0].delay: `-2` is out of range (expected a number in [0, 1e9] (ns))"},
    {"CrosstalkSelf",
     "device: {preset: mpc_fluxonium_1d}\n"
     "pulses:\n"
     "  - qubit: q0\n"
     "    shape: cos\n"
     "    amplitude: 0.1\n"
     "    duration: 50\n"
     "    crosstalk: {q1: 0.05, q0: 0.1}\n",
     "bad.yaml:7:27: pulses[0].crosstalk.q0: crosstalk onto the pulse's own mode `q0`"
     " (expected other modes only)"},
    {"CrosstalkString",
     "device: {preset: mpc_fluxonium_1d}\n"
     "pulses:\n"
     "  - qubit: q0\n"
     "    shape: cos\n"
     "    amplitude: 0.1\n"
     "    duration: 50\n"
     "    crosstalk: {q1: small}\n",
     "bad.yaml:7:21: pulses[0].crosstalk.q1: `small` is not a number"
     " (expected a finite number)"},
    {"PulseOptimizeSigmaOnCos",
     "device: {preset: mpc_fluxonium_1d}\n"
     "pulses:\n"
     "  - qubit: q0\n"
     "    shape: cos\n"
     "    amplitude: 0.1\n"
     "    duration: 50\n"
     "    optimize: [amplitude, sigma]\n",
     "bad.yaml:7:27: pulses[0].optimize[1]: `sigma` is not a trainable parameter of a `cos` pulse"
     " (expected one of: amplitude, frequency, phase, delay, duration)"},
    {"PulseOptimizeValueIndex",
     "device: {preset: mpc_fluxonium_1d}\n"
     "pulses:\n"
     "  - qubit: q0\n"
     "    shape: piecewise_constant\n"
     "    duration: 50\n"
     "    values: [0.1, 0.2]\n"
     "    optimize: [\"values[2]\"]\n",
     "bad.yaml:7:16: pulses[0].optimize[0]: `values[2]` is not a trainable parameter of a `piecewise_constant` pulse"
     " (expected one of: frequency, phase, delay, duration, values, values[k] with 0 <= k < 2)"},
    {"PulseOptimizeValuesTwice",
     "device: {preset: mpc_fluxonium_1d}\n"
     "pulses:\n"
     "  - qubit: q0\n"
     "    shape: spline\n"
     "    duration: 50\n"
     "    values: [0, 0.1, 0.2, 0]\n"
     "    optimize: [values, \"values[1]\"]\n",
     "bad.yaml:7:24: pulses[0].optimize[1]: `values[1]` repeats a parameter listed before"
     " (expected each parameter at most once)"},
    {"PulseOptimizeDerivedKey",
     "device: {preset: mpc_fluxonium_1d}\n"
     "pulses:\n"
     "  - qubit: q0\n"
     "    shape: rampcos\n"
     "    amplitude: 0.1\n"
     "    duration: 50\n"
     "    plateau: 30\n"
     "    optimize: [ramp]\n",
     "bad.yaml:8:16: pulses[0].optimize[0]: `ramp` is derived from the other shape keys, so it cannot be trained"
     " (expected one of: amplitude, frequency, phase, delay, duration, plateau)"},
    {"PulseOptimizeAmplitudeOfSpline",
     "device: {preset: mpc_fluxonium_1d}\n"
     "pulses:\n"
     "  - qubit: q0\n"
     "    shape: spline\n"
     "    duration: 50\n"
     "    values: [0, 0.1, 0.2, 0]\n"
     "    optimize: [amplitude]\n",
     "bad.yaml:7:16: pulses[0].optimize[0]: `amplitude` is not a trainable parameter of a `spline` pulse"
     " (expected one of: frequency, phase, delay, duration, values, values[k] with 0 <= k < 4)"},
    {"SolverSuggest",
     "device: {preset: mpc_fluxonium_1d}\n"
     "evolution:\n"
     "  solver: trottr\n",
     "bad.yaml:3:11: evolution.solver: unknown value `trottr`, did you mean `trotter`?"
     " (expected one of: expm, trotter, magnus4, adaptive)"},
    {"OrderThree",
     "device: {preset: mpc_fluxonium_1d}\n"
     "evolution:\n"
     "  order: 3\n",
     "bad.yaml:3:10: evolution.order: `3` is out of range (expected one of: 1, 2, 4)"},
    {"OrderNotInteger",
     "device: {preset: mpc_fluxonium_1d}\n"
     "evolution:\n"
     "  order: 2.0\n",
     "bad.yaml:3:10: evolution.order: `2.0` is not an integer (expected one of: 1, 2, 4)"},
    {"SplittingSuggest",
     "device: {preset: mpc_fluxonium_1d}\n"
     "evolution:\n"
     "  splitting: bond\n",
     "bad.yaml:3:14: evolution.splitting: unknown value `bond`, did you mean `bonds`?"
     " (expected one of: terms, bonds, dense, chebyshev)"},
    {"StepsZero",
     "device: {preset: mpc_fluxonium_1d}\n"
     "evolution:\n"
     "  steps: 0\n",
     "bad.yaml:3:10: evolution.steps: `0` is out of range"
     " (expected an integer in [1, 2147483647])"},
    {"StepsFraction",
     "device: {preset: mpc_fluxonium_1d}\n"
     "evolution:\n"
     "  steps: 2000.5\n",
     "bad.yaml:3:10: evolution.steps: `2000.5` is not an integer"
     " (expected an integer in [1, 2147483647])"},
    {"StepsQuoted",
     "device: {preset: mpc_fluxonium_1d}\n"
     "evolution:\n"
     "  steps: \"2000\"\n",
     "bad.yaml:3:10: evolution.steps: got the quoted string \"2000\""
     " (expected an integer in [1, 2147483647])"},
    {"StepsAutoAdaptive",
     "device: {preset: mpc_fluxonium_1d}\n"
     "evolution:\n"
     "  solver: adaptive\n"
     "  steps: auto\n",
     "bad.yaml:4:3: evolution.steps: `steps: auto` chooses a step count, but solver `adaptive` has none: its rtol"
     " and atol set its accuracy (expected solver expm, trotter or magnus4 with steps: auto, or a number of steps)"},
    {"StepsAutoWithoutEstimate",
     "device: {preset: mpc_fluxonium_1d}\n"
     "evolution:\n"
     "  steps: auto\n"
     "  error_estimate: false\n",
     "bad.yaml:4:3: evolution.error_estimate: `steps: auto` chooses the steps by the step-error estimate, which"
     " `error_estimate: false` turns off (expected error_estimate: true (the default) with steps: auto, or a number"
     " of steps)"},
    {"StepsAutoWithoutTarget",
     "device: {preset: mpc_fluxonium_1d}\n"
     "evolution:\n"
     "  steps: auto\n",
     "bad.yaml:3:3: evolution.steps: `steps: auto` chooses the steps by the error of F, but this config computes"
     " no fidelity (no target) (expected a target with initial_states: computational, or a number of steps)"},
    {"ToleranceZero",
     "device: {preset: mpc_fluxonium_1d}\n"
     "evolution:\n"
     "  tolerance: 0\n",
     "bad.yaml:3:14: evolution.tolerance: `0` is out of range (expected a number in (0, 0.1])"},
    {"ToleranceTooLarge",
     "device: {preset: mpc_fluxonium_1d}\n"
     "evolution:\n"
     "  tolerance: 0.2\n",
     "bad.yaml:3:14: evolution.tolerance: `0.2` is out of range (expected a number in (0, 0.1])"},
    {"RtolZero",
     "device: {preset: mpc_fluxonium_1d}\n"
     "evolution:\n"
     "  solver: adaptive\n"
     "  rtol: 0\n",
     "bad.yaml:4:9: evolution.rtol: `0` is out of range (expected a number > 0)"},
    {"AtolNegative",
     "device: {preset: mpc_fluxonium_1d}\n"
     "evolution:\n"
     "  atol: -1.0e-12\n",
     "bad.yaml:3:9: evolution.atol: `-1.0e-12` is out of range (expected a number > 0)"},
    {"EvolutionDurationNegative",
     "device: {preset: mpc_fluxonium_1d}\n"
     "evolution:\n"
     "  duration: -5\n",
     "bad.yaml:3:13: evolution.duration: `-5` is out of range (expected a number in (0, 1e9] (ns))"},
    {"BasisSuggest",
     "device: {preset: mpc_fluxonium_1d}\n"
     "evolution:\n"
     "  basis: dresed\n",
     "bad.yaml:3:10: evolution.basis: unknown value `dresed`, did you mean `dressed`?"
     " (expected one of: product, dressed)"},
    {"FrameSuggest",
     "device: {preset: mpc_fluxonium_1d}\n"
     "evolution:\n"
     "  frame: rotatin\n",
     "bad.yaml:3:10: evolution.frame: unknown value `rotatin`, did you mean `rotating`?"
     " (expected one of: lab, rotating)"},
    {"PrecisionUnknown",
     "device: {preset: mpc_fluxonium_1d}\n"
     "evolution:\n"
     "  precision: float\n",
     "bad.yaml:3:14: evolution.precision: unknown value `float`"
     " (expected one of: double, single)"},
    {"ComputeDeviceCase",
     "device: {preset: mpc_fluxonium_1d}\n"
     "evolution:\n"
     "  device: CUDA\n",
     "bad.yaml:3:11: evolution.device: unknown value `CUDA`, did you mean `cuda`?"
     " (expected one of: cpu, cuda, auto)"},
    {"InitialStatesSuggest",
     "device: {preset: mpc_fluxonium_1d}\n"
     "evolution:\n"
     "  initial_states: computationl\n",
     "bad.yaml:3:19: evolution.initial_states: unknown value `computationl`, did you mean `computational`?"
     " (expected one of: computational, all)"},
    {"LabelNotDigits",
     "device: {preset: mpc_fluxonium_1d}\n"
     "evolution:\n"
     "  initial_states: [\"0000\", \"01a0\"]\n",
     "bad.yaml:3:28: evolution.initial_states[1]: `01a0` is not a basis-state label"
     " (expected a string of level digits, one per mode, like \"0110\")"},
    {"LabelLength",
     "device: {preset: mpc_fluxonium_1d}\n"
     "evolution:\n"
     "  initial_states: [\"0000\", \"010\"]\n",
     "bad.yaml:3:28: evolution.initial_states[1]: label `010` has 3 digits, but the first label has 4"
     " (expected labels of equal length, one digit per mode)"},
    {"LabelDuplicate",
     "device: {preset: mpc_fluxonium_1d}\n"
     "evolution:\n"
     "  initial_states: [\"0000\", \"0100\", \"0000\"]\n",
     "bad.yaml:3:36: evolution.initial_states[2]: label `0000` is listed twice"
     " (expected distinct labels)"},
    {"LabelsEmpty",
     "device: {preset: mpc_fluxonium_1d}\n"
     "evolution:\n"
     "  initial_states: []\n",
     "bad.yaml:3:19: evolution.initial_states: empty list"
     " (expected computational, all, or a list of labels like \"0110\")"},
    {"NoiseEmpty",
     "device: {preset: mpc_fluxonium_1d}\n"
     "evolution:\n"
     "  noise: {}\n",
     "bad.yaml:3:10: evolution.noise: empty noise mapping"
     " (expected entries like `q0: {t1: 50000, tphi: 80000}`)"},
    {"NoiseWithoutRate",
     "device: {preset: mpc_fluxonium_1d}\n"
     "evolution:\n"
     "  noise:\n"
     "    q0: {}\n",
     "bad.yaml:4:9: evolution.noise.q0: no noise rate given (expected t1 and/or tphi in ns)"},
    {"T1Zero",
     "device: {preset: mpc_fluxonium_1d}\n"
     "evolution:\n"
     "  noise:\n"
     "    q0: {t1: 0, tphi: 80000}\n",
     "bad.yaml:4:14: evolution.noise.q0.t1: `0` is out of range (expected a number in [0.001, 1e15] (ns))"},
    {"NoiseKeySuggest",
     "device: {preset: mpc_fluxonium_1d}\n"
     "evolution:\n"
     "  noise:\n"
     "    q0: {T1: 50000}\n",
     "bad.yaml:4:10: evolution.noise.q0.T1: unknown key `T1`, did you mean `t1`?"
     " (expected one of: t1, tphi, optimize)"},
    {"NoiseTrainableUnknown",
     "device: {preset: mpc_fluxonium_1d}\n"
     "evolution:\n"
     "  noise:\n"
     "    q0: {t1: 50000, optimize: [t2]}\n",
     "bad.yaml:4:32: evolution.noise.q0.optimize[0]: `t2` is not a trainable parameter of a noise entry"
     " (expected one of: t1, tphi)"},
    {"NoiseTrainableRateMissing",
     "device: {preset: mpc_fluxonium_1d}\n"
     "evolution:\n"
     "  noise:\n"
     "    q0: {t1: 50000, optimize: [tphi]}\n",
     "bad.yaml:4:31: evolution.noise.q0.optimize: `tphi` is listed as trainable but not given"
     " (expected a value for every rate in `optimize`)"},
    {"CollapseMatrixMissing",
     "device: {preset: mpc_fluxonium_1d}\n"
     "evolution:\n"
     "  collapse:\n"
     "    - {qubit: q0, operator: matrix, rate: 1.0e-4}\n",
     "bad.yaml:4:29: evolution.collapse[0].operator: operator: matrix without a `matrix`"
     " (expected a `matrix: [[...], ...]` of the mode's levels x levels)"},
    {"CollapseMatrixUnused",
     "device: {preset: mpc_fluxonium_1d}\n"
     "evolution:\n"
     "  collapse:\n"
     "    - {qubit: q0, operator: phi, rate: 1.0e-4, matrix: [[0, 1], [0, 0]]}\n",
     "bad.yaml:4:48: evolution.collapse[0].matrix: `matrix` is only used with operator: matrix, not with"
     " `phi` (expected operator: matrix, or no `matrix`)"},
    {"CollapseMatrixNotSquare",
     "device: {preset: mpc_fluxonium_1d}\n"
     "evolution:\n"
     "  collapse:\n"
     "    - {qubit: q0, operator: matrix, rate: 1.0e-4, matrix: [[0, 1], [0]]}\n",
     "bad.yaml:4:59: evolution.collapse[0].matrix: the matrix is not square: 2 rows, row 1 has 1 entries"
     " (expected a square list of lists of numbers)"},
    {"CollapseOperatorSuggest",
     "device: {preset: mpc_fluxonium_1d}\n"
     "evolution:\n"
     "  collapse:\n"
     "    - {qubit: q0, operator: lowring, rate: 1.0e-4}\n",
     "bad.yaml:4:29: evolution.collapse[0].operator: unknown value `lowring`, did you mean `lowering`?"
     " (expected one of: lowering, number, phi, n, x, y, matrix)"},
    {"CollapseRateMissing",
     "device: {preset: mpc_fluxonium_1d}\n"
     "evolution:\n"
     "  collapse:\n"
     "    - {qubit: q0, operator: number}\n",
     "bad.yaml:4:7: evolution.collapse[0]: missing required key `rate` (expected a number in (0, 1000] (1/ns))"},
    {"GateSuggest",
     "device: {preset: mpc_fluxonium_1d}\n"
     "target:\n"
     "  gates:\n"
     "    - {gate: cnot, qubits: [q0, q1]}\n",
     "bad.yaml:4:14: target.gates[0].gate: unknown value `cnot`, did you mean `CNOT`?"
     " (expected one of: I, X, Y, Z, H, S, T, SX, RX, RY, RZ, CNOT, CZ, ISWAP, SQRT_ISWAP, SWAP, CPHASE)"},
    {"GateArityTwo",
     "device: {preset: mpc_fluxonium_1d}\n"
     "target:\n"
     "  gates:\n"
     "    - {gate: CNOT, qubits: [q0]}\n",
     "bad.yaml:4:28: target.gates[0].qubits: gate `CNOT` acts on two qubits, but 1 given"
     " (expected a list of two mode names)"},
    {"GateArityOne",
     "device: {preset: mpc_fluxonium_1d}\n"
     "target:\n"
     "  gates:\n"
     "    - {gate: X, qubits: [q0, q1]}\n",
     "bad.yaml:4:25: target.gates[0].qubits: gate `X` acts on one qubit, but 2 given"
     " (expected a list of one mode name)"},
    {"RotationWithoutAngle",
     "device: {preset: mpc_fluxonium_1d}\n"
     "target:\n"
     "  gates:\n"
     "    - {gate: RX, qubits: [q0]}\n",
     "bad.yaml:4:7: target.gates[0]: missing required key `angle`"
     " (expected the gate's angle in radians: the rotation of RX RY RZ, the phase of |11> of CPHASE)"},
    {"CphaseWithoutAngle",
     "device: {preset: mpc_fluxonium_1d}\n"
     "target:\n"
     "  gates:\n"
     "    - {gate: X, qubits: [q1]}\n"
     "    - {gate: CPHASE, qubits: [q0, q1]}\n",
     "bad.yaml:5:7: target.gates[1]: missing required key `angle`"
     " (expected the gate's angle in radians: the rotation of RX RY RZ, the phase of |11> of CPHASE)"},
    {"AngleOnFixedGate",
     "device: {preset: mpc_fluxonium_1d}\n"
     "target:\n"
     "  gates:\n"
     "    - {gate: X, angle: 1.57, qubits: [q0]}\n",
     "bad.yaml:4:17: target.gates[0].angle: key `angle` does not apply to gate `X`"
     " (expected one of: gate, qubits)"},
    {"GateNeither",
     "device: {preset: mpc_fluxonium_1d}\n"
     "target:\n"
     "  gates:\n"
     "    - {qubits: [q0]}\n",
     "bad.yaml:4:7: target.gates[0]: missing required key `gate` or `matrix_file`"
     " (expected a gate name or an HDF5 file holding the gate)"},
    {"GateBoth",
     "device: {preset: mpc_fluxonium_1d}\n"
     "target:\n"
     "  gates:\n"
     "    - {gate: X, matrix_file: u.h5, qubits: [q0]}\n",
     "bad.yaml:4:7: target.gates[0]: both `gate` and `matrix_file` given"
     " (expected exactly one of them)"},
    {"MatrixGateNoQubits",
     "device: {preset: mpc_fluxonium_1d}\n"
     "target:\n"
     "  gates:\n"
     "    - {matrix_file: u.h5, qubits: []}\n",
     "bad.yaml:4:35: target.gates[0].qubits: empty list"
     " (expected a list of the mode names the gate acts on)"},
    {"GateWithoutQubits",
     "device: {preset: mpc_fluxonium_1d}\n"
     "target:\n"
     "  gates:\n"
     "    - {gate: H}\n",
     "bad.yaml:4:7: target.gates[0]: missing required key `qubits`"
     " (expected a list of the mode names the gate acts on)"},
    {"GateQubitTwice",
     "device: {preset: mpc_fluxonium_1d}\n"
     "target:\n"
     "  gates:\n"
     "    - {gate: CZ, qubits: [q1, q1]}\n",
     "bad.yaml:4:31: target.gates[0].qubits[1]: mode `q1` is listed twice"
     " (expected distinct modes)"},
    {"GatesMissing",
     "device: {preset: mpc_fluxonium_1d}\n"
     "target: {compensation: vz}\n",
     "bad.yaml:2:9: target: missing required key `gates`"
     " (expected a list of gates like {gate: X, qubits: [q0]})"},
    {"CompensationSuggest",
     "device: {preset: mpc_fluxonium_1d}\n"
     "target:\n"
     "  gates: []\n"
     "  compensation: single-qubit\n",
     "bad.yaml:4:17: target.compensation: unknown value `single-qubit`, did you mean `single_qubit`?"
     " (expected one of: none, vz, single_qubit)"},
    {"CompensationTrainableNo",
     "device: {preset: mpc_fluxonium_1d}\n"
     "target:\n"
     "  gates: []\n"
     "  compensation_trainable: no\n",
     "bad.yaml:4:27: target.compensation_trainable: `no` is not a boolean (YAML 1.2 has only true and false)"
     " (expected true or false)"},
    {"MethodSuggest",
     "device: {preset: mpc_fluxonium_1d}\n"
     "optimize:\n"
     "  method: bfgs\n",
     "bad.yaml:3:11: optimize.method: unknown value `bfgs`, did you mean `lbfgs`?"
     " (expected one of: lbfgs, adam)"},
    {"TargetInfidelityOne",
     "device: {preset: mpc_fluxonium_1d}\n"
     "optimize:\n"
     "  target_infidelity: 1\n",
     "bad.yaml:3:22: optimize.target_infidelity: `1` is out of range"
     " (expected a number in (0, 1))"},
    {"MaxIterationsZero",
     "device: {preset: mpc_fluxonium_1d}\n"
     "optimize:\n"
     "  max_iterations: 0\n",
     "bad.yaml:3:19: optimize.max_iterations: `0` is out of range"
     " (expected an integer in [1, 2147483647])"},
    {"LearningRateZero",
     "device: {preset: mpc_fluxonium_1d}\n"
     "optimize:\n"
     "  learning_rate: 0\n",
     "bad.yaml:3:18: optimize.learning_rate: `0` is out of range (expected a number > 0)"},
    {"CheckpointList",
     "device: {preset: mpc_fluxonium_1d}\n"
     "optimize:\n"
     "  checkpoint: [a.h5]\n",
     "bad.yaml:3:15: optimize.checkpoint: got a list (expected a non-empty string)"},
    {"OutputFileEmpty",
     "device: {preset: mpc_fluxonium_1d}\n"
     "output:\n"
     "  file: \"\"\n",
     "bad.yaml:3:9: output.file: empty string (expected a non-empty string)"},
    {"AdaptiveWithTrainables",
     "device: {preset: mpc_fluxonium_1d}\n"
     "pulses:\n"
     "  - qubit: q0\n"
     "    shape: cos\n"
     "    amplitude: 0.1\n"
     "    duration: 50\n"
     "    optimize: [amplitude]\n"
     "evolution:\n"
     "  solver: adaptive\n",
     "bad.yaml:9:3: evolution.solver: solver `adaptive` gives no gradient, but `pulses[0].optimize` lists trainable parameters"
     " (expected solver expm, trotter or magnus4 when parameters are trainable)"},
    {"MagnusOpenSystem",
     "device: {preset: mpc_fluxonium_1d}\n"
     "evolution:\n"
     "  solver: magnus4\n"
     "  noise:\n"
     "    q0: {t1: 50000}\n",
     "bad.yaml:3:3: evolution.solver: solver `magnus4` is for closed systems only, but `evolution.noise` or `collapse` is given"
     " (expected solver trotter, adaptive (or expm for D <= 32) for an open system)"},
    {"MagnusOrderTwo",
     "device: {preset: mpc_fluxonium_1d}\n"
     "evolution:\n"
     "  solver: magnus4\n"
     "  order: 2\n",
     "bad.yaml:4:3: evolution.order: solver `magnus4` splits each of its exponentials at order 4;"
     " order 2 would spoil its fourth-order accuracy (expected order: 4, or no `order` key)"},
    {"ChebyshevWithExpm",
     "device: {preset: mpc_fluxonium_1d}\n"
     "evolution:\n"
     "  solver: expm\n"
     "  splitting: chebyshev\n",
     "bad.yaml:4:3: evolution.splitting: `splitting: chebyshev` applies the exponentials of solver trotter or"
     " magnus4, but the solver is `expm` (expected solver: magnus4 (or trotter) with splitting: chebyshev)"},
    {"ChebyshevOpenSystem",
     "device: {preset: mpc_fluxonium_1d}\n"
     "evolution:\n"
     "  splitting: chebyshev\n"
     "  noise:\n"
     "    q0: {t1: 50000}\n",
     "bad.yaml:3:3: evolution.splitting: `splitting: chebyshev` is for closed systems only, but `evolution.noise`"
     " or `collapse` is given (expected splitting: terms or bonds for an open system)"},
    {"ChebyshevTrotterOrderFour",
     "device: {preset: mpc_fluxonium_1d}\n"
     "evolution:\n"
     "  splitting: chebyshev\n"
     "  order: 4\n",
     "bad.yaml:4:3: evolution.order: `order` is the order of the local splittings (terms, bonds);"
     " `splitting: chebyshev` applies exact exponentials, so order 4 would have no effect (trotter with it is"
     " of order 2 in time) (expected no `order` key, or order: 2)"},
    {"CompensationTrainableWithoutCompensation",
     "device: {preset: mpc_fluxonium_1d}\n"
     "target:\n"
     "  gates: []\n"
     "  compensation_trainable: true\n",
     "bad.yaml:4:3: target.compensation_trainable: `compensation_trainable: true` without compensation"
     " (expected target.compensation vz or single_qubit, or compensation_trainable: false)"},
};

}  // namespace qevolve::test
