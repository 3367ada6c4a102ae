// The `lines` section (docs/config.md "lines", docs/lines.md): control lines between pulses and
// their modes -- a zero-order-hold sample rate, linear filters applied in order, predistortion --
// and the pulses' `line` key, which must name one of them. Read before the pulses, so that a
// pulse's `line` is checked as it is read.
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "config_sections.hpp"
#include "physical_ranges.hpp"
#include "qevolve/text.hpp"

namespace qevolve::io::detail {
namespace {

constexpr std::string_view kLineKeys[] = {"name", "sample_rate", "filters", "predistort"};
constexpr std::string_view kFilterKeys[] = {"type", "sigma", "amplitude",
                                            "tau",  "taps",  "optimize"};

/// The parameters of each filter type: its required keys and the names `optimize` may list
/// (fir's taps also one by one, taps[k]).
constexpr std::string_view kGaussianParams[] = {"sigma"};
constexpr std::string_view kHighpassParams[] = {"tau"};
constexpr std::string_view kExponentialParams[] = {"amplitude", "tau"};
constexpr std::string_view kFirParams[] = {"taps"};

/// sigma: 0 (no filtering) to 1e9 ns; tau as a duration, (0, 1e9] ns; the sample rate up to
/// 100 GS/s (a 10 ps period, beyond any arbitrary waveform generator).
const Range kSigma = Range::closed(0.0, 1e9, "ns");
const Range kSampleRate = Range::open_closed(0.0, 100.0, "GS/s");

std::span<const std::string_view> params_of(FilterType type) {
  switch (type) {
    case FilterType::gaussian:
      return kGaussianParams;
    case FilterType::highpass:
      return kHighpassParams;
    case FilterType::exponential:
      return kExponentialParams;
    case FilterType::fir:
      return kFirParams;
  }
  return {};
}

/// The keys a filter of `type` takes, in the order of kFilterKeys.
std::vector<std::string_view> keys_of(FilterType type) {
  const std::span<const std::string_view> params = params_of(type);
  std::vector<std::string_view> keys;
  for (const std::string_view k : kFilterKeys)
    if (k == "type" || k == "optimize" ||
        std::find(params.begin(), params.end(), k) != params.end())
      keys.push_back(k);
  return keys;
}

std::string context_of(FilterType type) {
  return message(Msg::ContextFilter, {{"TYPE", enum_name(type)}});
}

/// Letters, digits, `_` and `-`, starting with a letter or `_` (a mode name's spelling): a line
/// is named in key paths, `lines[zline]`.
bool valid_line_name(const std::string& name) {
  const auto letter = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  };
  const auto rest = [&](char c) { return letter(c) || (c >= '0' && c <= '9') || c == '-'; };
  return !name.empty() && letter(name[0]) && std::all_of(name.begin() + 1, name.end(), rest);
}

/// `taps[k]` with a decimal k without leading zeros, or nothing.
std::optional<std::size_t> taps_index(const std::string& name) {
  constexpr std::string_view prefix = "taps[";
  if (name.size() <= prefix.size() + 1 || name.compare(0, prefix.size(), prefix) != 0 ||
      name.back() != ']')
    return std::nullopt;
  const std::string index = name.substr(prefix.size(), name.size() - prefix.size() - 1);
  const bool number = index.size() <= 9 && std::all_of(index.begin(), index.end(),
                                                       [](char c) { return c >= '0' && c <= '9'; });
  if (!number || (index.size() > 1 && index[0] == '0')) return std::nullopt;
  return static_cast<std::size_t>(std::stoul(index));
}

/// `optimize:` of a filter: its parameters (params_of), and for fir `taps` (all) or `taps[k]`.
std::vector<std::string> read_filter_trainables(Doc& doc, const Item& item, const FilterSpec& f) {
  const std::span<const std::string_view> allowed = params_of(f.type);
  std::string allowed_text = join(allowed);
  if (f.type == FilterType::fir)
    allowed_text +=
        ", " + message(Msg::ExpectTapsIndex, {{"COUNT", std::to_string(f.taps.size())}});
  std::vector<std::string> out;
  std::set<std::string> seen;
  std::set<std::size_t> taps;
  for (const Item& element : get_list(doc, item, message(Msg::ExpectTrainable))) {
    std::string name = get_string(doc, element);
    const std::optional<std::size_t> k =
        f.type == FilterType::fir ? taps_index(name) : std::nullopt;
    const bool listed = std::find(allowed.begin(), allowed.end(), name) != allowed.end();
    if (!listed && !(k && *k < f.taps.size()))
      doc.fail(element.mark(), element.path, Msg::NotTrainable,
               {{"NAME", name}, {"CONTEXT", context_of(f.type)}, {"ALLOWED", allowed_text}});
    const bool duplicate = k ? seen.count("taps") > 0 || !taps.insert(*k).second
                             : !seen.insert(name).second || (name == "taps" && !taps.empty());
    if (duplicate)
      doc.fail(element.mark(), element.path, Msg::DuplicateTrainable, {{"NAME", name}});
    out.push_back(std::move(name));
  }
  return out;
}

/// The taps of a fir filter: a non-empty list of finite numbers, at the line's sample rate.
std::vector<double> read_taps(Doc& doc, const MapView& m, const LineSpec& line) {
  if (!line.sample_rate) doc.fail(m.mark(), m.path(), Msg::FirWithoutRate);
  const Item& t = *m.find("taps");
  const std::string want = message(Msg::ExpectNumberList, {{"UNIT", ""}});
  const std::vector<Item> items = get_list(doc, t, want);
  if (items.empty()) doc.fail(t.mark(), t.path, Msg::EmptyList, {{"EXPECTED", want}});
  std::vector<double> taps;
  for (const Item& x : items) taps.push_back(get_number(doc, x, Range::any()));
  return taps;
}

FilterSpec read_filter(Doc& doc, const Item& item, const LineSpec& line) {
  const MapView m(doc, item);
  FilterSpec f;
  f.path = item.path;
  std::optional<FilterType> type;
  if (const Item* t = m.find("type")) type = get_enum(doc, *t, enum_table<FilterType>());
  if (type)
    m.check_keys(keys_of(*type), kFilterKeys, context_of(*type));
  else
    m.check_keys(kFilterKeys);
  if (!type)
    (void)m.require("type",
                    message(Msg::ExpectOneOf, {{"ALLOWED", join(enum_names<FilterType>())}}));
  f.type = *type;
  const std::span<const std::string_view> params = params_of(f.type);
  const std::string keys = (params.size() == 1 ? "key " : "keys ") + join(params);
  for (const std::string_view key : params)
    (void)m.require(key,
                    message(Msg::ExpectFilterKeys, {{"KEYS", keys}, {"TYPE", enum_name(f.type)}}));

  if (auto v = opt_number(doc, m, "sigma", kSigma)) f.sigma = *v;
  if (auto v = opt_number(doc, m, "amplitude", Range::any())) f.amplitude = *v;
  if (auto v = opt_number(doc, m, "tau", physical::kDuration)) f.tau = *v;
  if (f.type == FilterType::fir) f.taps = read_taps(doc, m, line);
  if (f.type == FilterType::exponential && line.predistort && f.amplitude <= -1.0) {
    const Item& a = *m.find("amplitude");
    doc.fail(a.mark(), a.path, Msg::PredistortNotInvertible,
             {{"VALUE", format_number(f.amplitude)}});
  }
  if (const Item* o = m.find("optimize")) f.optimize = read_filter_trainables(doc, *o, f);
  return f;
}

LineSpec read_line(Doc& doc, const Item& item) {
  const MapView m(doc, item);
  m.check_keys(kLineKeys);
  LineSpec line;
  line.path = item.path;
  const Item& name = m.require("name", message(Msg::ExpectLineName));
  line.name = get_scalar(doc, name, message(Msg::ExpectLineName));
  if (!valid_line_name(line.name))
    doc.fail(name.mark(), name.path, Msg::BadLineName, {{"VALUE", line.name}});
  line.sample_rate = opt_number(doc, m, "sample_rate", kSampleRate);
  if (const Item* p = m.find("predistort")) line.predistort = get_bool(doc, *p);
  if (const Item* fs = m.find("filters"))
    for (const Item& entry : get_list(doc, *fs, message(Msg::ExpectList)))
      line.filters.push_back(read_filter(doc, entry, line));
  return line;
}

}  // namespace

void read_lines(Doc& doc, const Item& item, std::vector<LineSpec>& lines) {
  std::map<std::string, int> first_line;
  for (const Item& entry : get_list(doc, item, message(Msg::ExpectList))) {
    LineSpec line = read_line(doc, entry);
    const MapView view(doc, entry);  // owns the items find() returns
    const Item& name = *view.find("name");
    const int at = doc.at(name.mark()).line;
    if (const auto it = first_line.find(line.name); it != first_line.end())
      doc.fail(name.mark(), name.path, Msg::DuplicateLineName,
               {{"NAME", line.name}, {"LINE", std::to_string(it->second)}});
    first_line.emplace(line.name, at);
    lines.push_back(std::move(line));
  }
}

std::string read_line_ref(Doc& doc, const Item& item) {
  const std::string want = message(Msg::ExpectPulseLine);
  const std::string& name = get_scalar(doc, item, want);
  if (name.empty()) doc.fail(item.mark(), item.path, Msg::EmptyString, {{"EXPECTED", want}});
  const std::vector<LineSpec>& lines = doc.config().lines;
  if (lines.empty()) doc.fail(item.mark(), item.path, Msg::NoLines, {{"NAME", name}});
  std::vector<std::string_view> names;
  for (const LineSpec& line : lines) {
    if (line.name == name) return name;
    names.emplace_back(line.name);
  }
  const std::string allowed = join(names);
  const std::string hint = suggest(name, names);
  if (hint.empty())
    doc.fail(item.mark(), item.path, Msg::UnknownLine, {{"NAME", name}, {"ALLOWED", allowed}});
  doc.fail(item.mark(), item.path, Msg::UnknownLineSuggest,
           {{"NAME", name}, {"SUGGESTION", hint}, {"ALLOWED", allowed}});
}

}  // namespace qevolve::io::detail
