// Strict, located access to the values of a parsed YAML config: mappings with unknown- and
// duplicate-key checks, and typed scalars following the YAML 1.2 core schema (numbers,
// integers, true/false), each problem reported as one located InputError (messages.hpp).
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "messages.hpp"
#include "qevolve/config.hpp"
#include "qevolve/names.hpp"

namespace qevolve::io {

/// The document being read: FILE for messages and the Config whose `where` map it fills.
class Doc {
 public:
  Doc(std::string file, Config& config) : file_(std::move(file)), config_(config) {}

  /// 1-based location of a yaml-cpp mark (0-based).
  [[nodiscard]] SourceLocation at(const YAML::Mark& mark) const;
  /// The same for the value at key `path`, or the label of the override that set it.
  [[nodiscard]] SourceLocation at(const YAML::Mark& mark, const std::string& path) const;
  /// Throws the InputError `id` for `path`, located at `mark`.
  [[noreturn]] void fail(const YAML::Mark& mark, const std::string& path, Msg id,
                         MsgArgs args = {}) const;
  /// Records the location of a key path in Config::where (the first record wins).
  void record(const std::string& path, const YAML::Mark& mark);
  [[nodiscard]] Config& config() { return config_; }

 private:
  std::string file_;
  Config& config_;
};

/// One value of the document with its key path. `anchor` is where it is reported when it has
/// no value of its own: the key of a mapping entry, or the element itself in a list.
struct Item {
  YAML::Node node;
  std::string path;
  YAML::Mark anchor;
  /// Where problems with the value are reported: the value, or its key if the value is null.
  [[nodiscard]] YAML::Mark mark() const;
};

/// "parent.key", or "key" at the top level.
[[nodiscard]] std::string child_path(const std::string& parent, std::string_view key);

/// How a value was found, for "got ..." messages: "a list", "the quoted string \"x\"", ...
[[nodiscard]] std::string describe(const YAML::Node& node);

/// A mapping of the document, with its keys checked for type and duplicates and recorded in
/// Config::where as child paths.
class MapView {
 public:
  /// `item` must hold a mapping (else: WrongType, expected a mapping).
  MapView(Doc& doc, const Item& item);

  /// Every key must be in `applicable` (unknown keys: UnknownKey with a suggestion from
  /// `applicable`); a key listed in `known` but not in `applicable` gives KeyNotApplicable
  /// with `context` ("a transmon mode", ...). Keys are checked in document order.
  void check_keys(std::span<const std::string_view> applicable,
                  std::span<const std::string_view> known = {},
                  const std::string& context = {}) const;

  [[nodiscard]] const Item* find(std::string_view key) const;
  [[nodiscard]] bool has(std::string_view key) const { return find(key) != nullptr; }
  /// The item of a key that must be present (MissingKey located at the mapping, with the
  /// text `expected_text` as the expected part).
  [[nodiscard]] const Item& require(std::string_view key, const std::string& expected_text) const;

  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] YAML::Mark mark() const { return mark_; }
  [[nodiscard]] const std::vector<std::pair<std::string, Item>>& entries() const {
    return entries_;
  }
  [[nodiscard]] Doc& doc() const { return doc_; }

 private:
  Doc& doc_;
  std::string path_;
  YAML::Mark mark_;
  std::vector<std::pair<std::string, Item>> entries_;  // document order
};

/// Allowed values of a number.
struct Range {
  enum class Kind { finite, gt, ge, closed, open, open_closed };
  Kind kind = Kind::finite;
  double lo = 0.0, hi = 0.0;
  std::string_view unit;  // "GHz", "ns", ... or empty

  static Range any(std::string_view unit = {}) { return {Kind::finite, 0.0, 0.0, unit}; }
  static Range gt(double lo, std::string_view unit = {}) { return {Kind::gt, lo, 0.0, unit}; }
  static Range ge(double lo, std::string_view unit = {}) { return {Kind::ge, lo, 0.0, unit}; }
  static Range closed(double lo, double hi, std::string_view unit = {}) {
    return {Kind::closed, lo, hi, unit};
  }
  static Range open(double lo, double hi, std::string_view unit = {}) {
    return {Kind::open, lo, hi, unit};
  }
  static Range open_closed(double lo, double hi, std::string_view unit = {}) {
    return {Kind::open_closed, lo, hi, unit};
  }
  [[nodiscard]] bool contains(double v) const;
  /// "a number > 0 (GHz)", ...
  [[nodiscard]] std::string text() const;
};

/// Shortest decimal spelling of a double ("0", "0.5", "1e-10").
[[nodiscard]] std::string format_number(double v);

/// A plain scalar spelt as a YAML 1.2 core-schema number (int or float, not .inf/.nan)?
[[nodiscard]] bool looks_like_number(const YAML::Node& node);

/// A finite number in `range`. NaN and infinities (.nan, .inf, nan, inf, 1e999) are refused.
[[nodiscard]] double get_number(Doc& doc, const Item& item, const Range& range);
/// The same with `expected_text` in place of range.text() in messages.
[[nodiscard]] double get_number(Doc& doc, const Item& item, const Range& range,
                                const std::string& expected_text);
/// get_number of the entry `key` of a mapping, or nothing when the key is absent.
[[nodiscard]] std::optional<double> opt_number(Doc& doc, const MapView& m, std::string_view key,
                                               const Range& range);
/// An integer (decimal, 0x or 0o) in [lo, hi].
[[nodiscard]] long long get_integer(Doc& doc, const Item& item, long long lo, long long hi);
/// An integer that must be one of `allowed` (every problem: expected "one of: ...").
[[nodiscard]] long long get_int_choice(Doc& doc, const Item& item,
                                       std::span<const long long> allowed);
/// An unsigned 64-bit integer (e.g. a seed).
[[nodiscard]] std::uint64_t get_uint64(Doc& doc, const Item& item);
/// true/True/TRUE/false/False/FALSE only (YAML 1.2 core schema).
[[nodiscard]] bool get_bool(Doc& doc, const Item& item);
/// A non-empty scalar string (plain or quoted).
[[nodiscard]] std::string get_string(Doc& doc, const Item& item);
/// A mode name: letters, digits, `_` and `-`, starting with a letter or `_`.
[[nodiscard]] std::string get_name(Doc& doc, const Item& item);
/// Checks the spelling of a mode name found as a mapping key (e.g. in crosstalk, noise).
void check_name(Doc& doc, const std::string& name, const YAML::Mark& mark,
                const std::string& path);
/// The elements of a list, each with its path "path[k]" (recorded in Config::where).
/// `expected_text` is used when the value is not a list.
[[nodiscard]] std::vector<Item> get_list(Doc& doc, const Item& item,
                                         const std::string& expected_text);
/// A scalar that must be one of `names`; returns its index (BadEnum with a suggestion).
[[nodiscard]] std::size_t get_choice(Doc& doc, const Item& item,
                                     std::span<const std::string_view> names);
/// The scalar text of `item` if it is a (non-null) scalar, else throws WrongType/NullValue
/// with `expected_text`.
[[nodiscard]] const std::string& get_scalar(Doc& doc, const Item& item,
                                            const std::string& expected_text);

/// A scalar that must be one of the names of `rows` (a table of qevolve/names.hpp, or part of
/// one); returns its value.
template <typename E>
[[nodiscard]] E get_enum(Doc& doc, const Item& item, std::span<const EnumRow<E>> rows) {
  std::vector<std::string_view> names;
  for (const EnumRow<E>& row : rows) names.emplace_back(row.name);
  return rows[get_choice(doc, item, names)].value;
}

}  // namespace qevolve::io
