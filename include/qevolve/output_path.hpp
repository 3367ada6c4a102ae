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

/// `optimize.checkpoint`, when the config names one (Config::fail at that key).
void check_checkpoint_path(const Config& config);

/// The same checks for a file named by a flag (`sweep --plot FILE.png`): an InputError naming
/// `flag`. `config_file` (may be empty) is the config, which the file must not be.
void check_flag_output(const std::string& flag, const std::string& path, const std::string& config_file);

}  // namespace qevolve::io
