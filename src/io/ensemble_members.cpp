// The members of an ensemble (docs/config.md "ensemble"): explicit ones as written, generated
// ones on the tensor grid of the `vary` entries' Gauss rules (qevolve/quadrature.hpp), each
// with overrides labelled by the entry that made them, so that a problem with a member's value
// is reported at that entry.
#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "qevolve/ensemble.hpp"
#include "qevolve/quadrature.hpp"
#include "yaml_values.hpp"

namespace qevolve::io {
namespace {

/// "FILE:LINE:COL: PATH": the label of an override made by the entry at `path`, so that its
/// problems read "FILE:LINE:COL: PATH: KEY: problem" (an override's label is FILE in messages).
std::string entry_label(const Config& config, const std::string& path) {
  const SourceLocation at = config.locate(path);
  std::string out = at.file;
  if (!out.empty() && at.line > 0) {
    out += ':' + std::to_string(at.line);
    if (at.column > 0) out += ':' + std::to_string(at.column);
  }
  return out.empty() ? path : out + ": " + path;
}

/// The shortest spelling that reads back as exactly v; integral values as integers (so that an
/// integer key accepts them), as the sweep's axes spell them.
std::string exact_text(double v) {
  if (v == std::floor(v) && std::abs(v) < 1e15) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
  }
  return format_number(v);  // std::to_chars' shortest round trip
}

std::string member_label(const std::vector<Override>& sets) {
  std::string out;
  for (const Override& o : sets) out += (out.empty() ? "" : ", ") + o.key + " = " + o.value;
  return out;
}

std::vector<EnsembleMember> explicit_members(const Config& config) {
  std::vector<EnsembleMember> out;
  const std::vector<EnsembleMemberSpec>& specs = config.ensemble->members;
  for (std::size_t k = 0; k < specs.size(); ++k) {
    EnsembleMember m;
    const std::string label = entry_label(config, "ensemble.members[" + std::to_string(k) + "].set");
    for (const auto& [key, value] : specs[k].set) m.sets.push_back(Override{key, value, label});
    m.weight = specs[k].weight;
    m.label = member_label(m.sets);
    out.push_back(std::move(m));
  }
  return out;
}

QuadratureRule rule_of(const EnsembleVarySpec& v) {
  return v.distribution == EnsembleDistribution::normal ? gauss_hermite(v.points, v.mean, v.std)
                                                        : gauss_legendre(v.points, v.low, v.high);
}

/// The tensor grid of the `vary` rules, the first entry slowest (its index changes last).
std::vector<EnsembleMember> grid_members(const Config& config) {
  const std::vector<EnsembleVarySpec>& vary = config.ensemble->vary;
  std::vector<QuadratureRule> rules;
  std::vector<std::string> labels;
  std::size_t count = 1;
  for (std::size_t j = 0; j < vary.size(); ++j) {
    rules.push_back(rule_of(vary[j]));
    labels.push_back(entry_label(config, "ensemble.vary[" + std::to_string(j) + "]"));
    count *= rules.back().nodes.size();
  }
  std::vector<EnsembleMember> out(count);
  for (std::size_t k = 0; k < count; ++k) {
    EnsembleMember& m = out[k];
    m.weight = 1.0;
    std::size_t rest = k;
    m.sets.resize(vary.size());
    for (std::size_t j = vary.size(); j-- > 0;) {  // the last entry fastest
      const std::size_t n = rules[j].nodes.size();
      const std::size_t i = rest % n;
      rest /= n;
      m.sets[j] = Override{vary[j].key, exact_text(rules[j].nodes[i]), labels[j]};
      m.weight *= rules[j].weights[i];
    }
    m.label = member_label(m.sets);
  }
  return out;
}

}  // namespace

std::vector<EnsembleMember> ensemble_members(const Config& config) {
  if (!config.ensemble) return {};
  std::vector<EnsembleMember> out = config.ensemble->vary.empty() ? explicit_members(config) : grid_members(config);
  double total = 0.0;
  for (const EnsembleMember& m : out) total += m.weight;
  for (EnsembleMember& m : out) m.weight /= total;
  return out;
}

}  // namespace qevolve::io
