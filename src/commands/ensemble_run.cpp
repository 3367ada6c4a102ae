// An ensemble's evaluation (ensemble_run.hpp; docs/ensembles.md).
#include "ensemble_run.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <memory>

#include "qevolve/config_writer.hpp"
#include "qevolve/error.hpp"
#include "qevolve/names.hpp"
#include "qevolve/plan.hpp"
#include "qevolve/resolve.hpp"

namespace qevolve::commands {

namespace {

/// What a member's override changes (the sweep's scopes, io::parse_vary): the reuse keys of
/// its point, so that members differing only in pulse keys share the device and simulator.
void add_reuse_keys(SweepPoint& point, const io::Override& o) {
  const std::string top = o.key.substr(0, o.key.find_first_of(".["));
  const std::string value = o.key + "=" + o.value;
  if (top == "device") point.device_key.push_back(value);
  if (top == "device" || top == "evolution") point.simulator_key.push_back(value);
  if (top == "target") point.target_key.push_back(value);
}

MemberFigures figures_of(gradient::Evaluation& ev, int steps) {
  MemberFigures m;
  m.f = gradient::member_figures(ev);
  if (ev.step_error) m.step_error = ev.step_error->error;
  m.steps = steps;
  m.unitary = std::move(ev.unitary);
  return m;
}

void add_times(EnsembleOutcome& out, const RunEvaluation& run, double step_error_s) {
  out.evolve_s += run.ev.evolve_s;
  out.fidelity_s += run.ev.fidelity_s;
  out.gradient_s += run.ev.gradient_s;
  out.step_error_s += step_error_s;
}

/// Members first: every rank's members' figures to every rank (each member filled by the rank
/// k mod R that evaluated it, zeros elsewhere, summed), unitaries when `unitaries`.
void share_figures(std::vector<MemberFigures>& figures, comm::Communicator& comm, std::size_t rank, bool unitaries) {
  const std::size_t K = figures.size(), R = static_cast<std::size_t>(comm.size());
  std::array<double, 2> sizes{0.0, 0.0};  // P (gradient length) and d (unitary rows)
  for (std::size_t k = rank; k < K; k += R) {
    sizes[0] = std::max(sizes[0], static_cast<double>(figures[k].f.gradient.size()));
    sizes[1] = std::max(sizes[1], static_cast<double>(figures[k].unitary.rows()));
  }
  comm.allreduce_max(sizes);
  const auto P = static_cast<Index>(sizes[0]);
  const auto d = unitaries ? static_cast<Index>(sizes[1]) : Index{0};
  const Index width = 6 + P + 2 * d * d;
  std::vector<double> all(K * static_cast<std::size_t>(width), 0.0);
  for (std::size_t k = rank; k < K; k += R) {
    const MemberFigures& m = figures[k];
    double* row = all.data() + k * static_cast<std::size_t>(width);
    row[0] = m.f.fidelity, row[1] = m.f.fidelity_uncompensated, row[2] = m.f.leakage, row[3] = m.f.objective;
    row[4] = m.step_error, row[5] = m.steps;
    for (Index i = 0; i < m.f.gradient.size(); ++i) row[6 + i] = m.f.gradient(i);
    for (Index i = 0; i < d * d && m.unitary.size() == d * d; ++i) {
      row[6 + P + 2 * i] = m.unitary.data()[i].real();
      row[6 + P + 2 * i + 1] = m.unitary.data()[i].imag();
    }
  }
  comm.allreduce_sum(all);
  for (std::size_t k = 0; k < K; ++k) {
    const double* row = all.data() + k * static_cast<std::size_t>(width);
    MemberFigures& m = figures[k];
    m.f = gradient::MemberFigures{row[0], row[1], row[2], row[3], Eigen::Map<const RVector>(row + 6, P)};
    m.step_error = row[4];
    m.steps = static_cast<int>(row[5]);
    m.unitary.resize(d, d);
    for (Index i = 0; i < d * d; ++i) m.unitary.data()[i] = cplx(row[6 + P + 2 * i], row[6 + P + 2 * i + 1]);
  }
}

}  // namespace

std::vector<SweepPoint> ensemble_points(const Config& nominal, const solver::Simulator& nominal_sim,
                                        const std::vector<io::EnsembleMember>& members) {
  // The nominal's resolved values written into its text (what `optimize` writes back), read
  // again with each member's overrides: one pulse for every member.
  const Config frozen = io::frozen_config(nominal, nominal_sim);
  const io::ParsedConfig parsed(write_back_yaml(nominal, frozen, {}, RVector()), nominal.source_file);
  std::vector<SweepPoint> points;
  points.reserve(members.size());
  for (const io::EnsembleMember& member : members) {
    SweepPoint p;
    p.config = parsed.read(member.sets, false);
    p.config.ensemble.reset();  // a member is one config
    // steps: auto: every member searches its own steps (each converged to the tolerance); the
    // pulses stay the nominal's.
    if (nominal.evolution.steps_auto) {
      p.config.evolution.steps_auto = true;
      p.config.evolution.steps = nominal.evolution.steps;
    }
    p.resolved = io::resolve(p.config, io::Purpose::evolve);
    p.label = member.label;
    for (const io::Override& o : member.sets) add_reuse_keys(p, o);
    points.push_back(std::move(p));
  }
  return points;
}

void combine_members(EnsembleOutcome& out) {
  std::vector<gradient::MemberFigures> figures;
  std::vector<double> weights;
  for (std::size_t k = 0; k < out.figures.size(); ++k) {
    figures.push_back(out.figures[k].f);
    weights.push_back(out.members[k].weight);
  }
  const bool worst = out.objective == EnsembleObjective::worst;
  gradient::EnsembleCombination c = gradient::combine_ensemble(figures, weights, worst);
  out.worst = static_cast<std::int64_t>(c.worst);
  out.fidelity = c.fidelity;
  out.fidelity_uncompensated = c.fidelity_uncompensated;
  out.leakage = c.leakage;
  out.gradient = std::move(c.gradient);
  std::vector<double> errors;
  for (const MemberFigures& m : out.figures) errors.push_back(m.step_error);
  out.step_error = gradient::combined_step_error(errors, weights, c.worst, worst);
}

EnsembleOutcome evaluate_ensemble(const Config& nominal, const solver::Simulator& nominal_sim, int threads,
                                  comm::Communicator& comm, comm::Communicator& reduce) {
  EnsembleOutcome out;
  out.members = io::ensemble_members(nominal);
  out.objective = nominal.ensemble->objective;
  const std::vector<SweepPoint> points = ensemble_points(nominal, nominal_sim, out.members);
  const bool trainable = io::has_trainable(nominal);
  // Members first (docs/ensembles.md "Parallelism"): with at least as many members as ranks,
  // rank r evaluates members r, r + R, ... whole, on its own (as one process would), and the
  // figures are shared; else every member is sharded over the ranks by its initial states.
  const bool by_member = comm.size() > 1 && points.size() >= static_cast<std::size_t>(comm.size());
  comm::SerialCommunicator serial;
  comm::Communicator& c = by_member ? serial : comm;
  comm::Communicator& r = by_member ? serial : reduce;
  CachedSimulator cache;
  for (std::size_t k = 0; k < points.size(); ++k) {
    const SweepPoint& p = points[k];
    if (by_member && static_cast<int>(k % static_cast<std::size_t>(comm.size())) != comm.rank()) {
      out.figures.emplace_back();  // another rank's: filled by share_figures
      continue;
    }
    const auto t0 = Clock::now();
    RunEvaluation run;
    double build_s = 0.0;
    int steps = 0;
    if (trainable) {
      gradient::GradientProblem problem(io::gradient_plan(p.config), threads, c, r);
      ++out.stats.device_builds;
      ++out.stats.simulator_builds;
      build_s = std::chrono::duration<double>(Clock::now() - t0).count();
      const auto hooks = run_hooks(problem.simulator(), c, false);
      run = evaluate_run(RunTarget{nullptr, std::nullopt, &problem}, p.config.evolution, c, r, hooks);
      steps = problem.simulator().options().steps;
    } else {
      const solver::Simulator& sim = cache.prepare(p, out.stats, threads);
      build_s = std::chrono::duration<double>(Clock::now() - t0).count();
      run = cache.run(p, out.stats, c, r, run_hooks(sim, c, false));
      steps = cache.simulator()->options().steps;
    }
    const double total = std::chrono::duration<double>(Clock::now() - t0).count();
    out.build_s += build_s;
    add_times(out, run, std::max(0.0, total - build_s - run.ev.evolve_s - run.ev.fidelity_s - run.ev.gradient_s));
    out.figures.push_back(figures_of(run.ev, steps));
  }
  out.by_member = by_member;
  if (by_member) {
    share_figures(out.figures, comm, static_cast<std::size_t>(comm.rank()), nominal.output.ensemble_unitaries);
    std::array<double, 2> builds{static_cast<double>(out.stats.device_builds),
                                 static_cast<double>(out.stats.simulator_builds)};
    comm.allreduce_sum(builds);
    out.stats.device_builds = static_cast<long>(builds[0]);
    out.stats.simulator_builds = static_cast<long>(builds[1]);
  }
  if (comm.is_root()) combine_members(out);
  return out;
}

std::unique_ptr<gradient::EnsembleProblem> ensemble_problem(const Config& nominal, int threads,
                                                            comm::Communicator& comm, comm::Communicator& reduce) {
  const std::vector<io::EnsembleMember> members = io::ensemble_members(nominal);
  std::vector<SweepPoint> points;
  {
    const solver::Simulator sim(io::evolution_plan(nominal), threads);  // resolves the shared pulses
    points = ensemble_points(nominal, sim, members);
  }
  std::vector<gradient::GradientPlan> plans;
  std::vector<double> weights;
  for (std::size_t k = 0; k < points.size(); ++k) {
    plans.push_back(io::gradient_plan(points[k].config));
    weights.push_back(members[k].weight);
  }
  return std::make_unique<gradient::EnsembleProblem>(std::move(plans), std::move(weights),
                                                     nominal.ensemble->objective == EnsembleObjective::worst, threads,
                                                     comm, reduce);
}

EnsembleOutcome ensemble_outcome(gradient::EnsembleProblem& problem, const Config& nominal,
                                 const gradient::Evaluation& combined, bool step_errors) {
  EnsembleOutcome out;
  out.members = io::ensemble_members(nominal);
  out.objective = nominal.ensemble->objective;
  out.stats.device_builds = out.stats.simulator_builds = problem.builds();
  out.by_member = problem.by_member();
  std::vector<CMatrix> unitaries;
  if (nominal.output.ensemble_unitaries) unitaries = problem.member_unitaries();  // collective
  const int steps = problem.simulator().options().steps;  // the members share them
  for (std::size_t k = 0; k < problem.size(); ++k) {
    MemberFigures m;
    m.f = problem.member_figures()[k];
    m.steps = steps;
    if (step_errors && k < problem.member_step_errors().size()) m.step_error = problem.member_step_errors()[k];
    if (k < unitaries.size()) m.unitary = std::move(unitaries[k]);
    out.figures.push_back(std::move(m));
  }
  if (!combined.fidelity) return out;
  combine_members(out);
  out.evolve_s = combined.evolve_s;
  out.fidelity_s = combined.fidelity_s;
  out.gradient_s = combined.gradient_s;
  return out;
}

void report_optimized_ensemble(RunReport& report, gradient::EnsembleProblem& problem, const Config& config,
                               const RVector& x0, const RVector& x, const gradient::PipelineHooks& hooks,
                               bool certified) {
  problem.set_values(x);
  const gradient::Evaluation combined = problem.evaluate(true, hooks);
  take_ensemble(report, ensemble_outcome(problem, config, combined, certified), config, problem.names());
  // The members at the start point, for comparison (/ensemble/start_*; qevolve plot draws both).
  problem.set_values(x0);
  (void)problem.evaluate(false);
  if (report.ensemble)
    for (const gradient::MemberFigures& m : problem.member_figures()) {
      report.ensemble->start_fidelity.push_back(m.fidelity);
      report.ensemble->start_leakage.push_back(m.leakage);
    }
  problem.set_values(x);  // the pulses written (/pulses) are the optimum's
}

void take_ensemble(RunReport& report, EnsembleOutcome&& out, const Config& config, std::vector<std::string> names) {
  report.ensemble.emplace();
  if (out.figures.empty() || out.worst < 0) return;  // ranks other than 0
  EnsembleReport& e = *report.ensemble;
  e.objective = enum_name(out.objective);
  e.worst = out.worst;
  e.device_builds = out.stats.device_builds;
  e.simulator_builds = out.stats.simulator_builds;
  e.by_member = out.by_member;
  if (out.step_error >= 0.0) e.objective_step_error = out.step_error;
  for (std::size_t k = 0; k < out.members.size(); ++k) {
    MemberFigures& m = out.figures[k];
    e.overrides.push_back(out.members[k].label);
    e.weights.push_back(out.members[k].weight);
    e.fidelity.push_back(m.f.fidelity);
    e.fidelity_uncompensated.push_back(m.f.fidelity_uncompensated);
    e.leakage.push_back(m.f.leakage);
    e.step_error.push_back(m.step_error >= 0.0 ? m.step_error : std::nan(""));
    e.steps.push_back(m.steps);
    if (config.output.ensemble_unitaries && m.unitary.size() > 0) e.unitaries.push_back(std::move(m.unitary));
  }
  fidelity::FidelityResult f;
  f.compensation = config.target ? config.target->compensation : Compensation::none;
  f.fidelity = out.fidelity;
  f.fidelity_uncompensated = out.fidelity_uncompensated;
  f.leakage = out.leakage;
  report.fidelity = f;
  if (out.gradient.size() > 0) {
    report.gradient = std::move(out.gradient);
    report.gradient_names = std::move(names);
  }
  if (config.evolution.steps_auto && report.sim) {  // each member searched its own: the table has them
    std::vector<ResolvedValue> values = resolved_values(config, *report.sim);
    std::erase_if(values, [](const ResolvedValue& v) { return v.key == "evolution.steps"; });
    report.resolved = std::move(values);
  }
  report.t_build += out.build_s;
  report.t_evolve = out.evolve_s;
  report.t_fidelity = out.fidelity_s;
  report.t_gradient = out.gradient_s;
  report.t_step_error = out.step_error_s;
}

}  // namespace qevolve::commands
