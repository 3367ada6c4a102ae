// qevolve command-line interface: parses flags, calls qevolve::commands, maps errors to
// exit codes (docs/cli.md "Exit codes and messages"): 0 ok, 2 bad input, 3 numerical failure, 1 anything else.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <exception>
#include <iostream>
#include <map>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "qevolve/backend/parallel.hpp"
#include "qevolve/comm.hpp"
#include "qevolve/commands.hpp"
#include "qevolve/error.hpp"
#include "qevolve/interrupt.hpp"
#include "qevolve/memory_estimate.hpp"
#include "qevolve/names.hpp"
#include "qevolve/text.hpp"
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

/// Every command's options and subcommand handles, filled by CLI11 while parsing.
struct Cli {
  CLI::App app{"qevolve: simulate and optimise gates on superconducting quantum processors"};
  qevolve::commands::CheckOptions check_opts;
  bool quiet = false;
  CLI::App* check = nullptr;
  qevolve::commands::SweepOptions sweep_opts;
  CLI::App* sweep = nullptr;
  qevolve::commands::ConvergeOptions conv_opts;
  CLI::App* converge = nullptr;
  qevolve::commands::SpectrumOptions spec;
  std::optional<int> spec_levels;
  CLI::App* spectrum = nullptr;
  qevolve::commands::RunOptions run_opts;
  std::optional<int> run_steps;
  CLI::App* run = nullptr;
  qevolve::commands::OptimizeOptions opt_opts;
  std::optional<int> opt_steps;
  CLI::App* optimize = nullptr;
  qevolve::commands::BenchScalingOptions bench_opts;
  std::string qubit_range = "2:12";
  std::string ranks_list = "1", threads_list;
  CLI::App* scaling = nullptr;
  qevolve::commands::BenchAccuracyOptions acc_opts;
  std::string acc_steps;
  CLI::App* accuracy = nullptr;
  qevolve::commands::PlotOptions plot_opts;
  CLI::App* plot = nullptr;
  bool check_no_time = false;  ///< check --no-time
  std::string max_memory;  ///< --max-memory SIZE of check, spectrum, run, optimize, sweep, converge, bench accuracy
};

constexpr const char* kConfigHelp = "YAML config file (- reads standard input)";

/// --set KEY=VALUE, repeatable (one value per flag).
void add_set_option(CLI::App* app, std::vector<std::string>& sets) {
  app->add_option("--set", sets, "Set a config key before reading it, e.g. --set pulses[0].amplitude=0.05 (repeatable)")
      ->allow_extra_args(false);
}

/// sweep.
void add_sweep_command(Cli& c) {
  auto& s = c.sweep_opts;
  c.sweep = c.app.add_subcommand("sweep", "Evaluate a grid of config values in one process (--vary axes)");
  c.sweep->add_option("CONFIG", s.config_path, kConfigHelp)->required();
  c.sweep
      ->add_option("--vary", s.vary,
                   "An axis KEY=START:STOP:COUNT or KEY=v1,v2,... (repeatable; the first varies slowest)")
      ->allow_extra_args(false)
      ->required();
  add_set_option(c.sweep, s.sets);
  c.sweep->add_option("-o,--output", s.output, "HDF5 output file (default: output.file)");
  c.sweep->add_option("--plot", s.plot, "Draw the sweep map as an image (qevolve plot of the output; needs -o)");
  c.sweep->add_option("--steps", s.steps, "Override evolution.steps at every point")->check(CLI::Range(1, 1000000000));
  c.sweep->add_option("--threads", s.threads, "Points evaluated in parallel (default: all cores)")
      ->check(CLI::Range(1, 4096));
  c.sweep->add_option("--progress-interval", s.progress_interval)->group("")->check(CLI::Range(0.0, 3600.0));
}

/// converge.
void add_converge_command(Cli& c) {
  auto& o = c.conv_opts;
  c.converge = c.app.add_subcommand(
      "converge", "Refine the steps and every mode's levels until F moves by less than the tolerance");
  c.converge->add_option("CONFIG", o.config_path, kConfigHelp)->required();
  c.converge->add_option("--tolerance", o.tolerance, "The absolute error of F to reach (default 1e-6; at most 0.1)");
  add_set_option(c.converge, o.sets);
  c.converge->add_option("-o,--output", o.output, "The converged config (default: CONFIG.converged.yaml)");
  c.converge->add_option("--threads", o.threads, "Threads (default: all cores)")->check(CLI::Range(1, 4096));
}

/// --max-memory on a command that evolves or diagonalises (docs/cli.md "Memory").
void add_max_memory(CLI::App* sub, std::string& text) {
  sub->add_option("--max-memory", text,
                  "Refuse a run whose memory estimate exceeds SIZE (e.g. 8G, 500M, 2GiB; default: what the "
                  "process may use)");
}

/// --force on every command that writes (docs/output.md "Replacing a file").
void add_force_flags(Cli& c) {
  const std::pair<CLI::App*, bool*> writers[] = {
      {c.spectrum, &c.spec.force},       {c.run, &c.run_opts.force},     {c.optimize, &c.opt_opts.force},
      {c.sweep, &c.sweep_opts.force},    {c.plot, &c.plot_opts.force},   {c.scaling, &c.bench_opts.force},
      {c.accuracy, &c.acc_opts.force}, {c.converge, &c.conv_opts.force}};
  for (const auto& [sub, flag] : writers)
    sub->add_flag("--force", *flag, "Replace an output file that another command wrote (or that is not qevolve's)");
}

/// `-o ''` is a mistake, not "no output" (docs/output.md "How files are written").
CLI::Validator non_empty_file_name() {
  return {[](const std::string& s) { return s.empty() ? std::string("the file name is empty") : std::string(); },
          "FILE"};
}

std::optional<double> max_memory(const Cli& c) {
  if (c.max_memory.empty()) return std::nullopt;
  return qevolve::io::parse_memory_size(c.max_memory, "--max-memory");
}

/// check, spectrum, run, optimize, plot.
void add_simulation_commands(Cli& c) {
  c.check = c.app.add_subcommand("check", "Validate a config file only (exit 0 or 2)");
  c.check->add_option("CONFIG", c.check_opts.config_path, kConfigHelp)->required();
  c.check->add_option("--threads", c.check_opts.threads, "Threads of the run whose time is estimated (default: all cores)")
      ->check(CLI::Range(1, 4096));
  c.check->add_flag("--no-time", c.check_no_time,
                    "No time estimate (it times a few steps of the run, or reads this machine's cache)");
  add_set_option(c.check, c.check_opts.sets);

  c.spectrum = c.app.add_subcommand("spectrum", "Bare and dressed mode frequencies, matrix elements and static ZZ");
  c.spectrum->add_option("CONFIG", c.spec.config_path, kConfigHelp)->required();
  add_set_option(c.spectrum, c.spec.sets);
  c.spectrum->add_option("--levels", c.spec_levels, "Truncate every mode to K levels")->check(CLI::Range(2, 1000));
  c.spectrum->add_option("-o,--output", c.spec.output, "Write the figures to this HDF5 file");

  c.run = c.app.add_subcommand("run", "Evolve, compute the compensated fidelity, write HDF5");
  c.run->add_option("CONFIG", c.run_opts.config_path, kConfigHelp)->required();
  add_set_option(c.run, c.run_opts.sets);
  c.run->add_option("-o,--output", c.run_opts.output, "HDF5 output file (default: output.file)");
  c.run->add_option("--threads", c.run_opts.threads, "Threads (default: all cores)")->check(CLI::Range(1, 4096));
  c.run->add_option("--steps", c.run_steps, "Override evolution.steps")->check(CLI::Range(1, 1000000000));
  c.run->add_option("--progress-interval", c.run_opts.progress_interval)->group("")->check(CLI::Range(0.0, 3600.0));
  c.run->add_option("--estimate-above", c.run_opts.estimate_above)->group("")->check(CLI::Range(0.0, 1e9));

  c.optimize = c.app.add_subcommand("optimize",
                                    "Optimise the trainable parameters (L-BFGS-B or Adam) to minimise 1 - F");
  c.optimize->add_option("CONFIG", c.opt_opts.config_path, kConfigHelp)->required();
  add_set_option(c.optimize, c.opt_opts.sets);
  c.optimize->add_option("-o,--output", c.opt_opts.output, "HDF5 output file (default: output.file)");
  c.optimize->add_option("--resume", c.opt_opts.resume, "Resume from this checkpoint file");
  c.optimize->add_option("--threads", c.opt_opts.threads, "Threads (default: all cores)")
      ->check(CLI::Range(1, 4096));
  c.optimize->add_option("--steps", c.opt_steps, "Override evolution.steps")->check(CLI::Range(1, 1000000000));

  c.plot = c.app.add_subcommand("plot", "Draw what a qevolve HDF5 file holds (sweep, history, traces, |U|^2 and phases, pulses)");
  c.plot->add_option("FILE", c.plot_opts.input, "HDF5 file written by qevolve")->required();
  c.plot->add_option("-o,--output", c.plot_opts.output, "Image file (default: FILE.png next to FILE; .pdf, .svg by name)");
  auto* population = c.plot->add_option("--population", c.plot_opts.population,
                                        "A sweep: draw the population of this computational state first (e.g. 1, 01)");
  c.plot->add_option("--from", c.plot_opts.from, "With --population: the initial state (default: all qubits in 0)")
      ->needs(population);
}

/// bench scaling, bench accuracy.
void add_bench_commands(Cli& c) {
  auto* bench = c.app.add_subcommand("bench", "Benchmarks");
  bench->require_subcommand(1);
  c.scaling = bench->add_subcommand("scaling", "Time the standard workload vs qubit count");
  c.scaling->add_option("--qubits", c.qubit_range, "Range MIN:MAX of qubit counts (default 2:12)");
  c.scaling->add_option("--steps", c.bench_opts.steps, "Time steps (default 500)")->check(CLI::Range(1, 100000000));
  c.scaling->add_option("--splitting", c.bench_opts.splitting, "terms | bonds (default terms)")
      ->transform(CLI::CheckedTransformer(std::map<std::string, qevolve::Splitting>{
          {qevolve::enum_name(qevolve::Splitting::terms), qevolve::Splitting::terms},
          {qevolve::enum_name(qevolve::Splitting::bonds), qevolve::Splitting::bonds}}))
      ->option_text("terms|bonds");
  c.scaling->add_option("--ranks", c.ranks_list, "Comma-separated MPI rank counts (default 1)");
  c.scaling->add_option("--threads", c.threads_list, "Comma-separated thread counts (default: all cores)");
  c.scaling->add_option("--csv", c.bench_opts.csv, "Write the table as CSV");
  c.scaling->add_option("--plot", c.bench_opts.plot, "Draw a PNG plot (needs --csv)");
  c.scaling->add_option("--worker-row", c.bench_opts.worker_row)->group("");  // internal: one rank of --ranks

  auto& a = c.acc_opts;
  c.accuracy = bench->add_subcommand("accuracy", "Error vs wall time of each solver over a step ladder");
  c.accuracy->add_option("CONFIG", a.config_path, "YAML config file")->required();
  c.accuracy
      ->add_option("--solvers", a.solvers,
                   "Variants: expm, trotter1|2|4[:terms|:bonds|:dense], trotter2:chebyshev, "
                   "magnus4[:terms|:bonds|:dense|:chebyshev] "
                   "(no splitting: terms)")
      ->delimiter(',');
  c.accuracy->add_option("--steps", c.acc_steps, "Comma-separated step ladder (default 50,100,...,12800)");
  c.accuracy->add_option("--reference", a.reference,
                         "Reference variant (default magnus4:chebyshev for D <= 128, else magnus4:bonds)");
  c.accuracy->add_option("--reference-factor", a.reference_factor, "Reference steps = factor x finest ladder step (default 4)")
      ->check(CLI::Range(2, 64));
  c.accuracy->add_option("--max-seconds", a.max_seconds, "Stop a variant's ladder after a run slower than this (default 60)")
      ->check(CLI::PositiveNumber);
  c.accuracy->add_option("--repeat", a.repeat, "Time each run shorter than 1 s this many times and keep the best (default 3)")
      ->check(CLI::Range(1, 100));
  c.accuracy->add_option("--threads", a.threads, "Threads (default: all cores)")->check(CLI::Range(1, 4096));
  c.accuracy->add_option("--csv", a.csv, "Write every run as CSV");
  c.accuracy->add_option("--plot", a.plot, "Draw error vs wall time as PNG (needs --csv)");
}

/// CLI11's "A subcommand is required" in the project's words, naming the word that is not a
/// command and the commands there are: "unknown command `frobnicate` (expected one of: check,
/// spectrum, ...)" or "a command is required (expected one of: ...)"; for `bench`, its own.
std::string command_error(const CLI::App& app, int argc, char** argv) {
  const CLI::App* level = &app;
  std::string unknown;
  for (int i = 1; i < argc && unknown.empty(); ++i) {
    const std::string word = argv[i];
    if (word.empty() || word[0] == '-') continue;
    const auto subs = level->get_subcommands([](const CLI::App*) { return true; });
    const auto it = std::find_if(subs.begin(), subs.end(), [&](const CLI::App* s) { return s->get_name() == word; });
    if (it == subs.end()) unknown = word;
    else level = *it;
  }
  std::string names;
  for (const CLI::App* s : level->get_subcommands([](const CLI::App*) { return true; }))
    names += (names.empty() ? "" : ", ") + s->get_name();
  const std::string what = level == &app ? "command" : level->get_name() + " command";
  return (unknown.empty() ? "a " + what + " is required" : "unknown " + what + " `" + unknown + "`") +
         " (expected one of: " + names + ")";
}

/// A refusal of CLI11 (a flag's value, a missing argument, an unknown flag) as one error line
/// that says where the flags are listed: "--threads: Value 0 not in range 1 to 4096 (see
/// `qevolve run --help`)".
std::string flag_error(const CLI::App& app, const CLI::ParseError& e) {
  std::string command = "qevolve";
  for (const CLI::App* level = &app;;) {
    const auto parsed = level->get_subcommands();
    if (parsed.empty()) break;
    level = parsed.front();
    command += " " + level->get_name();
  }
  return std::string(e.what()) + " (see `" + command + " --help`)";
}

/// The first word of the command line that looks like a flag of none of the parsed
/// (sub)commands, as "unknown flag `--step`, did you mean `--steps`?" (a suggestion for long
/// flags only); empty when every flag is known.
std::string unknown_flag(const CLI::App& app, int argc, char** argv) {
  std::vector<std::string> known{"--help", "-h"};
  for (const CLI::App* level = &app;;) {
    for (const CLI::Option* o : level->get_options()) {
      for (const std::string& l : o->get_lnames()) known.push_back("--" + l);
      for (const std::string& s : o->get_snames()) known.push_back("-" + s);
    }
    const auto parsed = level->get_subcommands();
    if (parsed.empty()) break;
    level = parsed.front();
  }
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--") break;
    if (arg.size() < 2 || arg[0] != '-' || (arg[1] >= '0' && arg[1] <= '9') || arg[1] == '.') continue;
    const std::string flag = arg.substr(0, arg.find('='));
    if (std::find(known.begin(), known.end(), flag) != known.end()) continue;
    const std::vector<std::string_view> names(known.begin(), known.end());
    const std::string hint = flag.rfind("--", 0) == 0 ? qevolve::suggest(flag, names) : std::string();
    return "unknown flag `" + flag + "`" + (hint.empty() ? "" : ", did you mean `" + hint + "`?");
  }
  return {};
}

/// --threads beyond the processors this process may use is capped to them, with a warning
/// (docs/cli.md "Flags"): more threads than cores only add contention, and thousands of them
/// stall in the BLAS and OpenMP allocators. Not under mpirun, where the launcher's binding
/// decides what each rank may use.
void cap_threads(Cli& c, std::ostream& err) {
  const int hardware = qevolve::backend::hardware_threads();
  auto cap = [&](int& threads) {
    if (threads <= hardware) return;
    err << "qevolve: warning: --threads " << threads << " is more than the " << hardware
        << " processors this process may use: using " << hardware << "\n";
    threads = hardware;
  };
  cap(c.check_opts.threads);
  cap(c.run_opts.threads);
  cap(c.opt_opts.threads);
  cap(c.sweep_opts.threads);
  cap(c.acc_opts.threads);
  cap(c.conv_opts.threads);
}

/// Runs the parsed command (1 when none was parsed, which CLI11 prevents).
int dispatch(Cli& c, qevolve::commands::Streams io) {
  if (c.check->parsed()) {
    c.check_opts.max_memory = max_memory(c);
    c.check_opts.estimate_time = !c.check_no_time;
    return qevolve::commands::check(c.check_opts, io);
  }
  if (c.sweep->parsed()) {
    c.sweep_opts.max_memory = max_memory(c);
    return qevolve::commands::sweep(c.sweep_opts, io);
  }
  if (c.converge->parsed()) {
    c.conv_opts.max_memory = max_memory(c);
    return qevolve::commands::converge(c.conv_opts, io);
  }
  if (c.spectrum->parsed()) {
    c.spec.max_memory = max_memory(c);
    c.spec.levels = c.spec_levels;
    return qevolve::commands::spectrum(c.spec, io);
  }
  if (c.run->parsed()) {
    c.run_opts.steps = c.run_steps;
    c.run_opts.max_memory = max_memory(c);
    return qevolve::commands::run(c.run_opts, io);
  }
  if (c.optimize->parsed()) {
    c.opt_opts.steps = c.opt_steps;
    c.opt_opts.max_memory = max_memory(c);
    return qevolve::commands::optimize(c.opt_opts, io);
  }
  if (c.scaling->parsed()) {
    const auto range = parse_range(c.qubit_range, "--qubits");
    c.bench_opts.min_qubits = range.first;
    c.bench_opts.max_qubits = range.second;
    c.bench_opts.ranks = parse_list(c.ranks_list, "--ranks");
    if (!c.threads_list.empty()) c.bench_opts.threads = parse_list(c.threads_list, "--threads");
    return qevolve::commands::bench_scaling(c.bench_opts, io);
  }
  if (c.plot->parsed()) return qevolve::commands::plot(c.plot_opts, io);
  if (c.accuracy->parsed()) {
    if (!c.acc_steps.empty()) c.acc_opts.steps = parse_list(c.acc_steps, "--steps");
    c.acc_opts.max_memory = max_memory(c);
    return qevolve::commands::bench_accuracy(c.acc_opts, io);
  }
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  Cli c;
  c.app.name("qevolve");
  c.app.set_version_flag("--version", std::string("qevolve ") + qevolve::kVersion);
  c.app.require_subcommand(1);
  add_simulation_commands(c);
  add_sweep_command(c);
  add_converge_command(c);
  add_bench_commands(c);
  for (auto* sub : {c.check, c.spectrum, c.run, c.optimize, c.sweep, c.converge, c.accuracy}) add_max_memory(sub, c.max_memory);
  for (auto* sub : {c.spectrum, c.run, c.optimize, c.sweep, c.converge}) sub->get_option("--output")->check(non_empty_file_name());
  for (auto* sub : {c.check, c.spectrum, c.run, c.optimize, c.sweep, c.converge, c.plot, c.scaling, c.accuracy})
    sub->add_flag("--quiet", c.quiet, "No progress; run, optimize and sweep print errors and warnings only");
  add_force_flags(c);

  try {
    c.app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return c.app.exit(e);
  } catch (const CLI::RequiredError& e) {
    if (std::string(e.what()).find("subcommand is required") != std::string::npos) {
      const std::string flag = unknown_flag(c.app, argc, argv);  // `qevolve --verison`
      return report(flag.empty() ? command_error(c.app, argc, argv) : flag + " (see `qevolve --help`)", 2);
    }
    return report(flag_error(c.app, e), 2);
  } catch (const CLI::ExtrasError& e) {
    // CLI11 lists the unexpected words last first ("not expected: 10 --step"): name the flag.
    const std::string flag = unknown_flag(c.app, argc, argv);
    return report(flag.empty() ? flag_error(c.app, e) : flag_error(c.app, CLI::ExtrasError(flag, e.get_exit_code())), 2);
  } catch (const CLI::ParseError& e) {
    return report(flag_error(c.app, e), 2);
  }

  qevolve::io::install_interrupt_handlers();  // SIGINT / SIGTERM: temporaries removed, exit 130 / 143
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
  // Only run, optimize, sweep and the bench's own workers are distributed; under mpirun any other
  // command (check, spectrum, bench) runs on rank 0 alone, so that nothing is written twice.
  const bool distributed =
      c.run->parsed() || c.optimize->parsed() || c.sweep->parsed() || (c.scaling->parsed() && !c.bench_opts.worker_row.empty());
  if (!root && !distributed) return 0;
  qevolve::commands::Streams io{root ? std::cout : null_stream, root ? std::cerr : null_stream, c.quiet,
                                root && !c.quiet && isatty(2) != 0};
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
    if (ranks == 1) cap_threads(c, io.err);
    return dispatch(c, io);
  } catch (const qevolve::InputError& e) {
    return fail(e.what(), 2);
  } catch (const qevolve::NumericalError& e) {
    return fail(e.what(), 3);
  } catch (const std::bad_alloc&) {
    return fail("out of memory", 1);
  } catch (const std::exception& e) {
    return fail(e.what(), 1);
  }
}
