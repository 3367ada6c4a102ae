// Warnings about control lines (docs/lines.md "Warnings"): what a line does to a run that the
// numbers alone do not say. Printed by run and optimize, returned in Python's Result.warnings;
// a sweep names the point with the worst tail.
#pragma once

#include <string>
#include <vector>

#include "qevolve/simulator.hpp"

namespace qevolve::commands {

/// A line whose output is farther than this fraction of its pulse's peak from the pulse at the
/// evolution's end has not settled.
constexpr double kLineTailWarning = 1e-3;
/// A line whose output's peak is below this fraction of its pulse's peak hides the pulse.
constexpr double kLinePassWarning = 0.1;

/// The largest |line output - pulse| at the end over each pulse's peak (0 without lines).
[[nodiscard]] double worst_line_tail(const solver::Simulator& sim);
/// One warning per pulse whose line has not settled at the end; `where` (", at the sweep's
/// point ...") is added inside the parenthesis.
[[nodiscard]] std::vector<std::string> line_tail_warnings(const solver::Simulator& sim, const std::string& where = {});
/// Every line warning of the run: the tails, and per pulse on a line a carrier above the
/// line's Nyquist frequency, a line that passes less than kLinePassWarning of the pulse, and
/// held samples whose edges fall inside the solver's steps (first-order step error).
[[nodiscard]] std::vector<std::string> line_warnings(const solver::Simulator& sim);

}  // namespace qevolve::commands
