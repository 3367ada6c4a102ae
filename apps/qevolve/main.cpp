// qevolve command-line interface: parses flags, calls qevolve::commands, maps errors to
// exit codes (docs/cli.md "Exit codes and messages"): 0 ok, 2 bad input, 3 numerical failure, 1 anything else.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>
#include <map>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "qevolve/comm.hpp"
#include "qevolve/commands.hpp"
#include "qevolve/error.hpp"
#include "qevolve/names.hpp"
#include "qevolve/version.hpp"

namespace {

int report(const std::string& message, int code) {
  std::cerr << "qevolve: error: " << message << "\n";
  return code;
}

int parse_positive(const std::string& text, const std::string& flag) {
  std::size_t used = 0;
  int v = 0;
  try {
    v = std::stoi(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || v < 1)
    throw qevolve::InputError({}, flag, "`" + text + "` is not a positive integer");
  return v;
}

/// "2:12" -> (2, 12); "5" -> (5, 5).
std::pair<int, int> parse_range(const std::string& text, const std::string& flag) {
  const auto colon = text.find(':');
  const int lo = parse_positive(text.substr(0, colon), flag);
  const int hi = colon == std::string::npos ? lo : parse_positive(text.substr(colon + 1), flag);
  if (hi < lo) throw qevolve::InputError({}, flag, "empty range `" + text + "`", "MIN:MAX with MIN <= MAX");
  return {lo, hi};
}

/// "1,2,4" -> {1, 2, 4}.
std::vector<int> parse_list(const std::string& text, const std::string& flag) {
  std::vector<int> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto comma = text.find(',', start);
    out.push_back(parse_positive(text.substr(start, comma - start), flag));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"qevolve: simulate and optimise gates on superconducting quantum processors"};
  app.name("qevolve");
  app.set_version_flag("--version", std::string("qevolve ") + qevolve::kVersion);
  app.require_subcommand(1);

  std::string config_path;
  bool quiet = false;

  auto* check = app.add_subcommand("check", "Validate a config file only (exit 0 or 2)");
  check->add_option("CONFIG", config_path, "YAML config file")->required();

  qevolve::commands::SpectrumOptions spec;
  std::optional<int> spec_levels;
  auto* spectrum = app.add_subcommand(
      "spectrum", "Bare and dressed mode frequencies, matrix elements and static ZZ");
  spectrum->add_option("CONFIG", spec.config_path, "YAML config file")->required();
  spectrum->add_option("--levels", spec_levels, "Truncate every mode to K levels")
      ->check(CLI::Range(2, 1000));
  spectrum->add_option("-o,--output", spec.output, "Write the figures to this HDF5 file");

  qevolve::commands::RunOptions run_opts;
  std::optional<int> run_steps;
  auto* run = app.add_subcommand("run", "Evolve, compute the compensated fidelity, write HDF5");
  run->add_option("CONFIG", run_opts.config_path, "YAML config file")->required();
  run->add_option("-o,--output", run_opts.output, "HDF5 output file (default: output.file)");
  run->add_option("--threads", run_opts.threads, "Threads (default: all cores)")
      ->check(CLI::Range(1, 4096));
  run->add_option("--steps", run_steps, "Override evolution.steps")->check(CLI::Range(1, 1000000000));

  qevolve::commands::OptimizeOptions opt_opts;
  std::optional<int> opt_steps;
  auto* optimize = app.add_subcommand(
      "optimize", "Optimise the trainable parameters (L-BFGS-B or Adam) to minimise 1 - F");
  optimize->add_option("CONFIG", opt_opts.config_path, "YAML config file")->required();
  optimize->add_option("-o,--output", opt_opts.output, "HDF5 output file (default: output.file)");
  optimize->add_option("--resume", opt_opts.resume, "Resume from this checkpoint file");
  optimize->add_option("--threads", opt_opts.threads, "Threads (default: all cores)")
      ->check(CLI::Range(1, 4096));
  optimize->add_option("--steps", opt_steps, "Override evolution.steps")->check(CLI::Range(1, 1000000000));

  auto* bench = app.add_subcommand("bench", "Benchmarks");
  bench->require_subcommand(1);
  qevolve::commands::BenchScalingOptions bench_opts;
  std::string qubit_range = "2:12";
  std::string ranks_list = "1", threads_list;
  auto* scaling = bench->add_subcommand("scaling", "Time the standard workload vs qubit count");
  scaling->add_option("--qubits", qubit_range, "Range MIN:MAX of qubit counts (default 2:12)");
  scaling->add_option("--steps", bench_opts.steps, "Time steps (default 500)")
      ->check(CLI::Range(1, 100000000));
  scaling->add_option("--splitting", bench_opts.splitting, "terms | bonds (default terms)")
      ->transform(CLI::CheckedTransformer(
          std::map<std::string, qevolve::Splitting>{
              {qevolve::enum_name(qevolve::Splitting::terms), qevolve::Splitting::terms},
              {qevolve::enum_name(qevolve::Splitting::bonds), qevolve::Splitting::bonds}}));
  scaling->add_option("--ranks", ranks_list, "Comma-separated MPI rank counts (default 1)");
  scaling->add_option("--threads", threads_list, "Comma-separated thread counts (default: all cores)");
  scaling->add_option("--csv", bench_opts.csv, "Write the table as CSV");
  scaling->add_option("--plot", bench_opts.plot, "Draw a PNG plot (needs --csv)");
  scaling->add_option("--worker-row", bench_opts.worker_row)->group("");  // internal: one rank of --ranks

  qevolve::commands::BenchAccuracyOptions acc_opts;
  std::string acc_steps;
  auto* accuracy = bench->add_subcommand("accuracy", "Error vs wall time of each solver over a step ladder");
  accuracy->add_option("CONFIG", acc_opts.config_path, "YAML config file")->required();
  accuracy->add_option("--solvers", acc_opts.solvers,
                       "Variants: expm, trotter1|2|4[:terms|:bonds|:dense], magnus4[:terms|:bonds|:dense] "
                       "(no splitting: terms)")
      ->delimiter(',');
  accuracy->add_option("--steps", acc_steps, "Comma-separated step ladder (default 50,100,...,12800)");
  accuracy->add_option("--reference", acc_opts.reference,
                       "Reference variant (default magnus4:dense for D <= 128, else magnus4:bonds)");
  accuracy->add_option("--reference-factor", acc_opts.reference_factor,
                       "Reference steps = factor x finest ladder step (default 4)")
      ->check(CLI::Range(2, 64));
  accuracy->add_option("--max-seconds", acc_opts.max_seconds,
                       "Stop a variant's ladder after a run slower than this (default 60)")
      ->check(CLI::PositiveNumber);
  accuracy->add_option("--repeat", acc_opts.repeat,
                       "Time each run shorter than 1 s this many times and keep the best (default 3)")
      ->check(CLI::Range(1, 100));
  accuracy->add_option("--threads", acc_opts.threads, "Threads (default: all cores)")->check(CLI::Range(1, 4096));
  accuracy->add_option("--csv", acc_opts.csv, "Write every run as CSV");
  accuracy->add_option("--plot", acc_opts.plot, "Draw error vs wall time as PNG (needs --csv)");

  for (auto* sub : {check, spectrum, run, optimize, scaling, accuracy})
    sub->add_flag("--quiet", quiet, "No progress or warnings");

  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  }

  // Under mpirun only rank 0 prints (docs/cli.md "Under `mpirun`"); the others write into a null stream.
  std::ostream null_stream(nullptr);
  int rank = 0, ranks = 1;
  try {
    const auto& world = qevolve::comm::world();
    rank = world.rank();
    ranks = world.size();
  } catch (const qevolve::InputError& e) {
    return report(e.what(), 2);
  }
  const bool root = rank == 0;
  // Only run, optimize and the bench's own workers are distributed; under mpirun any other
  // command (check, spectrum, bench) runs on rank 0 alone, so that nothing is written twice.
  const bool distributed = run->parsed() || optimize->parsed() || (scaling->parsed() && !bench_opts.worker_row.empty());
  if (!root && !distributed) return 0;
  qevolve::commands::Streams io{root ? std::cout : null_stream, root ? std::cerr : null_stream, quiet,
                                root && !quiet && isatty(2) != 0};
  // A distributed failure: input errors are found by every rank alike (the same config), so
  // rank 0 reports and all return; anything else may have happened on one rank only while the
  // others wait in a collective, so that rank reports and ends them all.
  auto fail = [&](const std::string& message, int code) {
    if (ranks == 1) return report(message, code);
    if (code == 2) return root ? report(message, code) : code;
    report("rank " + std::to_string(rank) + ": " + message, code);
    qevolve::comm::world().abort(code);
    return code;
  };
  try {
    if (check->parsed()) return qevolve::commands::check(config_path, io);
    if (spectrum->parsed()) {
      spec.levels = spec_levels;
      return qevolve::commands::spectrum(spec, io);
    }
    if (run->parsed()) {
      run_opts.steps = run_steps;
      return qevolve::commands::run(run_opts, io);
    }
    if (optimize->parsed()) {
      opt_opts.steps = opt_steps;
      return qevolve::commands::optimize(opt_opts, io);
    }
    if (scaling->parsed()) {
      const auto range = parse_range(qubit_range, "--qubits");
      bench_opts.min_qubits = range.first;
      bench_opts.max_qubits = range.second;
      bench_opts.ranks = parse_list(ranks_list, "--ranks");
      if (!threads_list.empty()) bench_opts.threads = parse_list(threads_list, "--threads");
      return qevolve::commands::bench_scaling(bench_opts, io);
    }
    if (accuracy->parsed()) {
      if (!acc_steps.empty()) acc_opts.steps = parse_list(acc_steps, "--steps");
      return qevolve::commands::bench_accuracy(acc_opts, io);
    }
  } catch (const qevolve::InputError& e) {
    return fail(e.what(), 2);
  } catch (const qevolve::NumericalError& e) {
    return fail(e.what(), 3);
  } catch (const std::bad_alloc&) {
    return fail("out of memory", 1);
  } catch (const std::exception& e) {
    return fail(e.what(), 1);
  }
  return 1;
}
