// The truncation check's summary line and warnings (truncation_notes.hpp).
#include "truncation_notes.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "qevolve/truncation.hpp"

namespace qevolve::commands {

std::string truncation_note(const device::Device& device, const std::vector<double>& top) {
  if (top.empty()) return {};
  std::string text = "truncation: top level population";
  char value[64];
  for (std::size_t k = 0; k < top.size(); ++k) {
    // NaN: a two-level qubit, whose top level is its |1> (not checked, docs/output.md).
    if (std::isnan(top[k]))
      std::snprintf(value, sizeof value, " -");
    else
      std::snprintf(value, sizeof value, " %.2g", top[k]);
    text += (k == 0 ? " " : ", ") + device.modes()[k].name() + value;
  }
  return text;
}

std::vector<std::string> truncation_warnings(const device::Device& device, const std::vector<double>& top,
                                             const std::string& where) {
  std::vector<std::string> out;
  for (std::size_t k = 0; k < top.size(); ++k) {
    const int levels = device.dims()[k];
    // A two-level qubit's top level is its |1>: the gate populates it by design.
    if (!(top[k] > solver::kTopLevelWarning) || (levels <= 2 && device.modes()[k].is_qubit())) continue;
    const int more = std::max(levels + 2, static_cast<int>(std::ceil(1.5 * levels)));
    char line[400];
    std::snprintf(line, sizeof line,
                  "mode `%s` reaches a population of %.3g in its top level (level %d of levels: %d) during the "
                  "evolution%s%s, above %.3g: its truncation may change the result; try levels: %d on `%s` and "
                  "compare",
                  device.modes()[k].name().c_str(), top[k], levels - 1, levels, where.empty() ? "" : ", ",
                  where.c_str(), solver::kTopLevelWarning, more, device.modes()[k].name().c_str());
    out.emplace_back(line);
  }
  return out;
}

double truncation_ratio(const std::vector<double>& top) {
  double worst = 0.0;
  for (double p : top) worst = std::max(worst, p / solver::kTopLevelWarning);
  return worst;
}

}  // namespace qevolve::commands
