// Shared output of `run` and `optimize`: HDF5 result file and summary (docs/output.md, docs/cli.md "Progress and summary").
#include "config_input.hpp"
#include "line_warnings.hpp"
#include "run_output.hpp"

#include <cstdio>

#include "qevolve/device.hpp"
#include "qevolve/hdf5_file.hpp"
#include "qevolve/memory_estimate.hpp"
#include "qevolve/names.hpp"
#include "qevolve/plausibility.hpp"
#include "qevolve/scheme_traits.hpp"
#include "qevolve/text.hpp"
#include "qevolve/version.hpp"
#include "summary_notes.hpp"
#include "truncation_notes.hpp"

namespace qevolve::commands {

namespace {

/// Largest D for which `run` diagonalises H0 densely to write /energies.
constexpr auto kMaxDenseEnergies = static_cast<Index>(sizes::kMaxDenseEnergies);

}  // namespace

/// Closed-system evolution keeps every column normalised; a larger deviation than the solver's
/// own accuracy means a numerical failure (exit 3). Collective: every rank throws together.
void check_norms(const CMatrix& columns, const solver::Options& o, comm::Communicator& comm) {
  double tol = o.precision == Precision::single ? 1e-4 : 1e-9;
  if (o.solver == Solver::adaptive) tol = std::max(1e-8, 1e3 * o.rtol);
  double worst = 0.0;
  for (Index c = 0; c < columns.cols(); ++c) {
    const double dev = std::abs(columns.col(c).squaredNorm() - 1.0);
    worst = std::isnan(dev) ? std::numeric_limits<double>::infinity() : std::max(worst, dev);
  }
  worst = comm.allreduce_max(worst);
  if (!(worst <= tol))
    throw NumericalError("lost unitarity: a column's squared norm deviates from 1 by " +
                         std::to_string(worst) + " (tolerance " + std::to_string(tol) + ")");
}

void take_evaluation(RunReport& r, gradient::Evaluation&& ev, std::vector<std::string> names) {
  r.columns = std::move(ev.columns);
  r.unitary = std::move(ev.unitary);
  r.superoperator = std::move(ev.superoperator);
  r.fidelity = std::move(ev.fidelity);
  r.single_precision_deviation = ev.single_precision_deviation;
  r.gradient_names = std::move(names);
  r.gradient = std::move(ev.gradient);
  r.t_evolve = ev.evolve_s;
  r.t_fidelity = ev.fidelity_s;
  r.t_gradient = ev.gradient_s;
  r.trace = std::move(ev.trace);
  r.top_level_population = std::move(ev.top_level_population);
  if (ev.step_error) {
    r.step_error = ev.step_error;
    r.t_step_error = ev.step_error->seconds;
  }
}

namespace {

/// /trace/* (docs/output.md "Time traces").
void write_trace(io::Hdf5Writer& w, const solver::Trace& t, const device::Device& dev) {
  const auto T = static_cast<Index>(t.time.size());
  w.write("/trace/time", t.time);
  if (t.has_populations) w.write_array("/trace/populations", t.populations, {T, t.dim, t.columns});
  w.write_array("/trace/mode_populations", t.mode_populations, {T, t.modes, t.levels, t.columns});
  std::vector<std::string> modes;
  for (const auto& m : dev.modes()) modes.push_back(m.name());
  w.attribute("modes", modes, "/trace/mode_populations");
  if (t.open) w.write_array("/trace/trace", t.trace, {T, t.columns});
}

/// /pulses/* (docs/output.md "Pulse samples"): every pulse as the solver sampled it.
void write_pulses(io::Hdf5Writer& w, const RunReport& r) {
  const solver::PulseSamples ps = r.pulses ? *r.pulses : r.sim->drive().pulse_samples();
  w.write("/pulses/time", ps.time);
  if (ps.values.empty()) return;
  std::vector<double> flat;
  flat.reserve(ps.values.size() * ps.time.size());
  for (const auto& v : ps.values) flat.insert(flat.end(), v.begin(), v.end());
  w.write_array("/pulses/values", flat,
                {static_cast<Index>(ps.values.size()), static_cast<Index>(ps.time.size())});
  w.write("/pulses/names", ps.names);
  if (ps.ideal.empty()) return;
  flat.clear();
  for (const auto& v : ps.ideal) flat.insert(flat.end(), v.begin(), v.end());
  w.write_array("/pulses/ideal", flat, {static_cast<Index>(ps.ideal.size()), static_cast<Index>(ps.time.size())});
}

/// /resolved/keys and /resolved/values (docs/output.md "Resolved values").
void write_resolved(io::Hdf5Writer& w, const RunReport& r) {
  const std::vector<ResolvedValue> values = r.resolved ? *r.resolved : resolved_values(*r.config, *r.sim);
  if (values.empty()) return;
  std::vector<std::string> keys;
  std::vector<double> numbers;
  for (const auto& v : values) {
    keys.push_back(v.key);
    numbers.push_back(v.value);
  }
  w.write("/resolved/keys", keys);
  w.write("/resolved/values", numbers);
}

}  // namespace

bool write_run_output(const std::string& path, const RunReport& r, double wall_time) {
  const auto& sim = *r.sim;
  const auto& dev = sim.device();
  std::optional<device::DressedBasis> dressed = sim.dressed();
  if (!dressed && dev.dim() <= kMaxDenseEnergies) dressed = device::dress(dev);
  io::Hdf5Writer w(path);
  if (r.fidelity && !r.ensemble) {  // an ensemble's members each have their own (/ensemble/*)
    if (sim.options().open) {
      w.write("/superoperator_compensated", r.fidelity->superoperator_compensated);
    } else {
      w.write("/unitary", r.unitary);
      w.write("/unitary_compensated", r.fidelity->unitary_compensated);
    }
    w.write("/compensation/angles", r.fidelity->angles);
  }
  if (r.fidelity) {
    w.attribute("compensation", std::string(enum_name(r.fidelity->compensation)));
    w.attribute("fidelity", r.fidelity->fidelity);
    w.attribute("fidelity_uncompensated", r.fidelity->fidelity_uncompensated);
    w.attribute("leakage", r.fidelity->leakage);
    if (r.step_error) {  // docs/output.md: the estimate, its order and the coarser run's steps
      w.attribute("fidelity_error_steps", r.step_error->error);
      w.attribute("fidelity_error_steps_order", static_cast<long long>(r.step_error->order));
      w.attribute("fidelity_error_steps_coarse", static_cast<long long>(r.step_error->coarse_steps));
    }
    if (const auto cp = r.unitary.size() > 0 ? conditional_phase(*r.config, r.unitary) : std::nullopt; cp && !sim.options().open)
      w.attribute("conditional_phase", cp->phase);
  }
  if (r.ensemble)
    write_ensemble(w, *r.ensemble);
  else if (sim.options().open)
    w.write("/superoperator", r.superoperator);
  else
    w.write("/propagator", r.columns);
  w.write("/initial_states", sim.states().initial_labels());
  if (dressed) {
    w.write("/energies", dressed->energies);
    std::vector<std::string> labels;
    for (Index l : dressed->labels) labels.push_back(dev.label(l));
    w.write("/labels", labels);
  }
  if (!r.gradient_names.empty()) {
    w.write("/gradient", r.gradient);
    w.write("/gradient_names", r.gradient_names);
  }
  if (!r.history.empty()) {
    const auto n = static_cast<Index>(r.history.size());
    RVector infidelity(n), leakage(n), objective(n), gnorm(n), wall(n), step(n);
    std::vector<long long> iteration;
    for (Index k = 0; k < n; ++k) {
      const auto& h = r.history[static_cast<std::size_t>(k)];
      iteration.push_back(h.iteration);
      infidelity(k) = h.infidelity;
      leakage(k) = h.leakage;
      objective(k) = h.objective;
      gnorm(k) = h.gradient_norm;
      wall(k) = h.wall_time_s;
      step(k) = h.step;
    }
    w.write("/history/iteration", iteration);
    w.write("/history/infidelity", infidelity);
    w.write("/history/leakage", leakage);
    w.write("/history/objective", objective);
    w.write("/history/gradient_norm", gnorm);
    w.write("/history/wall_time_s", wall);
    w.write("/history/step", step);
    w.attribute("leakage_weight", r.leakage_weight);
    if (!r.stop_reason.empty()) w.attribute("stop_reason", r.stop_reason);
  }
  if (r.trace) write_trace(w, *r.trace, dev);
  if (!r.top_level_population.empty()) {  // docs/output.md "Truncation check"
    w.write("/truncation/top_level_population", r.top_level_population);
    std::vector<std::string> modes;
    for (const auto& m : dev.modes()) modes.push_back(m.name());
    w.attribute("modes", modes, "/truncation/top_level_population");
  }
  write_pulses(w, r);
  write_resolved(w, r);
  const auto& o = sim.options();
  write_mode_attributes(w, device::mode_params(dev));
  w.attribute("steps", static_cast<long long>(o.steps));
  w.attribute("solver", std::string(enum_name(o.solver)));
  w.attribute("order", static_cast<long long>(o.order));
  w.attribute("splitting", std::string(enum_name(o.splitting)));
  w.attribute("duration_ns", o.duration);
  w.attribute("wall_time_s", wall_time);
  w.attribute("qevolve_version", std::string(kVersion));
  w.attribute("command", std::string(r.history.empty() ? "run" : "optimize"));
  write_config_attributes(w, *r.config);
  if (!std::isnan(r.single_precision_deviation))
    w.attribute("single_precision_deviation", r.single_precision_deviation);
  w.commit();
  return !dressed;
}

namespace {

/// The summary's fidelity, leakage and conditional-phase lines (or why there is no fidelity).
void print_fidelity(std::ostream& out, const RunReport& r) {
  const auto& sim = *r.sim;
  char line[400];
  if (r.fidelity) {
    const auto& f = *r.fidelity;
    char error[64] = "";
    if (r.step_error) std::snprintf(error, sizeof error, " \u00b1 %.1e (steps)", r.step_error->error);
    std::snprintf(line, sizeof line, "fidelity: F = %.12f%s (1 - F = %.4e), uncompensated F = %.12f "
                  "(1 - F = %.4e), compensation %s\n",
                  f.fidelity, error, 1.0 - f.fidelity, f.fidelity_uncompensated,
                  1.0 - f.fidelity_uncompensated, enum_name(f.compensation));
    out << line;
    std::snprintf(line, sizeof line, "leakage: %.4e\n", f.leakage);
    out << line;
    if (const auto cp = conditional_phase(*r.config, r.unitary); cp && !sim.options().open) {
      // The distance to the target on the circle: -0.9975 pi is 0.0025 pi from a CZ's pi.
      const double off = std::remainder(cp->phase - cp->target, 2.0 * kPi);
      std::snprintf(line, sizeof line, "conditional phase: %.6f rad = %.4f pi (target %.4f pi, %+.4f pi from it)\n",
                    cp->phase, cp->phase / kPi, cp->target / kPi, off / kPi);
      out << line;
    }
    if (lab_frame_hint_applies(sim, *r.config))
      out << "note: frame: lab without compensation: the qubits' single-qubit Z phases count as errors; "
             "`target.compensation: vz` leaves them out (`evolution.frame: rotating` removes the free "
             "precession instead, but a pulse tuned in one frame needs its phase re-tuned in the other)\n";
  } else if (!r.config->target) {
    out << "fidelity: not computed (no target)\n";
  } else {
    out << "fidelity: not computed (initial_states is not the computational subspace)\n";
  }
}

/// The summary's gradient lines (the first 12 parameters).
void print_gradient(std::ostream& out, const RunReport& r) {
  char line[400];
  if (!r.gradient_names.empty()) {
    // optimize with a leakage weight reports the gradient of its objective, (1 - F) + w leakage.
    char of[64] = "1-F";
    if (r.leakage_weight > 0.0) std::snprintf(of, sizeof of, "(1-F) + %g leakage", r.leakage_weight);
    // An ensemble's worst member: the gradient of its smooth form (docs/ensembles.md "Objectives").
    const bool smooth = r.ensemble && r.ensemble->objective == "worst";
    const std::string members_of = of;
    if (smooth) std::snprintf(of, sizeof of, "J");
    std::snprintf(line, sizeof line, "gradient: %zu parameter%s, |d(%s)/dtheta| = %.4e\n", r.gradient_names.size(),
                  r.gradient_names.size() == 1 ? "" : "s", of, r.gradient.norm());
    out << line;
    if (smooth) out << "  (J: the members' power mean, p = 16, of " + members_of + "; docs/ensembles.md \"Objectives\")\n";
    for (std::size_t i = 0; i < r.gradient_names.size() && i < 12; ++i) {
      std::snprintf(line, sizeof line, "  %-40s % .6e\n", r.gradient_names[i].c_str(),
                    r.gradient(static_cast<Index>(i)));
      out << line;
    }
    if (r.gradient_names.size() > 12) out << "  ... (all in /gradient)\n";
  }
}

/// The summary's wall-time line, by phase.
void print_wall_times(std::ostream& out, const RunReport& r, double t_output, double t_total) {
  char line[400];
  std::snprintf(line, sizeof line, "wall time: build %.3f s | evolve %.3f s | fidelity %.3f s",
                r.t_build, r.t_evolve, r.t_fidelity);
  out << line;
  if (!r.gradient_names.empty()) {
    std::snprintf(line, sizeof line, " | gradient %.3f s", r.t_gradient);
    out << line;
  }
  if (r.step_error) {
    std::snprintf(line, sizeof line, " | step error %.3f s", r.t_step_error);
    out << line;
  }
  if (r.t_optimize > 0.0) {
    std::snprintf(line, sizeof line, " | optimize %.3f s", r.t_optimize);
    out << line;
  }
  std::snprintf(line, sizeof line, " | output %.3f s | total %.3f s", t_output, t_total);
  out << line;
  if (r.estimated_s > 0.0) {  // docs/cli.md "Time estimate"
    std::snprintf(line, sizeof line, " (estimated %.3g s)", r.estimated_s);
    out << line;
  }
  out << "\n";
}

}  // namespace

void print_summary(std::ostream& out, const RunReport& r, const std::string& title,
                   double t_output, double t_total) {
  const auto& sim = *r.sim;
  const auto& device = sim.device();
  const auto& o = sim.options();
  char line[400];
  out << title << "\n";
  out << "device: " << counted(device.num_modes(), "mode") << " (" << device::describe_roles(device::mode_params(device))
      << "), D = " << device.dim() << ", d = " << (Index{1} << device.qubit_modes().size()) << ", levels";
  for (int d : device.dims()) out << ' ' << d;
  out << "\n";
  // How the steps are taken, in the scheme's words (trotter's order and gates, the split
  // solvers' exact exponentials; qevolve/scheme_traits.hpp).
  const std::string how = solver::scheme_traits(o.solver, o.splitting).summary(sim);
  char steps[64];  // an ensemble with steps: auto: each member searched its own (its table)
  if (r.ensemble && r.config->evolution.steps_auto)
    std::snprintf(steps, sizeof steps, "steps: auto per member");
  else
    std::snprintf(steps, sizeof steps, "%d steps, dt = %.6g ns", o.steps, sim.options().dt());
  std::snprintf(line, sizeof line, "solver: %s%s, %s, T = %.6g ns, %zu initial states, %d thread%s%s\n",
                enum_name(o.solver), how.c_str(), steps, o.duration, sim.states().initial_indices().size(), o.threads,
                o.threads == 1 ? "" : "s", o.precision == Precision::single ? ", single precision" : "");
  out << line;
  // The resolved evolution.device (docs/backend.md "Selection").
  const bool cuda = o.device == ComputeDevice::cuda;
  out << "device: " << enum_name(cuda ? ComputeDevice::cuda : ComputeDevice::cpu);
  if (!o.device_note.empty()) out << " (" << o.device_note << ")";
  out << "\n";
  if (r.ranks > 1) {
    std::snprintf(line, sizeof line, "ranks: %d (%s sharded), %.4g kB reduced/gathered by rank 0\n", r.ranks,
                  r.ensemble && r.ensemble->by_member ? "ensemble members" : "initial states",
                  static_cast<double>(r.bytes_communicated) / 1e3);
    out << line;
  }
  if (sim.options().open) {
    const std::size_t inputs = sim.states().initial_indices().size() * sim.states().initial_indices().size();
    out << "open system: Lindblad, " << counted(r.config->evolution.noise.size(), "noise entry", "noise entries") << ", "
        << counted(r.config->evolution.collapse.size(), "`collapse` entry", "`collapse` entries") << ", " << counted(inputs, "input")
        << " |i><j|\n";
  }
  if (!std::isnan(r.single_precision_deviation)) {
    std::snprintf(line, sizeof line, "single precision: first block differs from double by %.3e\n",
                  r.single_precision_deviation);
    out << line;
  }
  for (const std::string& note : line_notes(sim)) out << note << "\n";
  for (const ResolvedValue& v : r.resolved ? *r.resolved : resolved_values(*r.config, sim)) {
    std::snprintf(line, sizeof line, "resolved: %s = %.10g%s%s (%s)\n", v.key.c_str(), v.value,
                  v.unit.empty() ? "" : " ", v.unit.c_str(), v.how.c_str());
    out << line;
  }
  if (r.trace) {
    std::snprintf(line, sizeof line, "trace: %zu times from %.6g to %.6g ns%s\n", r.trace->time.size(),
                  r.trace->time.empty() ? 0.0 : r.trace->time.front(),
                  r.trace->time.empty() ? 0.0 : r.trace->time.back(),
                  r.trace->has_populations ? "" : " (mode populations only: D x n x T too large)");
    out << line;
  }
  if (!r.top_level_population.empty()) out << truncation_note(device, r.top_level_population) << "\n";
  if (r.ensemble && r.fidelity) print_ensemble(out, *r.ensemble, *r.fidelity);
  else print_fidelity(out, r);
  print_gradient(out, r);
  print_wall_times(out, r, t_output, t_total);
}

std::string step_error_warning(const RunReport& r) {
  if (!r.step_error || !r.fidelity) return {};
  const double e = r.step_error->error, infidelity = 1.0 - r.fidelity->fidelity;
  const double tolerance = r.config->evolution.tolerance.value_or(EvolutionSpec::kDefaultTolerance);
  if (!(e > 0.1 * infidelity && e > tolerance)) return {};
  char line[400];
  std::snprintf(line, sizeof line,
                "the time steps move F by about %.1e (%.0f %% of 1 - F = %.3e): the printed F is not converged "
                "in steps; use `evolution.steps: auto` (tolerance %.0e) or more steps (docs/accuracy.md)",
                e, 100.0 * e / std::max(infidelity, 1e-300), infidelity, tolerance);
  return line;
}

void print_warning_lines(std::ostream& err, const std::vector<std::string>& lines) {
  for (const std::string& w : lines) err << "qevolve: warning: " << w << "\n";
}

void print_warnings(std::ostream& err, const Config& config, const solver::Simulator& sim) {
  print_warning_lines(err, io::plausibility_warnings(config, device::mode_params(sim.device())));
  // steps: auto chooses the steps after this (its start already obeys the step-size rule).
  const std::string w = config.evolution.steps_auto ? std::string() : step_size_warning(sim);
  if (!w.empty()) err << "qevolve: warning: " << w << "\n";
  print_warning_lines(err, line_warnings(sim));  // docs/lines.md "Warnings"
}

void print_destination(std::ostream& out, const std::string& output) {
  if (output.empty())
    out << "nothing written: no -o and no output.file (add -o OUT.h5 to save the results)\n";
  else
    out << "wrote " << output << "\n";
}

}  // namespace qevolve::commands
