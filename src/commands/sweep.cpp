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
#include "sweep_points.hpp"

namespace qevolve::commands {
namespace {

/// Per point on the wire and in memory: F, F uncompensated, leakage, then d x d populations.
constexpr std::size_t kFigures = 3;

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

/// The whole grid on rank 0 (records of kFigures + d^2 doubles, point order).
struct GridResult {
  std::int64_t d = 0;
  std::vector<double> records;
  [[nodiscard]] std::size_t width() const { return kFigures + static_cast<std::size_t>(d * d); }
  [[nodiscard]] double at(std::int64_t p, std::size_t k) const {
    return records[static_cast<std::size_t>(p) * width() + k];
  }
};

GridResult gather(const std::vector<PointResult>& local, std::int64_t d, comm::Communicator& comm) {
  GridResult g;
  g.d = d;
  std::vector<double> mine;
  mine.reserve(local.size() * g.width());
  for (const PointResult& r : local) {
    if (r.populations.size() != static_cast<std::size_t>(d * d))
      throw Error("sweep: the computational dimension changes across the grid (a swept key changes the qubits)");
    mine.insert(mine.end(), {r.fidelity, r.fidelity_uncompensated, r.leakage});
    mine.insert(mine.end(), r.populations.begin(), r.populations.end());
  }
  g.records = comm.size() == 1 ? std::move(mine) : comm.gather(mine, 0);
  return g;
}

void write_output(const std::string& path, const SweepGrid& grid, const GridResult& g, const Config& base,
                  const std::vector<std::string>& labels, const device::ResolvedDevice& dev, double wall) {
  io::Hdf5Writer w(path);
  std::vector<long long> shape;
  for (const auto& a : grid.axes) shape.push_back(static_cast<long long>(a.texts.size()));
  const char* names[kFigures] = {"/sweep/fidelity", "/sweep/fidelity_uncompensated", "/sweep/leakage"};
  for (std::size_t k = 0; k < kFigures; ++k) {
    std::vector<double> v(static_cast<std::size_t>(grid.points));
    for (std::int64_t p = 0; p < grid.points; ++p) v[static_cast<std::size_t>(p)] = g.at(p, k);
    w.write(names[k], v, shape);
  }
  std::vector<double> pops;
  pops.reserve(static_cast<std::size_t>(grid.points * g.d * g.d));
  for (std::int64_t p = 0; p < grid.points; ++p)
    for (std::int64_t k = 0; k < g.d * g.d; ++k) pops.push_back(g.at(p, kFigures + static_cast<std::size_t>(k)));
  std::vector<long long> pshape = shape;
  pshape.push_back(g.d);
  pshape.push_back(g.d);
  w.write("/sweep/populations", pops, pshape);
  w.write("/sweep/labels", labels);
  std::vector<std::string> varies;
  for (std::size_t k = 0; k < grid.axes.size(); ++k) {
    const io::SweepAxis& a = grid.axes[k];
    const std::string ds = "/sweep/axes/" + std::to_string(k);
    if (a.values.empty())
      w.write(ds, a.texts);
    else
      w.write(ds, a.values);
    w.attribute("key", a.key, ds);
    varies.push_back("--vary " + a.argument);
  }
  w.attribute("vary", varies, "/sweep");
  std::vector<long long> dims;
  for (const auto& m : dev.modes) dims.push_back(m.levels);
  w.attribute("dims", dims);
  w.attribute("points", static_cast<long long>(grid.points));
  w.attribute("wall_time_s", wall);
  w.attribute("qevolve_version", std::string(kVersion));
  write_config_attributes(w, base);
  w.commit();
}

/// The grid line, the best point and the cache counters.
void print_summary(std::ostream& out, const SweepGrid& grid, const GridResult& g, const SweepStats& stats,
                   int threads, int ranks) {
  std::string sizes;
  for (const auto& a : grid.axes) sizes += (sizes.empty() ? "" : " x ") + std::to_string(a.texts.size());
  out << "grid: " << sizes << " = " << grid.points << " points\n";
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
      << stats.simulator_builds << " simulator(s), updated pulses " << stats.pulse_updates << " time(s)\n";
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
  io::check_output_path(config, options.output);
  if (options.plot.empty()) return;
  if (options.output.empty() && config.output.file.empty())
    throw InputError({}, "--plot", "the picture is drawn from the HDF5 output", "-o OUT.h5 (or output.file) as well");
  io::check_flag_output("--plot", options.plot, config.source_file);
}

}  // namespace

int sweep(const SweepOptions& options, Streams io) {
  const auto t_start = Clock::now();
  comm::Communicator& comm = comm::world();
  // One thread per point: BLAS must not start its own, and the modes diagonalised while the
  // points are validated must be computed as `run --threads 1` computes them (bitwise).
  linalg::set_blas_threads(1);
  SweepGrid grid;
  for (const std::string& v : options.vary) grid.axes.push_back(io::parse_vary(v));
  grid.points = io::sweep_points(grid.axes);
  const std::vector<io::Override> sets = parse_sets(options.sets);
  const std::string text = read_command_config(options.config_path, comm);
  const std::string name = io::source_name(options.config_path);
  const io::ParsedConfig parsed(text, name);
  // Every point validated before any evolution; this rank builds its contiguous share.
  const int threads = solver::resolve_threads(options.threads);
  // The same size on every rank (the largest share), so that all refuse alike.
  const io::SweepSize size{static_cast<double>(grid.points),
                           std::ceil(static_cast<double>(grid.points) / static_cast<double>(comm.size())),
                           static_cast<double>(threads)};
  // Before any work: the grid's memory at its first point, and the output paths. An invalid
  // first point is reported by build_points, as any other.
  std::optional<SweepPoint> head;
  try {
    head = build_point(grid, parsed, sets, 0);
  } catch (const InputError&) {
  }
  if (head) {
    (void)io::check_sweep_memory(head->config, head->resolved, size, options.max_memory);
    check_outputs(head->config, options);
  }
  const std::vector<SweepPoint> points = build_points(grid, parsed, sets, comm, threads);
  // An axis may make a later point larger (levels, solver): the largest, before any evaluation.
  if (const std::int64_t largest = largest_point(points, grid, comm); largest != 0) {
    const SweepPoint p = build_point(grid, parsed, sets, largest);  // with its locations
    io::SweepSize at = size;
    at.point = p.label;
    (void)io::check_sweep_memory(p.config, p.resolved, at, options.max_memory);
  }
  // The first point gives the computational labels (d is the same at every point), the output
  // file and the dims; the `config` attribute is the text with the --set overrides.
  const SweepPoint first = head ? std::move(*head) : build_point(grid, parsed, sets, 0);
  const device::Device first_built = device::build_device(first.resolved);  // memoised
  const std::vector<Index> computational = first_built.computational_indices();
  const double t_validate = since(t_start);
  const std::string output = options.output.empty() ? first.config.output.file : options.output;

  const auto t_eval = Clock::now();
  SweepStats stats;
  SweepProgress progress(io.err, comm.is_root() && !io.quiet, static_cast<std::int64_t>(points.size()), comm.size(),
                         options.progress_interval);
  const std::vector<PointResult> local = evaluate_points(points, threads, stats, std::ref(progress));
  const GridResult g = gather(local, static_cast<std::int64_t>(computational.size()), comm);
  const double t_evaluate = since(t_eval);
  if (!comm.is_root()) return 0;

  const auto t_out = Clock::now();
  std::vector<std::string> labels;
  for (Index i : computational) labels.push_back(first_built.label(i));
  Config base = first.config;  // the attributes: the text with the --set overrides only
  base.yaml_text = parsed.text_with(sets);
  base.overrides.resize(sets.size());
  if (!output.empty()) write_output(output, grid, g, base, labels, first.resolved, since(t_start));
  if (!options.plot.empty()) draw_plot(output, options.plot);
  if (io.quiet) return 0;  // errors and warnings only, as run
  io.out << "qevolve sweep: " << name << "\n";
  print_summary(io.out, grid, g, stats, threads, comm.size());
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
