// The `ensemble` section (docs/config.md "ensemble"): explicit members (overrides in `--set`
// syntax with weights) or generated ones (`vary`: Gauss nodes of a key's distribution, several
// keys forming the tensor grid), and the objective. What a member's overrides do to the config
// is checked by the resolution stage (io::check_ensemble, ensemble_check.cpp).
#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include "config_sections.hpp"
#include "qevolve/ensemble.hpp"
#include "qevolve/text.hpp"

namespace qevolve::io::detail {
namespace {

constexpr std::string_view kEnsembleKeys[] = {"members", "vary", "objective"};
constexpr std::string_view kMemberKeys[] = {"set", "weight"};
constexpr std::string_view kVaryKeys[] = {"key", "distribution", "mean", "std", "low", "high", "points"};
constexpr std::string_view kNormalKeys[] = {"key", "distribution", "mean", "std", "points"};
constexpr std::string_view kUniformKeys[] = {"key", "distribution", "low", "high", "points"};
/// Sections a member may not change: they are one for the whole ensemble.
constexpr std::string_view kWholeEnsemble[] = {"ensemble", "optimize", "output"};

/// A member key under `ensemble`, `optimize` or `output`: EnsembleKeyReserved at `mark`.
void check_member_key(Doc& doc, const std::string& key, const YAML::Mark& mark, const std::string& path) {
  const std::string top = key.substr(0, key.find_first_of(".["));
  if (std::find(std::begin(kWholeEnsemble), std::end(kWholeEnsemble), top) != std::end(kWholeEnsemble))
    doc.fail(mark, path, Msg::EnsembleKeyReserved, {{"KEY", key}, {"SECTION", top}});
}

/// `text` as a double-quoted YAML scalar.
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (c == '\r') out += "\\r";
    else out += c;
  }
  return out + "\"";
}

/// The YAML text of a scalar or flow value, as `--set` would take it (quoted scalars stay
/// strings; nested collections are written in flow style).
std::string flow_text(const YAML::Node& node) {
  if (node.IsScalar()) return node.Tag() == "!" ? quoted(node.Scalar()) : node.Scalar();
  if (node.IsNull()) return "null";
  std::string out;
  if (node.IsSequence()) {
    for (const YAML::Node& e : node) out += (out.empty() ? "" : ", ") + flow_text(e);
    return "[" + out + "]";
  }
  for (auto it = node.begin(); it != node.end(); ++it)
    out += (out.empty() ? "" : ", ") + quoted(it->first.Scalar()) + ": " + flow_text(it->second);
  return "{" + out + "}";
}

/// One value of a member's `set`: a scalar or a flow value.
std::string read_set_value(Doc& doc, const Item& value, const std::string& set_path) {
  const std::string want = message(Msg::ExpectSetValue);
  if (!value.node.IsDefined() || value.node.IsNull())
    doc.fail(value.mark(), set_path, Msg::NullValue, {{"EXPECTED", want}});
  if (!value.node.IsScalar() && value.node.Style() != YAML::EmitterStyle::Flow)
    doc.fail(value.mark(), set_path, Msg::EnsembleSetBlock, {{"FOUND", describe(value.node)}, {"EXPECTED", want}});
  return flow_text(value.node);
}

EnsembleMemberSpec read_member(Doc& doc, const Item& item) {
  const MapView m(doc, item);
  m.check_keys(kMemberKeys);
  EnsembleMemberSpec member;
  const std::string want = message(Msg::ExpectEnsembleSet);
  const Item& set = m.require("set", want);
  const MapView s(doc, set);
  if (s.entries().empty()) doc.fail(set.mark(), set.path, Msg::EnsembleSetEmpty, {{"EXPECTED", want}});
  for (const auto& [key, value] : s.entries()) {
    check_member_key(doc, key, value.anchor, set.path);
    member.set.emplace_back(key, read_set_value(doc, value, set.path));
  }
  if (auto w = opt_number(doc, m, "weight", Range::gt(0.0))) member.weight = *w;
  return member;
}

EnsembleVarySpec read_vary(Doc& doc, const Item& item) {
  const MapView m(doc, item);
  std::optional<EnsembleDistribution> dist;
  if (const Item* d = m.find("distribution")) dist = get_enum(doc, *d, enum_table<EnsembleDistribution>());
  const bool normal = dist == EnsembleDistribution::normal;
  const std::string context = dist ? message(Msg::ContextDistribution, {{"DIST", enum_name(*dist)}}) : "";
  if (dist)
    m.check_keys(normal ? std::span<const std::string_view>(kNormalKeys) : kUniformKeys, kVaryKeys, context);
  else
    m.check_keys(kVaryKeys);
  EnsembleVarySpec v;
  const Item& key = m.require("key", message(Msg::ExpectVaryKey));
  v.key = get_string(doc, key);
  check_member_key(doc, v.key, key.mark(), key.path);
  if (!dist)
    (void)m.require("distribution",
                    message(Msg::ExpectOneOf, {{"ALLOWED", join(enum_names<EnsembleDistribution>())}}));
  v.distribution = *dist;
  const std::string keys = normal ? "mean and std" : "low and high";
  const std::string want = message(Msg::ExpectDistributionKeys, {{"KEYS", keys}, {"DIST", enum_name(*dist)}});
  if (normal) {
    v.mean = get_number(doc, m.require("mean", want), Range::any());
    v.std = get_number(doc, m.require("std", want), Range::gt(0.0));
  } else {
    v.low = get_number(doc, m.require("low", want), Range::any());
    const Item& high = m.require("high", want);
    v.high = get_number(doc, high, Range::any());
    if (!(v.low < v.high))
      doc.fail(high.mark(), high.path, Msg::EnsembleLowHigh,
               {{"LOW", format_number(v.low)}, {"HIGH", format_number(v.high)}});
  }
  const auto max = static_cast<long long>(kMaxEnsembleMembers);
  const Item& points = m.require("points", message(Msg::ExpectInt, {{"MIN", "1"}, {"MAX", std::to_string(max)}}));
  v.points = static_cast<int>(get_integer(doc, points, 1, max));
  return v;
}

/// The entries of `vary`: distinct keys, at most kMaxEnsembleMembers grid points.
void read_vary_list(Doc& doc, const Item& item, std::vector<EnsembleVarySpec>& vary) {
  std::map<std::string, int> first_line;
  std::size_t count = 1;
  std::string how;
  for (const Item& entry : get_list(doc, item, message(Msg::ExpectList))) {
    EnsembleVarySpec v = read_vary(doc, entry);
    const MapView view(doc, entry);  // owns the items find() returns
    const Item& key = *view.find("key");
    if (const auto it = first_line.find(v.key); it != first_line.end())
      doc.fail(key.mark(), key.path, Msg::EnsembleVaryTwice, {{"KEY", v.key}, {"LINE", std::to_string(it->second)}});
    first_line.emplace(v.key, doc.at(key.mark()).line);
    count = std::min(count * static_cast<std::size_t>(v.points), kMaxEnsembleMembers + 1);
    how += (how.empty() ? "" : " x ") + std::to_string(v.points);
    vary.push_back(std::move(v));
  }
  if (vary.empty())
    doc.fail(item.mark(), item.path, Msg::EmptyList, {{"EXPECTED", message(Msg::ExpectEnsembleEntries)}});
  if (count > kMaxEnsembleMembers) {
    // The product itself, for the message (each factor is at most kMaxEnsembleMembers).
    double product = 1.0;
    for (const EnsembleVarySpec& v : vary) product *= v.points;
    doc.fail(item.mark(), item.path, Msg::EnsembleTooMany,
             {{"COUNT", format_number(product)},
              {"HOW", " (" + how + " points)"},
              {"LIMIT", std::to_string(kMaxEnsembleMembers)}});
  }
}

}  // namespace

void read_ensemble(Doc& doc, const Item& item, EnsembleSpec& ensemble) {
  const MapView m(doc, item);
  m.check_keys(kEnsembleKeys);
  const Item* members = m.find("members");
  const Item* vary = m.find("vary");
  const std::string entries = message(Msg::ExpectEnsembleEntries);
  if (members != nullptr && vary != nullptr) {
    const Item& later = doc.at(vary->anchor).line > doc.at(members->anchor).line ? *vary : *members;
    doc.fail(later.anchor, later.path, Msg::EnsembleBoth);
  }
  if (members == nullptr && vary == nullptr) doc.fail(m.mark(), m.path(), Msg::EnsembleNeither, {{"EXPECTED", entries}});
  if (members != nullptr) {
    const std::vector<Item> items = get_list(doc, *members, message(Msg::ExpectList));
    if (items.empty()) doc.fail(members->mark(), members->path, Msg::EmptyList, {{"EXPECTED", entries}});
    if (items.size() > kMaxEnsembleMembers)
      doc.fail(members->mark(), members->path, Msg::EnsembleTooMany,
               {{"COUNT", std::to_string(items.size())}, {"HOW", ""}, {"LIMIT", std::to_string(kMaxEnsembleMembers)}});
    for (const Item& entry : items) ensemble.members.push_back(read_member(doc, entry));
  }
  if (vary != nullptr) read_vary_list(doc, *vary, ensemble.vary);
  if (const Item* o = m.find("objective")) ensemble.objective = get_enum(doc, *o, enum_table<EnsembleObjective>());
}

}  // namespace qevolve::io::detail
