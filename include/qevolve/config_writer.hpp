// Writing a config back as YAML with new parameter values (`qevolve optimize` writes the
// optimised parameters as a ready-to-run config).
#pragma once

#include <string>
#include <vector>

#include "qevolve/config.hpp"
#include "qevolve/types.hpp"

namespace qevolve {

/// The YAML text of `original` (config.yaml_text, re-emitted: comments are not kept) with:
/// - each named parameter set to its value: "pulses[i].<key>" (amplitude frequency phase delay
///   duration ramp plateau sigma c lambda, or "values[k]"), "device.qubits[<mode>].<key>" (the
///   entry with that name, appended to device.qubits when the mode comes from a preset only),
///   "device.couplings[i].<key>"; other names (e.g. "compensation.angles[3]") are listed in a
///   comment at the top and not written;
/// - every `auto` the build resolved replaced by the number in `frozen` (the GradientProblem's
///   frozen config: pulses' amplitude (and `angle` removed) and frequency) and
///   evolution.duration set to frozen's, so the written config runs exactly what was optimised.
/// Numbers are written with 17 significant digits (exact round trip).
[[nodiscard]] std::string write_back_yaml(const Config& original, const Config& frozen,
                                          const std::vector<std::string>& names,
                                          const RVector& values);

}  // namespace qevolve
