// `qevolve sweep`: --vary axes -> every point's config validated -> this rank's points over
// threads from cached simulators (sweep_points.hpp) -> gathered on rank 0 -> /sweep/* + summary.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "plot.hpp"
#include "config_input.hpp"
#include "qevolve/ensemble.hpp"
#include "qevolve/comm.hpp"
#include "qevolve/device.hpp"
#include "qevolve/error.hpp"
#include "qevolve/resolve.hpp"
#include "qevolve/commands.hpp"
#include "qevolve/hdf5_file.hpp"
#include "qevolve/linalg.hpp"
#include "qevolve/memory_estimate.hpp"
#include "qevolve/output_path.hpp"
#include "qevolve/names.hpp"
#include "qevolve/simulator.hpp"
#include "qevolve/version.hpp"
#include "run_output.hpp"
#include "sweep_grid.hpp"

namespace qevolve::commands {
namespace {

/// Progress on stderr: plain lines (a pipe or a notebook shows them too), at most one every
/// `interval` seconds (2 by default) and only once the sweep has run that long.
class SweepProgress {
 public:
  SweepProgress(std::ostream& err, bool enabled, std::int64_t total, int ranks, double interval)
      : err_(err), enabled_(enabled), total_(total), ranks_(ranks), interval_(interval), start_(Clock::now()),
        last_(start_) {}
  void operator()(std::int64_t done) {
    if (!enabled_) return;
    const auto now = Clock::now();
    if (std::chrono::duration<double>(now - last_).count() < interval_) return;
    last_ = now;
    const double t = std::chrono::duration<double>(now - start_).count();
    char buf[160];
    std::snprintf(buf, sizeof buf, "sweep: %lld/%lld points%s, %.1f s, about %.0f s left\n",
                  static_cast<long long>(done), static_cast<long long>(total_),
                  ranks_ > 1 ? " on rank 0" : "", t,
                  t * static_cast<double>(total_ - done) / static_cast<double>(std::max<std::int64_t>(done, 1)));
    err_ << buf << std::flush;
  }

 private:
  std::ostream& err_;
  bool enabled_;
  std::int64_t total_;
  int ranks_;
  double interval_;
  Clock::time_point start_, last_;
};

std::string number(double v, int digits = 6) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

/// The grid line, the best point and the cache counters.
void print_summary(std::ostream& out, const SweepGrid& grid, const GridResult& g, const SweepStats& stats,
                   int threads, int ranks) {
  std::string sizes;
  for (const auto& a : grid.axes) sizes += (sizes.empty() ? "" : " x ") + std::to_string(a.texts.size());
  out << "grid: " << (grid.axes.size() > 1 ? sizes + " = " : std::string()) << grid.points
      << (grid.points == 1 ? " point\n" : " points\n");
  for (std::size_t k = 0; k < grid.axes.size(); ++k) {
    const io::SweepAxis& a = grid.axes[k];
    out << "  axis " << k << ": " << a.key << " = ";
    if (a.texts.size() <= 6) {
      for (std::size_t i = 0; i < a.texts.size(); ++i) out << (i ? ", " : "") << a.texts[i];
    } else {
      out << a.texts.front() << " .. " << a.texts.back() << " (" << a.texts.size() << " values)";
    }
    out << "\n";
  }
  out << "evaluated: " << ranks << (ranks == 1 ? " rank" : " ranks") << " x " << threads
      << (threads == 1 ? " thread" : " threads") << "; rank 0 built " << stats.device_builds << " device(s), "
      << stats.simulator_builds << " simulator(s), " << stats.objective_builds << " objective(s), updated pulses "
      << stats.pulse_updates << " time(s)\n";
  std::int64_t best = -1;
  for (std::int64_t p = 0; p < grid.points; ++p)
    if (!std::isnan(g.at(p, 0)) && (best < 0 || g.at(p, 0) > g.at(best, 0))) best = p;
  if (best < 0) {
    out << "best: no fidelity (the config has no target); /sweep/populations and /sweep/leakage hold the results\n";
    return;
  }
  const std::vector<std::size_t> c = grid.coordinates(best);
  out << "best: F = " << number(g.at(best, 0), 10) << " (1 - F = " << number(1.0 - g.at(best, 0), 3)
      << ", leakage " << number(g.at(best, 2), 3) << ") at";
  for (std::size_t k = 0; k < c.size(); ++k)
    out << (k ? ", " : " ") << grid.axes[k].key << " = " << grid.axes[k].texts[c[k]] << " [" << c[k] << "]";
  out << "\n";
}

/// -o or output.file (as run checks them), and --plot: the picture is drawn from the HDF5
/// output, so it needs one.
void check_outputs(const Config& config, const SweepOptions& options) {
  io::check_output_path(config, options.output, io::Replacing{"sweep", options.force});
  if (options.plot.empty()) return;
  if (options.output.empty() && config.output.file.empty())
    throw InputError({}, "--plot", "the picture is drawn from the HDF5 output", "-o OUT.h5 (or output.file) as well");
  io::check_flag_output("--plot", options.plot, config.source_file, io::Replacing{"plot", options.force});
}

}  // namespace

int sweep(const SweepOptions& options, Streams io) {
  const auto t_start = Clock::now();
  comm::Communicator& comm = comm::world();
  const io::ParsedConfig parsed(read_command_config(options.config_path, comm), io::source_name(options.config_path));
  const int threads = solver::resolve_threads(options.threads);
  SweepChecks checks;
  checks.max_memory = options.max_memory;
  const std::vector<io::Override> sets = command_overrides(options.sets, options.steps);
  // The output paths on the config without the axes: a grid point's tree is a copy, which has
  // lost the file's locations (an output.file error would point at 1:1).
  checks.outputs = [&](const Config&) {
    check_outputs(io::parse_config(parsed.text_with({}), io::source_name(options.config_path), sets), options);
  };
  const SweepPlan plan = plan_sweep(parsed, sets, options.vary, comm, threads, checks);
  const double t_validate = since(t_start);
  if (comm.is_root())  // likely unit mistakes, before the work (even with --quiet, as run)
    print_warning_lines(io.err, sweep_plausibility(plan, parsed, sets));
  const std::string output = options.output.empty() ? plan.base.output.file : options.output;

  const auto t_eval = Clock::now();
  SweepStats stats;
  SweepProgress progress(io.err, comm.is_root() && !io.quiet, static_cast<std::int64_t>(plan.points.size()),
                         comm.size(), options.progress_interval);
  const GridResult g = evaluate_sweep(plan, threads, comm, stats, std::ref(progress));
  const double t_evaluate = since(t_eval);
  const std::vector<std::string> warnings = sweep_warnings(plan, stats, parsed, sets, comm);
  if (!comm.is_root()) return 0;
  print_warning_lines(io.err, warnings);  // even with --quiet, as run

  const auto t_out = Clock::now();
  if (!output.empty()) write_sweep(output, plan, g, since(t_start));
  if (!options.plot.empty()) draw_plot(output, options.plot);
  if (io.quiet) return 0;  // errors and warnings only, as run
  io.out << "qevolve sweep: " << parsed.name() << "\n";
  if (plan.base.ensemble)  // docs/ensembles.md "Sweeps"
    io.out << "ensemble: " << io::ensemble_members(plan.base).size() << " members at every point, objective "
           << enum_name(plan.base.ensemble->objective)
           << ": each point's F, leakage and populations are the objective's (its members built at each point)\n";
  print_summary(io.out, plan.grid, g, stats, threads, comm.size());
  io.out << "wall time: " << number(since(t_start), 3) << " s (validate " << number(t_validate, 3) << " s, evaluate "
         << number(t_evaluate, 3) << " s, output " << number(since(t_out), 3) << " s)\n";
  if (!output.empty())
    io.out << "wrote " << output << "\n";
  else
    io.out << "no output file: give -o FILE.h5 (or output.file) to keep /sweep/*\n";
  if (!options.plot.empty()) io.out << "wrote " << options.plot << "\n";
  return 0;
}

}  // namespace qevolve::commands
