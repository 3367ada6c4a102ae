// Readers of the sections of a config (docs/config.md), used by config_loader.cpp.
// Each reads one section strictly and fills its part of Config; docs/config.md lists the keys.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "qevolve/config.hpp"
#include "yaml_values.hpp"

namespace qevolve::io::detail {

void read_device(Doc& doc, const Item& item, DeviceSpec& device);
void read_lines(Doc& doc, const Item& item, std::vector<LineSpec>& lines);
void read_pulses(Doc& doc, const Item& item, std::vector<PulseSpec>& pulses);
void read_evolution(Doc& doc, const Item& item, EvolutionSpec& evolution);
void read_target(Doc& doc, const Item& item, TargetSpec& target);
void read_optimize(Doc& doc, const Item& item, OptimizeSpec& optimize);
void read_output(Doc& doc, const Item& item, OutputSpec& output);
void read_ensemble(Doc& doc, const Item& item, EnsembleSpec& ensemble);

/// A pulse's `line`: the name of an entry of the Config's `lines`, read before the pulses
/// (config_lines.cpp; UnknownLine with a suggestion otherwise).
[[nodiscard]] std::string read_line_ref(Doc& doc, const Item& item);

/// An `optimize:` list of a mode or coupling: distinct names, each in `allowed`
/// (NotTrainable with `context` otherwise).
[[nodiscard]] std::vector<std::string> read_trainables(Doc& doc, const Item& item,
                                                       std::span<const std::string_view> allowed,
                                                       const std::string& context);

}  // namespace qevolve::io::detail
