// Bad configs, part 1 (YAML structure, device): each is a YAML text that the loader refuses
// with exactly one InputError whose full text `FILE:LINE:COL: key.path: problem (expected ...)`
// is given (texts: src/io/messages.cpp). Used by test_config_bad_device.cpp (the loader, in process) and by the
// CLI corpus (tests/cli/test_cli_corpus.cpp: `check` and `run` refuse each alike, exit 2).
#pragma once

#include "bad_config_case.hpp"

namespace qevolve::test {

inline constexpr BadCase kDeviceCases[] = {
    {"SyntaxUnclosedFlow",
     "device:\n"
     "  qubits: [a, b\n",
     "bad.yaml:3:1: YAML syntax error: end of sequence flow not found (expected valid YAML)"},
    {"SyntaxIllegalMapValue",
     "device: preset: mpc_fluxonium_1d\n",
     "bad.yaml:1:15: YAML syntax error: illegal map value (expected valid YAML)"},
    {"TopLevelList",
     "- device\n"
     "- pulses\n",
     "bad.yaml:1:1: the top level is a list"
     " (expected a mapping with the keys device, pulses, lines, evolution, target, optimize, output, ensemble)"},
    {"TopLevelScalar",
     "hello\n",
     "bad.yaml:1:1: the top level is the value `hello`"
     " (expected a mapping with the keys device, pulses, lines, evolution, target, optimize, output, ensemble)"},
    {"MultipleDocuments",
     "device: {preset: mpc_fluxonium_1d}\n"
     "---\n"
     "device: {preset: mpc_fluxonium_1d}\n",
     "bad.yaml:2:1: a second YAML document starts here (expected a single YAML document)"},
    {"RecursiveAlias",
     "device: &d\n"
     "  qubits: [*d]\n",
     "bad.yaml:2:12: alias `*d` refers to a node that contains it"
     " (expected aliases of complete, earlier nodes)"},
    {"ExplicitTag",
     "device: !!map {preset: mpc_fluxonium_1d}\n",
     "bad.yaml:1:9: YAML tag `!!map` is not supported"
     " (expected plain or quoted values without tags)"},
    {"KeyNotString",
     "device: {preset: mpc_fluxonium_1d}\n"
     "? [evolution]\n"
     ": {}\n",
     "bad.yaml:2:3: a key must be a string, but got a list (expected a plain or quoted key)"},
    // A null key is reported on its own line, inside the mapping that holds it.
    {"NullKeyOnItsOwnLine",
     "device:\n"
     "  preset: mpc_fluxonium_1d\n"
     "  ~: 3\n",
     "bad.yaml:3:3: device: a key must be a string, but got no value (expected a plain or quoted key)"},
    {"EmptyKeyOnItsOwnLine",
     "device: {preset: mpc_fluxonium_1d}\n"
     ": 3\n",
     "bad.yaml:2:1: a key must be a string, but got no value (expected a plain or quoted key)"},
    {"DuplicateKey",
     "device:\n"
     "  qubits:\n"
     "    - name: q0\n"
     "      type: fluxonium\n"
     "      ec: 1.0\n"
     "      ej: 4.0\n"
     "      el: 0.9\n"
     "      levels: 3\n"
     "  qubits: []\n",
     "bad.yaml:9:3: device.qubits: duplicate key `qubits` (first given at line 2)"
     " (expected each key at most once per mapping)"},
    {"UnknownTopKeySuggest",
     "device: {preset: mpc_fluxonium_1d}\n"
     "pulse: []\n",
     "bad.yaml:2:1: pulse: unknown key `pulse`, did you mean `pulses`?"
     " (expected one of: device, pulses, lines, evolution, target, optimize, output, ensemble)"},
    {"UnknownTopKey",
     "device: {preset: mpc_fluxonium_1d}\n"
     "foo: 1\n",
     "bad.yaml:2:1: foo: unknown key `foo`"
     " (expected one of: device, pulses, lines, evolution, target, optimize, output, ensemble)"},
    {"MissingDevice",
     "pulses: []\n",
     "bad.yaml:1:1: missing required key `device`"
     " (expected a mapping with a `preset` and/or a `qubits` list)"},
    {"NullDevice",
     "device:\n",
     "bad.yaml:1:1: device: no value given (expected a mapping)"},
    {"ListForMap",
     "device: {preset: mpc_fluxonium_1d}\n"
     "evolution: [expm]\n",
     "bad.yaml:2:12: evolution: got a list (expected a mapping)"},
    {"BadPresetSuggest",
     "device: {preset: mpc_fluxonium}\n",
     "bad.yaml:1:18: device.preset: unknown value `mpc_fluxonium`, did you mean `mpc_fluxonium_1d`?"
     " (expected one of: mpc_fluxonium_1d, transmon_coupler_1d)"},
    {"PresetArgsWithoutPreset",
     "device:\n"
     "  qubits:\n"
     "    - name: q0\n"
     "      type: fluxonium\n"
     "      ec: 1.0\n"
     "      ej: 4.0\n"
     "      el: 0.9\n"
     "      levels: 3\n"
     "  preset_args: {qubits: 3}\n",
     "bad.yaml:9:3: device.preset_args: `preset_args` given without `preset`"
     " (expected a `preset` next to `preset_args`)"},
    {"PresetArgNotApplicable",
     "device:\n"
     "  preset: mpc_fluxonium_1d\n"
     "  preset_args: {qubits: 3, coupler_levels: 3}\n",
     "bad.yaml:3:28: device.preset_args.coupler_levels: key `coupler_levels` does not apply to preset `mpc_fluxonium_1d`"
     " (expected one of: qubits, periodic, levels, variance, seed)"},
    {"BoolYes",
     "device:\n"
     "  preset: mpc_fluxonium_1d\n"
     "  preset_args:\n"
     "    periodic: yes\n",
     "bad.yaml:4:15: device.preset_args.periodic: `yes` is not a boolean (YAML 1.2 has only true and false)"
     " (expected true or false)"},
    {"PresetQubitsZero",
     "device:\n"
     "  preset: mpc_fluxonium_1d\n"
     "  preset_args:\n"
     "    qubits: 0\n",
     "bad.yaml:4:13: device.preset_args.qubits: `0` is out of range"
     " (expected an integer in [1, 64])"},
    {"SeedNegative",
     "device:\n"
     "  preset: mpc_fluxonium_1d\n"
     "  preset_args:\n"
     "    seed: -1\n",
     "bad.yaml:4:11: device.preset_args.seed: `-1` is out of range"
     " (expected an integer in [0, 18446744073709551615])"},
    {"VarianceNegative",
     "device:\n"
     "  preset: mpc_fluxonium_1d\n"
     "  preset_args:\n"
     "    variance: -0.1\n",
     "bad.yaml:4:15: device.preset_args.variance: `-0.1` is out of range"
     " (expected a number >= 0)"},
    {"NoModes",
     "device:\n"
     "  qubits: []\n",
     "bad.yaml:2:3: device: the device has no modes"
     " (expected a `preset` or a non-empty `qubits` list)"},
    {"ModeWithoutName",
     "device:\n"
     "  qubits:\n"
     "    - type: fluxonium\n"
     "      ec: 1.0\n"
     "      ej: 4.0\n"
     "      el: 0.9\n"
     "      levels: 3\n",
     "bad.yaml:3:7: device.qubits[0]: missing required key `name` (expected a mode name)"},
    {"BadModeName",
     "device:\n"
     "  qubits:\n"
     "    - name: 0q\n"
     "      type: fluxonium\n"
     "      ec: 1.0\n"
     "      ej: 4.0\n"
     "      el: 0.9\n"
     "      levels: 3\n",
     "bad.yaml:3:13: device.qubits[0].name: `0q` is not a valid mode name"
     " (expected letters, digits, `_` and `-`, starting with a letter or `_`)"},
    {"UnknownModeKeySuggest",
     "device:\n"
     "  qubits:\n"
     "    - name: q0\n"
     "      type: fluxonium\n"
     "      ec: 1.0\n"
     "      ej: 4.0\n"
     "      el: 0.9\n"
     "      levls: 3\n",
     "bad.yaml:8:7: device.qubits[0].levls: unknown key `levls`, did you mean `levels`?"
     " (expected one of: name, type, role, levels, ec, ej, el, flux, basis_size, optimize)"},
    {"KeyNotForTransmon",
     "device:\n"
     "  qubits:\n"
     "    - name: q0\n"
     "      type: transmon\n"
     "      ec: 0.2\n"
     "      ej: 15.0\n"
     "      levels: 3\n"
     "      el: 1.0\n",
     "bad.yaml:8:7: device.qubits[0].el: key `el` does not apply to a transmon mode"
     " (expected one of: name, type, role, levels, ec, ej, ng, flux, asymmetry, basis_size, optimize)"},
    {"StringForNumber",
     "device:\n"
     "  qubits:\n"
     "    - name: q0\n"
     "      type: fluxonium\n"
     "      ec: abc\n"
     "      ej: 4.0\n"
     "      el: 0.9\n"
     "      levels: 3\n",
     "bad.yaml:5:11: device.qubits[0].ec: `abc` is not a number (expected a number in [1e-4, 100] (GHz))"},
    {"ListForNumber",
     "device:\n"
     "  qubits:\n"
     "    - name: q0\n"
     "      type: fluxonium\n"
     "      ec: [1.0]\n"
     "      ej: 4.0\n"
     "      el: 0.9\n"
     "      levels: 3\n",
     "bad.yaml:5:11: device.qubits[0].ec: got a list (expected a number in [1e-4, 100] (GHz))"},
    {"NaN",
     "device:\n"
     "  qubits:\n"
     "    - name: q0\n"
     "      type: fluxonium\n"
     "      ec: .nan\n"
     "      ej: 4.0\n"
     "      el: 0.9\n"
     "      levels: 3\n",
     "bad.yaml:5:11: device.qubits[0].ec: `.nan` is not a finite number"
     " (expected a number in [1e-4, 100] (GHz))"},
    {"Infinity",
     "device:\n"
     "  qubits:\n"
     "    - name: q0\n"
     "      type: fluxonium\n"
     "      ec: 1.0\n"
     "      ej: .inf\n"
     "      el: 0.9\n"
     "      levels: 3\n",
     "bad.yaml:6:11: device.qubits[0].ej: `.inf` is not a finite number"
     " (expected a number in [0, 1000] (GHz))"},
    {"OverflowNotFinite",
     "device:\n"
     "  qubits:\n"
     "    - name: q0\n"
     "      type: fluxonium\n"
     "      ec: 1.0\n"
     "      ej: 1e999\n"
     "      el: 0.9\n"
     "      levels: 3\n",
     "bad.yaml:6:11: device.qubits[0].ej: `1e999` is not a finite number"
     " (expected a number in [0, 1000] (GHz))"},
    {"EcZero",
     "device:\n"
     "  qubits:\n"
     "    - name: q0\n"
     "      type: fluxonium\n"
     "      ec: 0\n"
     "      ej: 4.0\n"
     "      el: 0.9\n"
     "      levels: 3\n",
     "bad.yaml:5:11: device.qubits[0].ec: `0` is out of range (expected a number in [1e-4, 100] (GHz))"},
    {"ElNegative",
     "device:\n"
     "  qubits:\n"
     "    - name: q0\n"
     "      type: fluxonium\n"
     "      ec: 1.0\n"
     "      ej: 4.0\n"
     "      el: -1\n"
     "      levels: 3\n",
     "bad.yaml:7:11: device.qubits[0].el: `-1` is out of range (expected a number in [1e-4, 100] (GHz))"},
    // Physical ranges (docs/config.md "Physical ranges"): absurd values are input errors at their
    // key, not numerical failures (exit 3) found later in the phase grid.
    {"EcAbsurdlyLarge",
     "device:\n"
     "  qubits:\n"
     "    - {name: q0, type: fluxonium, ec: 1e308, ej: 4.0, el: 0.9, levels: 3}\n",
     "bad.yaml:3:39: device.qubits[0].ec: `1e308` is out of range (expected a number in [1e-4, 100] (GHz))"},
    {"ElAbsurdlySmall",
     "device:\n"
     "  qubits:\n"
     "    - {name: q0, type: fluxonium, ec: 1.0, ej: 4.0, el: 1e-300, levels: 3}\n",
     "bad.yaml:3:57: device.qubits[0].el: `1e-300` is out of range (expected a number in [1e-4, 100] (GHz))"},
    {"CouplingAbsurd",
     "device:\n"
     "  preset: mpc_fluxonium_1d\n"
     "  couplings:\n"
     "    - {qubits: [q0, q1], capacitive: 5000}\n",
     "bad.yaml:4:38: device.couplings[0].capacitive: `5000` is out of range (expected a number in [-100, 100] (GHz))"},
    {"EjNegative",
     "device:\n"
     "  qubits:\n"
     "    - name: q0\n"
     "      type: fluxonium\n"
     "      ec: 1.0\n"
     "      ej: -0.5\n"
     "      el: 0.9\n"
     "      levels: 3\n",
     "bad.yaml:6:11: device.qubits[0].ej: `-0.5` is out of range"
     " (expected a number in [0, 1000] (GHz))"},
    {"LevelsOne",
     "device:\n"
     "  qubits:\n"
     "    - name: q0\n"
     "      type: fluxonium\n"
     "      ec: 1.0\n"
     "      ej: 4.0\n"
     "      el: 0.9\n"
     "      levels: 1\n",
     "bad.yaml:8:15: device.qubits[0].levels: `1` is out of range"
     " (expected an integer in [2, 1000])"},
    {"LevelsHuge",
     "device:\n"
     "  qubits:\n"
     "    - name: q0\n"
     "      type: fluxonium\n"
     "      ec: 1.0\n"
     "      ej: 4.0\n"
     "      el: 0.9\n"
     "      levels: 1000000\n",
     "bad.yaml:8:15: device.qubits[0].levels: `1000000` is out of range"
     " (expected an integer in [2, 1000])"},
    {"LevelsNotInteger",
     "device:\n"
     "  qubits:\n"
     "    - name: q0\n"
     "      type: fluxonium\n"
     "      ec: 1.0\n"
     "      ej: 4.0\n"
     "      el: 0.9\n"
     "      levels: 3.5\n",
     "bad.yaml:8:15: device.qubits[0].levels: `3.5` is not an integer"
     " (expected an integer in [2, 1000])"},
    {"AsymmetryAboveOne",
     "device:\n"
     "  qubits:\n"
     "    - name: q0\n"
     "      type: transmon\n"
     "      ec: 0.2\n"
     "      ej: 15.0\n"
     "      levels: 3\n"
     "      asymmetry: 1.5\n",
     "bad.yaml:8:18: device.qubits[0].asymmetry: `1.5` is out of range"
     " (expected a number in [0, 1])"},
    {"OscillatorFrequencyZero",
     "device:\n"
     "  qubits:\n"
     "    - {name: r0, type: resonator, frequency: 0, levels: 6}\n",
     "bad.yaml:3:46: device.qubits[0].frequency: `0` is out of range"
     " (expected a number in [1e-4, 1000] (GHz))"},
    {"DuplicateModeName",
     "device:\n"
     "  qubits:\n"
     "    - {name: r0, type: resonator, frequency: 7.1, levels: 6}\n"
     "    - {name: r0, type: resonator, frequency: 7.2, levels: 6}\n",
     "bad.yaml:4:14: device.qubits[1].name: duplicate mode name `r0` (first used at line 3)"
     " (expected a distinct name for every entry)"},
    {"NewModeWithoutType",
     "device:\n"
     "  qubits:\n"
     "    - {name: q0, levels: 3}\n",
     "bad.yaml:3:7: device.qubits[0]: missing required key `type`"
     " (expected one of: fluxonium, transmon, resonator, duffing (without a preset every entry is a new mode))"},
    {"FluxoniumWithoutEl",
     "device:\n"
     "  qubits:\n"
     "    - name: q0\n"
     "      type: fluxonium\n"
     "      ec: 1.0\n"
     "      ej: 4.0\n"
     "      levels: 3\n",
     "bad.yaml:3:7: device.qubits[0]: missing required key `el`"
     " (expected the keys ec, ej, el of a fluxonium mode)"},
    {"BasisSmallerThanLevels",
     "device:\n"
     "  qubits:\n"
     "    - name: q0\n"
     "      type: fluxonium\n"
     "      ec: 1.0\n"
     "      ej: 4.0\n"
     "      el: 0.9\n"
     "      levels: 3\n"
     "      basis_size: 2\n",
     "bad.yaml:9:19: device.qubits[0].basis_size: basis_size 2 is smaller than levels 3"
     " (expected basis_size >= levels)"},
    {"BasisSizeOnResonator",
     "device:\n"
     "  qubits:\n"
     "    - {name: r0, type: resonator, frequency: 7.1, levels: 6, basis_size: 20}\n",
     "bad.yaml:3:62: device.qubits[0].basis_size: key `basis_size` does not apply to a resonator mode"
     " (expected one of: name, type, role, levels, frequency, optimize)"},
    {"ModeOptimizeWrongParam",
     "device:\n"
     "  qubits:\n"
     "    - name: q0\n"
     "      type: transmon\n"
     "      ec: 0.2\n"
     "      ej: 15.0\n"
     "      levels: 3\n"
     "      optimize: [ec, el]\n",
     "bad.yaml:8:22: device.qubits[0].optimize[1]: `el` is not a trainable parameter of a transmon mode"
     " (expected one of: ec, ej, ng, flux, asymmetry)"},
    {"ModeOptimizeDuplicate",
     "device:\n"
     "  qubits:\n"
     "    - name: q0\n"
     "      type: fluxonium\n"
     "      ec: 1.0\n"
     "      ej: 4.0\n"
     "      el: 0.9\n"
     "      levels: 3\n"
     "      optimize: [el, ec, el]\n",
     "bad.yaml:9:26: device.qubits[0].optimize[2]: `el` repeats a parameter listed before"
     " (expected each parameter at most once)"},
    {"ModeRoleUnknown",
     "device:\n"
     "  qubits:\n"
     "    - {name: q0, type: transmon, ec: 0.2, ej: 15.0, levels: 3, role: coupler_}\n",
     "bad.yaml:3:70: device.qubits[0].role: unknown value `coupler_`, did you mean `coupler`?"
     " (expected one of: qubit, coupler)"},
    {"CouplingWithoutQubits",
     "device:\n"
     "  preset: mpc_fluxonium_1d\n"
     "  couplings:\n"
     "    - {capacitive: 0.02}\n",
     "bad.yaml:4:7: device.couplings[0]: missing required key `qubits`"
     " (expected a list of exactly two mode names)"},
    {"CouplingThreeNames",
     "device:\n"
     "  preset: mpc_fluxonium_1d\n"
     "  couplings:\n"
     "    - {qubits: [q0, q1, q2], capacitive: 0.02}\n",
     "bad.yaml:4:16: device.couplings[0].qubits: 3 mode names given"
     " (expected a list of exactly two mode names)"},
    {"CouplingToItself",
     "device:\n"
     "  preset: mpc_fluxonium_1d\n"
     "  couplings:\n"
     "    - {qubits: [q1, q1], capacitive: 0.02}\n",
     "bad.yaml:4:21: device.couplings[0].qubits[1]: mode `q1` is coupled to itself"
     " (expected two different modes)"},
    {"CouplingWithoutTerm",
     "device:\n"
     "  preset: mpc_fluxonium_1d\n"
     "  couplings:\n"
     "    - {qubits: [q0, q1]}\n",
     "bad.yaml:4:7: device.couplings[0]: the coupling has no term"
     " (expected at least one of: capacitive, inductive, dipole, cross_kerr)"},
    {"CouplingKeySuggest",
     "device:\n"
     "  preset: mpc_fluxonium_1d\n"
     "  couplings:\n"
     "    - {qubits: [q0, q1], capacitve: 0.02}\n",
     "bad.yaml:4:26: device.couplings[0].capacitve: unknown key `capacitve`, did you mean `capacitive`?"
     " (expected one of: qubits, capacitive, inductive, dipole, cross_kerr, optimize)"},
    {"CouplingOptimizeUnknown",
     "device:\n"
     "  preset: mpc_fluxonium_1d\n"
     "  couplings:\n"
     "    - {qubits: [q0, q1], capacitive: 0.02, optimize: [ec]}\n",
     "bad.yaml:4:55: device.couplings[0].optimize[0]: `ec` is not a trainable parameter of a coupling"
     " (expected one of: capacitive, inductive, dipole, cross_kerr)"},
};

}  // namespace qevolve::test
