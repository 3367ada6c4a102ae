// Strict YAML loading (docs/config.md): every problem is one located InputError
// `FILE:LINE:COL: key.path: problem (expected ...)`; nothing is silently ignored.
#pragma once

#include <string>

#include "qevolve/config.hpp"

namespace qevolve::io {

/// Reads and validates a config file. Throws InputError on any problem (including an
/// unreadable, empty, binary or oversized file).
[[nodiscard]] Config load_config(const std::string& path);

/// Same, from text already in memory; `name` is used as FILE in messages.
[[nodiscard]] Config parse_config(const std::string& text, const std::string& name);

}  // namespace qevolve::io
