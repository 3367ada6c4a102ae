// What `run` and `optimize` share: the norm check, the evaluation into the report, the HDF5
// result file and the summary.
#pragma once

#include <chrono>
#include <cstdint>
#include <cmath>
#include <limits>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "qevolve/comm.hpp"
#include "qevolve/config.hpp"
#include "qevolve/fidelity.hpp"
#include "qevolve/gradient.hpp"
#include "qevolve/hdf5_file.hpp"
#include "qevolve/optimizer.hpp"
#include "qevolve/simulator.hpp"
#include "qevolve/step_error.hpp"
#include "qevolve/trace.hpp"
#include "summary_notes.hpp"

namespace qevolve::commands {

using Clock = std::chrono::steady_clock;
inline double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

/// One optimiser iteration as `/history` stores it (entry 0: the start point).
struct HistoryRow {
  int iteration = 0;
  double infidelity = 0.0;  ///< 1 - F
  double leakage = 0.0;
  double objective = 0.0;   ///< (1 - F) + w leakage
  double gradient_norm = 0.0, step = 0.0, wall_time_s = 0.0;
};

/// An ensemble run's members (docs/ensembles.md; /ensemble/* of docs/output.md).
struct EnsembleReport {
  std::string objective;               ///< "mean" or "worst"
  std::vector<std::string> overrides;  ///< per member: "KEY = VALUE, ..."
  std::vector<double> weights, fidelity, fidelity_uncompensated, leakage;
  std::vector<double> step_error;      ///< per member; NaN: none
  std::vector<long long> steps;        ///< per member: the steps it ran
  double objective_step_error = std::numeric_limits<double>::quiet_NaN();  ///< bound on the objective's; NaN: none
  std::int64_t worst = -1;             ///< the member with the largest 1 - F (+ w leakage)
  std::vector<CMatrix> unitaries;      ///< output.ensemble_unitaries: per member (closed systems)
  long device_builds = 0, simulator_builds = 0;
  bool by_member = false;  ///< under mpirun: whole members per rank (else initial states sharded)
  std::vector<double> start_fidelity, start_leakage;  ///< optimize: the members at the start point
};

/// Everything a run (or the final evaluation of an optimisation) reports.
struct RunReport {
  const Config* config = nullptr;
  const solver::Simulator* sim = nullptr;
  CMatrix columns;  ///< evolved columns in the configured basis and frame (closed systems)
  CMatrix superoperator;  ///< open systems: the channel on the initial states (/superoperator)
  double single_precision_deviation = std::numeric_limits<double>::quiet_NaN();
  std::optional<fidelity::FidelityResult> fidelity;
  CMatrix unitary;  ///< computational block (with a fidelity)
  std::vector<std::string> gradient_names;  ///< empty: no /gradient
  RVector gradient;
  std::vector<HistoryRow> history;  ///< empty: no /history
  double leakage_weight = 0.0;       ///< optimize: w of the objective (attribute with /history)
  std::string stop_reason;           ///< optimize: why it stopped (attribute; empty: none)
  std::optional<solver::Trace> trace;  ///< output.trace (/trace/*)
  /// The truncation check per mode (/truncation/top_level_population; empty: not run).
  std::vector<double> top_level_population;
  /// The step-error estimate of F (docs/accuracy.md); empty: off or no fidelity.
  std::optional<gradient::StepError> step_error;
  /// Captured at evaluation time by a result that outlives it (the Python Session: its cached
  /// simulator's pulses move on); empty: taken from `sim` when the file is written.
  std::optional<solver::PulseSamples> pulses;
  std::optional<std::vector<ResolvedValue>> resolved;
  int ranks = 1;                       ///< ranks of a distributed run
  std::uint64_t bytes_communicated = 0;  ///< payload rank 0 put into collectives
  double t_build = 0.0, t_evolve = 0.0, t_fidelity = 0.0, t_gradient = 0.0, t_optimize = 0.0;
  double t_step_error = 0.0;  ///< the coarser run of the step-error estimate
  double estimated_s = 0.0;  ///< the time estimate printed before the run (0: none)
  /// An ensemble: `fidelity` holds the objective's figures (no unitary, no angles), /ensemble/*.
  std::optional<EnsembleReport> ensemble;
};

/// Closed-system evolution keeps every column normalised; a larger deviation than the solver's
/// own accuracy is a numerical failure (NumericalError, exit 3).
/// Collective over `comm` (every rank throws together).
void check_norms(const CMatrix& columns, const solver::Options& o, comm::Communicator& comm);

/// Moves an evaluation of the pipeline (columns, unitary, fidelity, gradient, phase times) into
/// the report; `names` are the problem's parameter names (empty: no gradient).
void take_evaluation(RunReport& report, gradient::Evaluation&& ev, std::vector<std::string> names);

/// Writes the HDF5 result (atomically). Returns true if /energies had to be skipped.
bool write_run_output(const std::string& path, const RunReport& report, double wall_time);

/// The summary lines of docs/cli.md "Progress and summary" (dimensions, solver, resolved
/// values, fidelity, leakage, the lab-frame hint, wall times).
void print_summary(std::ostream& out, const RunReport& report, const std::string& title,
                   double t_output, double t_total);

/// The warning when the step-error estimate is not small against 1 - F (more than a tenth of
/// it, and above the config's tolerance); empty otherwise.
[[nodiscard]] std::string step_error_warning(const RunReport& report);

/// /ensemble/* (docs/output.md "Ensembles"); in ensemble_output.cpp.
void write_ensemble(io::Hdf5Writer& w, const EnsembleReport& e);
/// The summary's per-member table and objective line.
void print_ensemble(std::ostream& out, const EnsembleReport& e, const fidelity::FidelityResult& objective);

/// `qevolve: warning: LINE`, one line each.
void print_warning_lines(std::ostream& err, const std::vector<std::string>& lines);

/// The warnings that hold before any work: the plausibility warnings (io::plausibility_warnings,
/// docs/config.md) and the step-size check (summary_notes.hpp step_size_warning). Printed even
/// with --quiet.
void print_warnings(std::ostream& err, const Config& config, const solver::Simulator& sim);

/// The end of a summary: where the results went, or that nothing was written and how to.
void print_destination(std::ostream& out, const std::string& output);

}  // namespace qevolve::commands
