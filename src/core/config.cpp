#include "qevolve/config.hpp"

namespace qevolve {

std::string Config::first_trainable_list() const {
  for (const auto& q : device.qubits)
    if (!q.optimize.empty()) return q.path + ".optimize";
  for (const auto& c : device.couplings)
    if (!c.optimize.empty()) return c.path + ".optimize";
  for (const auto& p : pulses)
    if (!p.optimize.empty()) return p.path + ".optimize";
  for (const auto& n : evolution.noise)
    if (!n.optimize.empty()) return "evolution.noise." + n.qubit + ".optimize";
  for (const auto& l : lines)
    for (const auto& f : l.filters)
      if (!f.optimize.empty()) return f.path + ".optimize";
  return {};
}

std::string Config::first_trainable() const {
  std::string list = first_trainable_list();
  if (list.empty() && target && target->compensation_trainable && target->compensation != Compensation::none)
    list = "target.compensation_trainable";
  return list;
}

const AppliedOverride* Config::override_of(const std::string& key_path) const {
  for (auto o = overrides.rbegin(); o != overrides.rend(); ++o)
    for (const std::string& p : o->paths) {
      const bool under = key_path.size() > p.size() && key_path.compare(0, p.size(), p) == 0 &&
                         (key_path[p.size()] == '.' || key_path[p.size()] == '[');
      if (key_path == p || under) return &*o;
    }
  return nullptr;
}

SourceLocation Config::locate(const std::string& key_path) const {
  if (const AppliedOverride* o = override_of(key_path)) return SourceLocation{o->label, 0, 0};
  std::string path = key_path;
  while (!path.empty()) {
    if (auto it = where.find(path); it != where.end()) return it->second;
    // Strip the last component: "a.b[2].c" -> "a.b[2]" -> "a.b" -> "a".
    const auto cut = path.find_last_of(".[");
    if (cut == std::string::npos) break;
    path.resize(cut);
  }
  // A key missing at the top level (`target`): the document's start, so that every input
  // error reads FILE:LINE:COL (a config built in code has no file and no position).
  if (source_file.empty()) return SourceLocation{source_file, 0, 0};
  return SourceLocation{source_file, 1, 1};
}

std::string Config::overrides_in_entry(const std::string& key_path) const {
  const auto close = key_path.find(']');
  if (close == std::string::npos || override_of(key_path) != nullptr) return {};
  const std::string entry = key_path.substr(0, close + 1);  // "pulses[0]", "device.qubits[q0]"
  std::string labels;
  for (const AppliedOverride& o : overrides)
    for (const std::string& p : o.paths)
      if (p.size() > entry.size() && p.compare(0, entry.size(), entry) == 0 && (p[entry.size()] == '.' || p[entry.size()] == '[')) {
        labels += (labels.empty() ? "" : ", ") + o.label;
        break;
      }
  return labels;
}

void Config::fail(const std::string& key_path, const std::string& problem,
                  const std::string& expected) const {
  const std::string with = overrides_in_entry(key_path);
  throw InputError(locate(key_path), key_path, with.empty() ? problem : problem + " (with " + with + ")", expected);
}

}  // namespace qevolve
