// A name that is not a mode of the device (unknown_mode.hpp).
#include "unknown_mode.hpp"

#include <string_view>

#include "qevolve/text.hpp"

namespace qevolve::io {

MsgProblem unknown_mode_message(const std::string& name, const std::vector<device::ModeParams>& modes) {
  std::vector<std::string_view> names;
  for (const device::ModeParams& m : modes) names.push_back(m.name);
  // Short names (q0, q7, c) are all one edit apart: for them only a different case is a
  // plausible misspelling (Q0 for q0).
  std::string hint = suggest(name, names);
  if (name.size() <= 3 && !hint.empty() && edit_distance(name, hint) != 0) hint.clear();
  return {hint.empty() ? Msg::UnknownMode : Msg::UnknownModeSuggest,
          {{"NAME", name}, {"SUGGESTION", hint}, {"NAMES", join(names)}}};
}

void fail_unknown_mode(const Config& config, const std::string& key, const std::string& name,
                       const std::vector<device::ModeParams>& modes) {
  fail(config, key, unknown_mode_message(name, modes));
}

}  // namespace qevolve::io
