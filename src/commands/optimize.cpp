// `qevolve optimize`: config -> GradientProblem (cached simulator) -> optimize::minimize
// (L-BFGS-B / Adam, checkpoint every iteration, resume by replay) -> final evaluation ->
// HDF5 (/gradient, /history) + the optimised config as YAML + summary.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <system_error>
#include <functional>
#include <fstream>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "config_input.hpp"
#include "qevolve/plan.hpp"
#include "qevolve/resolve.hpp"
#include "qevolve/commands.hpp"
#include "qevolve/config_loader.hpp"
#include "qevolve/comm.hpp"
#include "rank_device.hpp"
#include "qevolve/config_writer.hpp"
#include "qevolve/error.hpp"
#include "qevolve/gradient.hpp"
#include "qevolve/interrupt.hpp"
#include "qevolve/linalg.hpp"
#include "qevolve/memory_estimate.hpp"
#include "qevolve/output_path.hpp"
#include "time_estimate.hpp"
#include "auto_steps.hpp"
#include "qevolve/names.hpp"
#include "qevolve/optimizer.hpp"
#include "qevolve/optimize_record.hpp"
#include "optimize_problem.hpp"
#include "ensemble_run.hpp"
#include "run_output.hpp"
#include "truncation_notes.hpp"

namespace qevolve::commands {
namespace {

/// The gradient problem as the optimiser's objective, in scaled variables u = theta / scale
/// (ParameterInfo::scale: a typical meaningful change of each parameter), which gives the
/// quasi-Newton method sensible first steps whatever the units. f = (1 - F) + w leakage.
/// aux = [1 - F, leakage, the compensation angles the evaluation ended with]: the angles
/// warm-start the next solve, so replay restores them; 1 - F and leakage go to the progress
/// lines and /history. (Checkpoints written before leakage_weight existed hold the angles only.)
class ProblemObjective final : public optimize::Objective {
 public:
  static constexpr Index kMetrics = 2;
  explicit ProblemObjective(gradient::Problem& p) : p_(p), angle_count_(p.warm_angle_count()) {
    const auto& info = p_.parameters();
    scale_.resize(static_cast<Index>(info.size()));
    for (std::size_t i = 0; i < info.size(); ++i) scale_(static_cast<Index>(i)) = info[i].scale;
  }
  [[nodiscard]] std::vector<std::string> names() const override { return p_.names(); }
  [[nodiscard]] RVector lower() const override { return bound(true); }
  [[nodiscard]] RVector upper() const override { return bound(false); }
  double evaluate(const RVector& u, RVector& gradient, RVector& aux) override {
    p_.set_values(to_theta(u));
    gradient::Evaluation ev = p_.evaluate(true);
    gradient = ev.gradient.cwiseProduct(scale_);
    const RVector angles = p_.warm_angles();
    aux.resize(kMetrics + angles.size());
    aux << ev.infidelity, ev.fidelity->leakage, angles;
    return ev.objective;
  }
  void restore(const RVector& aux) override {
    p_.set_warm_angles(aux.size() == kMetrics + angle_count_ ? RVector(aux.tail(angle_count_)) : aux);
  }
  /// 1 - F and leakage of an iterate (NaN for iterates of an older checkpoint).
  [[nodiscard]] std::pair<double, double> metrics(const optimize::IterationRecord& r) const {
    if (r.aux.size() != kMetrics + angle_count_) return {r.objective, std::nan("")};
    return {r.aux(0), r.aux(1)};
  }
  [[nodiscard]] RVector to_theta(const RVector& u) const { return u.cwiseProduct(scale_); }
  [[nodiscard]] RVector to_u(const RVector& theta) const { return theta.cwiseQuotient(scale_); }

 private:
  [[nodiscard]] RVector bound(bool lower) const {
    const auto& info = p_.parameters();
    RVector v(static_cast<Index>(info.size()));
    for (std::size_t i = 0; i < info.size(); ++i)
      v(static_cast<Index>(i)) = (lower ? info[i].lower : info[i].upper) / info[i].scale;
    return v;
  }
  gradient::Problem& p_;
  Index angle_count_;
  RVector scale_;
};

/// The /history rows of the output file.
std::vector<HistoryRow> history_rows(const std::vector<optimize::IterationRecord>& history,
                                     const ProblemObjective& objective) {
  std::vector<HistoryRow> rows;
  for (const auto& r : history) {
    const auto [infidelity, leakage] = objective.metrics(r);
    rows.push_back({r.iteration, infidelity, leakage, r.objective, r.gradient_norm, r.step, r.wall_time_s});
  }
  return rows;
}

/// OUT.h5 -> OUT.optimized.yaml; no output -> CONFIG.optimized.yaml.
std::string yaml_path(const std::string& output, const std::string& config_path) {
  std::filesystem::path p = !output.empty()      ? std::filesystem::path(output)
                            : config_path == "-" ? std::filesystem::path("stdin.yaml")
                                                 : std::filesystem::path(config_path);
  p.replace_extension(".optimized.yaml");
  return p.string();
}

}  // namespace

OptimizeOutcome optimize_problem(gradient::Problem& problem, const OptimizeSpec& spec,
                                 const std::string& resume, bool root,
                                 const std::function<void(const std::string&)>& line) {
  optimize::Settings settings;
  settings.method = spec.method;
  settings.max_iterations = spec.max_iterations;
  settings.target_infidelity = spec.target_infidelity;
  settings.learning_rate = spec.learning_rate;
  problem.set_leakage_weight(spec.leakage_weight);
  settings.objective_name = "1 - F";
  if (spec.leakage_weight > 0.0) {
    char name[80];
    std::snprintf(name, sizeof name, "(1 - F) + %g leakage", spec.leakage_weight);
    settings.objective_name = name;
  }
  // An ensemble's worst member is optimised through its smooth form (docs/ensembles.md).
  if (const auto* e = dynamic_cast<const gradient::EnsembleProblem*>(&problem); e && e->worst())
    settings.objective_name = "J (the members' power mean of " + settings.objective_name + ", p = 16)";
  // A relative checkpoint path is taken relative to the working directory, like output.file.
  settings.checkpoint = root ? spec.checkpoint : std::string();
  settings.resume = resume;
  settings.store = &io::optimize_checkpoint_store();  // HDF5 (include/qevolve/optimize_record.hpp)

  ProblemObjective objective(problem);
  // One line per iteration on stderr, terminal or pipe (docs/optimize.md "Progress").
  auto on_iteration = [&](const optimize::IterationRecord& r) {
    if (!line) return;
    const auto [infidelity, leakage] = objective.metrics(r);
    char text[240];
    int n = std::snprintf(text, sizeof text, "iter %4d  1-F %.6e  leakage %.3e", r.iteration, infidelity, leakage);
    if (spec.leakage_weight > 0.0)
      n += std::snprintf(text + n, sizeof text - static_cast<std::size_t>(n), "  objective %.6e", r.objective);
    n += std::snprintf(text + n, sizeof text - static_cast<std::size_t>(n), "  |grad| %.3e  step %.3e  %8.2f s",
                       r.gradient_norm, r.step, r.wall_time_s);
    // The time left if every iteration to come costs what the mean one did (an upper bound:
    // the other stopping rules may end it sooner; docs/optimize.md "Progress").
    const int left = settings.max_iterations - r.iteration;
    if (r.iteration >= 1 && left > 0)
      std::snprintf(text + n, sizeof text - static_cast<std::size_t>(n), "  (at most %d more, <= %s)", left,
                    duration_text(r.wall_time_s / r.iteration * left).c_str());
    line(std::string(text) + "\n");
  };
  const auto t_opt = Clock::now();
  OptimizeOutcome out;
  out.x0 = problem.values();
  const RVector x0 = objective.to_u(out.x0);
  // The checkpoint to resume from is of this run: what the file shows is checked here, what
  // only its replay shows is refused as it is found (both InputErrors naming the file).
  if (!resume.empty()) io::check_resume(resume, x0, settings);
  optimize::Result result;
  try {
    result = optimize::minimize(objective, x0, settings, on_iteration);
  } catch (const optimize::ReplayMismatch& e) {
    throw io::resume_mismatch(resume, e);
  }
  out.x = objective.to_theta(result.x);
  out.seconds = since(t_opt);
  out.history = history_rows(result.history, objective);
  out.stop_reason = result.stop_reason;
  out.evaluations = result.evaluations;
  out.leakage_weight = spec.leakage_weight;
  return out;
}

namespace {

/// The output, the checkpoint and the optimised YAML may be written (or replaced: --force),
/// checked before any work. The checkpoint may replace only an earlier checkpoint, unless
/// --resume reads this very file (which then says what is wrong with it).
void check_optimize_paths(const Config& config, const OptimizeOptions& options) {
  io::check_output_path(config, options.output, io::Replacing{"optimize", options.force});
  std::error_code same_ec;
  const bool resuming_it = !options.resume.empty() && config.optimize && !config.optimize->checkpoint.empty() &&
                           std::filesystem::equivalent(options.resume, config.optimize->checkpoint, same_ec);
  if (resuming_it)
    io::check_checkpoint_path(config);
  else
    io::check_checkpoint_path(config, io::Replacing{io::kCheckpoint, options.force});
  {  // the optimised config written beside the output (OUT.optimized.yaml)
    const std::string out = options.output.empty() ? config.output.file : options.output;
    const std::string named_by = !options.output.empty() ? "-o" : !out.empty() ? "" : options.config_path;
    io::check_written_back_yaml(yaml_path(out, options.config_path), config, named_by, options.force);
  }
}

/// The optimised config (OUT.optimized.yaml): the trained values at `x`, what the simulator
/// resolved (auto values, duration, the certified steps), written atomically.
void write_optimized_yaml(const std::string& yaml, const Config& config, const gradient::Problem& problem,
                          const RVector& x) {
  const Config frozen = io::frozen_config(config, problem.simulator());  // steps: certified or chosen by steps: auto
  const std::string text = write_back_yaml(config, frozen, problem.names(), x);
  const std::string tmp = yaml + ".tmp";
  const io::TempFileGuard guard(tmp);  // removed if interrupted (docs/cli.md "Signals")
  std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
  if (!f) throw InputError(yaml + ": cannot write the optimised config");
  f << text;
  f.close();
  if (!f) throw InputError(yaml + ": cannot write the optimised config");
  std::filesystem::rename(tmp, yaml);
}

/// The optimisation's lines after the summary: method, iterations, stop reason, the
/// certification, and every parameter from its start to its optimum.
void print_optimize_result(std::ostream& out, const OptimizeSpec& spec, const OptimizeOutcome& result,
                           const std::optional<Certification>& certified, const std::vector<std::string>& names) {
  char line[300];
  // history[0] is the start point, so the number of iterations is one less.
  const std::size_t iterations = result.history.empty() ? 0 : result.history.size() - 1;
  std::snprintf(line, sizeof line, "optimize: %s, %zu iterations, %d evaluations, stop: %s\n",
                enum_name(spec.method), iterations,
                result.evaluations, result.stop_reason.c_str());
  out << line;
  if (certified) {
    const Certification& c = *certified;
    std::snprintf(line, sizeof line, "optimize: %s at %d steps: 1 - F = %.4e \u00b1 %.1e (steps)", 
                  c.certified ? "certified" : "NOT certified", c.steps, 1.0 - c.fidelity, c.estimate.error);
    out << line;
    if (c.rounds > 0) {
      std::snprintf(line, sizeof line, ", optimised further after %d step refinement%s from %d steps", c.rounds,
                    c.rounds == 1 ? "" : "s", c.steps_before);
      out << line;
    }
    out << (c.certified ? "\n" : " (the refinement cap was reached; docs/optimize.md \"Certification\")\n");
  }
  for (std::size_t i = 0; i < names.size(); ++i) {
    std::snprintf(line, sizeof line, "  %-40s %.12g -> %.12g\n", names[i].c_str(),
                  result.x0(static_cast<Index>(i)), result.x(static_cast<Index>(i)));
    out << line;
  }
}

}  // namespace

int optimize(const OptimizeOptions& options, Streams io) {
  const auto t_start = Clock::now();
  Config config = load_command_config(options.config_path, options.sets, comm::world(), options.steps);
  linalg::set_blas_threads(options.threads);  // --threads bounds BLAS too (no spinning workers)
  // Every input error, and a run that cannot fit in memory, before any work.
  (void)io::check_memory(config, io::resolve(config, io::Purpose::optimize), io::Purpose::optimize,
                         options.max_memory, !options.output.empty() || !config.output.file.empty());
  check_command_ensemble(config);  // each member of `ensemble:` (docs/ensembles.md)
  check_optimize_paths(config, options);  // before the work
  bind_rank_device(comm::world(), config);  // one GPU per rank (CUDA builds)
  const OptimizeSpec spec = config.optimize.value_or(OptimizeSpec{});
  // Under mpirun every rank runs the same optimisation on its shard of the initial states: the
  // objective and gradient are reduced (identical on all ranks), so the iterates are too; only
  // rank 0 writes the checkpoint and the outputs (the others write nothing).
  comm::Communicator& world = comm::world();
  const auto nccl = comm::gpu_reductions(world, config.evolution.device == ComputeDevice::cuda);
  comm::Communicator& reduce = nccl ? *nccl : world;  // the output gather stays on MPI (world)
  // An ensemble (docs/ensembles.md): its members' problems, built once, optimised together.
  std::unique_ptr<gradient::EnsembleProblem> members =
      config.ensemble ? ensemble_problem(config, options.threads, world, reduce) : nullptr;
  std::unique_ptr<gradient::GradientProblem> single =
      members ? nullptr : std::make_unique<gradient::GradientProblem>(io::gradient_plan(config), options.threads, world, reduce);
  gradient::Problem& problem = members ? static_cast<gradient::Problem&>(*members) : *single;
  RunReport report;
  report.config = &config;
  report.sim = &problem.simulator();
  report.t_build = since(t_start);
  if (world.is_root()) print_warnings(io.err, config, problem.simulator());  // even with --quiet

  std::function<void(const std::string&)> progress;
  if (!io.quiet) progress = [&io](const std::string& text) { io.err << text << std::flush; };
  // steps: auto, the optimisation, its certification (docs/optimize.md "Certification").
  CertifiedOutcome run = optimize_certified(problem, config, options.resume, world.is_root(), world, progress);
  const OptimizeOutcome& result = run.outcome;
  const std::optional<Certification>& certified = run.certification;
  report.t_optimize = result.seconds;
  report.history = result.history;
  report.leakage_weight = result.leakage_weight;
  report.stop_reason = result.stop_reason;

  // Final evaluation at the best point, for the outputs.
  problem.set_values(result.x);
  gradient::PipelineHooks final_hooks;
  // The trace of the optimised pulses, when there is a file to hold it.
  final_hooks.trace = config.output.trace.requested() && !(options.output.empty() && config.output.file.empty());
  final_hooks.truncation = true;  // the iterations skip the truncation check, the final evaluation runs it
  if (members) {
    report_optimized_ensemble(report, *members, config, result.x0, result.x, final_hooks, certified.has_value());
    if (certified) report.t_step_error = certified->estimate.seconds;
  } else {
    take_evaluation(report, problem.evaluate(true, final_hooks), problem.names());
    if (certified) {  // the same steps and parameters
      report.step_error = certified->estimate;
      report.t_step_error = certified->estimate.seconds;
    }
  }
  if (world.is_root())  // docs/cli.md "The truncation warning"
    print_warning_lines(io.err, truncation_warnings(problem.simulator().device(), report.top_level_population));
  // The values the config left to qevolve, at the optimum: an `auto` one that was trained is
  // no longer the auto value ("auto, then optimised").
  report.resolved = resolved_values(config, problem.simulator());
  const std::vector<std::string> trained = problem.names();
  for (ResolvedValue& v : *report.resolved)
    if (std::find(trained.begin(), trained.end(), v.key) != trained.end()) v.how += ", then optimised";
  report.ranks = world.size();
  report.bytes_communicated = world.bytes_sent() + (nccl ? nccl->bytes_sent() : 0);
  if (!world.is_root()) return 0;

  const auto t3 = Clock::now();
  const std::string output = options.output.empty() ? config.output.file : options.output;
  if (!output.empty()) (void)write_run_output(output, report, since(t_start));
  const std::string yaml = yaml_path(output, options.config_path);
  write_optimized_yaml(yaml, config, problem, result.x);
  const double t_out = since(t3);

  if (io.quiet) return 0;  // errors and warnings only
  print_summary(io.out, report, "qevolve optimize: " + options.config_path, t_out, since(t_start));
  print_optimize_result(io.out, spec, result, certified, report.gradient_names);
  print_destination(io.out, output);
  io.out << "wrote " << yaml << " (the optimised config)\n";
  return 0;
}

}  // namespace qevolve::commands
