// `--set KEY=VALUE` (and each `--vary` value): a value put into the parsed YAML tree at a key
// path before the loader reads it (docs/cli.md "--set"). Keys are the paths of the messages and
// of /gradient_names: `pulses[0].amplitude`, `device.qubits[q0].el` (a list entry by index or
// by its `name`), `evolution.noise.q0.t1`. A key that does not exist yet is created, so every
// optional key can be set; whether it is allowed there is the loader's business, and its
// message then names the override (Config::override_of).
#include <yaml-cpp/yaml.h>

#include <cctype>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "messages.hpp"
#include "qevolve/text.hpp"
#include "qevolve/config_loader.hpp"
#include "yaml_source.hpp"
#include "yaml_values.hpp"

namespace qevolve::io {
namespace {

/// One step of a key path: a mapping key, or a list entry by index or by name.
struct Step {
  enum class Kind { key, index, name } kind = Kind::key;
  std::string text;
  std::size_t index = 0;
};

bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-'; }

/// "device.qubits[q0].el" -> key device, key qubits, name q0, key el. Empty on a syntax error.
std::vector<Step> split_key(std::string_view key) {
  std::vector<Step> steps;
  std::size_t i = 0;
  while (i < key.size()) {
    if (key[i] == '[') {
      const auto close = key.find(']', i);
      if (close == std::string_view::npos || close == i + 1 || steps.empty()) return {};
      Step s;
      s.text = std::string(key.substr(i + 1, close - i - 1));
      for (char c : s.text)
        if (!name_char(c)) return {};
      const bool digits = s.text.find_first_not_of("0123456789") == std::string::npos;
      s.kind = digits ? Step::Kind::index : Step::Kind::name;
      if (digits) {
        if (s.text.size() > 9) return {};
        s.index = std::stoul(s.text);
      }
      steps.push_back(std::move(s));
      i = close + 1;
      if (i < key.size() && key[i] != '.' && key[i] != '[') return {};
      if (i < key.size() && key[i] == '.') ++i;
      continue;
    }
    std::size_t end = i;
    while (end < key.size() && name_char(key[end])) ++end;
    if (end == i || std::isdigit(static_cast<unsigned char>(key[i])) != 0) return {};
    steps.push_back(Step{Step::Kind::key, std::string(key.substr(i, end - i)), 0});
    i = end;
    if (i < key.size() && key[i] != '.' && key[i] != '[') return {};
    if (i < key.size() && key[i] == '.') {
      ++i;
      if (i == key.size()) return {};
    }
  }
  return steps;
}

/// Walks the tree for one override, creating what is missing, and sets the value.
class Setter {
 public:
  Setter(const Override& o, Config& cfg) : o_(o), cfg_(cfg) {}

  void apply(YAML::Node root) {
    const std::vector<Step> steps = split_key(o_.key);
    if (steps.empty() || steps.front().kind != Step::Kind::key)
      throw input_error(where(), {}, Msg::SetBadKey, {{"KEY", o_.key}});
    const YAML::Node value = parse_value();
    YAML::Node node;
    node.reset(root);  // rebinding a handle is reset(); `=` would assign into the tree
    const YAML::Node& top = root;
    const bool preset = top.IsMap() && top["device"] && top["device"].IsMap() && top["device"]["preset"];
    for (std::size_t k = 0; k < steps.size(); ++k) {
      const bool last = k + 1 == steps.size();
      const bool next_is_list = !last && steps[k + 1].kind != Step::Kind::key;
      if (steps[k].kind == Step::Kind::key)
        node.reset(child(node, steps[k].text, last, next_is_list));
      else
        node.reset(entry(node, steps[k], last, preset && path_ == "device.qubits"));
      if (last) node = value;  // assigns into the tree through the handle
    }
    cfg_.overrides.back().paths.push_back(path_);
  }

 private:
  [[nodiscard]] SourceLocation where() const { return SourceLocation{o_.label, 0, 0}; }

  YAML::Node parse_value() const {
    if (o_.value.empty()) throw input_error(where(), o_.key, Msg::SetEmptyValue);
    return parse_yaml(o_.value, o_.label, Document::value);
  }

  /// node[key], created (a mapping, or a list when the next step indexes it) when missing.
  YAML::Node child(YAML::Node node, const std::string& key, bool last, bool next_is_list) {
    if (!node.IsMap())
      throw input_error(where(), path_, Msg::SetNotMap, {{"FOUND", describe(node)}, {"KEY", key}});
    path_ = child_path(path_, key);
    if (node[key]) return node[key];
    if (!last) {
      node[key] = YAML::Node(next_is_list ? YAML::NodeType::Sequence : YAML::NodeType::Map);
      cfg_.overrides.back().paths.push_back(path_);
    }
    return node[key];
  }

  /// A list entry by index (index == size appends a whole entry) or by `name`; a mode only in
  /// the preset gets an entry {name: NAME} appended to device.qubits (`append_name`).
  YAML::Node entry(YAML::Node node, const Step& s, bool last, bool append_name) {
    if (!node.IsSequence())
      throw input_error(where(), path_, Msg::SetNotList, {{"FOUND", describe(node)}, {"INDEX", s.text}});
    const std::size_t n = node.size();
    std::string list = path_.substr(path_.find_last_of('.') + 1);
    std::size_t at = n;
    if (s.kind == Step::Kind::index) {
      at = s.index;
      if (at > n || (at == n && !last))
        throw input_error(where(), path_ + "[" + s.text + "]", Msg::SetIndexRange,
                          {{"COUNT", std::to_string(n)}, {"ARE", there_are(n, list)}});
    } else {
      std::string names;
      for (std::size_t i = 0; i < n && at == n; ++i) {
        const YAML::Node e = node[i];
        if (e.IsMap() && e["name"] && e["name"].IsScalar()) {
          if (e["name"].Scalar() == s.text) at = i;
          names += (names.empty() ? "" : ", ") + e["name"].Scalar();
        }
      }
      if (at == n && !append_name)
        throw input_error(where(), path_ + "[" + s.text + "]", Msg::SetNoEntry,
                          {{"NAME", s.text}, {"NAMES", names.empty() ? "(none)" : names}});
    }
    path_ += '[';  // appended piecewise: GCC 12 warns (-Wstringop-overflow) on "[" + string&&
    path_ += std::to_string(at);
    path_ += ']';
    if (at == n) {
      YAML::Node fresh(YAML::NodeType::Map);
      if (s.kind == Step::Kind::name) fresh["name"] = s.text;
      node.push_back(fresh);
      cfg_.overrides.back().paths.push_back(path_);
    }
    return node[at];
  }

  const Override& o_;
  Config& cfg_;
  std::string path_;
};

}  // namespace

namespace {

/// One key with its entries by name written as indices in the tree `root`.
std::string indexed_key(const YAML::Node& root, const std::string& key) {
  const std::vector<Step> steps = split_key(key);
  if (steps.empty()) return key;
  YAML::Node node;
  node.reset(root);
  std::string out;
  for (const Step& s : steps) {
    if (s.kind == Step::Kind::key) {
      out += (out.empty() ? "" : ".") + s.text;
      node.reset(node.IsMap() && node[s.text] ? node[s.text] : YAML::Node());
      continue;
    }
    std::size_t at = s.index;
    bool found = s.kind == Step::Kind::index;
    for (std::size_t i = 0; !found && node.IsSequence() && i < node.size(); ++i) {
      const YAML::Node e = node[i];
      if (e.IsMap() && e["name"] && e["name"].IsScalar() && e["name"].Scalar() == s.text) at = i, found = true;
    }
    out += '[';
    out += found ? std::to_string(at) : s.text;
    out += ']';
    node.reset(found && node.IsSequence() && at < node.size() ? node[at] : YAML::Node());
  }
  return out;
}

}  // namespace

std::vector<std::string> indexed_keys(const std::string& yaml_text, const std::vector<std::string>& keys) {
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::Exception&) {
    return keys;  // read by the loader before: not reached
  }
  std::vector<std::string> out;
  out.reserve(keys.size());
  for (const std::string& key : keys) out.push_back(indexed_key(root, key));
  return out;
}

Override parse_override(const std::string& argument, const std::string& flag) {
  // A byte a YAML stream may not hold is refused before the argument is read, with the argument
  // shown escaped: no control byte reaches the terminal through a message.
  if (const std::optional<BadByte> bad = find_bad_byte(argument))
    throw input_error({flag + " " + escape_bad_bytes(argument), 0, 0}, {},
                      bad->control ? Msg::SetBadByte : Msg::SetInvalidUtf8,
                      {{"BYTE", bad->hex()}, {"AT", std::to_string(bad->character)}});
  const std::string label = flag + " " + argument;
  const auto eq = argument.find('=');
  if (eq == std::string::npos)
    throw input_error({label, 0, 0}, {}, Msg::SetNoEquals, {{"ARG", argument}});
  Override o{argument.substr(0, eq), argument.substr(eq + 1), label};
  if (split_key(o.key).empty()) throw input_error({label, 0, 0}, {}, Msg::SetBadKey, {{"KEY", o.key}});
  return o;
}

void apply_overrides(YAML::Node root, const std::vector<Override>& overrides, Config& config) {
  for (const Override& o : overrides) {
    config.overrides.push_back(AppliedOverride{o.label, {}});
    Setter(o, config).apply(root);
  }
}

}  // namespace qevolve::io
