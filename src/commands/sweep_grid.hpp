// A whole sweep grid as data (`qevolve sweep` and the Python Session's sweep): the validated
// points, their evaluation gathered on rank 0, and the /sweep/* file (docs/output.md "`qevolve sweep -o FILE`").
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "qevolve/comm.hpp"
#include "qevolve/config.hpp"
#include "qevolve/config_loader.hpp"
#include "qevolve/device.hpp"
#include "sweep_points.hpp"

namespace qevolve::commands {

/// Per point on the wire and in memory: F, F uncompensated, leakage, the conditional phase
/// (NaN unless the target is one CZ / CPHASE on two qubits), then d x d populations.
constexpr std::size_t kSweepFigures = 4;

/// Everything known before any evolution: the grid, this rank's validated points, the
/// computational labels (d is the same at every point) and the config of the attributes.
struct SweepPlan {
  SweepGrid grid;
  std::vector<SweepPoint> points;  ///< this rank's share, validated
  Config base;                     ///< the first point's config; text and overrides: the --set ones only
  device::ResolvedDevice first;    ///< the first point's device (the `dims` attribute)
  std::vector<std::string> labels;  ///< computational basis labels
  std::int64_t implausible = -1;    ///< first_implausible_point (-1: none)
};

/// What plan_sweep checks before any point is built beyond the first (docs/cli.md "Memory").
struct SweepChecks {
  std::optional<double> max_memory;  ///< --max-memory SIZE in bytes
  /// The output paths, given the first point's config (the CLI's -o, output.file, --plot).
  std::function<void(const Config&)> outputs;
};

/// Parses the --vary arguments, checks the grid's memory at its first point and the outputs,
/// validates every point (the first bad one thrown, located, on every rank; sweep_points.hpp
/// build_points), checks the memory of the largest point and builds the first point's device
/// for the labels. Sets the BLAS threads to 1 (one thread per point).
[[nodiscard]] SweepPlan plan_sweep(const io::ParsedConfig& parsed, const std::vector<io::Override>& sets,
                                   const std::vector<std::string>& vary, comm::Communicator& comm, int threads,
                                   const SweepChecks& checks = {});

/// The whole grid on rank 0 (records of kSweepFigures + d^2 doubles, point order).
struct GridResult {
  std::int64_t d = 0;
  std::vector<double> records;
  [[nodiscard]] std::size_t width() const { return kSweepFigures + static_cast<std::size_t>(d * d); }
  [[nodiscard]] double at(std::int64_t p, std::size_t k) const {
    return records[static_cast<std::size_t>(p) * width() + k];
  }
};

/// The plausibility warnings (io::plausibility_warnings) of the grid's first point that has
/// any (SweepPlan::implausible), rebuilt with its locations and named: "... (at the sweep's
/// point KEY = VALUE)"; empty when none has. Without the `qevolve: warning: ` prefix; the
/// same on every rank (not collective).
[[nodiscard]] std::vector<std::string> sweep_plausibility(const SweepPlan& plan, const io::ParsedConfig& parsed,
                                                          const std::vector<io::Override>& sets);

/// The sweep's warnings, without the `qevolve: warning: ` prefix (collective; the same on every
/// rank): run's step-size warning for the grid's point with the largest phase per step (rebuilt
/// here: it may have been another rank's), and that `output.trace` is not recorded.
[[nodiscard]] std::vector<std::string> sweep_warnings(const SweepPlan& plan, const SweepStats& stats,
                                                      const io::ParsedConfig& parsed,
                                                      const std::vector<io::Override>& sets, comm::Communicator& comm);

/// Evaluates this rank's points (evaluate_points) and gathers the grid on rank 0.
[[nodiscard]] GridResult evaluate_sweep(const SweepPlan& plan, int threads, comm::Communicator& comm,
                                        SweepStats& stats, const std::function<void(std::int64_t done)>& done);

/// Writes /sweep/* (atomically).
void write_sweep(const std::string& path, const SweepPlan& plan, const GridResult& g, double wall);

}  // namespace qevolve::commands
