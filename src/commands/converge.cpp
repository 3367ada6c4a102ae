// `qevolve converge CONFIG`: the steps and every mode's levels refined until F moves by less
// than the tolerance (converge_search.hpp, docs/accuracy.md "qevolve converge"); prints the
// table and writes the converged config (the `--set` keys applied).
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <string>
#include <system_error>

#include "config_input.hpp"
#include "converge_search.hpp"
#include "qevolve/commands.hpp"
#include "qevolve/error.hpp"
#include "qevolve/interrupt.hpp"
#include "qevolve/linalg.hpp"
#include "qevolve/output_path.hpp"
#include "stopwatch.hpp"

namespace qevolve::commands {
namespace {

/// -o, else CONFIG.converged.yaml (stdin.converged.yaml for `-`).
std::string converged_path(const ConvergeOptions& options) {
  if (!options.output.empty()) return options.output;
  std::filesystem::path p = options.config_path == "-" ? std::filesystem::path("stdin.yaml")
                                                       : std::filesystem::path(options.config_path);
  p.replace_extension(".converged.yaml");
  return p.string();
}

/// The converged config may replace neither the config nor a file an earlier `converge` did not
/// write (its first line), unless --force (docs/cli.md "Commands").
void check_converged_path(const std::string& path, const Config& config, bool force) {
  io::check_flag_output("-o", path, config.source_file);
  std::error_code ec;
  if (force || !std::filesystem::exists(path, ec)) return;
  std::ifstream f(path);
  std::string first;
  std::getline(f, first);
  if (first.rfind(kConvergedHeader, 0) != 0)
    throw InputError({}, "-o",
                     "the converged config would replace `" + path + "`, which qevolve converge did not write",
                     "another output name, or --force to replace it");
}

void write_text(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  const io::TempFileGuard guard(tmp);  // removed if interrupted (docs/cli.md "Signals")
  std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
  if (!f) throw InputError(path + ": cannot write the converged config");
  f << text;
  f.close();
  if (!f) throw InputError(path + ": cannot write the converged config");
  std::filesystem::rename(tmp, path);
}

std::string levels_text(const ConvergeOutcome& o) {
  std::string s;
  double dim = 1.0;
  for (std::size_t m = 0; m < o.modes.size(); ++m) {
    s += (m ? ", " : "") + o.modes[m] + " " + std::to_string(o.levels[m]);
    dim *= o.levels[m];
  }
  char d[40];
  std::snprintf(d, sizeof d, " (D = %.0f)", dim);
  return s + d;
}

}  // namespace

int converge(const ConvergeOptions& options, Streams io) {
  const auto t0 = std::chrono::steady_clock::now();
  comm::SerialCommunicator serial;  // under mpirun `converge` runs on rank 0 alone
  const Config config = load_command_config(options.config_path, options.sets, serial);
  linalg::set_blas_threads(options.threads);  // --threads bounds BLAS too
  // Every input error, the config and each mode's first refinement in memory, before any work.
  check_converge_input(config, options.tolerance, "--tolerance", options.max_memory);
  const std::string path = converged_path(options);
  check_converged_path(path, config, options.force);

  ConvergeRequest request;
  request.tolerance = options.tolerance;
  request.threads = options.threads;
  request.max_memory = options.max_memory;
  if (!io.quiet) {
    char head[200];
    std::snprintf(head, sizeof head, "qevolve converge: %s, tolerance T = %.1e (T/2 = %.1e for the steps, T/2 for the levels)\n",
                  options.config_path.c_str(), options.tolerance, 0.5 * options.tolerance);
    io.out << head << converge_table_header() << std::flush;
    request.on_row = [&io](const ConvergeRow& row) { io.out << format_row(row) << std::flush; };
  }
  const ConvergeOutcome outcome = converge_config(config, request);
  write_text(path, converged_yaml(config, outcome));
  if (!io.quiet) {
    char line[300];
    std::snprintf(line, sizeof line, "%s: F = %.12f \u00b1 %.1e (steps) (1 - F = %.4e) at %d steps, levels ",
                  outcome.converged ? "converged" : "stopped", outcome.fidelity, outcome.estimate,
                  1.0 - outcome.fidelity, outcome.steps);
    io.out << line << levels_text(outcome) << "\n";
    std::snprintf(line, sizeof line, "wall time: %.2f s (%zu rows)\n", seconds_since(t0), outcome.rows.size());
    io.out << line << "wrote " << path << (outcome.converged ? " (the converged config)" : " (the best config so far)")
           << "\n";
  }
  if (!outcome.converged)
    throw NumericalError("converge stopped before F moved by less than the tolerance: " + outcome.stop +
                         " (docs/accuracy.md \"qevolve converge\"); " + path + " holds the best config so far");
  return 0;
}

}  // namespace qevolve::commands
