// Keys of device parameters -> DeviceParam (include/qevolve/device_param_key.hpp).
#include "qevolve/device_param_key.hpp"

#include <algorithm>
#include <optional>
#include <string_view>

#include "device_rules.hpp"
#include "messages.hpp"
#include "qevolve/names.hpp"
#include "qevolve/text.hpp"
#include "unknown_mode.hpp"

namespace qevolve::io {
namespace {

constexpr std::string_view kCouplingParams[] = {"capacitive", "inductive", "dipole", "cross_kerr"};

/// "device.qubits[q0].ej" -> list "qubits", entry "q0", parameter "ej"; nullopt for another form.
struct KeyParts {
  std::string list, entry, parameter;
};

std::optional<KeyParts> split(const std::string& key) {
  for (const std::string list : {"qubits", "couplings"}) {
    const std::string head = "device." + list + "[";
    if (key.rfind(head, 0) != 0) continue;
    const std::size_t close = key.find(']', head.size());
    if (close == std::string::npos || close == head.size() || key.compare(close, 2, "].") != 0) return std::nullopt;
    KeyParts k{list, key.substr(head.size(), close - head.size()), key.substr(close + 2)};
    if (k.parameter.empty() || k.parameter.find_first_of(".[]") != std::string::npos) return std::nullopt;
    return k;
  }
  return std::nullopt;
}

bool is_index(const std::string& s) {
  return !s.empty() && s.size() <= 9 && s.find_first_not_of("0123456789") == std::string::npos;
}

class KeyReader {
 public:
  KeyReader(const Config& config, const device::ResolvedDevice& resolved, std::string label)
      : config_(config), resolved_(resolved), label_(std::move(label)) {}

  device::DeviceParam read(const std::string& key) {
    key_ = key;
    const std::optional<KeyParts> k = split(key);
    if (!k || (k->list == "couplings" && !is_index(k->entry))) fail(Msg::GradientNotDevice, {{"KEY", key}});
    return k->list == "qubits" ? mode_param(*k) : coupling_param(*k);
  }

 private:
  [[noreturn]] void fail(Msg id, MsgArgs args) const { throw input_error({label_, 0, 0}, key_, id, args); }

  /// The entry index of `list` (of `count` entries) or fails.
  std::size_t index(const KeyParts& k, std::size_t count) const {
    const std::size_t i = std::stoul(k.entry);
    if (i >= count) fail(Msg::GradientIndexRange, {{"COUNT", std::to_string(count)}, {"ARE", there_are(count, k.list)}});
    return i;
  }

  /// An unknown parameter: UnknownKeySuggest with the nearest of `allowed`, else `otherwise`.
  [[noreturn]] void unknown(const std::string& parameter, const std::vector<std::string_view>& allowed,
                            Msg otherwise, MsgArgs args) const {
    const std::string hint = suggest(parameter, allowed);
    if (hint.empty()) fail(otherwise, args);
    fail(Msg::UnknownKeySuggest, {{"KEY", parameter}, {"SUGGESTION", hint}, {"ALLOWED", join(allowed)}});
  }

  device::DeviceParam mode_param(const KeyParts& k) const {
    const std::string name = is_index(k.entry) ? config_.device.qubits[index(k, config_.device.qubits.size())].name
                                               : k.entry;
    const auto& modes = resolved_.modes;
    const auto it =
        std::find_if(modes.begin(), modes.end(), [&](const device::ModeParams& m) { return m.name == name; });
    if (it == modes.end()) throw input_error({label_, 0, 0}, key_, unknown_mode_message(name, modes));
    const std::vector<std::string>& keys = model_keys(it->type);
    if (std::find(keys.begin(), keys.end(), k.parameter) == keys.end()) {
      const std::vector<std::string_view> allowed(keys.begin(), keys.end());
      unknown(k.parameter, allowed, Msg::NotModeParameter,
              {{"KEY", k.parameter}, {"TYPE", enum_name(it->type)}, {"NAME", name}, {"ALLOWED", join(allowed)}});
    }
    return {device::DeviceParam::Kind::mode, static_cast<int>(it - modes.begin()), k.parameter,
            "device.qubits[" + name + "]." + k.parameter};
  }

  device::DeviceParam coupling_param(const KeyParts& k) const {
    const std::string& path = config_.device.couplings[index(k, config_.device.couplings.size())].path;
    const auto& cs = resolved_.couplings;
    const auto it = std::find_if(cs.begin(), cs.end(), [&](const device::Coupling& c) { return c.path == path; });
    if (it == cs.end()) unvalidated(path, "coupling not found in the resolved device");
    const std::vector<std::string_view> allowed(std::begin(kCouplingParams), std::end(kCouplingParams));
    if (std::find(allowed.begin(), allowed.end(), k.parameter) == allowed.end())
      unknown(k.parameter, allowed, Msg::UnknownKey, {{"KEY", k.parameter}, {"ALLOWED", join(allowed)}});
    const device::DeviceParam p{device::DeviceParam::Kind::coupling, static_cast<int>(it - cs.begin()), k.parameter,
                                path + "." + k.parameter};
    device::ResolvedDevice probe = resolved_;  // a non-zero value must be one the config accepts
    device::set_param(probe, p, 1.0);
    check_coupling_operators(probe.couplings[static_cast<std::size_t>(p.index)], probe.modes, config_);
    return p;
  }

  const Config& config_;
  const device::ResolvedDevice& resolved_;
  std::string label_;
  std::string key_;
};

}  // namespace

std::vector<device::DeviceParam> device_params_of_keys(const Config& config, const device::ResolvedDevice& resolved,
                                                       const std::vector<std::string>& keys, const std::string& label) {
  KeyReader reader(config, resolved, label);
  std::vector<device::DeviceParam> out;
  for (const std::string& key : keys) {
    device::DeviceParam p = reader.read(key);
    if (std::any_of(out.begin(), out.end(), [&](const device::DeviceParam& q) { return q.name == p.name; }))
      throw input_error({label, 0, 0}, key, Msg::GradientTwice, {{"KEY", p.name}});
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace qevolve::io
