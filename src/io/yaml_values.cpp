#include "yaml_values.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>

#include "qevolve/text.hpp"

namespace qevolve::io {
namespace {

/// Values echoed in messages are cut to this many characters.
constexpr std::size_t kEchoLength = 40;

std::string echo(const std::string& s) {
  if (s.size() <= kEchoLength) return s;
  // Cut on a UTF-8 character boundary.
  std::size_t cut = kEchoLength;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return s.substr(0, cut) + "...";
}

bool is_quoted(const YAML::Node& node) { return node.IsScalar() && node.Tag() == "!"; }

bool digits(std::string_view s, bool (*ok)(char)) {
  return !s.empty() && std::all_of(s.begin(), s.end(), ok);
}
bool dec(char c) { return c >= '0' && c <= '9'; }
bool oct(char c) { return c >= '0' && c <= '7'; }
bool hex(char c) { return dec(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

enum class Syntax { none, integer, floating, not_finite };

std::string_view unsigned_part(std::string_view s) {
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) s.remove_prefix(1);
  return s;
}

std::string lowercase(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

/// YAML 1.2 core schema: int [-+]?[0-9]+ | 0o[0-7]+ | 0x[0-9a-fA-F]+;
/// float [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?; [-+]?.inf and .nan (and the
/// common spellings nan / inf / infinity, refused as non-finite rather than as text).
Syntax classify(std::string_view s) {
  if (s.size() > 2 && s[0] == '0' && s[1] == 'o') return digits(s.substr(2), oct) ? Syntax::integer : Syntax::none;
  if (s.size() > 2 && s[0] == '0' && s[1] == 'x') return digits(s.substr(2), hex) ? Syntax::integer : Syntax::none;
  const std::string_view u = unsigned_part(s);
  const std::string word = lowercase(u);
  if (word == ".inf" || word == "inf" || word == "infinity" || word == ".nan" || word == "nan")
    return Syntax::not_finite;
  if (digits(u, dec)) return Syntax::integer;
  // Mantissa: \.[0-9]+ | [0-9]+(\.[0-9]*)?
  std::size_t i = 0;
  std::size_t int_digits = 0, frac_digits = 0;
  while (i < u.size() && dec(u[i])) ++i, ++int_digits;
  if (i < u.size() && u[i] == '.') {
    ++i;
    while (i < u.size() && dec(u[i])) ++i, ++frac_digits;
  }
  if (int_digits == 0 && frac_digits == 0) return Syntax::none;
  if (i < u.size() && (u[i] == 'e' || u[i] == 'E')) {
    ++i;
    if (i < u.size() && (u[i] == '+' || u[i] == '-')) ++i;
    const std::size_t start = i;
    while (i < u.size() && dec(u[i])) ++i;
    if (i == start) return Syntax::none;
  }
  return i == u.size() ? Syntax::floating : Syntax::none;
}

/// Parses an integer of Syntax::integer; false on overflow of long long.
bool parse_integer(std::string_view s, long long& out) {
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'o' || s[1] == 'x')) {
    base = s[1] == 'o' ? 8 : 16;
    s.remove_prefix(2);
  } else if (!s.empty() && s[0] == '+') {
    s.remove_prefix(1);
  }
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out, base);
  return ec == std::errc{} && ptr == s.data() + s.size();
}

}  // namespace

SourceLocation Doc::at(const YAML::Mark& mark) const {
  if (mark.is_null() || mark.line < 0) return SourceLocation{file_, 0, 0};
  return SourceLocation{file_, mark.line + 1, mark.column + 1};
}

SourceLocation Doc::at(const YAML::Mark& mark, const std::string& path) const {
  if (const AppliedOverride* o = config_.override_of(path)) return SourceLocation{o->label, 0, 0};
  return at(mark);
}

void Doc::fail(const YAML::Mark& mark, const std::string& path, Msg id, MsgArgs args) const {
  // A key the file still shows, wrong only with a --set in the same list entry: name the --set.
  const std::string with = config_.overrides_in_entry(path);
  if (with.empty()) throw input_error(at(mark, path), path, id, args);
  throw InputError(at(mark, path), path, message(id, args) + " (with " + with + ")", expected(id, args));
}

void Doc::record(const std::string& path, const YAML::Mark& mark) {
  config_.where.emplace(path, at(mark, path));
}

YAML::Mark Item::mark() const {
  if (!node.IsDefined() || node.IsNull()) return anchor;
  return node.Mark();
}

std::string child_path(const std::string& parent, std::string_view key) {
  return parent.empty() ? std::string(key) : parent + "." + std::string(key);
}

std::string describe(const YAML::Node& node) {
  if (!node.IsDefined() || node.IsNull()) return message(Msg::NounNull);
  if (node.IsSequence()) return message(Msg::NounList);
  if (node.IsMap()) return message(Msg::NounMap);
  if (is_quoted(node)) return message(Msg::NounQuoted, {{"VALUE", echo(node.Scalar())}});
  return message(Msg::NounScalar, {{"VALUE", echo(node.Scalar())}});
}

// --- mappings ------------------------------------------------------------------------------

MapView::MapView(Doc& doc, const Item& item) : doc_(doc), path_(item.path), mark_(item.mark()) {
  const std::string want = message(Msg::ExpectMap);
  if (!item.node.IsDefined() || item.node.IsNull())
    doc.fail(item.mark(), path_, Msg::NullValue, {{"EXPECTED", want}});
  if (!item.node.IsMap())
    doc.fail(item.mark(), path_, Msg::WrongType,
             {{"FOUND", describe(item.node)}, {"EXPECTED", want}});
  std::map<std::string, int, std::less<>> first_line;
  for (auto it = item.node.begin(); it != item.node.end(); ++it) {
    const YAML::Node key = it->first;
    if (!key.IsScalar()) {
      // A null key (`~: 3`, or `: 3` with no key at all) may carry no position of its own: then
      // its value's, which is on the same line, rather than the enclosing mapping's.
      YAML::Mark at = mark_;
      if (key.IsDefined() && !key.Mark().is_null())
        at = key.Mark();
      else if (it->second.IsDefined() && !it->second.Mark().is_null())
        at = it->second.Mark();
      doc.fail(at, path_, Msg::KeyNotString, {{"FOUND", describe(key)}});
    }
    const std::string& name = key.Scalar();
    const std::string path = child_path(path_, name);
    const int line = doc.at(key.Mark()).line;
    if (const auto found = first_line.find(name); found != first_line.end())
      doc.fail(key.Mark(), path, Msg::DuplicateKey,
               {{"KEY", echo(name)}, {"LINE", std::to_string(found->second)}});
    first_line.emplace(name, line);
    doc.record(path, key.Mark());
    entries_.emplace_back(name, Item{it->second, path, key.Mark()});
  }
}

void MapView::check_keys(std::span<const std::string_view> applicable,
                         std::span<const std::string_view> known,
                         const std::string& context) const {
  for (const auto& [key, item] : entries_) {
    if (std::find(applicable.begin(), applicable.end(), key) != applicable.end()) continue;
    const std::string allowed = join(applicable);
    if (std::find(known.begin(), known.end(), key) != known.end())
      doc_.fail(item.anchor, item.path, Msg::KeyNotApplicable,
                {{"KEY", key}, {"CONTEXT", context}, {"ALLOWED", allowed}});
    const std::string hint = suggest(key, applicable);
    if (hint.empty())
      doc_.fail(item.anchor, item.path, Msg::UnknownKey, {{"KEY", echo(key)}, {"ALLOWED", allowed}});
    doc_.fail(item.anchor, item.path, Msg::UnknownKeySuggest,
              {{"KEY", echo(key)}, {"SUGGESTION", hint}, {"ALLOWED", allowed}});
  }
}

const Item* MapView::find(std::string_view key) const {
  for (const auto& [name, item] : entries_)
    if (name == key) return &item;
  return nullptr;
}

const Item& MapView::require(std::string_view key, const std::string& expected_text) const {
  if (const Item* item = find(key)) return *item;
  doc_.fail(mark_, path_, Msg::MissingKey, {{"KEY", std::string(key)}, {"EXPECTED", expected_text}});
}

// --- numbers -------------------------------------------------------------------------------

bool Range::contains(double v) const {
  switch (kind) {
    case Kind::finite: return true;
    case Kind::gt: return v > lo;
    case Kind::ge: return v >= lo;
    case Kind::closed: return v >= lo && v <= hi;
    case Kind::open: return v > lo && v < hi;
    case Kind::open_closed: return v > lo && v <= hi;
  }
  return false;
}

std::string Range::text() const {
  const std::string u = unit.empty() ? std::string{} : " (" + std::string(unit) + ")";
  switch (kind) {
    case Kind::finite: return message(Msg::ExpectFinite, {{"UNIT", u}});
    case Kind::gt: return message(Msg::ExpectGt, {{"MIN", format_number(lo)}, {"UNIT", u}});
    case Kind::ge: return message(Msg::ExpectGe, {{"MIN", format_number(lo)}, {"UNIT", u}});
    case Kind::closed:
      return message(Msg::ExpectClosed,
                     {{"MIN", format_number(lo)}, {"MAX", format_number(hi)}, {"UNIT", u}});
    case Kind::open:
      return message(Msg::ExpectOpen,
                     {{"MIN", format_number(lo)}, {"MAX", format_number(hi)}, {"UNIT", u}});
    case Kind::open_closed:
      return message(Msg::ExpectOpenClosed,
                     {{"MIN", format_number(lo)}, {"MAX", format_number(hi)}, {"UNIT", u}});
  }
  return {};
}

std::string format_number(double v) {
  char buf[64];
  const auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
  if (ec != std::errc{}) return "?";
  // The exponent as people write it: 1e-4, 1e9 (not 1e-04, 1e+09).
  std::string out(buf, ptr);
  const auto e = out.find('e');
  if (e == std::string::npos) return out;
  std::string exponent = out.substr(e + 1);
  const bool negative = !exponent.empty() && exponent[0] == '-';
  if (!exponent.empty() && (exponent[0] == '-' || exponent[0] == '+')) exponent.erase(0, 1);
  exponent.erase(0, std::min(exponent.find_first_not_of('0'), exponent.size() - 1));
  return out.substr(0, e + 1) + (negative ? "-" : "") + exponent;
}

bool looks_like_number(const YAML::Node& node) {
  if (!node.IsScalar() || is_quoted(node)) return false;
  const Syntax s = classify(node.Scalar());
  return s == Syntax::integer || s == Syntax::floating;
}

const std::string& get_scalar(Doc& doc, const Item& item, const std::string& expected_text) {
  if (!item.node.IsDefined() || item.node.IsNull())
    doc.fail(item.mark(), item.path, Msg::NullValue, {{"EXPECTED", expected_text}});
  if (!item.node.IsScalar())
    doc.fail(item.mark(), item.path, Msg::WrongType,
             {{"FOUND", describe(item.node)}, {"EXPECTED", expected_text}});
  return item.node.Scalar();
}

double get_number(Doc& doc, const Item& item, const Range& range) {
  return get_number(doc, item, range, range.text());
}

std::optional<double> opt_number(Doc& doc, const MapView& m, std::string_view key, const Range& range) {
  if (const Item* it = m.find(key)) return get_number(doc, *it, range);
  return std::nullopt;
}

double get_number(Doc& doc, const Item& item, const Range& range, const std::string& want) {
  const std::string& text = get_scalar(doc, item, want);
  if (is_quoted(item.node))
    doc.fail(item.mark(), item.path, Msg::WrongType,
             {{"FOUND", describe(item.node)}, {"EXPECTED", want}});
  const Syntax syntax = classify(text);
  if (syntax == Syntax::none)
    doc.fail(item.mark(), item.path, Msg::NotANumber, {{"VALUE", echo(text)}, {"EXPECTED", want}});
  if (syntax == Syntax::not_finite)
    doc.fail(item.mark(), item.path, Msg::NotFinite, {{"VALUE", echo(text)}, {"EXPECTED", want}});
  double value = 0.0;
  long long as_int = 0;
  const bool prefixed = text.size() > 2 && text[0] == '0' && (text[1] == 'o' || text[1] == 'x');
  if (prefixed) {
    if (!parse_integer(text, as_int))
      doc.fail(item.mark(), item.path, Msg::OutOfRange, {{"VALUE", echo(text)}, {"EXPECTED", want}});
    value = static_cast<double>(as_int);
  } else {
    std::string_view s(text);
    if (s[0] == '+') s.remove_prefix(1);
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (ec == std::errc::result_out_of_range) {
      // Underflow (1e-400) is a tiny number; overflow (1e400) is not finite.
      const std::size_t e = s.find_first_of("eE");
      const bool underflow = e != std::string_view::npos && e + 1 < s.size() && s[e + 1] == '-';
      if (!underflow)
        doc.fail(item.mark(), item.path, Msg::NotFinite, {{"VALUE", echo(text)}, {"EXPECTED", want}});
      value = 0.0;
    } else if (ec != std::errc{} || ptr != s.data() + s.size()) {
      doc.fail(item.mark(), item.path, Msg::NotANumber, {{"VALUE", echo(text)}, {"EXPECTED", want}});
    }
  }
  if (!std::isfinite(value))
    doc.fail(item.mark(), item.path, Msg::NotFinite, {{"VALUE", echo(text)}, {"EXPECTED", want}});
  if (!range.contains(value))
    doc.fail(item.mark(), item.path, Msg::OutOfRange, {{"VALUE", echo(text)}, {"EXPECTED", want}});
  return value;
}

long long get_integer(Doc& doc, const Item& item, long long lo, long long hi) {
  const std::string want =
      message(Msg::ExpectInt, {{"MIN", std::to_string(lo)}, {"MAX", std::to_string(hi)}});
  const std::string& text = get_scalar(doc, item, want);
  if (is_quoted(item.node))
    doc.fail(item.mark(), item.path, Msg::WrongType,
             {{"FOUND", describe(item.node)}, {"EXPECTED", want}});
  if (classify(text) != Syntax::integer)
    doc.fail(item.mark(), item.path, Msg::NotAnInteger, {{"VALUE", echo(text)}, {"EXPECTED", want}});
  long long value = 0;
  if (!parse_integer(text, value) || value < lo || value > hi)
    doc.fail(item.mark(), item.path, Msg::OutOfRange, {{"VALUE", echo(text)}, {"EXPECTED", want}});
  return value;
}

long long get_int_choice(Doc& doc, const Item& item, std::span<const long long> allowed) {
  std::string list;
  for (const long long v : allowed) list += (list.empty() ? "" : ", ") + std::to_string(v);
  const std::string want = message(Msg::ExpectOneOf, {{"ALLOWED", list}});
  const std::string& text = get_scalar(doc, item, want);
  if (is_quoted(item.node))
    doc.fail(item.mark(), item.path, Msg::WrongType,
             {{"FOUND", describe(item.node)}, {"EXPECTED", want}});
  if (classify(text) != Syntax::integer)
    doc.fail(item.mark(), item.path, Msg::NotAnInteger, {{"VALUE", echo(text)}, {"EXPECTED", want}});
  long long value = 0;
  if (!parse_integer(text, value) ||
      std::find(allowed.begin(), allowed.end(), value) == allowed.end())
    doc.fail(item.mark(), item.path, Msg::OutOfRange, {{"VALUE", echo(text)}, {"EXPECTED", want}});
  return value;
}

std::uint64_t get_uint64(Doc& doc, const Item& item) {
  constexpr std::uint64_t hi = std::numeric_limits<std::uint64_t>::max();
  const std::string want = message(Msg::ExpectInt, {{"MIN", "0"}, {"MAX", std::to_string(hi)}});
  const std::string& text = get_scalar(doc, item, want);
  if (is_quoted(item.node))
    doc.fail(item.mark(), item.path, Msg::WrongType,
             {{"FOUND", describe(item.node)}, {"EXPECTED", want}});
  if (classify(text) != Syntax::integer)
    doc.fail(item.mark(), item.path, Msg::NotAnInteger, {{"VALUE", echo(text)}, {"EXPECTED", want}});
  std::string_view s(text);
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'o' || s[1] == 'x')) {
    base = s[1] == 'o' ? 8 : 16;
    s.remove_prefix(2);
  } else if (s[0] == '+') {
    s.remove_prefix(1);
  }
  std::uint64_t value = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value, base);
  if (s[0] == '-' || ec != std::errc{} || ptr != s.data() + s.size())
    doc.fail(item.mark(), item.path, Msg::OutOfRange, {{"VALUE", echo(text)}, {"EXPECTED", want}});
  return value;
}

bool get_bool(Doc& doc, const Item& item) {
  const std::string want = message(Msg::ExpectBool);
  const std::string& text = get_scalar(doc, item, want);
  if (is_quoted(item.node))
    doc.fail(item.mark(), item.path, Msg::WrongType,
             {{"FOUND", describe(item.node)}, {"EXPECTED", want}});
  if (text == "true" || text == "True" || text == "TRUE") return true;
  if (text == "false" || text == "False" || text == "FALSE") return false;
  doc.fail(item.mark(), item.path, Msg::NotABool, {{"VALUE", echo(text)}});
}

std::string get_string(Doc& doc, const Item& item) {
  const std::string want = message(Msg::ExpectString);
  const std::string& text = get_scalar(doc, item, want);
  if (text.empty()) doc.fail(item.mark(), item.path, Msg::EmptyString, {{"EXPECTED", want}});
  return text;
}

std::string get_name(Doc& doc, const Item& item) {
  const std::string want = message(Msg::ExpectName);
  const std::string& text = get_scalar(doc, item, want);
  if (text.empty()) doc.fail(item.mark(), item.path, Msg::EmptyString, {{"EXPECTED", want}});
  check_name(doc, text, item.mark(), item.path);
  return text;
}

void check_name(Doc& doc, const std::string& text, const YAML::Mark& mark,
                const std::string& path) {
  const auto first_ok = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  };
  const auto rest_ok = [&](char c) { return first_ok(c) || dec(c) || c == '-'; };
  if (text.empty() || !first_ok(text[0]) || !std::all_of(text.begin() + 1, text.end(), rest_ok))
    doc.fail(mark, path, Msg::BadName, {{"VALUE", echo(text)}});
}

std::vector<Item> get_list(Doc& doc, const Item& item, const std::string& expected_text) {
  if (!item.node.IsDefined() || item.node.IsNull())
    doc.fail(item.mark(), item.path, Msg::NullValue, {{"EXPECTED", expected_text}});
  if (!item.node.IsSequence())
    doc.fail(item.mark(), item.path, Msg::WrongType,
             {{"FOUND", describe(item.node)}, {"EXPECTED", expected_text}});
  std::vector<Item> out;
  out.reserve(item.node.size());
  std::size_t k = 0;
  for (const YAML::Node& element : item.node) {
    std::string path = item.path + "[" + std::to_string(k++) + "]";
    // A null element has no useful mark of its own: report it at the list.
    const YAML::Mark mark = element.IsNull() ? item.mark() : element.Mark();
    doc.record(path, mark);
    out.push_back(Item{element, std::move(path), mark});
  }
  return out;
}

std::size_t get_choice(Doc& doc, const Item& item, std::span<const std::string_view> names) {
  const std::string allowed = join(names);
  const std::string& text =
      get_scalar(doc, item, message(Msg::ExpectOneOf, {{"ALLOWED", allowed}}));
  for (std::size_t k = 0; k < names.size(); ++k)
    if (names[k] == text) return k;
  const std::string hint = suggest(text, names);
  if (hint.empty())
    doc.fail(item.mark(), item.path, Msg::BadEnum, {{"VALUE", echo(text)}, {"ALLOWED", allowed}});
  doc.fail(item.mark(), item.path, Msg::BadEnumSuggest,
           {{"VALUE", echo(text)}, {"SUGGESTION", hint}, {"ALLOWED", allowed}});
}

}  // namespace qevolve::io
