// Bad configs, part 3 (control lines: the `lines` section and the pulses' `line` key): each is a
// YAML text that the loader refuses with exactly one InputError whose full text
// `FILE:LINE:COL: key.path: problem (expected ...)` is given (texts: src/io/messages.cpp). Used by
// test_config_bad_lines.cpp (the loader, in process) and by the CLI corpus
// (tests/cli/test_cli_corpus.cpp: `check` and `run` refuse each alike, exit 2).
#pragma once

#include "bad_config_case.hpp"

namespace qevolve::test {

inline constexpr BadCase kLinesCases[] = {
    {"LineUnknownKeySuggest",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - name: z\n"
     "    sample_rte: 2.4\n",
     "bad.yaml:4:5: lines[0].sample_rte: unknown key `sample_rte`, did you mean `sample_rate`?"
     " (expected one of: name, sample_rate, filters, predistort)"},
    {"LineUnknownKey",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - {name: z, colour: red}\n",
     "bad.yaml:3:15: lines[0].colour: unknown key `colour`"
     " (expected one of: name, sample_rate, filters, predistort)"},
    {"LineWithoutName",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - {sample_rate: 2.4}\n",
     "bad.yaml:3:5: lines[0]: missing required key `name`"
     " (expected the line's name, as pulses give it in their `line` key)"},
    {"LineNameNotText",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - {name: [z]}\n",
     "bad.yaml:3:12: lines[0].name: got a list"
     " (expected the line's name, as pulses give it in their `line` key)"},
    {"LineNameWithBlank",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - {name: z line}\n",
     "bad.yaml:3:12: lines[0].name: `z line` is not a valid line name"
     " (expected letters, digits, `_` and `-`, starting with a letter or `_`)"},
    {"LineNameDuplicate",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - {name: z}\n"
     "  - {name: xy}\n"
     "  - {name: z, predistort: true}\n",
     "bad.yaml:5:12: lines[2].name: duplicate line name `z` (first used at line 3)"
     " (expected a distinct name for every line)"},
    {"LinesNotAList",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines: {name: z}\n",
     "bad.yaml:2:8: lines: got a mapping"
     " (expected a list)"},
    {"FiltersNotAList",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - {name: z, filters: {type: gaussian, sigma: 1}}\n",
     "bad.yaml:3:24: lines[0].filters: got a mapping"
     " (expected a list)"},
    {"PredistortNotBool",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - {name: z, predistort: yes}\n",
     "bad.yaml:3:27: lines[0].predistort: `yes` is not a boolean (YAML 1.2 has only true and false)"
     " (expected true or false)"},
    {"SampleRateZero",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - {name: z, sample_rate: 0}\n",
     "bad.yaml:3:28: lines[0].sample_rate: `0` is out of range"
     " (expected a number in (0, 100] (GS/s))"},
    {"SampleRateTooHigh",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - {name: z, sample_rate: 101}\n",
     "bad.yaml:3:28: lines[0].sample_rate: `101` is out of range"
     " (expected a number in (0, 100] (GS/s))"},
    {"SampleRateNotFinite",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - {name: z, sample_rate: .inf}\n",
     "bad.yaml:3:28: lines[0].sample_rate: `.inf` is not a finite number"
     " (expected a number in (0, 100] (GS/s))"},
    {"FilterWithoutType",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - name: z\n"
     "    filters:\n"
     "      - {sigma: 0.5}\n",
     "bad.yaml:5:9: lines[0].filters[0]: missing required key `type`"
     " (expected one of: gaussian, highpass, exponential, fir)"},
    {"FilterTypeSuggest",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - name: z\n"
     "    filters:\n"
     "      - {type: gausian, sigma: 0.5}\n",
     "bad.yaml:5:16: lines[0].filters[0].type: unknown value `gausian`, did you mean `gaussian`?"
     " (expected one of: gaussian, highpass, exponential, fir)"},
    {"FilterTypeUnknown",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - name: z\n"
     "    filters:\n"
     "      - {type: butterworth, tau: 1}\n",
     "bad.yaml:5:16: lines[0].filters[0].type: unknown value `butterworth`"
     " (expected one of: gaussian, highpass, exponential, fir)"},
    {"FilterUnknownKeySuggest",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - name: z\n"
     "    filters:\n"
     "      - {type: gaussian, sigm: 0.5}\n",
     "bad.yaml:5:26: lines[0].filters[0].sigm: unknown key `sigm`, did you mean `sigma`?"
     " (expected one of: type, sigma, optimize)"},
    {"FilterUnknownKeyUntyped",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - name: z\n"
     "    filters:\n"
     "      - {sigma: 0.5, order: 2}\n",
     "bad.yaml:5:22: lines[0].filters[0].order: unknown key `order`"
     " (expected one of: type, sigma, amplitude, tau, taps, optimize)"},
    {"TauOnGaussian",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - name: z\n"
     "    filters:\n"
     "      - {type: gaussian, sigma: 0.5, tau: 3}\n",
     "bad.yaml:5:38: lines[0].filters[0].tau: key `tau` does not apply to a filter of type `gaussian`"
     " (expected one of: type, sigma, optimize)"},
    {"TapsOnHighpass",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - name: z\n"
     "    sample_rate: 1\n"
     "    filters:\n"
     "      - {type: highpass, tau: 1000, taps: [1]}\n",
     "bad.yaml:6:37: lines[0].filters[0].taps: key `taps` does not apply to a filter of type `highpass`"
     " (expected one of: type, tau, optimize)"},
    {"SigmaOnExponential",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - name: z\n"
     "    filters:\n"
     "      - {type: exponential, amplitude: 0.1, tau: 30, sigma: 1}\n",
     "bad.yaml:5:54: lines[0].filters[0].sigma: key `sigma` does not apply to a filter of type `exponential`"
     " (expected one of: type, amplitude, tau, optimize)"},
    {"GaussianWithoutSigma",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - name: z\n"
     "    filters:\n"
     "      - {type: gaussian}\n",
     "bad.yaml:5:9: lines[0].filters[0]: missing required key `sigma`"
     " (expected the key sigma of a filter of type `gaussian`)"},
    {"HighpassWithoutTau",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - name: z\n"
     "    filters:\n"
     "      - {type: highpass}\n",
     "bad.yaml:5:9: lines[0].filters[0]: missing required key `tau`"
     " (expected the key tau of a filter of type `highpass`)"},
    {"ExponentialWithoutAmplitude",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - name: z\n"
     "    filters:\n"
     "      - {type: exponential, tau: 30}\n",
     "bad.yaml:5:9: lines[0].filters[0]: missing required key `amplitude`"
     " (expected the keys amplitude, tau of a filter of type `exponential`)"},
    {"ExponentialWithoutTau",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - name: z\n"
     "    filters:\n"
     "      - {type: exponential, amplitude: -0.02}\n",
     "bad.yaml:5:9: lines[0].filters[0]: missing required key `tau`"
     " (expected the keys amplitude, tau of a filter of type `exponential`)"},
    {"FirWithoutTaps",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - name: z\n"
     "    sample_rate: 2.4\n"
     "    filters:\n"
     "      - {type: fir}\n",
     "bad.yaml:6:9: lines[0].filters[0]: missing required key `taps`"
     " (expected the key taps of a filter of type `fir`)"},
    {"SigmaNegative",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - name: z\n"
     "    filters:\n"
     "      - {type: gaussian, sigma: -0.5}\n",
     "bad.yaml:5:33: lines[0].filters[0].sigma: `-0.5` is out of range"
     " (expected a number in [0, 1e9] (ns))"},
    {"SigmaTooLarge",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - name: z\n"
     "    filters:\n"
     "      - {type: gaussian, sigma: 2e9}\n",
     "bad.yaml:5:33: lines[0].filters[0].sigma: `2e9` is out of range"
     " (expected a number in [0, 1e9] (ns))"},
    {"SigmaNotFinite",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - name: z\n"
     "    filters:\n"
     "      - {type: gaussian, sigma: .nan}\n",
     "bad.yaml:5:33: lines[0].filters[0].sigma: `.nan` is not a finite number"
     " (expected a number in [0, 1e9] (ns))"},
    {"HighpassTauZero",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - name: z\n"
     "    filters:\n"
     "      - {type: highpass, tau: 0}\n",
     "bad.yaml:5:31: lines[0].filters[0].tau: `0` is out of range"
     " (expected a number in (0, 1e9] (ns))"},
    {"ExponentialTauNegative",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - name: z\n"
     "    filters:\n"
     "      - {type: exponential, amplitude: 0.1, tau: -30}\n",
     "bad.yaml:5:50: lines[0].filters[0].tau: `-30` is out of range"
     " (expected a number in (0, 1e9] (ns))"},
    {"TauTooLarge",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - name: z\n"
     "    filters:\n"
     "      - {type: highpass, tau: 1e10}\n",
     "bad.yaml:5:31: lines[0].filters[0].tau: `1e10` is out of range"
     " (expected a number in (0, 1e9] (ns))"},
    {"AmplitudeNotFinite",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - name: z\n"
     "    filters:\n"
     "      - {type: exponential, amplitude: -.inf, tau: 30}\n",
     "bad.yaml:5:40: lines[0].filters[0].amplitude: `-.inf` is not a finite number"
     " (expected a finite number)"},
    {"FirWithoutSampleRate",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - name: z\n"
     "    filters:\n"
     "      - {type: fir, taps: [0.1, 0.8, 0.1]}\n",
     "bad.yaml:5:9: lines[0].filters[0]: a `fir` filter's taps are spaced by the line's sample period, but the line has no `sample_rate`"
     " (expected a `sample_rate` (GS/s) on the line, or another filter type)"},
    {"FirEmptyTaps",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - name: z\n"
     "    sample_rate: 2.4\n"
     "    filters:\n"
     "      - {type: fir, taps: []}\n",
     "bad.yaml:6:27: lines[0].filters[0].taps: empty list"
     " (expected a list of finite numbers)"},
    {"FirTapsNotAList",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - name: z\n"
     "    sample_rate: 2.4\n"
     "    filters:\n"
     "      - {type: fir, taps: 0.5}\n",
     "bad.yaml:6:27: lines[0].filters[0].taps: got the value `0.5`"
     " (expected a list of finite numbers)"},
    {"FirTapNotFinite",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - name: z\n"
     "    sample_rate: 2.4\n"
     "    filters:\n"
     "      - {type: fir, taps: [0.1, .nan]}\n",
     "bad.yaml:6:33: lines[0].filters[0].taps[1]: `.nan` is not a finite number"
     " (expected a finite number)"},
    {"PredistortAmplitudeMinusOne",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - name: z\n"
     "    predistort: true\n"
     "    filters:\n"
     "      - {type: exponential, amplitude: -1, tau: 30}\n",
     "bad.yaml:6:40: lines[0].filters[0].amplitude: `predistort: true` inverts the line's filters, but an exponential filter with amplitude -1 is not invertible (amplitude <= -1: its step response 1 + A e^(-t/tau) starts at 1 + A <= 0, and the inverse grows without bound)"
     " (expected amplitude > -1, or predistort: false)"},
    {"PredistortAmplitudeBelowMinusOne",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - name: z\n"
     "    filters:\n"
     "      - {type: highpass, tau: 1000}\n"
     "      - {type: exponential, amplitude: -1.5, tau: 30}\n"
     "    predistort: true\n",
     "bad.yaml:6:40: lines[0].filters[1].amplitude: `predistort: true` inverts the line's filters, but an exponential filter with amplitude -1.5 is not invertible (amplitude <= -1: its step response 1 + A e^(-t/tau) starts at 1 + A <= 0, and the inverse grows without bound)"
     " (expected amplitude > -1, or predistort: false)"},
    {"OptimizeTauOfGaussian",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - name: z\n"
     "    filters:\n"
     "      - {type: gaussian, sigma: 0.5, optimize: [tau]}\n",
     "bad.yaml:5:49: lines[0].filters[0].optimize[0]: `tau` is not a trainable parameter of a filter of type `gaussian`"
     " (expected one of: sigma)"},
    {"OptimizeSigmaOfExponential",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - name: z\n"
     "    filters:\n"
     "      - {type: exponential, amplitude: 0.1, tau: 30, optimize: [tau, sigma]}\n",
     "bad.yaml:5:70: lines[0].filters[0].optimize[1]: `sigma` is not a trainable parameter of a filter of type `exponential`"
     " (expected one of: amplitude, tau)"},
    {"OptimizeTapsIndexOutOfRange",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - name: z\n"
     "    sample_rate: 2.4\n"
     "    filters:\n"
     "      - {type: fir, taps: [0.1, 0.8, 0.1], optimize: [\"taps[3]\"]}\n",
     "bad.yaml:6:55: lines[0].filters[0].optimize[0]: `taps[3]` is not a trainable parameter of a filter of type `fir`"
     " (expected one of: taps, taps[k] with 0 <= k < 3)"},
    {"OptimizeTapsIndexLeadingZero",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - name: z\n"
     "    sample_rate: 2.4\n"
     "    filters:\n"
     "      - {type: fir, taps: [0.1, 0.8, 0.1], optimize: [\"taps[01]\"]}\n",
     "bad.yaml:6:55: lines[0].filters[0].optimize[0]: `taps[01]` is not a trainable parameter of a filter of type `fir`"
     " (expected one of: taps, taps[k] with 0 <= k < 3)"},
    {"OptimizeTapsIndexOnHighpass",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - name: z\n"
     "    filters:\n"
     "      - {type: highpass, tau: 100, optimize: [\"taps[0]\"]}\n",
     "bad.yaml:5:47: lines[0].filters[0].optimize[0]: `taps[0]` is not a trainable parameter of a filter of type `highpass`"
     " (expected one of: tau)"},
    {"OptimizeTapsTwice",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - name: z\n"
     "    sample_rate: 2.4\n"
     "    filters:\n"
     "      - {type: fir, taps: [0.1, 0.8, 0.1], optimize: [taps, \"taps[1]\"]}\n",
     "bad.yaml:6:61: lines[0].filters[0].optimize[1]: `taps[1]` repeats a parameter listed before"
     " (expected each parameter at most once)"},
    {"OptimizeTauTwice",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - name: z\n"
     "    filters:\n"
     "      - {type: highpass, tau: 100, optimize: [tau, tau]}\n",
     "bad.yaml:5:52: lines[0].filters[0].optimize[1]: `tau` repeats a parameter listed before"
     " (expected each parameter at most once)"},
    {"PulseLineSuggest",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - {name: zline}\n"
     "pulses:\n"
     "  - {qubit: q0, shape: cos, amplitude: 0.1, duration: 50, line: zlin}\n",
     "bad.yaml:5:65: pulses[0].line: no line named `zlin`, did you mean `zline`?"
     " (expected one of: zline)"},
    {"PulseLineUnknown",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - {name: zline}\n"
     "  - {name: xy}\n"
     "pulses:\n"
     "  - {qubit: q0, shape: cos, amplitude: 0.1, duration: 50, line: flux}\n",
     "bad.yaml:6:65: pulses[0].line: no line named `flux`"
     " (expected one of: zline, xy)"},
    {"PulseLineWithoutLines",
     "device: {preset: mpc_fluxonium_1d}\n"
     "pulses:\n"
     "  - {qubit: q0, shape: cos, amplitude: 0.1, duration: 50, line: zline}\n",
     "bad.yaml:3:65: pulses[0].line: no line named `zline`: the config has no `lines`"
     " (expected an entry of `lines` with this name, or no `line` key)"},
    {"PulseLineEmpty",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - {name: zline}\n"
     "pulses:\n"
     "  - {qubit: q0, shape: cos, amplitude: 0.1, duration: 50, line: ''}\n",
     "bad.yaml:5:65: pulses[0].line: empty string"
     " (expected the name of an entry of `lines`)"},
    {"PulseLineNotText",
     "device: {preset: mpc_fluxonium_1d}\n"
     "lines:\n"
     "  - {name: zline}\n"
     "pulses:\n"
     "  - {qubit: q0, shape: cos, amplitude: 0.1, duration: 50, line: [zline]}\n",
     "bad.yaml:5:65: pulses[0].line: got a list"
     " (expected the name of an entry of `lines`)"},
};

}  // namespace qevolve::test
