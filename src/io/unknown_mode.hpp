// The one message for a name that is not a mode of the device (pulses, crosstalk, couplings,
// noise, collapse operators): the nearest name as a suggestion, and the names it could be.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "messages.hpp"
#include "qevolve/config.hpp"
#include "qevolve/device.hpp"

namespace qevolve::io {

/// The message for `name` (UnknownMode, UnknownModeSuggest): "unknown mode `Q0`, did you mean
/// `q0`?", "a mode name of the device: q0, q1".
[[nodiscard]] MsgProblem unknown_mode_message(const std::string& name, const std::vector<device::ModeParams>& modes);

/// Fails at `key` (Config::fail): "unknown mode `Q0`, did you mean `q0`? (expected a mode name
/// of the device: q0, q1)".
[[noreturn]] void fail_unknown_mode(const Config& config, const std::string& key, const std::string& name,
                                    const std::vector<device::ModeParams>& modes);

}  // namespace qevolve::io
