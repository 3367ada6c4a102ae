// The points of `qevolve sweep` (docs/cli.md "sweep"): every point's config built and validated
// before any evolution, then evaluated from cached simulators -- one per thread, rebuilt only
// when a point changes what it was built from.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "qevolve/comm.hpp"
#include "qevolve/config.hpp"
#include "qevolve/device.hpp"
#include "qevolve/fidelity.hpp"
#include "qevolve/gradient.hpp"
#include "qevolve/simulator.hpp"
#include "qevolve/sweep_axis.hpp"
#include "run_evaluation.hpp"

namespace qevolve::commands {

/// One validated grid point: its config and resolved device, and the axis values that decide
/// what an evaluation may reuse.
struct SweepPoint {
  Config config;
  device::ResolvedDevice resolved;
  std::vector<std::string> device_key;     ///< values of the `device` axes
  std::vector<std::string> simulator_key;  ///< values of the `device` and `evolution` axes
  std::vector<std::string> target_key;     ///< values of the `target` axes
  std::string label;                       ///< "pulses[0].amplitude = 0.07, ..." for messages
  bool implausible = false;                ///< io::plausibility_warnings has something to say
};

/// The grid: axes in --vary order, the first varying slowest (row-major).
struct SweepGrid {
  std::vector<io::SweepAxis> axes;
  std::int64_t points = 0;
  /// The axis value indices of flat point p.
  [[nodiscard]] std::vector<std::size_t> coordinates(std::int64_t p) const;
};

/// Builds and validates point p alone (any rank): its config (without YAML text) and device.
[[nodiscard]] SweepPoint build_point(const SweepGrid& grid, const io::ParsedConfig& parsed,
                                     const std::vector<io::Override>& sets, std::int64_t p);

/// Builds and validates (io::resolve) this rank's share of the points (comm.shard) on
/// `threads` threads: the parsed config with `sets` and the point's axis values applied. Then,
/// collectively, the first invalid point of the whole grid (if any) is built again from the text
/// by every rank and its InputError (naming the --vary, located) thrown on every rank alike:
/// nothing is evolved before every point is known to be valid.
[[nodiscard]] std::vector<SweepPoint> build_points(const SweepGrid& grid, const io::ParsedConfig& parsed,
                                                   const std::vector<io::Override>& sets,
                                                   comm::Communicator& comm, int threads);

/// The index of the grid's point with the largest memory estimate (io::estimate_memory; the
/// first of equals), over every rank's share (collective): an axis may change a point's size.
[[nodiscard]] std::int64_t largest_point(const std::vector<SweepPoint>& points, const SweepGrid& grid,
                                         comm::Communicator& comm);

/// The index of the grid's first point with a plausibility warning (SweepPoint::implausible),
/// over every rank's share (collective), -1 when none has one: the point the sweep's
/// plausibility warnings name.
[[nodiscard]] std::int64_t first_implausible_point(const std::vector<SweepPoint>& points, const SweepGrid& grid,
                                                   comm::Communicator& comm);

/// One point's figures; NaN fidelities without a target.
struct PointResult {
  double fidelity = 0.0, fidelity_uncompensated = 0.0, leakage = 0.0;
  double conditional_phase = 0.0;  ///< summary_notes.hpp conditional_phase; NaN: not a CZ / CPHASE
  std::vector<double> populations;  ///< d x d row-major: |U(out, in)|^2 (closed) or
                                    ///< <out|E(|in><in|)|out> (open)
};

/// What the evaluation built, for the summary and the tests of the cache.
struct SweepStats {
  long device_builds = 0, simulator_builds = 0, pulse_updates = 0;
  long objective_builds = 0;  ///< objectives made (a matrix_file target read) by CachedSimulator::evaluate
  /// The largest phase per step over this rank's points (summary_notes.hpp fastest_step_phase)
  /// and the point (index into this rank's points; the first of equals), -1: none moves.
  double worst_step_phase = 0.0;
  std::int64_t worst_step_point = -1;
  /// The same for the lines' unsettled tails (summary_notes.hpp worst_line_tail).
  double worst_tail = 0.0;
  std::int64_t worst_tail_point = -1;
  /// The step-error estimate over max(tolerance, 0.1 (1 - F)) (docs/accuracy.md), largest.
  double worst_step_error = 0.0;
  std::int64_t worst_step_error_point = -1;
  /// The truncation check (truncation_notes.hpp truncation_ratio), largest, and that point's
  /// top-level populations per mode.
  double worst_truncation = 0.0;
  std::int64_t worst_truncation_point = -1;
  std::vector<double> worst_truncation_top;
};

/// The grid index of the point with the largest phase per step over every rank's share
/// (collective; the first of equals), -1 when none exceeds kMaxPhasePerStep: the point the
/// sweep's step-size warning names.
[[nodiscard]] std::int64_t worst_step_point(const SweepStats& stats, const SweepGrid& grid, comm::Communicator& comm);
/// The same for the step-error estimate: -1 when none exceeds max(tolerance, 0.1 (1 - F)).
[[nodiscard]] std::int64_t worst_step_error_point(const SweepStats& stats, const SweepGrid& grid,
                                                  comm::Communicator& comm);
/// The same for the truncation check: -1 when no mode exceeds solver::kTopLevelWarning; `top`
/// receives that point's top-level populations on every rank.
[[nodiscard]] std::int64_t worst_truncation_point(const SweepStats& stats, const SweepGrid& grid,
                                                  comm::Communicator& comm, std::vector<double>& top);
/// The same for the lines' tails: -1 when none exceeds kLineTailWarning.
[[nodiscard]] std::int64_t worst_tail_point(const SweepStats& stats, const SweepGrid& grid, comm::Communicator& comm);

/// HDF5 (libhdf5 built without thread safety) is entered by one thread of the process at a time:
/// a sweep's threads reading a matrix_file target, Python sessions on several threads reading
/// or writing files. Held around each such read or write.
[[nodiscard]] std::mutex& hdf5_mutex();
/// Whether validating or evaluating a config may read an HDF5 file (a target's matrix_file):
/// its text names matrix_file, or a changed key (an override, a sweep axis) or its value does,
/// or a changed key lies under target.gates (it may replace a gate by a file's). The one test of
/// when hdf5_mutex() is needed.
[[nodiscard]] bool reads_hdf5(const io::ParsedConfig& parsed, const std::vector<std::string>& keys,
                              const std::vector<std::string>& values = {});

/// A plain run as a point of no sweep (no axes: nothing to compare, so nothing reused between
/// runs): what CachedSimulator::prepare takes.
[[nodiscard]] SweepPoint single_point(const Config& config, const device::ResolvedDevice& resolved);

/// One cached device and simulator (a sweep thread's, or a Python Session's): a point rebuilds
/// the device only when its `device_key` moved, the simulator only when its `simulator_key`
/// moved or its pulses no longer fit (Simulator::set_drive); otherwise only the pulses are
/// replaced. The objective (a matrix_file target read from its file) is made again only when
/// the simulator was rebuilt or the `target_key` moved. The result equals a fresh build's
/// bitwise.
class CachedSimulator {
 public:
  /// The simulator for point `p`, built with `threads` threads when it has to be built.
  const solver::Simulator& prepare(const SweepPoint& p, SweepStats& stats, int threads = 1);
  /// The evaluation of `qevolve run` (run_evaluation.hpp) of the simulator of the last
  /// prepare(p, ...), on `comm` and `reduce`, with the objective of the point's target: the one
  /// path of a plain run (the CLI's, the Session's, every sweep point's).
  [[nodiscard]] RunEvaluation run(const SweepPoint& p, SweepStats& stats, comm::Communicator& comm,
                                  comm::Communicator& reduce, const gradient::PipelineHooks& hooks,
                                  const RunCallbacks& callbacks = {});
  /// prepare(), then run() on a serial communicator (norm check, objective of the point's
  /// target); `trace` records output.trace.
  [[nodiscard]] RunEvaluation evaluate(const SweepPoint& p, SweepStats& stats, int threads = 1, bool trace = false);
  /// The simulator of the last prepare() (shared: a result keeps it alive after a rebuild).
  [[nodiscard]] const std::shared_ptr<solver::Simulator>& simulator() const { return sim_; }

 private:
  std::optional<device::Device> device_;
  std::vector<std::string> device_key_, sim_key_, target_key_;
  std::shared_ptr<solver::Simulator> sim_;
  std::optional<fidelity::ObjectiveSpec> objective_;  ///< of sim_ and target_key_ (none: no target)
  bool objective_made_ = false;                       ///< objective_ is that of sim_ and target_key_
};

/// Evaluates `points` on `threads` threads (a backend::Team; each thread one cached simulator
/// with one thread of its own), calling `done` after each point (any thread, serialised).
/// The results are those of `qevolve run` with the same overrides, bitwise, whatever the
/// number of threads or ranks.
[[nodiscard]] std::vector<PointResult> evaluate_points(const std::vector<SweepPoint>& points, int threads,
                                                       SweepStats& stats,
                                                       const std::function<void(std::int64_t done)>& done);

}  // namespace qevolve::commands
