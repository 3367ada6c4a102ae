// write_back_yaml: the config's YAML text with new parameter values (device, pulses, noise
// rates, the filters of control lines).
//
// The names are first turned into changes per mapping of the document (Changes). They are then
// made twice: on the YAML node tree (always right, but emitting it loses comments and layout)
// and as in-place edits of the original text (TextPatch: each scalar replaced at its yaml-cpp
// mark, new keys inserted beside their siblings). The patched text is used if it parses to the
// same tree; otherwise the emitted tree is.
#include "qevolve/config_writer.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "qevolve/error.hpp"
#include "qevolve/output_path.hpp"

namespace qevolve {
namespace {

constexpr std::string_view kPulseKeys[] = {"amplitude", "frequency", "phase", "delay", "duration",
                                           "ramp",      "plateau",   "sigma", "c",     "lambda"};
constexpr std::string_view kModeKeys[] = {"ec",        "ej",        "el",            "flux",  "ng",
                                          "asymmetry", "frequency", "anharmonicity", "levels"};
constexpr std::string_view kCouplingKeys[] = {"capacitive", "inductive", "dipole", "cross_kerr"};

template <std::size_t N>
bool one_of(const std::string& key, const std::string_view (&keys)[N]) {
  return std::find(std::begin(keys), std::end(keys), key) != std::end(keys);
}

std::string number(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// --- the changes ---------------------------------------------------------------------------

/// A mapping of the document that changes.
struct Target {
  enum class Kind { evolution, pulse, mode, coupling, noise, filter } kind = Kind::pulse;
  std::size_t index = 0;  // pulse, coupling, the line of a filter
  std::string mode;       // the `name` of a device.qubits entry, or the qubit of a noise entry
  std::size_t filter = 0;  // filter: its index in the line's `filters`
  bool operator==(const Target&) const = default;
};

struct Element {
  std::string key;  // a list-valued key ("values")
  std::size_t k = 0;
  std::string value;
};

/// Every change to one mapping: keys set (replaced or added), list elements set, keys removed.
struct MapChange {
  Target target;
  std::vector<std::pair<std::string, std::string>> set;
  std::vector<Element> elements;
  std::vector<std::string> remove;
};

class Changes {
 public:
  void set(const Target& t, const std::string& key, const std::string& value) {
    auto& s = at(t).set;
    const auto it = std::find_if(s.begin(), s.end(), [&](const auto& e) { return e.first == key; });
    if (it != s.end())
      it->second = value;
    else
      s.emplace_back(key, value);
  }
  void element(const Target& t, const std::string& key, std::size_t k, const std::string& value) {
    auto& e = at(t).elements;
    const auto it = std::find_if(e.begin(), e.end(),
                                 [&](const Element& x) { return x.key == key && x.k == k; });
    if (it != e.end())
      it->value = value;
    else
      e.push_back({key, k, value});
  }
  void remove(const Target& t, const std::string& key) {
    auto& r = at(t).remove;
    if (std::find(r.begin(), r.end(), key) == r.end()) r.push_back(key);
  }
  [[nodiscard]] const std::vector<MapChange>& maps() const { return maps_; }

 private:
  MapChange& at(const Target& t) {
    for (auto& m : maps_)
      if (m.target == t) return m;
    maps_.push_back({t, {}, {}, {}});
    return maps_.back();
  }
  std::vector<MapChange> maps_;
};

/// A parameter name split as PREFIX[INDEX].KEY or PREFIX[INDEX].KEY[ELEMENT] (no std::regex:
/// GCC 12 warns inside <regex> at -O1).
struct NameParts {
  std::string index, key, element;
  bool has_element = false;
};

bool split_name(const std::string& name, const std::string& prefix, NameParts& out) {
  if (name.compare(0, prefix.size(), prefix) != 0 || name.size() <= prefix.size() ||
      name[prefix.size()] != '[')
    return false;
  const std::size_t close = name.find(']', prefix.size());
  if (close == std::string::npos || close + 1 >= name.size() || name[close + 1] != '.') return false;
  out.index = name.substr(prefix.size() + 1, close - prefix.size() - 1);
  std::string rest = name.substr(close + 2);
  const std::size_t open = rest.find('[');
  out.has_element = open != std::string::npos;
  if (out.has_element) {
    if (rest.back() != ']') return false;
    out.element = rest.substr(open + 1, rest.size() - open - 2);
    rest = rest.substr(0, open);
  }
  out.key = rest;
  auto word = [](const std::string& w) {
    return !w.empty() && std::all_of(w.begin(), w.end(), [](char ch) {
      return std::isalnum(static_cast<unsigned char>(ch)) != 0 || ch == '_' || ch == '-';
    });
  };
  return word(out.index) && word(out.key) && (!out.has_element || word(out.element));
}

/// A decimal index of at most 9 digits, or false.
bool parse_index(const std::string& s, std::size_t& out) {
  if (s.empty() || s.size() > 9 ||
      !std::all_of(s.begin(), s.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
    return false;
  out = std::stoul(s);
  return true;
}

/// Whether a filter of `type` has the number `key` (docs/config.md "lines").
bool filter_takes(FilterType type, const std::string& key) {
  switch (type) {
    case FilterType::gaussian: return key == "sigma";
    case FilterType::highpass: return key == "tau";
    case FilterType::exponential: return key == "amplitude" || key == "tau";
    case FilterType::fir: return false;  // taps[k] only
  }
  return false;
}

/// "lines[L].filters[J].KEY" or "lines[L].filters[J].taps[K]", L a line's index or name, as a
/// change; false if the name is not one.
bool add_filter_named(const Config& config, const std::string& name, const std::string& v,
                      Changes& changes) {
  const std::string prefix = "lines[";
  const std::size_t close = name.find(']');
  if (name.compare(0, prefix.size(), prefix) != 0 || close == std::string::npos ||
      name.compare(close, 2, "].") != 0)
    return false;
  const std::string line = name.substr(prefix.size(), close - prefix.size());
  std::size_t l = 0;
  if (!parse_index(line, l))
    l = static_cast<std::size_t>(
        std::find_if(config.lines.begin(), config.lines.end(),
                     [&](const LineSpec& x) { return x.name == line; }) -
        config.lines.begin());
  NameParts n;
  std::size_t j = 0;
  if (l >= config.lines.size() || !split_name(name.substr(close + 2), "filters", n) ||
      !parse_index(n.index, j) || j >= config.lines[l].filters.size())
    return false;
  const FilterSpec& f = config.lines[l].filters[j];
  const Target t{Target::Kind::filter, l, {}, j};
  if (n.has_element) {
    std::size_t k = 0;
    if (f.type != FilterType::fir || n.key != "taps" || !parse_index(n.element, k) ||
        k >= f.taps.size())
      return false;
    changes.element(t, n.key, k, v);
    return true;
  }
  if (!filter_takes(f.type, n.key)) return false;
  changes.set(t, n.key, v);
  return true;
}

/// Turns a parameter name into a change; false if the name is not recognised.
bool add_named(const Config& config, const std::string& name, double value, Changes& changes) {
  const std::string v = number(value);
  NameParts n;
  std::size_t index = 0;
  if (split_name(name, "pulses", n)) {
    if (!parse_index(n.index, index) || index >= config.pulses.size()) return false;
    const Target t{Target::Kind::pulse, index, {}};
    if (n.has_element) {
      std::size_t k = 0;
      if (n.key != "values" || !parse_index(n.element, k) || k >= config.pulses[index].values.size())
        return false;
      changes.element(t, n.key, k, v);
      return true;
    }
    if (!one_of(n.key, kPulseKeys)) return false;
    changes.set(t, n.key, v);
    if (n.key == "amplitude" && config.pulses[index].amplitude_auto) changes.remove(t, "angle");
    return true;
  }
  if (split_name(name, "device.qubits", n)) {
    if (n.has_element || !one_of(n.key, kModeKeys)) return false;
    changes.set(Target{Target::Kind::mode, 0, n.index}, n.key, v);
    return true;
  }
  if (name == "evolution.steps") {  // qevolve converge
    changes.set(Target{Target::Kind::evolution, 0, {}}, "steps", v);
    return true;
  }
  if (name.rfind("evolution.noise.", 0) == 0) {  // evolution.noise.QUBIT.RATE
    const std::string rest = name.substr(16);
    const std::size_t dot = rest.rfind('.');
    if (dot == std::string::npos || dot == 0) return false;
    const std::string qubit = rest.substr(0, dot), key = rest.substr(dot + 1);
    if (key != "t1" && key != "tphi") return false;
    const bool known = std::any_of(config.evolution.noise.begin(), config.evolution.noise.end(),
                                   [&](const NoiseSpec& ns) { return ns.qubit == qubit; });
    if (!known) return false;
    changes.set(Target{Target::Kind::noise, 0, qubit}, key, v);
    return true;
  }
  if (split_name(name, "device.couplings", n)) {
    if (n.has_element || !parse_index(n.index, index) || index >= config.device.couplings.size() ||
        !one_of(n.key, kCouplingKeys))
      return false;
    changes.set(Target{Target::Kind::coupling, index, {}}, n.key, v);
    return true;
  }
  return add_filter_named(config, name, v, changes);
}

// --- the node tree -------------------------------------------------------------------------

/// The value of `key` in the mapping `map` and its key node, without creating anything.
std::optional<std::pair<YAML::Node, YAML::Node>> entry(const YAML::Node& map,
                                                       const std::string& key) {
  if (!map || !map.IsMap()) return std::nullopt;
  for (auto it = map.begin(); it != map.end(); ++it)
    if (it->first.IsScalar() && it->first.Scalar() == key)
      return std::make_pair(it->first, it->second);
  return std::nullopt;
}

/// The mapping a change applies to, if it exists.
std::optional<YAML::Node> find_map(const YAML::Node& root, const Target& t) {
  const auto child = [](const std::optional<YAML::Node>& n,
                        const std::string& key) -> std::optional<YAML::Node> {
    if (!n) return std::nullopt;
    const auto e = entry(*n, key);
    return e ? std::optional<YAML::Node>(e->second) : std::nullopt;
  };
  const auto item = [](const std::optional<YAML::Node>& n,
                       std::size_t i) -> std::optional<YAML::Node> {
    if (!n || !n->IsSequence() || i >= n->size()) return std::nullopt;
    return (*n)[i];
  };
  const std::optional<YAML::Node> top(root);
  std::optional<YAML::Node> map;
  switch (t.kind) {
    case Target::Kind::evolution:
      map = child(top, "evolution");
      break;
    case Target::Kind::pulse:
      map = item(child(top, "pulses"), t.index);
      break;
    case Target::Kind::coupling:
      map = item(child(child(top, "device"), "couplings"), t.index);
      break;
    case Target::Kind::noise:
      map = child(child(child(top, "evolution"), "noise"), t.mode);
      break;
    case Target::Kind::filter:
      map = item(child(item(child(top, "lines"), t.index), "filters"), t.filter);
      break;
    case Target::Kind::mode: {
      const auto qubits = child(child(top, "device"), "qubits");
      if (qubits && qubits->IsSequence())
        for (std::size_t i = 0; i < qubits->size() && !map; ++i) {
          const auto name = entry((*qubits)[i], "name");
          if (name && name->second.IsScalar() && name->second.Scalar() == t.mode)
            map = (*qubits)[i];
        }
      break;
    }
  }
  if (map && !map->IsMap()) return std::nullopt;
  return map;
}

/// The changes made on the node tree (creating the evolution section or the mode entry).
void apply_to_tree(YAML::Node root, const Changes& changes) {
  for (const MapChange& c : changes.maps()) {
    YAML::Node map;
    if (const auto found = find_map(root, c.target)) {
      map = *found;
    } else if (c.target.kind == Target::Kind::evolution) {
      root["evolution"] = YAML::Node(YAML::NodeType::Map);
      map = root["evolution"];
    } else if (c.target.kind == Target::Kind::mode) {
      YAML::Node device = root["device"];
      if (!device["qubits"]) device["qubits"] = YAML::Node(YAML::NodeType::Sequence);
      YAML::Node e(YAML::NodeType::Map);
      e["name"] = c.target.mode;
      device["qubits"].push_back(e);
      map = device["qubits"][device["qubits"].size() - 1];
    } else {
      throw Error("write_back_yaml: a pulse, coupling or filter entry is missing");
    }
    for (const auto& [key, value] : c.set) {
      if (entry(map, key)) map.remove(key);  // a new node: the old one may be shared (alias)
      map[key] = value;
    }
    for (const Element& e : c.elements) map[e.key][e.k] = e.value;
    for (const auto& key : c.remove) map.remove(key);
  }
}

/// Same data: scalars by text, mappings by key (in any order), sequences in order.
bool same_tree(const YAML::Node& a, const YAML::Node& b) {
  if (a.Type() != b.Type()) return false;
  switch (a.Type()) {
    case YAML::NodeType::Scalar:
      return a.Scalar() == b.Scalar();
    case YAML::NodeType::Sequence:
      if (a.size() != b.size()) return false;
      for (std::size_t i = 0; i < a.size(); ++i)
        if (!same_tree(a[i], b[i])) return false;
      return true;
    case YAML::NodeType::Map:
      if (a.size() != b.size()) return false;
      for (auto it = a.begin(); it != a.end(); ++it) {
        if (!it->first.IsScalar()) return false;
        const auto other = entry(b, it->first.Scalar());
        if (!other || !same_tree(it->second, other->second)) return false;
      }
      return true;
    default:
      return true;  // null, undefined
  }
}

// --- the text ------------------------------------------------------------------------------

/// In-place edits of the YAML text, located by yaml-cpp marks. Every operation checks the text
/// it expects at the mark and returns false when the layout is not one it handles.
class TextPatch {
 public:
  explicit TextPatch(const std::string& text) : text_(text) {}

  bool replace_scalar(const YAML::Node& node, const std::string& value) {
    const auto r = scalar_range(node);
    if (!r) return false;
    add(r->first, r->second, value);
    return true;
  }

  /// Adds `key: value` to a mapping: in a flow mapping before its `}`, in a block mapping on a
  /// new line after its last one-line `key: scalar` entry (the root: at the end of the text).
  bool insert_key(const YAML::Node& map, const std::string& key, const std::string& value,
                  bool root) {
    const std::string kv = key + ": " + value;
    if (is_flow(map)) return insert_flow(map, kv);
    std::optional<std::pair<std::size_t, std::size_t>> at;  // (insert position, indent)
    for (auto it = map.begin(); it != map.end(); ++it) {
      const auto k = scalar_range(it->first);
      const auto v = scalar_range(it->second);
      if (!k || !v || it->first.Mark().line != it->second.Mark().line) continue;
      const std::size_t start = line_start(k->first);
      if (text_.find_first_not_of(" -", start) < k->first) continue;
      if (const auto eol = end_of_line(v->first + v->second)) at = {{*eol, k->first - start}};
    }
    if (at) {
      add(at->first, 0, newline_before(at->first) + std::string(at->second, ' ') + kv + "\n");
      return true;
    }
    if (!root || map.Mark().column != 0) return false;
    add(text_.size(), 0, newline_before(text_.size()) + kv + "\n");
    return true;
  }

  /// Removes `key: scalar` from a flow mapping (with one comma) or its line from a block one.
  bool remove_key(const YAML::Node& map, const std::string& key) {
    const auto e = entry(map, key);
    if (!e) return true;
    const auto k = scalar_range(e->first);
    const auto v = scalar_range(e->second);
    if (!k || !v) return false;
    std::size_t from = k->first, to = v->first + v->second;
    if (is_flow(map)) {
      const std::size_t next = text_.find_first_not_of(" \t", to);
      if (next < text_.size() && text_[next] == ',') {
        to = text_.find_first_not_of(" \t", next + 1);
        if (to == std::string::npos) to = text_.size();
      } else {
        const std::size_t prev =
            from == 0 ? std::string::npos : text_.find_last_not_of(" \t\r\n", from - 1);
        if (prev != std::string::npos && text_[prev] == ',') from = prev;
      }
      add(from, to - from, "");
      return true;
    }
    const std::size_t start = line_start(from);
    if (e->first.Mark().line != e->second.Mark().line || text_.find_first_not_of(' ', start) < from)
      return false;
    const auto eol = end_of_line(to);
    if (!eol) return false;
    add(start, *eol - start, "");
    return true;
  }

  /// Appends an item to a sequence: in a flow sequence before its `]`, in a block sequence as
  /// a new `- item` line after its last item.
  bool append_item(const YAML::Node& seq, const std::string& item) {
    if (is_flow(seq)) return insert_flow(seq, item);
    const auto pos = static_cast<std::size_t>(seq.Mark().pos);
    if (seq.Mark().pos < 0 || pos >= text_.size() || text_[pos] != '-') return false;
    const std::size_t start = line_start(pos);
    if (text_.find_first_not_of(' ', start) != pos) return false;
    const std::size_t indent = pos - start;
    // The sequence goes on while lines are blank, comments, more indented, or `- ` items at
    // its indentation; the item goes after its last line with content.
    std::size_t end = next_line(pos);
    for (std::size_t line = end; line < text_.size(); line = next_line(line)) {
      const std::size_t first = text_.find_first_not_of(' ', line);
      if (first == std::string::npos || text_[first] == '\n' || text_[first] == '\r' ||
          text_[first] == '#')
        continue;
      const std::size_t ind = first - line;
      const bool dash =
          text_[first] == '-' && (first + 1 == text_.size() || text_[first + 1] == ' ' ||
                                  text_[first + 1] == '\n' || text_[first + 1] == '\r');
      if (ind < indent || (ind == indent && !dash)) break;
      end = next_line(line);
    }
    add(end, 0, newline_before(end) + std::string(indent, ' ') + "- " + item + "\n");
    return true;
  }

  /// The patched text, or nothing if two edits overlap.
  [[nodiscard]] std::optional<std::string> apply() const {
    std::vector<Edit> edits = edits_;
    std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) {
      return a.pos != b.pos ? a.pos > b.pos : a.order > b.order;
    });
    std::string out = text_;
    std::size_t limit = out.size();
    for (const Edit& e : edits) {
      if (e.pos + e.len > limit) return std::nullopt;
      out.replace(e.pos, e.len, e.text);
      limit = e.pos;
    }
    return out;
  }

 private:
  struct Edit {
    std::size_t pos, len;
    std::string text;
    std::size_t order;
  };

  void add(std::size_t pos, std::size_t len, std::string text) {
    edits_.push_back({pos, len, std::move(text), edits_.size()});
  }

  /// Where a scalar is spelt (plain, or quoted without escapes): (position, length).
  [[nodiscard]] std::optional<std::pair<std::size_t, std::size_t>> scalar_range(
      const YAML::Node& node) const {
    if (!node.IsScalar() || node.Mark().pos < 0) return std::nullopt;
    const auto pos = static_cast<std::size_t>(node.Mark().pos);
    const std::string& s = node.Scalar();
    if (pos >= text_.size()) return std::nullopt;
    const char q = text_[pos];
    if (q == '"' || q == '\'') {
      if (text_.compare(pos + 1, s.size(), s) != 0 || pos + 1 + s.size() >= text_.size() ||
          text_[pos + 1 + s.size()] != q || s.find(q) != std::string::npos ||
          s.find('\\') != std::string::npos)
        return std::nullopt;
      return std::make_pair(pos, s.size() + 2);
    }
    if (s.empty() || text_.compare(pos, s.size(), s) != 0) return std::nullopt;
    return std::make_pair(pos, s.size());
  }

  [[nodiscard]] bool is_flow(const YAML::Node& node) const {
    const auto pos = static_cast<std::size_t>(node.Mark().pos);
    return node.Mark().pos >= 0 && pos < text_.size() && (text_[pos] == '{' || text_[pos] == '[');
  }

  [[nodiscard]] std::size_t line_start(std::size_t pos) const {
    const std::size_t nl = pos == 0 ? std::string::npos : text_.rfind('\n', pos - 1);
    return nl == std::string::npos ? 0 : nl + 1;
  }
  [[nodiscard]] std::size_t next_line(std::size_t pos) const {
    const std::size_t nl = text_.find('\n', pos);
    return nl == std::string::npos ? text_.size() : nl + 1;
  }
  /// "\n" if inserting at `pos` = the end of a text without a final newline.
  [[nodiscard]] std::string newline_before(std::size_t pos) const {
    return pos == text_.size() && !text_.empty() && text_.back() != '\n' ? "\n" : "";
  }
  /// The start of the next line if only blanks and a comment follow `pos` on its line.
  [[nodiscard]] std::optional<std::size_t> end_of_line(std::size_t pos) const {
    const std::size_t p = text_.find_first_not_of(" \t\r", pos);
    if (p == std::string::npos) return text_.size();
    if (text_[p] == '\n' || text_[p] == '#') return next_line(p);
    return std::nullopt;
  }

  /// Inserts `item` after the last entry of the flow collection starting at the node's mark.
  bool insert_flow(const YAML::Node& node, const std::string& item) {
    const auto open = static_cast<std::size_t>(node.Mark().pos);
    int depth = 0;
    std::size_t last = open;  // last significant character inside the collection
    for (std::size_t i = open; i < text_.size(); ++i) {
      const char ch = text_[i];
      if (ch == '"' || ch == '\'') {  // quoted scalar: skip to its end
        std::size_t j = i + 1;
        while (j < text_.size() && text_[j] != ch) j += (ch == '"' && text_[j] == '\\') ? 2 : 1;
        if (j >= text_.size()) return false;
        if (depth == 1) last = j;
        i = j;
        continue;
      }
      if (ch == '#' &&
          (i == 0 || text_[i - 1] == ' ' || text_[i - 1] == '\t' || text_[i - 1] == '\n')) {
        i = next_line(i) - 1;
        continue;
      }
      if (ch == '{' || ch == '[') ++depth;
      if (ch == '}' || ch == ']') {
        if (--depth == 0) {
          const char c = text_[last];
          const std::string sep = c == '{' || c == '[' ? "" : c == ',' ? " " : ", ";
          add(last + 1, 0, sep + item);
          return true;
        }
      }
      if (depth >= 1 && ch != ' ' && ch != '\t' && ch != '\n' && ch != '\r') last = i;
    }
    return false;
  }

  const std::string& text_;
  std::vector<Edit> edits_;
};

std::string flow_map(const std::vector<std::pair<std::string, std::string>>& entries) {
  std::string out = "{";
  for (std::size_t i = 0; i < entries.size(); ++i)
    out += (i ? ", " : "") + entries[i].first + ": " + entries[i].second;
  return out + "}";
}

/// The changes as in-place edits of `text`; nothing if some layout is not handled.
std::optional<std::string> patch_text(const std::string& text, const YAML::Node& root,
                                      const Changes& changes) {
  TextPatch patch(text);
  for (const MapChange& c : changes.maps()) {
    const auto map = find_map(root, c.target);
    if (!map) {  // a new evolution section or device.qubits entry
      if (!c.elements.empty()) return std::nullopt;
      if (c.target.kind == Target::Kind::evolution) {
        if (!patch.insert_key(root, "evolution", flow_map(c.set), true)) return std::nullopt;
        continue;
      }
      if (c.target.kind != Target::Kind::mode) return std::nullopt;
      auto fields = c.set;
      fields.insert(fields.begin(), {"name", c.target.mode});
      const auto device = entry(root, "device");
      if (!device || !device->second.IsMap()) return std::nullopt;
      const auto qubits = entry(device->second, "qubits");
      const bool ok =
          qubits
              ? qubits->second.IsSequence() && patch.append_item(qubits->second, flow_map(fields))
              : patch.insert_key(device->second, "qubits", "[" + flow_map(fields) + "]", false);
      if (!ok) return std::nullopt;
      continue;
    }
    for (const auto& [key, value] : c.set) {
      const auto e = entry(*map, key);
      if (e ? !patch.replace_scalar(e->second, value) : !patch.insert_key(*map, key, value, false))
        return std::nullopt;
    }
    for (const Element& el : c.elements) {
      const auto e = entry(*map, el.key);
      if (!e || !e->second.IsSequence() || el.k >= e->second.size() ||
          !patch.replace_scalar(e->second[el.k], el.value))
        return std::nullopt;
    }
    for (const auto& key : c.remove)
      if (!patch.remove_key(*map, key)) return std::nullopt;
  }
  return patch.apply();
}

/// The text with the changes: patched in place when that gives the same data as changing the
/// node tree, else the emitted tree.
std::string rewrite(const Config& config, const Changes& changes) {
  if (config.yaml_text.empty()) throw Error("write_back_yaml: the config has no YAML text");
  std::string text = config.yaml_text;
  if (text.rfind("\xEF\xBB\xBF", 0) == 0) text.erase(0, 3);  // UTF-8 byte order mark
  const YAML::Node original = YAML::Load(text);
  if (!original.IsMap()) throw Error("write_back_yaml: the config is not a YAML mapping");
  const YAML::Node tree = YAML::Clone(original);
  apply_to_tree(tree, changes);
  if (const auto patched = patch_text(text, original, changes)) {
    try {
      if (same_tree(YAML::Load(*patched), tree)) return *patched;
    } catch (const YAML::Exception&) {  // the emitted tree below
    }
  }
  YAML::Emitter out;
  out << tree;
  return std::string(out.c_str()) + "\n";
}

std::string with_header(const std::string& first_line, const std::vector<std::string>& skipped,
                        const std::string& body) {
  std::string text = first_line;
  for (const auto& s : skipped)
    text += "# not representable in the config (not written): " + s + "\n";
  return text + body;
}

Changes named_changes(const Config& config, const std::vector<std::string>& names,
                      const RVector& values, std::vector<std::string>& skipped) {
  if (static_cast<Index>(names.size()) != values.size())
    throw Error("write_back_yaml: " + std::to_string(names.size()) + " names but " +
                std::to_string(values.size()) + " values");
  Changes changes;
  for (std::size_t i = 0; i < names.size(); ++i)
    if (!add_named(config, names[i], values(static_cast<Index>(i)), changes))
      skipped.push_back(names[i]);
  return changes;
}

}  // namespace

std::string write_back_yaml(const Config& config, const std::vector<std::string>& names,
                            const RVector& values) {
  std::vector<std::string> skipped;
  const Changes changes = named_changes(config, names, values, skipped);
  return with_header({}, skipped, rewrite(config, changes));
}

std::string write_back_yaml(const Config& original, const Config& frozen,
                            const std::vector<std::string>& names, const RVector& values) {
  std::vector<std::string> skipped;
  Changes changes;
  // Frozen `auto` values and the total time first: a trained value of the same key wins.
  for (std::size_t p = 0; p < original.pulses.size() && p < frozen.pulses.size(); ++p) {
    const Target t{Target::Kind::pulse, p, {}};
    if (original.pulses[p].amplitude_auto) {
      changes.set(t, "amplitude", number(frozen.pulses[p].amplitude));
      changes.remove(t, "angle");
    }
    if (original.pulses[p].frequency_mode != FrequencyMode::value)
      changes.set(t, "frequency", number(frozen.pulses[p].frequency));
  }
  if (frozen.evolution.duration)
    changes.set(Target{Target::Kind::evolution, 0, {}}, "duration",
                number(*frozen.evolution.duration));
  // The steps the result was certified at (optimize's refinement, steps: auto).
  if (frozen.evolution.steps != original.evolution.steps || original.evolution.steps_auto)
    changes.set(Target{Target::Kind::evolution, 0, {}}, "steps", std::to_string(frozen.evolution.steps));
  const Changes named = named_changes(original, names, values, skipped);
  for (const MapChange& c : named.maps()) {
    for (const auto& [key, value] : c.set) changes.set(c.target, key, value);
    for (const Element& e : c.elements) changes.element(c.target, e.key, e.k, e.value);
    for (const auto& key : c.remove) changes.remove(c.target, key);
  }
  return with_header(
      std::string(io::kWrittenBackHeader) + ": the optimised parameters of " + original.source_file + "\n",
      skipped, rewrite(original, changes));
}

}  // namespace qevolve
