// `qevolve run`: config -> device -> cached simulator -> evolve -> fidelity -> (gradient) ->
// HDF5 + summary. With trainable parameters the gradient layer evaluates (forward + adjoint)
// and /gradient, /gradient_names are written.
#include <memory>
#include <optional>
#include <ostream>
#include <string>

#include "progress.hpp"
#include "qevolve/commands.hpp"
#include "qevolve/config_loader.hpp"
#include "qevolve/device.hpp"
#include "qevolve/gradient.hpp"
#include "qevolve/linalg.hpp"
#include "run_output.hpp"

namespace qevolve::commands {

int run(const RunOptions& options, Streams io) {
  const auto t_start = Clock::now();
  Config config = io::load_config(options.config_path);
  linalg::set_blas_threads(options.threads);  // --threads bounds BLAS too (no spinning workers)
  if (options.steps) config.evolution.steps = *options.steps;
  RunReport report;
  report.config = &config;
  std::unique_ptr<solver::Simulator> sim;
  std::unique_ptr<gradient::GradientProblem> problem;
  if (gradient::has_trainable(config)) {
    problem = std::make_unique<gradient::GradientProblem>(config, options.threads);
    report.sim = &problem->simulator();
    report.t_build = since(t_start);
    take_evaluation(report, problem->evaluate(true), problem->names());
    check_norms(report.columns, report.sim->options());
  } else {
    device::Device dev = device::build_device(config);
    sim = std::make_unique<solver::Simulator>(config, std::move(dev), options.threads);
    report.sim = sim.get();
    report.t_build = since(t_start);
    const auto t1 = Clock::now();
    solver::EvolveResult evolved;
    if (sim->is_open()) {
      ProgressBar bar(io.err, io.progress && !io.quiet, "evolving (Lindblad)");
      report.superoperator = sim->evolve_channel([&bar](double f) { bar.update(f); }).superoperator;
    } else {
      {
        ProgressBar bar(io.err, io.progress && !io.quiet, "evolving");
        evolved = sim->evolve([&bar](double f) { bar.update(f); });
      }
      check_norms(evolved.columns, sim->options());
      report.columns = std::move(evolved.columns);
      report.single_precision_deviation = evolved.single_precision_deviation;
    }
    report.t_evolve = since(t1);
    const auto t2 = Clock::now();
    compute_fidelity(report);
    report.t_fidelity = since(t2);
  }

  const auto t3 = Clock::now();
  const std::string output = options.output.empty() ? config.output.file : options.output;
  bool energies_skipped = false;
  if (!output.empty()) energies_skipped = write_run_output(output, report, since(t_start));
  const double t_out = since(t3);

  print_summary(io.out, report, "qevolve run: " + options.config_path, t_out, since(t_start));
  if (!output.empty()) {
    io.out << "wrote " << output << "\n";
    if (energies_skipped && !io.quiet)
      io.err << "qevolve: warning: /energies not written: D = " << report.sim->device().dim()
             << " is too large for a dense diagonalisation\n";
  }
  return 0;
}

}  // namespace qevolve::commands
