#include "sweep_points.hpp"
#include "config_input.hpp"
#include "ensemble_run.hpp"
#include "line_warnings.hpp"
#include "qevolve/ensemble.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <span>

#include "qevolve/plan.hpp"
#include "qevolve/backend/parallel.hpp"
#include "qevolve/fidelity.hpp"
#include "qevolve/gradient.hpp"
#include "qevolve/memory_estimate.hpp"
#include "qevolve/plausibility.hpp"
#include "qevolve/resolve.hpp"
#include "qevolve/simulator.hpp"
#include "auto_steps.hpp"
#include "run_evaluation.hpp"
#include "qevolve/step_error.hpp"
#include "run_output.hpp"
#include "summary_notes.hpp"
#include "truncation_notes.hpp"

namespace qevolve::commands {

std::vector<std::size_t> SweepGrid::coordinates(std::int64_t p) const {
  std::vector<std::size_t> c(axes.size());
  for (std::size_t k = axes.size(); k-- > 0;) {
    const auto n = static_cast<std::int64_t>(axes[k].texts.size());
    c[k] = static_cast<std::size_t>(p % n);
    p /= n;
  }
  return c;
}

namespace {

/// Point p's overrides (the --set ones, then one per axis) and reuse keys.
SweepPoint point_skeleton(const SweepGrid& grid, std::int64_t p, const std::vector<io::Override>& sets,
                          std::vector<io::Override>& overrides) {
  const std::vector<std::size_t> c = grid.coordinates(p);
  overrides = sets;
  SweepPoint point;
  for (std::size_t k = 0; k < grid.axes.size(); ++k) {
    const io::SweepAxis& axis = grid.axes[k];
    point.label += (k == 0 ? "" : ", ") + axis.key + " = " + axis.texts[c[k]];
    overrides.push_back(io::axis_override(axis, c[k]));
    if (axis.scope == io::SweepScope::device) point.device_key.push_back(axis.texts[c[k]]);
    if (axis.scope == io::SweepScope::device || axis.scope == io::SweepScope::evolution)
      point.simulator_key.push_back(axis.texts[c[k]]);
    if (axis.scope == io::SweepScope::target) point.target_key.push_back(axis.texts[c[k]]);
  }
  return point;
}

/// What a point needs besides a valid config: computational initial states; with an ensemble, no
/// axis a member sets, and every member checked as `run` checks it.
void check_point(const Config& config, const SweepGrid& grid) {
  io::check_sweepable(config);
  if (!config.ensemble) return;
  std::vector<std::string> keys;
  for (const io::SweepAxis& a : grid.axes) keys.push_back(a.key);
  io::check_ensemble_axes(config, keys, "--vary");
  check_command_ensemble(config);
}

/// HDF5 (a target's matrix_file) is not thread-safe: such configs are validated on one thread.
bool reads_files(const io::ParsedConfig& parsed, const SweepGrid& grid) {
  std::vector<std::string> keys;
  for (const io::SweepAxis& a : grid.axes) keys.push_back(a.key);
  return reads_hdf5(parsed, keys);
}

}  // namespace

SweepPoint build_point(const SweepGrid& grid, const io::ParsedConfig& parsed, const std::vector<io::Override>& sets,
                       std::int64_t p) {
  std::vector<io::Override> overrides;
  SweepPoint point = point_skeleton(grid, p, sets, overrides);
  point.config = parsed.read(overrides, false);  // no text: a point's YAML is never written ...
  if (point.config.ensemble) point.config.yaml_text = parsed.text_with(overrides);  // ... but an ensemble's members read it
  point.resolved = io::resolve(point.config, io::Purpose::evolve);
  check_point(point.config, grid);
  return point;
}

std::vector<SweepPoint> build_points(const SweepGrid& grid, const io::ParsedConfig& parsed,
                                     const std::vector<io::Override>& sets, comm::Communicator& comm, int threads) {
  const comm::Shard keep = comm.shard(grid.points);
  std::vector<SweepPoint> points(static_cast<std::size_t>(keep.count));
  std::vector<char> bad(points.size(), 0);
  const int team = reads_files(parsed, grid) ? 1 : static_cast<int>(std::min<Index>(std::max(1, threads), std::max<Index>(1, keep.count)));
  backend::run_team(team, team > 1, [&](backend::Team& t) {
    t.for_static(0, keep.count, [&](Index i) {
      try {
        SweepPoint& point = points[static_cast<std::size_t>(i)];
        point = build_point(grid, parsed, sets, keep.first + i);
        point.implausible = !io::plausibility_warnings(point.config, point.resolved.modes).empty();
        point.config.where.clear();  // validated: the locations are not needed (memory per point)
      } catch (const InputError&) {
        bad[static_cast<std::size_t>(i)] = 1;
      }
    });
  });
  // The first bad point of the whole grid: every rank builds it again from the text (with the
  // file's locations) and throws the same message (rank 0 reports it).
  double first = -static_cast<double>(grid.points);
  for (std::size_t i = 0; i < bad.size(); ++i)
    if (bad[i] != 0) {
      first = -static_cast<double>(keep.first + static_cast<std::int64_t>(i));
      break;
    }
  first = -comm.allreduce_max(first);
  if (first < static_cast<double>(grid.points)) {
    std::vector<io::Override> overrides;
    (void)point_skeleton(grid, static_cast<std::int64_t>(first), sets, overrides);
    const Config config = io::parse_config(parsed.text(), parsed.name(), overrides);
    (void)io::resolve(config, io::Purpose::evolve);
    check_point(config, grid);
    throw Error("sweep: point " + std::to_string(static_cast<std::int64_t>(first)) + " failed validation once only");
  }
  return points;
}

std::int64_t largest_point(const std::vector<SweepPoint>& points, const SweepGrid& grid, comm::Communicator& comm) {
  const Index first = comm.shard(grid.points).first;
  double most = -1.0;
  std::int64_t at = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const double bytes = io::estimate_memory(points[i].config, points[i].resolved, io::Purpose::evolve, false).bytes;
    if (bytes > most) {
      most = bytes;
      at = first + static_cast<std::int64_t>(i);
    }
  }
  const double top = comm.allreduce_max(most);
  return static_cast<std::int64_t>(-comm.allreduce_max(most == top ? -static_cast<double>(at)
                                                                    : -static_cast<double>(grid.points)));
}

std::int64_t first_implausible_point(const std::vector<SweepPoint>& points, const SweepGrid& grid,
                                     comm::Communicator& comm) {
  double first = -static_cast<double>(grid.points);  // none: past the end
  for (std::size_t i = 0; i < points.size(); ++i)
    if (points[i].implausible) {
      first = -static_cast<double>(comm.shard(grid.points).first + static_cast<Index>(i));
      break;
    }
  const double at = -comm.allreduce_max(first);
  return at < static_cast<double>(grid.points) ? static_cast<std::int64_t>(at) : -1;
}

namespace {

/// The grid index of the largest `value` over every rank (collective; the first of equals), -1
/// when none exceeds `threshold`. `point` indexes this rank's points (-1: none).
std::int64_t worst_over_ranks(double value, std::int64_t point, double threshold, const SweepGrid& grid,
                              comm::Communicator& comm) {
  const double mine = point >= 0 ? value : -1.0;
  const double top = comm.allreduce_max(mine);
  if (top <= threshold) return -1;  // nothing to warn of: rank 0 rebuilds no point
  const auto at = static_cast<double>(comm.shard(grid.points).first + point);
  return static_cast<std::int64_t>(-comm.allreduce_max(mine == top ? -at : -static_cast<double>(grid.points)));
}

/// Keeps the larger value and its point (ascending points: the first of equals stays).
void keep_worst(double value, std::int64_t point, double& worst, std::int64_t& at) {
  const bool earlier = at < 0 || point < at;
  if (point >= 0 && (value > worst || (value == worst && earlier))) {
    worst = value;
    at = point;
  }
}

}  // namespace

std::int64_t worst_step_point(const SweepStats& stats, const SweepGrid& grid, comm::Communicator& comm) {
  return worst_over_ranks(stats.worst_step_phase, stats.worst_step_point, kMaxPhasePerStep, grid, comm);
}

std::int64_t worst_step_error_point(const SweepStats& stats, const SweepGrid& grid, comm::Communicator& comm) {
  return worst_over_ranks(stats.worst_step_error, stats.worst_step_error_point, 1.0, grid, comm);
}

std::int64_t worst_truncation_point(const SweepStats& stats, const SweepGrid& grid, comm::Communicator& comm,
                                    std::vector<double>& top) {
  const std::int64_t at = worst_over_ranks(stats.worst_truncation, stats.worst_truncation_point, 1.0, grid, comm);
  if (at < 0) return at;
  // The point's populations from the rank that evaluated it (NaN, a two-level qubit, as -1).
  auto size = static_cast<double>(stats.worst_truncation_top.size());
  size = comm.allreduce_max(size);
  top.assign(static_cast<std::size_t>(size), -1.0);
  const bool mine = stats.worst_truncation_point >= 0 &&
                    comm.shard(grid.points).first + stats.worst_truncation_point == at;
  if (mine)
    for (std::size_t k = 0; k < stats.worst_truncation_top.size(); ++k)
      top[k] = std::isnan(stats.worst_truncation_top[k]) ? -1.0 : stats.worst_truncation_top[k];
  comm.allreduce_max(std::span<double>(top));
  return at;
}

std::int64_t worst_tail_point(const SweepStats& stats, const SweepGrid& grid, comm::Communicator& comm) {
  return worst_over_ranks(stats.worst_tail, stats.worst_tail_point, kLineTailWarning, grid, comm);
}

namespace {

/// |x|^2 of a d x d block, row-major.
std::vector<double> abs2(const CMatrix& u) {
  std::vector<double> out(static_cast<std::size_t>(u.size()));
  for (Index r = 0; r < u.rows(); ++r)
    for (Index c = 0; c < u.cols(); ++c) out[static_cast<std::size_t>(r * u.cols() + c)] = std::norm(u(r, c));
  return out;
}

/// Open systems: <out| E(|in><in|) |out> = S(out + n out, in + n in).
std::vector<double> channel_populations(const CMatrix& s) {
  const auto n = static_cast<Index>(std::llround(std::sqrt(static_cast<double>(s.rows()))));
  std::vector<double> out(static_cast<std::size_t>(n * n));
  for (Index a = 0; a < n; ++a)
    for (Index i = 0; i < n; ++i) out[static_cast<std::size_t>(a * n + i)] = s(a + n * a, i + n * i).real();
  return out;
}

/// The figures of one evaluation of the pipeline (as `run` reports them).
PointResult figures(const gradient::Evaluation& ev, const solver::Simulator& sim, const Config& config) {
  PointResult r;
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  r.fidelity = ev.fidelity ? ev.fidelity->fidelity : nan;
  r.fidelity_uncompensated = ev.fidelity ? ev.fidelity->fidelity_uncompensated : nan;
  r.conditional_phase = nan;
  if (sim.options().open) {
    r.populations = channel_populations(ev.superoperator);
    r.leakage = ev.fidelity ? ev.fidelity->leakage : fidelity::channel_leakage(ev.superoperator);
    return r;
  }
  CMatrix u = ev.unitary;
  if (!ev.fidelity) {  // no target: the computational rows of the columns
    const std::vector<Index> rows = sim.device().computational_indices();
    u.resize(static_cast<Index>(rows.size()), ev.columns.cols());
    for (std::size_t k = 0; k < rows.size(); ++k) u.row(static_cast<Index>(k)) = ev.columns.row(rows[k]);
  }
  r.populations = abs2(u);
  r.leakage = ev.fidelity ? ev.fidelity->leakage : fidelity::leakage(u);
  if (const auto cp = ev.fidelity ? conditional_phase(config, ev.unitary) : std::nullopt) r.conditional_phase = cp->phase;
  return r;
}

/// A point of a config with an ensemble (docs/ensembles.md "Sweeps"): the objective's F and
/// leakage, the populations of the members' unitaries weighted as the objective (mean: the
/// weighted mean, worst: the worst member's; NaN for open systems), no conditional phase.
PointResult ensemble_figures(const EnsembleOutcome& e, const solver::Simulator& sim) {
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  PointResult r;
  r.fidelity = e.fidelity;
  r.fidelity_uncompensated = e.fidelity_uncompensated;
  r.leakage = e.leakage;
  r.conditional_phase = nan;
  const auto d = static_cast<std::size_t>(Index{1} << sim.device().qubit_modes().size());
  r.populations.assign(d * d, sim.options().open ? nan : 0.0);
  if (sim.options().open) return r;
  const bool worst = e.objective == EnsembleObjective::worst;
  for (std::size_t k = 0; k < e.figures.size(); ++k) {
    if (worst && static_cast<std::int64_t>(k) != e.worst) continue;
    const std::vector<double> p = abs2(e.figures[k].unitary);
    const double w = worst ? 1.0 : e.members[k].weight;
    for (std::size_t i = 0; i < p.size() && i < r.populations.size(); ++i) r.populations[i] += w * p[i];
  }
  return r;
}

}  // namespace

SweepPoint single_point(const Config& config, const device::ResolvedDevice& resolved) {
  SweepPoint p;
  p.config = config;
  p.resolved = resolved;
  return p;
}

std::mutex& hdf5_mutex() {
  static std::mutex m;
  return m;
}

bool reads_hdf5(const io::ParsedConfig& parsed, const std::vector<std::string>& keys,
                const std::vector<std::string>& values) {
  const auto names = [](const std::string& t) { return t.find("matrix_file") != std::string::npos; };
  return names(parsed.text()) || std::any_of(values.begin(), values.end(), names) ||
         std::any_of(keys.begin(), keys.end(),
                     [&](const std::string& k) { return names(k) || k.rfind("target.gates", 0) == 0; });
}

const solver::Simulator& CachedSimulator::prepare(const SweepPoint& p, SweepStats& stats, int threads) {
  const bool new_device = !device_ || p.device_key != device_key_;
  if (new_device) {
    device_ = device::build_device(p.resolved);  // modes memoised: unchanged ones are reused
    device_key_ = p.device_key;
    ++stats.device_builds;
  }
  bool updated = false;  // the pulses alone changed: the cached factors stay
  if (!new_device && sim_ && p.simulator_key == sim_key_)
    if (std::optional<solver::Drive> drive = io::drive_on(p.config, sim_->device(), sim_->dressed())) {
      const double duration = solver::total_duration(p.config.evolution.duration, drive->pulses);
      updated = sim_->set_drive(std::move(*drive), duration);
    }
  if (updated) {
    ++stats.pulse_updates;
  } else {
    sim_ = std::make_shared<solver::Simulator>(io::evolution_plan(p.config, *device_), threads);
    sim_key_ = p.simulator_key;
    objective_made_ = false;
    ++stats.simulator_builds;
  }
  return *sim_;
}

RunEvaluation CachedSimulator::evaluate(const SweepPoint& p, SweepStats& stats, int threads, bool trace) {
  const solver::Simulator& sim = prepare(p, stats, threads);
  comm::SerialCommunicator serial;
  return run(p, stats, serial, serial, run_hooks(sim, serial, trace));
}

RunEvaluation CachedSimulator::run(const SweepPoint& p, SweepStats& stats, comm::Communicator& comm,
                                   comm::Communicator& reduce, const gradient::PipelineHooks& hooks,
                                   const RunCallbacks& callbacks) {
  precondition(sim_ != nullptr, "CachedSimulator::run", "", "prepare() first");
  if (!objective_made_ || p.target_key != target_key_) {
    // The target of a matrix_file gate is read with HDF5, which is not thread-safe.
    const std::lock_guard<std::mutex> lock(hdf5_mutex());
    objective_ = io::objective_spec(p.config, *sim_);
    target_key_ = p.target_key;
    objective_made_ = true;
    ++stats.objective_builds;
  }
  const RunTarget target{sim_.get(), objective_, nullptr};
  // each point's own steps (steps: auto) and truncation check; the sweep warns at the worst
  // (sweep_grid.cpp)
  return evaluate_run(target, p.config.evolution, comm, reduce, hooks, callbacks);
}

std::vector<PointResult> evaluate_points(const std::vector<SweepPoint>& points, int threads, SweepStats& stats,
                                         const std::function<void(std::int64_t)>& done) {
  std::vector<PointResult> results(points.size());
  const auto n = static_cast<Index>(points.size());
  const int team = static_cast<int>(std::min<Index>(std::max(1, threads), std::max<Index>(1, n)));
  std::exception_ptr failure;
  std::atomic<bool> failed{false};
  std::int64_t finished = 0;
  // Contiguous shares (for_static): neighbouring points differ in the fastest axis only, so a
  // thread's cached simulator is rebuilt as rarely as the grid allows.
  backend::run_team(team, team > 1, [&](backend::Team& t) {
    CachedSimulator worker;
    SweepStats mine;
    t.for_static(0, n, [&](Index i) {
      if (failed.load()) return;
      const SweepPoint& point = points[static_cast<std::size_t>(i)];
      try {
        if (point.config.ensemble) {  // the point's nominal built, then its members (one thread)
          const solver::Simulator& nominal = worker.prepare(point, mine);
          comm::SerialCommunicator serial;
          const EnsembleOutcome e = evaluate_ensemble(point.config, nominal, 1, serial, serial);
          mine.device_builds += e.stats.device_builds;
          mine.simulator_builds += e.stats.simulator_builds;
          results[static_cast<std::size_t>(i)] = ensemble_figures(e, nominal);
          t.critical([&] { if (done) done(++finished); });
          return;
        }
        const gradient::Evaluation ev = worker.evaluate(point, mine).ev;
        results[static_cast<std::size_t>(i)] = figures(ev, *worker.simulator(), point.config);
        const std::optional<StepPhase> step = fastest_step_phase(*worker.simulator());
        if (step) keep_worst(step->phase, i, mine.worst_step_phase, mine.worst_step_point);
        const double tail = worst_line_tail(*worker.simulator());
        if (tail > 0.0) keep_worst(tail, i, mine.worst_tail, mine.worst_tail_point);
        if (const double r = truncation_ratio(ev.top_level_population); r > mine.worst_truncation) {
          keep_worst(r, i, mine.worst_truncation, mine.worst_truncation_point);
          mine.worst_truncation_top = ev.top_level_population;
        }
        if (ev.step_error && ev.fidelity) {
          const double tolerance = point.config.evolution.tolerance.value_or(EvolutionSpec::kDefaultTolerance);
          const double bound = std::max(tolerance, 0.1 * (1.0 - ev.fidelity->fidelity));
          keep_worst(ev.step_error->error / bound, i, mine.worst_step_error, mine.worst_step_error_point);
        }
      } catch (const NumericalError& e) {  // e.g. lost unitarity: name the point
        t.critical([&] {
          if (!failed.exchange(true))
            failure = std::make_exception_ptr(NumericalError("sweep point " + point.label + ": " + e.what()));
        });
        return;
      } catch (...) {
        t.critical([&] {
          if (!failed.exchange(true)) failure = std::current_exception();
        });
        return;
      }
      t.critical([&] { if (done) done(++finished); });
    });
    t.critical([&] {
      stats.device_builds += mine.device_builds;
      stats.simulator_builds += mine.simulator_builds;
      stats.pulse_updates += mine.pulse_updates;
      stats.objective_builds += mine.objective_builds;
      keep_worst(mine.worst_step_phase, mine.worst_step_point, stats.worst_step_phase, stats.worst_step_point);
      keep_worst(mine.worst_tail, mine.worst_tail_point, stats.worst_tail, stats.worst_tail_point);
      keep_worst(mine.worst_step_error, mine.worst_step_error_point, stats.worst_step_error,
                 stats.worst_step_error_point);
      if (mine.worst_truncation_point >= 0 && (mine.worst_truncation > stats.worst_truncation ||
                                               (mine.worst_truncation == stats.worst_truncation &&
                                                (stats.worst_truncation_point < 0 ||
                                                 mine.worst_truncation_point < stats.worst_truncation_point)))) {
        stats.worst_truncation = mine.worst_truncation;
        stats.worst_truncation_point = mine.worst_truncation_point;
        stats.worst_truncation_top = mine.worst_truncation_top;
      }
    });
  });
  if (failure) std::rethrow_exception(failure);
  return results;
}

}  // namespace qevolve::commands
