// Session (include/qevolve/session.hpp): a config parsed once; each call applies its overrides
// as `--set` does, validates, and evaluates through the commands' own pieces -- the sweep's
// cached simulator (sweep_points.hpp) for plain runs, GradientProblem when something is
// trainable, plan_sweep / evaluate_sweep, optimize_problem -- so its numbers are the CLI's.
#include <algorithm>
#include <chrono>
#include <exception>
#include <mutex>
#include <optional>

#include "stopwatch.hpp"
#include "config_input.hpp"
#include "converge_search.hpp"
#include "optimize_problem.hpp"
#include "qevolve/plan.hpp"
#include "qevolve/config_writer.hpp"
#include "qevolve/device.hpp"
#include "qevolve/device_param_key.hpp"
#include "qevolve/linalg.hpp"
#include "qevolve/memory_estimate.hpp"
#include "qevolve/resolve.hpp"
#include "qevolve/simulator.hpp"
#include "qevolve/spectrum.hpp"
#include "qevolve/sweep_axis.hpp"
#include "session_impl.hpp"
#include "auto_steps.hpp"
#include "run_evaluation.hpp"
#include "ensemble_run.hpp"
#include "qevolve/ensemble.hpp"

namespace qevolve::commands {

struct Session::Impl {
  Impl(std::string text, std::string name, std::vector<io::Override> s, int t)
      : parsed(std::move(text), std::move(name)), sets(std::move(s)), threads(t) {}
  io::ParsedConfig parsed;
  std::vector<io::Override> sets;  ///< the session's own, before each call's
  int threads = 0;
  std::mutex lock;                 ///< one call at a time (the caches below)
  comm::SerialCommunicator serial;  ///< GradientProblem keeps a reference: lives as long as the session
  CachedSimulator cache;            ///< plain runs
  SweepStats stats;
  /// Trainable configs: the problem of the overrides `problem_key`, its values at build.
  std::shared_ptr<gradient::GradientProblem> problem;
  std::vector<std::string> problem_key;
  RVector problem_x0;
  /// value_and_grad's own problem (the session's overrides): it may move device parameters,
  /// which replaces its simulator, so no Result refers to it.
  std::unique_ptr<gradient::GradientProblem> optimizer;
  /// An `ensemble:` config's members' problem of the overrides `ensemble_key` (value_and_grad,
  /// gradient, parameters), its values at build, and the members built by such problems so far.
  std::unique_ptr<gradient::EnsembleProblem> ensemble;
  std::vector<std::string> ensemble_key;
  RVector ensemble_x0;
  long ensemble_builds = 0;

  [[nodiscard]] std::vector<io::Override> overrides(const std::vector<std::string>& more) const;
  /// The config or the overrides name a matrix_file (an HDF5 read).
  [[nodiscard]] bool reads_files(const std::vector<io::Override>& all) const;
  /// hdf5_mutex(), locked when reads_files(all) or `also` (HDF5 is entered by one thread at a time).
  [[nodiscard]] std::unique_lock<std::mutex> file_lock(const std::vector<io::Override>& all, bool also = false) const;
  [[nodiscard]] Config read(const std::vector<io::Override>& all, io::Purpose purpose, bool keep_text,
                            device::ResolvedDevice* resolved = nullptr) const;
  gradient::GradientProblem& problem_for(const std::vector<io::Override>& all, const Config& config);
  /// InputError (the resolution stage's words) when nothing is trainable: gradients need it.
  void require_trainable(const Config& config) const;
  [[nodiscard]] std::optional<RVector> trained_values(const std::vector<io::Override>& all,
                                                      const Config& config) const;
  /// The ensemble problem of the overrides `all` (config: read with them), built when they
  /// change; its members are checked first (io::check_ensemble, as `qevolve run`).
  gradient::EnsembleProblem& ensemble_for(const std::vector<io::Override>& all, Config config);
  /// run() of an `ensemble:` config: the nominal simulator (the cache's, or the trainable
  /// problem's), then every member as `qevolve run` evaluates them.
  [[nodiscard]] RunResult run_ensemble(Config config, const device::ResolvedDevice& resolved,
                                       std::vector<io::Override> all,
                                       std::chrono::steady_clock::time_point t0);
};

bool Session::Impl::reads_files(const std::vector<io::Override>& all) const {
  std::vector<std::string> keys, values;
  for (const io::Override& o : all) {
    keys.push_back(o.key);
    values.push_back(o.value);
  }
  return reads_hdf5(parsed, keys, values);
}

std::unique_lock<std::mutex> Session::Impl::file_lock(const std::vector<io::Override>& all, bool also) const {
  std::unique_lock<std::mutex> files(hdf5_mutex(), std::defer_lock);
  if (also || reads_files(all)) files.lock();
  return files;
}

std::vector<io::Override> Session::Impl::overrides(const std::vector<std::string>& more) const {
  std::vector<io::Override> all = sets;
  for (const std::string& s : more) all.push_back(io::parse_override(s, "--set"));
  return all;
}

/// The config with `all` applied, validated for `purpose`. A problem is reported as the CLI
/// reports it: read again from the text with parse_config, which keeps the file's locations.
Config Session::Impl::read(const std::vector<io::Override>& all, io::Purpose purpose, bool keep_text,
                           device::ResolvedDevice* resolved) const {
  const auto files = file_lock(all);  // a matrix_file target: validation reads it
  try {
    Config config = parsed.read(all, keep_text);
    const device::ResolvedDevice dev =
        purpose == io::Purpose::inspect ? io::resolve_device(config) : io::resolve(config, purpose);
    (void)io::check_memory(config, dev, purpose, std::nullopt, false);
    if (resolved) *resolved = dev;
    return config;
  } catch (const InputError&) {
    if (all.empty()) throw;
    const Config located = io::parse_config(parsed.text(), parsed.name(), all);
    (void)(purpose == io::Purpose::inspect ? io::resolve_device(located) : io::resolve(located, purpose));
    throw;
  }
}

namespace {
std::vector<std::string> key_of(const std::vector<io::Override>& all) {
  std::vector<std::string> key;
  for (const io::Override& o : all) key.push_back(o.key + "=" + o.value);
  return key;
}

/// What an override changes, as a sweep axis's scope: the device for `device.*`, the
/// simulator for anything but pulses, lines and target (evolution, output: the trace grid); a
/// pulse's or a line's key only the pulses and their lines (Simulator::set_drive).
SweepPoint point_of(Config config, device::ResolvedDevice resolved, const std::vector<io::Override>& all) {
  SweepPoint p;
  for (const io::Override& o : all) {
    const std::string top = o.key.substr(0, o.key.find_first_of(".["));
    const std::string entry = o.key + "=" + o.value;
    if (top == "device") p.device_key.push_back(entry);
    if (top != "pulses" && top != "lines" && top != "target") p.simulator_key.push_back(entry);
    if (top == "target") p.target_key.push_back(entry);
  }
  p.config = std::move(config);
  p.resolved = std::move(resolved);
  return p;
}

/// The derivatives of the spectrum's energy figures with respect to `params`, one column each.
void take_spectrum_gradient(SpectrumData& s, const device::Device& dev, const device::DressedBasis& dressed,
                            const std::vector<device::DeviceParam>& params) {
  const auto K = static_cast<Index>(params.size());
  const auto modes = static_cast<Index>(s.modes.size()), pairs = static_cast<Index>(s.zz_khz.size());
  s.energies_gradient.resize(dressed.energies.size(), K);
  s.f01_bare_gradient.resize(modes, K);
  s.f12_bare_gradient.resize(modes, K);
  s.f01_dressed_gradient.resize(modes, K);
  s.zz_khz_gradient.resize(pairs, K);
  const auto column = [](const std::vector<double>& v) {
    return Eigen::Map<const RVector>(v.data(), static_cast<Index>(v.size()));
  };
  for (Index j = 0; j < K; ++j) {
    const device::DeviceParam& p = params[static_cast<std::size_t>(j)];
    const device::SpectrumDerivative d = device::spectrum_derivative(dev, dressed, p);
    s.gradient_names.push_back(p.name);
    s.energies_gradient.col(j) = d.energies;
    s.f01_bare_gradient.col(j) = column(d.f01_bare);
    s.f12_bare_gradient.col(j) = column(d.f12_bare);
    s.f01_dressed_gradient.col(j) = column(d.f01_dressed);
    s.zz_khz_gradient.col(j) = column(d.zz_khz);
  }
}

}  // namespace

/// When the session's own problem is built and the overrides beyond the session's are numbers
/// for pulse parameters it trains, with no pulse `auto` to re-resolve: the problem's values with
/// those numbers (no rebuild). Empty otherwise.
std::optional<RVector> Session::Impl::trained_values(const std::vector<io::Override>& all,
                                                     const Config& config) const {
  if (!problem || problem_key != key_of(sets)) return std::nullopt;
  for (const PulseSpec& p : config.pulses)
    if (p.amplitude_auto || p.frequency_mode != FrequencyMode::value) return std::nullopt;
  const std::vector<std::string> names = problem->names();
  RVector x = problem_x0;
  for (std::size_t k = sets.size(); k < all.size(); ++k) {
    const io::Override& o = all[k];
    const auto it = std::find(names.begin(), names.end(), o.key);
    if (it == names.end() || o.key.rfind("pulses[", 0) != 0) return std::nullopt;
    std::size_t used = 0;
    try {
      x(it - names.begin()) = std::stod(o.value, &used);
    } catch (const std::exception&) {
      return std::nullopt;
    }
    if (used != o.value.size()) return std::nullopt;
  }
  return x;
}

void Session::Impl::require_trainable(const Config& config) const { io::check_trainable(config); }

/// The GradientProblem of the overrides `all`: the session's own with new values for overrides
/// of trained pulse parameters, else rebuilt when the overrides change; at its build values
/// otherwise; no warm start (as a fresh `qevolve run` computes it).
gradient::GradientProblem& Session::Impl::problem_for(const std::vector<io::Override>& all, const Config& config) {
  require_trainable(config);
  const std::vector<std::string> key = key_of(all);
  const std::optional<RVector> x = key == problem_key ? std::optional<RVector>() : trained_values(all, config);
  if (!problem || (key != problem_key && !x)) {
    problem.reset();
    problem = std::make_shared<gradient::GradientProblem>(io::gradient_plan(config), threads, serial);
    problem_key = key;
    problem_x0 = problem->values();
  }
  problem->set_values(x ? *x : problem_x0);
  problem->set_warm_angles(RVector());
  problem->set_leakage_weight(0.0);
  return *problem;
}

gradient::EnsembleProblem& Session::Impl::ensemble_for(const std::vector<io::Override>& all, Config config) {
  require_trainable(config);
  const std::vector<std::string> key = key_of(all);
  if (!ensemble || key != ensemble_key) {
    io::check_ensemble(parsed, all, config);
    config.yaml_text = parsed.text_with(all);  // the members' configs are this text with their overrides
    ensemble.reset();
    ensemble = ensemble_problem(config, threads, serial, serial);
    ensemble_key = key;
    ensemble_x0 = ensemble->values();
    ensemble_builds += ensemble->builds();
  }
  return *ensemble;
}

RunResult Session::Impl::run_ensemble(Config config, const device::ResolvedDevice& resolved,
                                      std::vector<io::Override> all, std::chrono::steady_clock::time_point t0) {
  io::check_ensemble(parsed, all, config);  // as `qevolve run` checks every member first
  config.yaml_text = parsed.text_with(all);
  const auto files = file_lock(all);  // a matrix_file target: the problems read it
  std::shared_ptr<const solver::Simulator> sim;
  std::vector<std::string> names;
  if (io::has_trainable(config)) {  // the nominal simulator as `qevolve run` builds it
    gradient::GradientProblem& nominal = problem_for(all, config);
    sim = std::shared_ptr<const solver::Simulator>(problem, &nominal.simulator());
    names = nominal.names();
  } else {
    SweepPoint point = point_of(config, resolved, all);
    (void)cache.prepare(point, stats, threads);
    sim = cache.simulator();
  }
  RunReport report;
  report.config = &config;
  report.sim = sim.get();
  take_ensemble(report, evaluate_ensemble(config, *sim, threads, serial, serial), config, std::move(names));
  config.yaml_text.clear();  // emitted by save()
  return RunResult(
      make_run_result(std::move(sim), std::move(config), parsed, std::move(all), std::move(report), seconds_since(t0)));
}

Session::Session(std::string text, std::string name, std::vector<std::string> sets, int threads) {
  std::vector<io::Override> parsed_sets;
  for (const std::string& s : sets) parsed_sets.push_back(io::parse_override(s, "--set"));
  impl_ = std::make_unique<Impl>(std::move(text), std::move(name), std::move(parsed_sets), threads);
  // A config that `qevolve check` refuses fails here, with check's message: the device alone
  // for a spectrum-only config, else the whole resolution stage of the command it is for.
  // Each call checks its own overrides again.
  const Config config = impl_->read(impl_->sets, io::Purpose::inspect, false);
  if (const io::Purpose purpose = command_purpose(config); purpose != io::Purpose::inspect)
    (void)impl_->read(impl_->sets, purpose, false);
  if (config.ensemble) io::check_ensemble(impl_->parsed, impl_->sets, config);  // as `qevolve check`
}

Session Session::from_file(const std::string& path, std::vector<std::string> sets, int threads) {
  return Session(io::read_config_source(path), io::source_name(path), std::move(sets), threads);
}

Session::~Session() = default;
Session::Session(Session&&) noexcept = default;
Session& Session::operator=(Session&&) noexcept = default;
int Session::threads() const { return impl_->threads; }
const std::string& Session::text() const { return impl_->parsed.text(); }
const std::string& Session::name() const { return impl_->parsed.name(); }
long Session::ensemble_builds() const { return impl_->ensemble_builds; }

RunResult Session::run(const std::vector<std::string>& overrides) {
  const auto t0 = std::chrono::steady_clock::now();
  Impl& m = *impl_;
  const std::lock_guard<std::mutex> guard(m.lock);
  std::vector<io::Override> all = m.overrides(overrides);
  device::ResolvedDevice resolved;
  Config config = m.read(all, io::Purpose::evolve, false, &resolved);
  linalg::set_blas_threads(m.threads);  // as --threads: BLAS too
  if (config.ensemble) return m.run_ensemble(std::move(config), resolved, std::move(all), t0);
  const bool trace = config.output.trace.requested();
  RunReport report;
  std::shared_ptr<const solver::Simulator> sim;
  if (io::has_trainable(config)) {
    const auto files = m.file_lock(all);  // a matrix_file target: the problem reads it
    gradient::GradientProblem& problem = m.problem_for(all, config);
    sim = std::shared_ptr<const solver::Simulator>(m.problem, &problem.simulator());
    const RunTarget target{nullptr, std::nullopt, &problem};  // as `qevolve run` (run_evaluation.hpp)
    RunEvaluation run = evaluate_run(target, config.evolution, m.serial, m.serial, run_hooks(*sim, m.serial, trace));
    gradient::Evaluation& ev = run.ev;
    take_evaluation(report, std::move(ev), problem.names());
    if (run.searched) report.t_step_error = run.search_s;  // the whole search
  } else {
    SweepPoint point = point_of(std::move(config), std::move(resolved), all);
    RunEvaluation run = m.cache.evaluate(point, m.stats, m.threads, trace);
    take_evaluation(report, std::move(run.ev), {});
    if (run.searched) report.t_step_error = run.search_s;  // the whole search
    sim = m.cache.simulator();
    config = std::move(point.config);
  }
  return RunResult(make_run_result(std::move(sim), std::move(config), m.parsed, std::move(all), std::move(report),
                                   seconds_since(t0)));
}

std::pair<std::vector<std::string>, RVector> Session::gradient(const std::vector<std::string>& overrides) {
  Impl& m = *impl_;
  const std::lock_guard<std::mutex> guard(m.lock);
  const std::vector<io::Override> all = m.overrides(overrides);
  const Config config = m.read(all, io::Purpose::evolve, false);
  linalg::set_blas_threads(m.threads);
  const auto files = m.file_lock(all);  // a matrix_file target: the problem reads it
  if (config.ensemble) {  // the objective's, as `qevolve run` writes /gradient
    gradient::EnsembleProblem& problem = m.ensemble_for(all, config);
    problem.set_values(m.ensemble_x0);
    problem.set_warm_angles(RVector());
    problem.set_leakage_weight(0.0);
    gradient::Evaluation ev = problem.evaluate(true, gradient::PipelineHooks{});
    return {problem.names(), std::move(ev.gradient)};
  }
  gradient::GradientProblem& problem = m.problem_for(all, config);
  gradient::Evaluation ev = problem.evaluate(true);
  return {problem.names(), std::move(ev.gradient)};
}

const std::vector<gradient::ParameterInfo>& Session::parameters() {
  Impl& m = *impl_;
  const std::lock_guard<std::mutex> guard(m.lock);
  const Config config = m.read(m.sets, io::Purpose::evolve, false);
  const auto files = m.file_lock(m.sets);  // a matrix_file target: the problem reads it
  if (config.ensemble) return m.ensemble_for(m.sets, config).parameters();  // value_and_grad's
  return m.problem_for(m.sets, config).parameters();
}

RVector Session::x0() {
  (void)parameters();
  const Impl& m = *impl_;
  return m.ensemble && m.ensemble_key == key_of(m.sets) ? m.ensemble_x0 : m.problem_x0;
}

std::pair<double, RVector> Session::value_and_grad(const RVector& x, bool scaled) {
  Impl& m = *impl_;
  const std::lock_guard<std::mutex> guard(m.lock);
  const Config config = m.read(m.sets, io::Purpose::evolve, false);
  m.require_trainable(config);
  const auto files = m.file_lock(m.sets);  // a matrix_file target: the problem reads it
  if (!m.optimizer && !config.ensemble)
    m.optimizer = std::make_unique<gradient::GradientProblem>(io::gradient_plan(config), m.threads, m.serial);
  gradient::Problem& problem = config.ensemble ? static_cast<gradient::Problem&>(m.ensemble_for(m.sets, config))
                                               : static_cast<gradient::Problem&>(*m.optimizer);
  if (x.size() != static_cast<Index>(problem.parameters().size()))
    throw InputError("value_and_grad: x has " + std::to_string(x.size()) + " values for " +
                     std::to_string(problem.parameters().size()) + " parameters");
  linalg::set_blas_threads(m.threads);
  // As `qevolve optimize` evaluates: its objective, the angles warm-started from the last call.
  problem.set_leakage_weight(config.optimize.value_or(OptimizeSpec{}).leakage_weight);
  RVector scale(x.size());
  for (Index i = 0; i < x.size(); ++i)
    scale(i) = scaled ? problem.parameters()[static_cast<std::size_t>(i)].scale : 1.0;
  problem.set_values(x.cwiseProduct(scale));
  gradient::Evaluation ev = problem.evaluate(true);
  return {ev.objective, ev.gradient.cwiseProduct(scale)};
}

SweepData Session::sweep(const std::vector<std::string>& vary, const std::vector<std::string>& overrides) {
  const auto t0 = std::chrono::steady_clock::now();
  Impl& m = *impl_;
  const std::lock_guard<std::mutex> guard(m.lock);
  auto data = std::make_shared<SweepData::Impl>();
  const int threads = solver::resolve_threads(m.threads);
  const std::vector<io::Override> all = m.overrides(overrides);
  {
    // The points' validation reads a matrix_file target with HDF5 (on one thread: build_points).
    const auto files = m.file_lock(all, reads_hdf5(m.parsed, vary));
    data->plan = plan_sweep(m.parsed, all, vary, m.serial, threads);
    data->warnings = sweep_plausibility(data->plan, m.parsed, all);  // `qevolve sweep` prints them first
  }
  data->grid = evaluate_sweep(data->plan, threads, m.serial, data->stats, {});
  for (std::string& w : sweep_warnings(data->plan, data->stats, m.parsed, all, m.serial))
    data->warnings.push_back(std::move(w));
  data->wall_time = seconds_since(t0);
  return SweepData(std::move(data));
}

SpectrumData Session::spectrum(const std::vector<std::string>& overrides, const std::vector<std::string>& gradient) {
  Impl& m = *impl_;
  const std::lock_guard<std::mutex> guard(m.lock);
  device::ResolvedDevice resolved;
  const std::vector<io::Override> all = m.overrides(overrides);
  const Config config = m.read(all, io::Purpose::inspect, false, &resolved);
  io::refuse_ensemble(config, "spectrum");  // as `qevolve spectrum`
  const std::vector<device::DeviceParam> params = io::device_params_of_keys(config, resolved, gradient, "gradient");
  const device::Device dev = device::build_device(resolved);
  const device::DressedBasis dressed = device::dress(dev);
  const device::SpectrumReport report = device::analyse_spectrum(dev, dressed);
  SpectrumData s;
  s.energies = dressed.energies;
  for (Index l : dressed.labels) s.labels.push_back(dev.label(l));
  for (const auto& f : report.modes) {
    s.modes.push_back(f.name);
    s.types.push_back(f.type);
    s.f01_bare.push_back(f.f01_bare);
    s.f12_bare.push_back(f.f12_bare);
    s.f01_dressed.push_back(f.f01_dressed);
    s.phi01.push_back(f.phi01);
    s.n01.push_back(f.n01);
  }
  for (const auto& p : report.zz) {
    s.zz_pairs.emplace_back(p.a, p.b);
    s.zz_khz.push_back(p.zz_khz);
  }
  if (!params.empty()) take_spectrum_gradient(s, dev, dressed, params);
  s.warnings = session_plausibility(config, resolved.modes, m.parsed, all);  // as `qevolve spectrum` prints them
  return s;
}

OptimizeData Session::optimize(const std::vector<std::string>& overrides, const std::string& resume,
                               const std::function<void(const std::string&)>& line) {
  const auto t0 = std::chrono::steady_clock::now();
  Impl& m = *impl_;
  const std::lock_guard<std::mutex> guard(m.lock);
  std::vector<io::Override> all = m.overrides(overrides);
  Config config = m.read(all, io::Purpose::optimize, true);  // the text: the optimised YAML keeps it
  linalg::set_blas_threads(m.threads);
  // A checkpoint is written (and a resume read) with HDF5 at every iteration; a matrix_file
  // target is read by the problem.
  const auto files = m.file_lock(all, !resume.empty() || (config.optimize && !config.optimize->checkpoint.empty()));
  if (config.ensemble) io::check_ensemble(m.parsed, all, config);
  // An ensemble (docs/ensembles.md): its members' problems, built once, optimised together.
  std::shared_ptr<gradient::EnsembleProblem> members;
  if (config.ensemble) members = ensemble_problem(config, m.threads, m.serial, m.serial);
  std::shared_ptr<gradient::Problem> problem =
      members ? std::shared_ptr<gradient::Problem>(members)
              : std::make_shared<gradient::GradientProblem>(io::gradient_plan(config), m.threads, m.serial);
  const CertifiedOutcome certified = optimize_certified(*problem, config, resume, true, m.serial, line);
  const OptimizeOutcome& outcome = certified.outcome;
  RunReport report;
  report.t_optimize = outcome.seconds;
  report.history = outcome.history;
  report.leakage_weight = outcome.leakage_weight;
  report.stop_reason = outcome.stop_reason;
  problem->set_values(outcome.x);  // the final evaluation, at the best point
  gradient::PipelineHooks hooks;
  hooks.trace = config.output.trace.requested();
  hooks.truncation = true;  // the final evaluation's truncation check, as `qevolve optimize`
  if (members) {  // as `qevolve optimize`
    report_optimized_ensemble(report, *members, config, outcome.x0, outcome.x, hooks,
                              certified.certification.has_value());
    if (certified.certification) report.t_step_error = certified.certification->estimate.seconds;
  } else {
    take_evaluation(report, problem->evaluate(true, hooks), problem->names());
    if (certified.certification) report.step_error = certified.certification->estimate;
  }

  OptimizeData out;
  out.names = problem->names();
  out.x0 = outcome.x0;
  out.x = outcome.x;
  for (const HistoryRow& h : outcome.history) {
    out.iteration.push_back(h.iteration);
    out.infidelity.push_back(h.infidelity);
    out.leakage.push_back(h.leakage);
    out.objective.push_back(h.objective);
    out.gradient_norm.push_back(h.gradient_norm);
    out.step.push_back(h.step);
    out.wall_time_s.push_back(h.wall_time_s);
  }
  out.stop_reason = outcome.stop_reason;
  out.evaluations = outcome.evaluations;
  const Config frozen = io::frozen_config(config, problem->simulator());  // steps: certified or chosen by steps: auto
  out.optimized_yaml = write_back_yaml(config, frozen, out.names, outcome.x);
  std::shared_ptr<const solver::Simulator> sim(problem, &problem->simulator());
  config.yaml_text.clear();
  out.result = RunResult(make_run_result(std::move(sim), std::move(config), m.parsed, std::move(all),
                                         std::move(report), seconds_since(t0)));
  return out;
}

ConvergeData Session::converge(double tolerance, const std::vector<std::string>& overrides) {
  const auto t0 = std::chrono::steady_clock::now();
  Impl& m = *impl_;
  const std::lock_guard<std::mutex> guard(m.lock);
  const std::vector<io::Override> all = m.overrides(overrides);
  const Config config = m.read(all, io::Purpose::evolve, true);  // the text: the converged YAML keeps it
  const auto files = m.file_lock(all);  // a matrix_file target: each simulator's objective reads it
  check_converge_input(config, tolerance, "tolerance", std::nullopt);
  linalg::set_blas_threads(m.threads);
  ConvergeRequest request;
  request.tolerance = tolerance;
  request.threads = m.threads;
  const ConvergeOutcome o = converge_config(config, request);
  ConvergeData d;
  d.table = converge_table_header();
  for (const ConvergeRow& r : o.rows) {
    d.settings.push_back(r.setting);
    d.verdicts.push_back(r.verdict);
    d.fidelity.push_back(r.fidelity);
    d.change.push_back(r.change);
    d.estimate.push_back(r.estimate);
    d.seconds.push_back(r.seconds);
    d.table += format_row(r);
  }
  d.steps = o.steps;
  d.modes = o.modes;
  d.levels = o.levels;
  d.final_fidelity = o.fidelity;
  d.final_estimate = o.estimate;
  d.converged = o.converged;
  d.stop_reason = o.stop;
  d.converged_yaml = converged_yaml(config, o);
  d.wall_time = seconds_since(t0);
  return d;
}

}  // namespace qevolve::commands
