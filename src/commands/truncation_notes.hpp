// What `run`, `optimize`, `sweep` and the Python module say about the truncation check
// (qevolve/truncation.hpp; docs/cli.md "The truncation warning"): the summary line and the
// warning for a mode whose top level fills.
#pragma once

#include <string>
#include <vector>

#include "qevolve/device.hpp"

namespace qevolve::commands {

/// `truncation: top level population qa 3.1e-09, c 2.4e-03, qb 2.9e-09` (no newline); empty
/// when the check did not run.
[[nodiscard]] std::string truncation_note(const device::Device& device, const std::vector<double>& top);

/// One warning per mode whose top-level population exceeds solver::kTopLevelWarning, without
/// `qevolve: warning: ` and newline: the mode, the population, its levels and the levels to
/// try. `where` (a sweep's point) is named when not empty.
[[nodiscard]] std::vector<std::string> truncation_warnings(const device::Device& device,
                                                           const std::vector<double>& top,
                                                           const std::string& where = {});

/// The largest top-level population over the modes relative to the threshold (a sweep keeps its
/// worst point by it); 0 when the check did not run.
[[nodiscard]] double truncation_ratio(const std::vector<double>& top);

}  // namespace qevolve::commands
