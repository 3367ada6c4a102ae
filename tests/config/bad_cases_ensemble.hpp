// Bad configs, part 4 (ensemble, output.ensemble_unitaries): each is a YAML text that the loader
// refuses with exactly one InputError whose full text `FILE:LINE:COL: key.path: problem (expected ...)`
// is given (texts: src/io/messages.cpp). Used by test_config_bad_ensemble.cpp. What the members'
// overrides do to the config is the resolution stage's (test_config_ensemble.cpp).
#pragma once

#include "bad_config_case.hpp"

namespace qevolve::test {

inline constexpr BadCase kEnsembleCases[] = {
    {"EnsembleNotMap",
     "device: {preset: mpc_fluxonium_1d}\n"
     "ensemble: 3\n",
     "bad.yaml:2:11: ensemble: got the value `3`"
     " (expected a mapping)"},
    {"EnsembleUnknownKeySuggest",
     "device: {preset: mpc_fluxonium_1d}\n"
     "ensemble:\n"
     "  member:\n"
     "    - {set: {\"device.qubits[q0].el\": 1.0}}\n",
     "bad.yaml:3:3: ensemble.member: unknown key `member`, did you mean `members`?"
     " (expected one of: members, vary, objective)"},
    {"EnsembleBoth",
     "device: {preset: mpc_fluxonium_1d}\n"
     "ensemble:\n"
     "  members:\n"
     "    - {set: {\"device.qubits[q0].el\": 1.0}}\n"
     "  vary:\n"
     "    - {key: \"device.qubits[q0].el\", distribution: normal, mean: 1.0, std: 0.01, points: 3}\n",
     "bad.yaml:5:3: ensemble.vary: both `members` and `vary` are given"
     " (expected either explicit members or generated ones (vary), not both)"},
    {"EnsembleNeither",
     "device: {preset: mpc_fluxonium_1d}\n"
     "ensemble:\n"
     "  objective: mean\n",
     "bad.yaml:3:3: ensemble: neither `members` nor `vary` is given"
     " (expected members: [{set: {KEY: VALUE, ...}, weight: W}, ...] or vary: [{key: KEY, distribution: normal, mean: M, std: S, points: N}, ...])"},
    {"EnsembleMembersEmpty",
     "device: {preset: mpc_fluxonium_1d}\n"
     "ensemble:\n"
     "  members: []\n",
     "bad.yaml:3:12: ensemble.members: empty list"
     " (expected members: [{set: {KEY: VALUE, ...}, weight: W}, ...] or vary: [{key: KEY, distribution: normal, mean: M, std: S, points: N}, ...])"},
    {"EnsembleVaryEmpty",
     "device: {preset: mpc_fluxonium_1d}\n"
     "ensemble:\n"
     "  vary: []\n",
     "bad.yaml:3:9: ensemble.vary: empty list"
     " (expected members: [{set: {KEY: VALUE, ...}, weight: W}, ...] or vary: [{key: KEY, distribution: normal, mean: M, std: S, points: N}, ...])"},
    {"EnsembleMemberWithoutSet",
     "device: {preset: mpc_fluxonium_1d}\n"
     "ensemble:\n"
     "  members:\n"
     "    - {weight: 2}\n",
     "bad.yaml:4:7: ensemble.members[0]: missing required key `set`"
     " (expected the member's overrides in --set syntax, e.g. {\"device.qubits[0].el\": 0.99})"},
    {"EnsembleMemberUnknownKey",
     "device: {preset: mpc_fluxonium_1d}\n"
     "ensemble:\n"
     "  members:\n"
     "    - {set: {\"device.qubits[q0].el\": 1.0}, wieght: 2}\n",
     "bad.yaml:4:44: ensemble.members[0].wieght: unknown key `wieght`, did you mean `weight`?"
     " (expected one of: set, weight)"},
    {"EnsembleSetEmpty",
     "device: {preset: mpc_fluxonium_1d}\n"
     "ensemble:\n"
     "  members:\n"
     "    - {set: {}}\n",
     "bad.yaml:4:13: ensemble.members[0].set: the member sets no key"
     " (expected the member's overrides in --set syntax, e.g. {\"device.qubits[0].el\": 0.99})"},
    {"EnsembleSetNotMap",
     "device: {preset: mpc_fluxonium_1d}\n"
     "ensemble:\n"
     "  members:\n"
     "    - {set: [\"device.qubits[q0].el\", 1.0]}\n",
     "bad.yaml:4:13: ensemble.members[0].set: got a list"
     " (expected a mapping)"},
    {"EnsembleSetBlockList",
     "device: {preset: mpc_fluxonium_1d}\n"
     "ensemble:\n"
     "  members:\n"
     "    - set:\n"
     "        pulses[0].values:\n"
     "          - 1\n"
     "          - 2\n",
     "bad.yaml:6:11: ensemble.members[0].set: a list in block style"
     " (expected a YAML scalar or flow value, e.g. 0.99, [1, 2] or {every: 10})"},
    {"EnsembleSetNull",
     "device: {preset: mpc_fluxonium_1d}\n"
     "ensemble:\n"
     "  members:\n"
     "    - set:\n"
     "        device.qubits[q0].el:\n",
     "bad.yaml:5:9: ensemble.members[0].set: no value given"
     " (expected a YAML scalar or flow value, e.g. 0.99, [1, 2] or {every: 10})"},
    {"EnsembleWeightZero",
     "device: {preset: mpc_fluxonium_1d}\n"
     "ensemble:\n"
     "  members:\n"
     "    - {set: {\"device.qubits[q0].el\": 1.0}, weight: 0}\n",
     "bad.yaml:4:52: ensemble.members[0].weight: `0` is out of range"
     " (expected a number > 0)"},
    {"EnsembleWeightNegative",
     "device: {preset: mpc_fluxonium_1d}\n"
     "ensemble:\n"
     "  members:\n"
     "    - {set: {\"device.qubits[q0].el\": 1.0}, weight: -0.5}\n",
     "bad.yaml:4:52: ensemble.members[0].weight: `-0.5` is out of range"
     " (expected a number > 0)"},
    {"EnsembleWeightNotANumber",
     "device: {preset: mpc_fluxonium_1d}\n"
     "ensemble:\n"
     "  members:\n"
     "    - {set: {\"device.qubits[q0].el\": 1.0}, weight: heavy}\n",
     "bad.yaml:4:52: ensemble.members[0].weight: `heavy` is not a number"
     " (expected a number > 0)"},
    {"EnsembleMemberKeyOptimize",
     "device: {preset: mpc_fluxonium_1d}\n"
     "ensemble:\n"
     "  members:\n"
     "    - {set: {optimize.max_iterations: 3}}\n",
     "bad.yaml:4:14: ensemble.members[0].set: `optimize.max_iterations` is a key of `optimize`, which is one for the whole ensemble"
     " (expected a key under device, pulses, lines, evolution or target)"},
    {"EnsembleMemberKeyEnsemble",
     "device: {preset: mpc_fluxonium_1d}\n"
     "ensemble:\n"
     "  members:\n"
     "    - set: {\"device.qubits[q0].el\": 1.0, ensemble.objective: worst}\n",
     "bad.yaml:4:42: ensemble.members[0].set: `ensemble.objective` is a key of `ensemble`, which is one for the whole ensemble"
     " (expected a key under device, pulses, lines, evolution or target)"},
    {"EnsembleVaryKeyOutput",
     "device: {preset: mpc_fluxonium_1d}\n"
     "ensemble:\n"
     "  vary:\n"
     "    - {key: output.trace.every, distribution: uniform, low: 1, high: 9, points: 2}\n",
     "bad.yaml:4:13: ensemble.vary[0].key: `output.trace.every` is a key of `output`, which is one for the whole ensemble"
     " (expected a key under device, pulses, lines, evolution or target)"},
    {"EnsembleVaryWithoutKey",
     "device: {preset: mpc_fluxonium_1d}\n"
     "ensemble:\n"
     "  vary:\n"
     "    - {distribution: normal, mean: 1.0, std: 0.01, points: 3}\n",
     "bad.yaml:4:7: ensemble.vary[0]: missing required key `key`"
     " (expected a key path in --set syntax, e.g. device.qubits[0].el)"},
    {"EnsembleVaryWithoutDistribution",
     "device: {preset: mpc_fluxonium_1d}\n"
     "ensemble:\n"
     "  vary:\n"
     "    - {key: \"device.qubits[q0].el\", mean: 1.0, std: 0.01, points: 3}\n",
     "bad.yaml:4:7: ensemble.vary[0]: missing required key `distribution`"
     " (expected one of: normal, uniform)"},
    {"EnsembleUnknownDistribution",
     "device: {preset: mpc_fluxonium_1d}\n"
     "ensemble:\n"
     "  vary:\n"
     "    - {key: \"device.qubits[q0].el\", distribution: unifrom, low: 0.9, high: 1.1, points: 3}\n",
     "bad.yaml:4:51: ensemble.vary[0].distribution: unknown value `unifrom`, did you mean `uniform`?"
     " (expected one of: normal, uniform)"},
    {"EnsembleNormalWithoutStd",
     "device: {preset: mpc_fluxonium_1d}\n"
     "ensemble:\n"
     "  vary:\n"
     "    - {key: \"device.qubits[q0].el\", distribution: normal, mean: 1.0, points: 3}\n",
     "bad.yaml:4:7: ensemble.vary[0]: missing required key `std`"
     " (expected the keys mean and std of a `normal` distribution)"},
    {"EnsembleNormalWithoutMean",
     "device: {preset: mpc_fluxonium_1d}\n"
     "ensemble:\n"
     "  vary:\n"
     "    - {key: \"device.qubits[q0].el\", distribution: normal, std: 0.01, points: 3}\n",
     "bad.yaml:4:7: ensemble.vary[0]: missing required key `mean`"
     " (expected the keys mean and std of a `normal` distribution)"},
    {"EnsembleNormalStdZero",
     "device: {preset: mpc_fluxonium_1d}\n"
     "ensemble:\n"
     "  vary:\n"
     "    - {key: \"device.qubits[q0].el\", distribution: normal, mean: 1.0, std: 0, points: 3}\n",
     "bad.yaml:4:75: ensemble.vary[0].std: `0` is out of range"
     " (expected a number > 0)"},
    {"EnsembleNormalWithLow",
     "device: {preset: mpc_fluxonium_1d}\n"
     "ensemble:\n"
     "  vary:\n"
     "    - {key: \"device.qubits[q0].el\", distribution: normal, mean: 1.0, std: 0.01, low: 0.9, points: 3}\n",
     "bad.yaml:4:81: ensemble.vary[0].low: key `low` does not apply to a `normal` distribution"
     " (expected one of: key, distribution, mean, std, points)"},
    {"EnsembleUniformWithoutHigh",
     "device: {preset: mpc_fluxonium_1d}\n"
     "ensemble:\n"
     "  vary:\n"
     "    - {key: \"device.qubits[q0].el\", distribution: uniform, low: 0.9, points: 3}\n",
     "bad.yaml:4:7: ensemble.vary[0]: missing required key `high`"
     " (expected the keys low and high of a `uniform` distribution)"},
    {"EnsembleUniformLowAboveHigh",
     "device: {preset: mpc_fluxonium_1d}\n"
     "ensemble:\n"
     "  vary:\n"
     "    - {key: \"device.qubits[q0].el\", distribution: uniform, low: 1.1, high: 0.9, points: 3}\n",
     "bad.yaml:4:76: ensemble.vary[0].high: low 1.1 is not below high 0.9"
     " (expected low < high)"},
    {"EnsembleUniformLowEqualsHigh",
     "device: {preset: mpc_fluxonium_1d}\n"
     "ensemble:\n"
     "  vary:\n"
     "    - {key: \"device.qubits[q0].el\", distribution: uniform, low: 1, high: 1.0, points: 3}\n",
     "bad.yaml:4:74: ensemble.vary[0].high: low 1 is not below high 1"
     " (expected low < high)"},
    {"EnsembleUniformWithStd",
     "device: {preset: mpc_fluxonium_1d}\n"
     "ensemble:\n"
     "  vary:\n"
     "    - {key: \"device.qubits[q0].el\", distribution: uniform, low: 0.9, high: 1.1, std: 0.1, points: 3}\n",
     "bad.yaml:4:81: ensemble.vary[0].std: key `std` does not apply to a `uniform` distribution"
     " (expected one of: key, distribution, low, high, points)"},
    {"EnsemblePointsZero",
     "device: {preset: mpc_fluxonium_1d}\n"
     "ensemble:\n"
     "  vary:\n"
     "    - {key: \"device.qubits[q0].el\", distribution: normal, mean: 1.0, std: 0.01, points: 0}\n",
     "bad.yaml:4:89: ensemble.vary[0].points: `0` is out of range"
     " (expected an integer in [1, 1000])"},
    {"EnsemblePointsNotInteger",
     "device: {preset: mpc_fluxonium_1d}\n"
     "ensemble:\n"
     "  vary:\n"
     "    - {key: \"device.qubits[q0].el\", distribution: normal, mean: 1.0, std: 0.01, points: 2.5}\n",
     "bad.yaml:4:89: ensemble.vary[0].points: `2.5` is not an integer"
     " (expected an integer in [1, 1000])"},
    {"EnsemblePointsMissing",
     "device: {preset: mpc_fluxonium_1d}\n"
     "ensemble:\n"
     "  vary:\n"
     "    - {key: \"device.qubits[q0].el\", distribution: normal, mean: 1.0, std: 0.01}\n",
     "bad.yaml:4:7: ensemble.vary[0]: missing required key `points`"
     " (expected an integer in [1, 1000])"},
    {"EnsembleGridTooLarge",
     "device: {preset: mpc_fluxonium_1d}\n"
     "ensemble:\n"
     "  vary:\n"
     "    - {key: \"device.qubits[q0].el\", distribution: normal, mean: 1.0, std: 0.01, points: 11}\n"
     "    - {key: \"device.qubits[q0].ec\", distribution: normal, mean: 1.0, std: 0.01, points: 11}\n"
     "    - {key: \"device.qubits[q0].ej\", distribution: normal, mean: 4.0, std: 0.01, points: 11}\n",
     "bad.yaml:4:5: ensemble.vary: the ensemble has 1331 members (11 x 11 x 11 points)"
     " (expected at most 1000 members)"},
    {"EnsembleVaryKeyTwice",
     "device: {preset: mpc_fluxonium_1d}\n"
     "ensemble:\n"
     "  vary:\n"
     "    - {key: \"device.qubits[q0].el\", distribution: normal, mean: 1.0, std: 0.01, points: 3}\n"
     "    - {key: \"device.qubits[q0].el\", distribution: uniform, low: 0.9, high: 1.1, points: 2}\n",
     "bad.yaml:5:13: ensemble.vary[1].key: key `device.qubits[q0].el` varies twice (first at line 4)"
     " (expected each key in one entry of `vary`; several entries form the tensor grid)"},
    {"EnsembleUnknownObjective",
     "device: {preset: mpc_fluxonium_1d}\n"
     "ensemble:\n"
     "  vary:\n"
     "    - {key: \"device.qubits[q0].el\", distribution: normal, mean: 1.0, std: 0.01, points: 3}\n"
     "  objective: wrost\n",
     "bad.yaml:5:14: ensemble.objective: unknown value `wrost`, did you mean `worst`?"
     " (expected one of: mean, worst)"},
    {"OutputEnsembleUnitariesNotBool",
     "device: {preset: mpc_fluxonium_1d}\n"
     "output:\n"
     "  ensemble_unitaries: yes\n",
     "bad.yaml:3:23: output.ensemble_unitaries: `yes` is not a boolean (YAML 1.2 has only true and false)"
     " (expected true or false)"},
};

}  // namespace qevolve::test
