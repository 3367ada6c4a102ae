// `qevolve run`: config -> device -> cached simulator -> the one pipeline of the gradient layer
// (forward -> gather -> fidelity -> with trainable parameters the adjoint pass) -> HDF5 +
// summary. With trainable parameters GradientProblem owns the simulator and adds the gradient
// pass; /gradient and /gradient_names are written.
#include <memory>
#include <optional>
#include <ostream>
#include <string>

#include "config_input.hpp"
#include "ensemble_run.hpp"
#include "progress.hpp"
#include "rank_device.hpp"
#include "qevolve/plan.hpp"
#include "qevolve/resolve.hpp"
#include "qevolve/step_error.hpp"
#include "qevolve/comm.hpp"
#include "qevolve/commands.hpp"
#include "qevolve/config_loader.hpp"
#include "qevolve/device.hpp"
#include "qevolve/gradient.hpp"
#include "qevolve/linalg.hpp"
#include "qevolve/memory_estimate.hpp"
#include "qevolve/output_path.hpp"
#include "run_evaluation.hpp"
#include "run_output.hpp"
#include "sweep_points.hpp"
#include "truncation_notes.hpp"
#include "time_estimate.hpp"

namespace qevolve::commands {

namespace {

/// Rank 0 after the work: warnings, the time cache, the output file and the summary.
void report_run(const RunOptions& options, Streams io, RunReport& report, bool estimated,
                const std::string& output, Clock::time_point t_start) {
  const Config& config = *report.config;
  const solver::Simulator& sim = *report.sim;
  print_warning_lines(io.err, truncation_warnings(sim.device(), report.top_level_population));
  if (const std::string w = step_error_warning(report); !w.empty()) print_warning_lines(io.err, {w});
  if (estimated) {  // what this run measured refines the cached estimate of its kind of work
    // An ensemble's estimate is per member (plus the nominal's build): its figures are sums.
    const double K = report.ensemble ? static_cast<double>(report.ensemble->fidelity.size()) : 1.0;
    if (K >= 1.0)
      remember_run_time(config, options.threads, report.t_build / (K > 1.0 ? K + 1.0 : 1.0), report.t_evolve / K,
                        report.t_fidelity / K, report.t_gradient / K);
  }

  const auto t3 = Clock::now();
  bool energies_skipped = false;
  if (!output.empty()) energies_skipped = write_run_output(output, report, since(t_start));
  const double t_out = since(t3);

  if (!io.quiet) {  // --quiet: errors and warnings only
    print_summary(io.out, report, "qevolve run: " + options.config_path, t_out, since(t_start));
    print_destination(io.out, output);
  }
  if (energies_skipped)
    io.err << "qevolve: warning: /energies not written: D = " << report.sim->device().dim()
           << " is too large for a dense diagonalisation\n";
}

}  // namespace

int run(const RunOptions& options, Streams io) {
  const auto t_start = Clock::now();
  // Under mpirun every rank runs this; the initial states are sharded over the ranks, only
  // rank 0 shows progress, writes and prints (docs/distributed.md).
  comm::Communicator& comm = comm::world();
  const bool root = comm.is_root();
  const bool show = root && !io.quiet;
  Config config = load_command_config(options.config_path, options.sets, comm, options.steps);
  linalg::set_blas_threads(options.threads);  // --threads bounds BLAS too (no spinning workers)
  // Every input error, and a run that cannot fit in memory, before any work.
  const device::ResolvedDevice resolved = io::resolve(config, io::Purpose::evolve);
  check_command_ensemble(config);  // each member of `ensemble:` (docs/config.md "ensemble")
  const io::MemoryEstimate memory = io::check_memory(config, resolved, io::Purpose::evolve, options.max_memory,
                                                     !options.output.empty() || !config.output.file.empty());
  io::check_output_path(config, options.output, io::Replacing{"run", options.force});  // before the work, not after it
  bind_rank_device(comm::world(), config);  // one GPU per rank (CUDA builds)
  // Ranks on GPUs reduce through NCCL (docs/distributed.md); the output gather stays on MPI.
  const auto nccl = comm::gpu_reductions(comm, config.evolution.device == ComputeDevice::cuda);
  comm::Communicator& reduce = nccl ? *nccl : comm;
  const std::string output = options.output.empty() ? config.output.file : options.output;
  // The time estimate (docs/cli.md "Time estimate"): serial runs; a probe only when a quick look
  // extrapolates to 10 s or more, else what this machine's cache knows; told only from 10 s on.
  std::optional<TimeEstimate> estimate;
  if (show && comm.size() == 1 && !config.evolution.steps_auto)  // auto: the steps are not known yet
    estimate = estimate_run_time(config, options.threads, memory, !output.empty(), options.estimate_above);
  const bool tell = estimate && estimate->total() >= options.estimate_above;
  if (tell) io.err << "qevolve: time estimate: " << describe(*estimate) << "\n";
  const auto t_build = Clock::now();  // the build phase starts after the estimate's probe
  RunReport report;
  if (tell) report.estimated_s = estimate->total();
  report.config = &config;
  report.ranks = comm.size();
  // The simulator: GradientProblem's when something is trainable (it adds the gradient pass to
  // the pipeline), else the cached simulator every plain run evaluates with (a sweep point's, a
  // Session's: sweep_points.hpp).
  std::unique_ptr<gradient::GradientProblem> problem;
  CachedSimulator cache;
  SweepStats built;
  std::optional<SweepPoint> point;
  if (io::has_trainable(config)) {
    problem = std::make_unique<gradient::GradientProblem>(io::gradient_plan(config), options.threads, comm, reduce);
  } else {
    point = single_point(config, resolved);
    (void)cache.prepare(*point, built, options.threads);
  }
  const solver::Simulator& sim = problem ? problem->simulator() : *cache.simulator();
  report.sim = &sim;
  report.t_build = since(t_build);
  if (root) print_warnings(io.err, config, sim);  // warnings hold before any work, even with --quiet
  const double gradient_s = estimate ? estimate->gradient() : 0.0;
  std::optional<ProgressBar> bar, coarse;  // the evolution's, after the step search; the step-error run's
  RunCallbacks shown;
  shown.search_log = [&io, show](const std::string& line) {
    if (show) io.err << "qevolve: " << line << "\n" << std::flush;
  };
  shown.searched = [&] {
    bar.emplace(io.err, show, io.progress, sim.options().open ? "evolving (Lindblad)" : "evolving", gradient_s,
                options.progress_interval);
  };
  shown.step_error_progress = [&] {
    coarse.emplace(io.err, show, io.progress, "step-error run", 0.0, options.progress_interval);
    return [&coarse](double f) { coarse->update(f); };
  };
  // output.trace: nowhere to write, not recorded
  gradient::PipelineHooks hooks = run_hooks(sim, comm, config.output.trace.requested() && !output.empty());
  hooks.progress = [&bar, &io, show, gradient_s](double f) {
    bar->update(f);
    if (f < 1.0) return;
    bar->finish();
    if (show && gradient_s >= ProgressBar::kLineInterval)
      io.err << "qevolve: evolution done; the gradient (adjoint pass) next, about " << duration_text(gradient_s)
             << "\n" << std::flush;
  };
  if (config.ensemble) {  // every member evaluated on the nominal pulses (docs/ensembles.md)
    EnsembleOutcome e = evaluate_ensemble(config, sim, options.threads, comm, reduce);
    take_ensemble(report, std::move(e), config, problem ? problem->names() : std::vector<std::string>());
  } else {
    RunEvaluation run = problem ? evaluate_run(RunTarget{nullptr, std::nullopt, problem.get()}, config.evolution,
                                               comm, reduce, hooks, shown)
                                : cache.run(*point, built, comm, reduce, hooks, shown);
    coarse.reset();
    take_evaluation(report, std::move(run.ev), problem ? problem->names() : std::vector<std::string>());
    if (run.searched) report.t_step_error = run.search_s;  // the whole search
  }
  bar.reset();
  report.bytes_communicated = comm.bytes_sent() + (nccl ? nccl->bytes_sent() : 0);
  if (!root) return 0;
  report_run(options, io, report, estimate.has_value(), output, t_start);
  return 0;
}

}  // namespace qevolve::commands
