// Writing a config back as YAML with new parameter values (`qevolve optimize` writes the
// optimised parameters as a ready-to-run config).
//
// The original text is kept -- comments, order, layout -- and only the changed scalars are
// patched in place (located by yaml-cpp's marks); a new key goes next to its siblings in the
// style of its mapping, a new device.qubits entry is appended as a flow mapping. The patched
// text is re-parsed and compared with the same changes made on the YAML node tree; if they
// differ (a layout the patcher does not handle, e.g. a multi-line scalar), the node tree is
// emitted instead, which loses the comments but not the data.
#pragma once

#include <string>
#include <vector>

#include "qevolve/config.hpp"
#include "qevolve/types.hpp"

namespace qevolve {

/// config.yaml_text with each named parameter set to its value (values(i) for names[i]):
/// - "pulses[i].<key>", key one of amplitude frequency phase delay duration ramp plateau sigma
///   c lambda, or "pulses[i].values[k]" (element k of the pulse's `values` list);
/// - "evolution.steps" (qevolve converge);
/// - "device.qubits[<mode>].<key>" (ec ej el flux ng asymmetry frequency anharmonicity levels): the
///   device.qubits entry whose `name` is <mode>; when the mode comes only from a preset, an
///   entry `{name: <mode>, <key>: value}` is appended (device.qubits created if needed);
/// - "device.couplings[i].<key>" (capacitive inductive dipole cross_kerr);
/// - "lines[l].filters[j].<key>" (sigma of a gaussian, tau of a highpass, amplitude and tau of an
///   exponential filter) or "lines[l].filters[j].taps[k]" (a fir filter's tap k); l is the line's
///   index or its name.
/// A value replacing `auto` (amplitude, frequency) is written as the number; `angle` is removed
/// with `amplitude: auto`, as it only served it. Names not recognised (e.g.
/// "compensation.angles[3]", an index past the end) are skipped and listed in a comment at the
/// top. Numbers are written with "%.17g" (exact round trip). Throws Error if the config has no
/// YAML text or `values` and `names` differ in length.
[[nodiscard]] std::string write_back_yaml(const Config& config,
                                          const std::vector<std::string>& names,
                                          const RVector& values);

/// The same, and in addition every `auto` the build resolved replaced by the number in `frozen`
/// (the GradientProblem's frozen config: pulses' amplitude (and `angle` removed) and frequency)
/// and evolution.duration set to frozen's, and evolution.steps where frozen's differs (or the
/// original says `auto`), so the written config runs exactly what was optimised. The text starts with a comment naming original.source_file.
[[nodiscard]] std::string write_back_yaml(const Config& original, const Config& frozen,
                                          const std::vector<std::string>& names,
                                          const RVector& values);

}  // namespace qevolve
