// The insides of include/qevolve/session.hpp's results, shared by session.cpp (which fills
// them) and session_result.cpp (which reads them).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "qevolve/config.hpp"
#include "qevolve/config_loader.hpp"
#include "qevolve/mode.hpp"
#include "qevolve/session.hpp"
#include "run_output.hpp"
#include "sweep_grid.hpp"

namespace qevolve::commands {

struct RunResult::Impl {
  explicit Impl(io::ParsedConfig p) : parsed(std::move(p)) {}
  std::shared_ptr<const solver::Simulator> sim;  ///< kept alive: the file needs its device and grid
  Config config;                     ///< the run's config (no text: emitted by save())
  io::ParsedConfig parsed;           ///< the session's text ...
  std::vector<io::Override> overrides;  ///< ... and the overrides of this run
  RunReport report;                  ///< config and sim point at the members above
  double wall_time = 0.0;
  std::vector<std::string> warnings;  ///< RunResult::warnings
  std::optional<EnsembleData> ensemble;  ///< RunResult::ensemble (report.ensemble's members)
};

/// A RunResult of `report` (an evaluation of `sim` with `config`): captures the pulse samples
/// and resolved values the file needs, since `sim`'s pulses may be replaced by the next run.
[[nodiscard]] std::shared_ptr<const RunResult::Impl> make_run_result(
    std::shared_ptr<const solver::Simulator> sim, Config config, const io::ParsedConfig& parsed,
    std::vector<io::Override> overrides, RunReport report, double wall_time);

/// The plausibility warnings (io::plausibility_warnings) of a config the session read with
/// `overrides`, located as the CLI locates them: such a config has no locations, so when there is
/// something to say the text is read again with them (io::parse_config keeps the file's).
[[nodiscard]] std::vector<std::string> session_plausibility(const Config& config,
                                                            const std::vector<device::ModeParams>& modes,
                                                            const io::ParsedConfig& parsed,
                                                            const std::vector<io::Override>& overrides);

struct SweepData::Impl {
  SweepPlan plan;
  GridResult grid;
  SweepStats stats;
  double wall_time = 0.0;
  std::vector<std::string> warnings;  ///< SweepData::warnings
};

}  // namespace qevolve::commands
