// `qevolve converge` (docs/accuracy.md "qevolve converge"): the steps refined by the step-error
// estimate (auto_steps.hpp's search, to half the tolerance) and each mode's levels raised until
// F moves by less than half the tolerance; shared by the command (converge.cpp) and
// Session::converge (the Python module).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "qevolve/config.hpp"

namespace qevolve::commands {

/// The most levels converge gives a mode (docs/accuracy.md "qevolve converge").
inline constexpr int kMaxConvergeLevels = 64;
/// The largest tolerance converge takes (a larger one is no convergence).
inline constexpr double kMaxConvergeTolerance = 0.1;

/// One evaluation (or step search) of the table.
struct ConvergeRow {
  std::string setting;  ///< "steps 1600", "c levels 8 -> 12", "c levels 8 -> 12, steps 800 -> 1600"
  double fidelity = 0.0;
  double change = 0.0;    ///< F - F of the setting it is compared with (NaN: the first row)
  double estimate = 0.0;  ///< the step-error estimate of F at this setting
  double seconds = 0.0;   ///< wall time of its runs (evaluations and step-error runs)
  std::string verdict;    ///< "kept", "c converged at 8", ...
};

struct ConvergeOutcome {
  std::vector<ConvergeRow> rows;
  int steps = 0;
  std::vector<std::string> modes;  ///< mode names, in mode order
  std::vector<int> levels;         ///< the converged (or, when stopped, the best) levels
  std::vector<int> start_levels;   ///< the config's levels
  double fidelity = 0.0;           ///< F at steps and levels
  double estimate = 0.0;           ///< its step-error estimate
  bool converged = false;
  std::string stop;  ///< why a cap or the memory stopped it first (empty when converged)
  double seconds = 0.0;
};

struct ConvergeRequest {
  double tolerance = 1e-6;
  int threads = 0;
  std::optional<double> max_memory;  ///< bytes (--max-memory)
  std::function<void(const ConvergeRow&)> on_row;  ///< each row as it is done
};

/// The input checks converge makes before any work (InputError, exit 2): the tolerance in
/// (0, kMaxConvergeTolerance] (`tolerance_key` names it: "--tolerance"), a config with a
/// fidelity (a target, computational initial states), a solver with steps (not adaptive), the
/// config itself and every mode's first refinement within the memory (located at the mode's
/// levels) and under kMaxConvergeLevels.
void check_converge_input(const Config& config, double tolerance, const std::string& tolerance_key,
                          std::optional<double> max_memory);

/// The search (check_converge_input first). A cap (levels, steps, memory) that stops it is
/// reported in `stop`, with the best setting so far; not thrown.
[[nodiscard]] ConvergeOutcome converge_config(const Config& config, const ConvergeRequest& request);

/// config.yaml_text (the `--set` keys applied) with evolution.steps and the levels of every mode
/// `outcome` changed (device.qubits[NAME].levels; a preset mode gets its own entry), after the
/// header kConvergedHeader.
[[nodiscard]] std::string converged_yaml(const Config& config, const ConvergeOutcome& outcome);
inline constexpr const char* kConvergedHeader = "# written by qevolve converge";

/// The table as `qevolve converge` prints it: a header line, then format_row of each row.
[[nodiscard]] std::string converge_table_header();
[[nodiscard]] std::string format_row(const ConvergeRow& row);

}  // namespace qevolve::commands
