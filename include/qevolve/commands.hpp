// The commands of the `qevolve` executable, as library functions. The executable itself
// (apps/qevolve) only parses the command line and maps exceptions to exit codes
// (InputError 2, NumericalError 3, anything else 1).
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "qevolve/config.hpp"

namespace qevolve::commands {

/// Where a command prints: `out` for results, `err` for warnings and progress.
struct Streams {
  std::ostream& out;
  std::ostream& err;
  bool quiet = false;        ///< --quiet: errors and warnings only (no progress, no summary)
  bool progress = false;     ///< err is a terminal: show progress bars
};

struct CheckOptions {
  std::string config_path;        ///< "-": standard input
  std::vector<std::string> sets;  ///< --set KEY=VALUE, in order
  std::optional<double> max_memory;  ///< --max-memory SIZE in bytes (docs/cli.md "Memory")
  int threads = 0;                ///< --threads of the run whose time is estimated (0: all cores)
  bool estimate_time = true;      ///< --no-time: no time estimate (no probe)
};
/// `qevolve check CONFIG`: loads and validates everything that can be checked without
/// evolving (config, device resolution, pulses, target). Returns 0 or throws InputError.
/// Prints the memory estimate of the run (docs/cli.md "Memory"); `max_memory` (--max-memory,
/// bytes) lowers the memory a run may use. Prints the run's time estimate (docs/cli.md "Time
/// estimate": a short probe of the same work, or this machine's cache).
int check(const CheckOptions& options, Streams io);

struct SpectrumOptions {
  std::string config_path;
  std::vector<std::string> sets;  ///< --set KEY=VALUE, in order
  std::optional<int> levels;  ///< --levels K: every mode truncated to K levels
  std::string output;         ///< -o FILE.h5 (empty: none)
  std::optional<double> max_memory;  ///< --max-memory SIZE in bytes (docs/cli.md "Memory")
  bool force = false;         ///< --force: may replace another command's result (docs/output.md)
};
/// `qevolve spectrum`: per-mode bare and dressed figures and static ZZ of coupled pairs.
int spectrum(const SpectrumOptions& options, Streams io);

struct RunOptions {
  std::string config_path;     ///< "-": standard input
  std::vector<std::string> sets;  ///< --set KEY=VALUE, in order
  std::string output;          ///< -o FILE.h5 (empty: output.file of the config, or none)
  int threads = 0;             ///< --threads (0: all cores)
  std::optional<int> steps;    ///< --steps overrides evolution.steps
  std::optional<double> max_memory;  ///< --max-memory SIZE in bytes (docs/cli.md "Memory")
  bool force = false;          ///< --force: may replace another command's result (docs/output.md)
  double progress_interval = 10.0;  ///< seconds between progress lines off a terminal (hidden flag; tests use 0)
  double estimate_above = 10.0;     ///< the time estimate is told from this many seconds on (hidden flag; tests use 0)
};
/// `qevolve run`: evolve, fidelity with compensation, HDF5 output, summary.
int run(const RunOptions& options, Streams io);

struct OptimizeOptions {
  std::string config_path;
  std::vector<std::string> sets;
  std::string output;          ///< -o FILE.h5 (empty: output.file of the config, or none)
  std::string resume;          ///< --resume CHECKPOINT.h5
  int threads = 0;
  std::optional<int> steps;
  std::optional<double> max_memory;  ///< --max-memory SIZE in bytes (docs/cli.md "Memory")
  bool force = false;          ///< --force: may replace another command's result (docs/output.md)
};
/// `qevolve optimize`: minimise 1 - F over the trainable parameters (L-BFGS-B or Adam), with a
/// per-iteration checkpoint, /history and the optimised config written back as YAML.
int optimize(const OptimizeOptions& options, Streams io);

struct ConvergeOptions {
  std::string config_path;        ///< "-": standard input
  std::vector<std::string> sets;  ///< --set KEY=VALUE, in order
  double tolerance = 1e-6;        ///< --tolerance T: the absolute error of F to reach
  std::string output;             ///< -o CONVERGED.yaml (empty: CONFIG.converged.yaml)
  int threads = 0;                ///< --threads (0: all cores)
  std::optional<double> max_memory;  ///< --max-memory SIZE in bytes (docs/cli.md "Memory")
  bool force = false;             ///< --force: -o may replace a file converge did not write
};
/// `qevolve converge`: refines evolution.steps (the step-error estimate to T/2) and each mode's
/// levels (until a raise moves F by less than T/2), prints the table, writes the converged
/// config (docs/accuracy.md "qevolve converge"). InputError (exit 2) before any work for a bad
/// tolerance or a first refinement that cannot fit; NumericalError (exit 3), after writing the
/// best config so far, when a cap or the memory stops it.
int converge(const ConvergeOptions& options, Streams io);

struct SweepOptions {
  std::string config_path;        ///< "-": standard input
  std::vector<std::string> sets;  ///< --set KEY=VALUE, applied to every point
  std::optional<int> steps;       ///< --steps N: evolution.steps of every point (after the --set)
  std::vector<std::string> vary;  ///< --vary KEY=START:STOP:COUNT | KEY=v1,v2,...: the axes, in order
  std::string output;             ///< -o FILE.h5 (empty: output.file of the config, or none)
  int threads = 0;                ///< points evaluated in parallel (0: all cores)
  double progress_interval = 2.0;  ///< seconds between progress lines (hidden flag; tests use 0)
  std::string plot;               ///< --plot FILE.png: `qevolve plot` of the output (needs an output file)
  std::optional<double> max_memory;  ///< --max-memory SIZE in bytes (docs/cli.md "Memory")
  bool force = false;             ///< --force: may replace another command's result (docs/output.md)
};
/// `qevolve sweep`: the grid of every --vary axis (the first slowest), each point evaluated as
/// `qevolve run --set` would, from cached simulators, over threads and (mpirun) ranks; writes
/// /sweep/* (docs/output.md) and prints the grid, the best point and the wall time. Returns 0.
/// The memory of the grid and the output paths (-o, output.file, --plot) are checked before
/// any point is evaluated.
/// The HDF5 file is complete when it returns, so a plot of it can follow.
int sweep(const SweepOptions& options, Streams io);

struct BenchScalingOptions {
  int min_qubits = 2, max_qubits = 12;
  int steps = 500;
  Splitting splitting = Splitting::terms;  ///< --splitting terms | bonds
  std::vector<int> ranks{1};  ///< rank counts > 1 start `mpirun -n R qevolve bench scaling --worker-row`
  std::vector<int> threads;  ///< empty: all cores only
  /// Internal (the runs started for --ranks): this process is one rank of a distributed run of
  /// the single qubit count min_qubits with threads[0]; rank 0 appends its row to this file.
  std::string worker_row;
  std::string csv;           ///< CSV file (empty: none)
  std::string plot;          ///< PNG file (empty: none)
  bool force = false;        ///< --force: --csv / --plot may replace an HDF5 file
};
/// `qevolve bench scaling`: the standard workload for N = min..max qubits; a table of time,
/// columns*steps/s, effective GFLOP/s and % of the zgemm peak measured in the same run.
int bench_scaling(const BenchScalingOptions& options, Streams io);

struct BenchAccuracyOptions {
  std::string config_path;
  /// Solver variants "SOLVER[ORDER][:SPLITTING]", e.g. trotter2:terms, trotter4:bonds,
  /// magnus4:bonds, magnus4:dense, expm. Empty: a default set chosen from D.
  std::vector<std::string> solvers;
  std::vector<int> steps;       ///< the step ladder (empty: 50, 100, ..., 12800)
  std::string reference;        ///< reference variant (empty: magnus4:dense for D <= 128, else magnus4:bonds)
  int reference_factor = 4;     ///< reference steps = factor x the finest ladder step
  double max_seconds = 60.0;    ///< a variant's ladder stops after a run slower than this
  int repeat = 3;               ///< a run under 1 s is timed this many times, the best kept
  int threads = 0;
  std::string csv, plot;
  std::optional<double> max_memory;  ///< --max-memory SIZE in bytes (docs/cli.md "Memory")
  bool force = false;           ///< --force: --csv / --plot may replace an HDF5 file
};
/// `qevolve bench accuracy CONFIG`: each solver variant over a ladder of step counts against a
/// converged reference; prints the error (max |U - U_ref| on the computational block and
/// |d(1 - F)|) and wall time per run, and the time each variant needs to reach 1e-4, 1e-6, 1e-8.
int bench_accuracy(const BenchAccuracyOptions& options, Streams io);

struct PlotOptions {
  std::string input;   ///< FILE.h5 written by qevolve
  std::string output;  ///< -o FILE.png (empty: FILE.png next to FILE.h5)
  bool force = false;  ///< --force: the image may replace an HDF5 file
  std::optional<std::string> population;  ///< --population OUT: a sweep's population of |OUT> ...
  std::optional<std::string> from;        ///< --from IN: ... starting in |IN> (default: all qubits in 0)
};
/// `qevolve plot FILE.h5`: one figure of what the file holds (sweep map, optimisation history,
/// population traces, |U|^2 and the phases of U, levels, ZZ, pulses), drawn by
/// scripts/qevolve_plot.py; prints `wrote FILE.png (parts)`. Throws InputError for a file it
/// cannot draw, or a --population / --from state the sweep does not have (docs/cli.md "Plots").
int plot(const PlotOptions& options, Streams io);

}  // namespace qevolve::commands
