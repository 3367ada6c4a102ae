// The results of a Session (include/qevolve/session.hpp): a run's report with what its file
// needs captured, and a sweep's grid. Their files are written by the commands' own writers.
#include "summary_notes.hpp"
#include "line_warnings.hpp"
#include "truncation_notes.hpp"
#include "session_impl.hpp"

#include <chrono>
#include <limits>
#include <mutex>

#include "qevolve/config_loader.hpp"
#include "qevolve/device.hpp"
#include "qevolve/plausibility.hpp"
#include "qevolve/simulator.hpp"

namespace qevolve::commands {
namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

std::vector<std::string> session_plausibility(const Config& config, const std::vector<device::ModeParams>& modes,
                                              const io::ParsedConfig& parsed,
                                              const std::vector<io::Override>& overrides) {
  std::vector<std::string> found = io::plausibility_warnings(config, modes);
  if (found.empty() || overrides.empty()) return found;
  return io::plausibility_warnings(io::parse_config(parsed.text(), parsed.name(), overrides), modes);
}

RunResult::RunResult(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}

bool RunResult::has_fidelity() const { return impl_->report.fidelity.has_value(); }
double RunResult::fidelity() const { return has_fidelity() ? impl_->report.fidelity->fidelity : kNaN; }
double RunResult::fidelity_uncompensated() const {
  return has_fidelity() ? impl_->report.fidelity->fidelity_uncompensated : kNaN;
}
double RunResult::leakage() const { return has_fidelity() ? impl_->report.fidelity->leakage : kNaN; }
double RunResult::fidelity_error_steps() const {
  if (impl_->report.ensemble) return impl_->report.ensemble->objective_step_error;
  return impl_->report.step_error ? impl_->report.step_error->error : kNaN;
}
const EnsembleData* RunResult::ensemble() const { return impl_->ensemble ? &*impl_->ensemble : nullptr; }
bool RunResult::is_open() const { return impl_->sim->options().open; }
const RVector& RunResult::angles() const {
  static const RVector none;
  return has_fidelity() ? impl_->report.fidelity->angles : none;
}
const CMatrix& RunResult::unitary() const { return impl_->report.unitary; }
const CMatrix& RunResult::unitary_compensated() const {
  static const CMatrix none;
  return has_fidelity() ? impl_->report.fidelity->unitary_compensated : none;
}
const CMatrix& RunResult::propagator() const { return impl_->report.columns; }
const CMatrix& RunResult::superoperator() const { return impl_->report.superoperator; }
const std::vector<std::string>& RunResult::gradient_names() const { return impl_->report.gradient_names; }
const RVector& RunResult::gradient() const { return impl_->report.gradient; }
const std::optional<solver::Trace>& RunResult::trace() const { return impl_->report.trace; }
const std::vector<double>& RunResult::top_level_population() const { return impl_->report.top_level_population; }
const solver::PulseSamples& RunResult::pulses() const { return *impl_->report.pulses; }
std::vector<std::pair<std::string, double>> RunResult::resolved() const {
  std::vector<std::pair<std::string, double>> out;
  for (const ResolvedValue& v : *impl_->report.resolved) out.emplace_back(v.key, v.value);
  return out;
}
std::vector<std::string> RunResult::initial_labels() const { return impl_->sim->states().initial_labels(); }
const std::vector<std::string>& RunResult::warnings() const { return impl_->warnings; }
std::vector<int> RunResult::dims() const {
  const auto& d = impl_->sim->device().dims();
  return {d.begin(), d.end()};
}
double RunResult::evolve_seconds() const { return impl_->report.t_evolve; }
double RunResult::fidelity_seconds() const { return impl_->report.t_fidelity; }
double RunResult::gradient_seconds() const { return impl_->report.t_gradient; }

void RunResult::save(const std::string& path) const {
  // The `config` attribute: the text as run with the overrides (emitted now, not at each run).
  Config config = impl_->config;
  config.yaml_text = impl_->parsed.text_with(impl_->overrides);
  RunReport report = impl_->report;
  report.config = &config;
  const std::lock_guard<std::mutex> files(hdf5_mutex());
  (void)write_run_output(path, report, impl_->wall_time);
}

std::shared_ptr<const RunResult::Impl> make_run_result(std::shared_ptr<const solver::Simulator> sim, Config config,
                                                       const io::ParsedConfig& parsed,
                                                       std::vector<io::Override> overrides, RunReport report,
                                                       double wall_time) {
  auto impl = std::make_shared<RunResult::Impl>(parsed);
  impl->sim = std::move(sim);
  impl->config = std::move(config);
  impl->overrides = std::move(overrides);
  impl->report = std::move(report);
  impl->report.config = &impl->config;
  impl->report.sim = impl->sim.get();
  // What the file takes from the simulator and may change with its next pulses.
  impl->report.pulses = impl->sim->drive().pulse_samples();
  // An ensemble's (take_ensemble) or optimize's own (", then optimised") are kept.
  if (!impl->report.resolved) impl->report.resolved = resolved_values(impl->config, *impl->sim);
  if (const auto& e = impl->report.ensemble)
    impl->ensemble = EnsembleData{e->objective, e->overrides, e->weights, e->fidelity, e->fidelity_uncompensated,
                                  e->leakage, e->step_error, e->steps, e->worst, e->unitaries};
  impl->wall_time = wall_time;
  // As `run` prints them: the plausibility warnings, then the step size.
  impl->warnings =
      session_plausibility(impl->config, device::mode_params(impl->sim->device()), parsed, impl->overrides);
  if (std::string w = step_size_warning(*impl->sim); !w.empty()) impl->warnings.push_back(std::move(w));
  for (std::string& w : line_warnings(*impl->sim)) impl->warnings.push_back(std::move(w));
  for (std::string& w : truncation_warnings(impl->sim->device(), impl->report.top_level_population))
    impl->warnings.push_back(std::move(w));
  return impl;
}

SweepData::SweepData(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}

std::vector<std::int64_t> SweepData::shape() const {
  std::vector<std::int64_t> s;
  for (const auto& a : impl_->plan.grid.axes) s.push_back(static_cast<std::int64_t>(a.texts.size()));
  return s;
}
std::vector<std::string> SweepData::keys() const {
  std::vector<std::string> k;
  for (const auto& a : impl_->plan.grid.axes) k.push_back(a.key);
  return k;
}
const std::vector<double>& SweepData::axis_values(std::size_t k) const { return impl_->plan.grid.axes.at(k).values; }
const std::vector<std::string>& SweepData::axis_texts(std::size_t k) const {
  return impl_->plan.grid.axes.at(k).texts;
}
namespace {
std::vector<double> figure(const SweepData::Impl& s, std::size_t k) {
  std::vector<double> v(static_cast<std::size_t>(s.plan.grid.points));
  for (std::int64_t p = 0; p < s.plan.grid.points; ++p) v[static_cast<std::size_t>(p)] = s.grid.at(p, k);
  return v;
}
}  // namespace
std::vector<double> SweepData::fidelity() const { return figure(*impl_, 0); }
std::vector<double> SweepData::fidelity_uncompensated() const { return figure(*impl_, 1); }
std::vector<double> SweepData::leakage() const { return figure(*impl_, 2); }
std::vector<double> SweepData::conditional_phase() const { return figure(*impl_, 3); }
std::vector<double> SweepData::populations() const {
  const GridResult& g = impl_->grid;
  std::vector<double> pops;
  pops.reserve(static_cast<std::size_t>(impl_->plan.grid.points * g.d * g.d));
  for (std::int64_t p = 0; p < impl_->plan.grid.points; ++p)
    for (std::int64_t k = 0; k < g.d * g.d; ++k) pops.push_back(g.at(p, kSweepFigures + static_cast<std::size_t>(k)));
  return pops;
}
const std::vector<std::string>& SweepData::labels() const { return impl_->plan.labels; }
const std::vector<std::string>& SweepData::warnings() const { return impl_->warnings; }
std::vector<long> SweepData::builds() const {
  return {impl_->stats.device_builds, impl_->stats.simulator_builds, impl_->stats.pulse_updates,
          impl_->stats.objective_builds};
}
void SweepData::save(const std::string& path) const {
  const std::lock_guard<std::mutex> files(hdf5_mutex());
  write_sweep(path, impl_->plan, impl_->grid, impl_->wall_time);
}

}  // namespace qevolve::commands
