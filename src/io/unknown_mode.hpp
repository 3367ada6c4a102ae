// The one message for a name that is not a mode of the device (pulses, crosstalk, couplings,
// noise, collapse operators): the nearest name as a suggestion, and the names it could be.
#pragma once

#include <string>
#include <vector>

#include "qevolve/config.hpp"
#include "qevolve/device.hpp"

namespace qevolve::io {

/// Fails at `key` (Config::fail): "unknown mode `Q0`, did you mean `q0`? (expected a mode name
/// of the device: q0, q1)".
[[noreturn]] void fail_unknown_mode(const Config& config, const std::string& key, const std::string& name,
                                    const std::vector<device::ModeParams>& modes);

}  // namespace qevolve::io
