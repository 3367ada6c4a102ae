// Where a command writes, checked by the resolution stage before any work (docs/output.md
// "Output paths"): the folder exists and is writable, the name is not empty, not a folder, not
// a YAML special float (`.nan`, `.inf`: almost always a typo of the config), and not the config
// file itself.
#pragma once

#include <string>

#include "qevolve/config.hpp"

namespace qevolve::io {

/// The output of run / optimize / spectrum: `cli_output` (-o, an InputError naming `-o`) when
/// given, else `output.file` of the config (Config::fail at that key); nothing when both are
/// empty (the command line refuses `-o ''` itself).
void check_output_path(const Config& config, const std::string& cli_output);

}  // namespace qevolve::io
