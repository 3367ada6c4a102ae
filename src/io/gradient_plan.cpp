// The plan of a GradientProblem (include/qevolve/gradient_plan.hpp): the trainable parameters
// of a validated config with their ranges (docs/config.md "Physical ranges": what `optimize`
// writes back loads again) and scales, the evolution plan with `auto` values resolved once, and
// the objective with its target read.
#include <algorithm>
#include <limits>
#include <string>
#include <utility>

#include "qevolve/error.hpp"
#include "qevolve/gradient_plan.hpp"
#include "qevolve/plan.hpp"
#include "qevolve/resolve.hpp"

namespace qevolve::io {
namespace {

using gradient::ParameterInfo;
using gradient::Trainable;
using Kind = gradient::Trainable::Kind;
constexpr double kInf = std::numeric_limits<double>::infinity();

/// Typical meaningful change of a line parameter (ParameterInfo::scale).
double line_scale(pulse::LineParam::Key k) {
  switch (k) {
    case pulse::LineParam::Key::tau: return 1.0;       // ns
    case pulse::LineParam::Key::sigma: return 0.01;    // ns
    default: return 1e-3;                              // amplitude, taps
  }
}

/// A ramped pulse whose duration is fixed (given, not trained) keeps its plateau >= 0: its ramp
/// stays <= duration / 2 and its plateau < duration (a box bound, so the optimiser never asks for
/// a pulse the geometry refuses). Infinity where no such bound applies.
double fixed_duration_bound(const PulseSpec& spec, const pulse::Pulse& pulse, pulse::Param kind) {
  const bool trains_duration =
      std::find(spec.optimize.begin(), spec.optimize.end(), std::string("duration")) != spec.optimize.end();
  if (!spec.duration.has_value() || trains_duration) return std::numeric_limits<double>::infinity();
  if (kind == pulse::Param::ramp) return 0.5 * pulse.duration();
  if (kind == pulse::Param::plateau)  // ramp = (duration - plateau) / 2 stays in the ramp's own range
    return pulse.duration() - 2.0 * pulse_param_range(pulse::Param::ramp, false, false).lo;
  return std::numeric_limits<double>::infinity();
}

/// The range a line parameter may take: the config's (docs/config.md "lines"), with sigma and
/// tau kept where the line's panels stay affordable over the evolution's T (a panel is at most
/// half of either: docs/lines.md "Cost"), below the value the config gave if that is smaller.
std::pair<double, double> line_range(pulse::LineParam::Key k, bool predistort, double T, double value) {
  const double shortest = std::min(value, 4.0 * T / pulse::kMaxLinePanels);
  switch (k) {
    case pulse::LineParam::Key::tau: return {shortest, 1e9};
    case pulse::LineParam::Key::sigma: return {std::max(0.0, shortest), 1e9};
    case pulse::LineParam::Key::amplitude: return {predistort ? std::min(value, -0.999) : -1e9, 1e9};
    case pulse::LineParam::Key::tap: return {-1e9, 1e9};
  }
  return {-1e9, 1e9};
}

/// Typical meaningful change of a pulse parameter (ParameterInfo::scale). Fixed per kind (not
/// relative to the current value), so that theta / scale identifies the start point: a
/// checkpoint is matched against it on resume.
double pulse_scale(pulse::Param p) {
  switch (p) {
    case pulse::Param::amplitude:
    case pulse::Param::value:
    case pulse::Param::frequency: return 1e-3;  // GHz
    case pulse::Param::phase: return 0.01;      // rad
    case pulse::Param::lambda: return 0.01;     // ns
    case pulse::Param::c: return 0.01;
    default: return 0.1;  // times (ns): delay, duration, ramp, plateau, sigma
  }
}

double device_scale(const std::string& key) {
  if (key == "flux" || key == "ng" || key == "asymmetry") return 1e-3;
  if (key == "capacitive" || key == "inductive" || key == "dipole" || key == "cross_kerr") return 1e-4;
  return 1e-3;  // ec ej el frequency anharmonicity (GHz)
}

/// The parameters of pulses (config order) and of their lines.
void add_drive_params(const Config& config, const solver::EvolutionPlan& e, gradient::GradientPlan& plan) {
  for (std::size_t p = 0; p < config.pulses.size(); ++p) {
    const PulseSpec& spec = config.pulses[p];
    const pulse::Pulse& pulse = e.drive.pulses[p];
    for (const auto& ref : pulse.trainable(spec)) {
      Trainable q;
      q.kind = Kind::pulse;
      q.pulse = static_cast<int>(p);
      q.ref = ref;
      plan.params.push_back(q);
      auto [lo, hi] = pulse_param_range(ref.kind, spec.op == "flux", pulse.base() == Shape::gaussian);
      hi = std::min(hi, fixed_duration_bound(spec, pulse, ref.kind));
      plan.info.push_back({spec.path + "." + ref.name(), lo, hi, pulse_scale(ref.kind)});
    }
  }
  for (std::size_t l = 0; l < e.drive.lines.size(); ++l) {
    const pulse::Line& line = e.drive.lines[l];
    for (const pulse::LineParam& lp : line.trainable()) {
      Trainable q;
      q.kind = Kind::line;
      q.line = static_cast<int>(l);
      q.lref = lp;
      plan.params.push_back(q);
      const auto [lo, hi] = line_range(lp.key, line.spec().predistort, e.options.duration, line.get(lp));
      plan.info.push_back({line.spec().filters[static_cast<std::size_t>(lp.filter)].path + "." + lp.name(), lo, hi,
                           line_scale(lp.key)});
    }
  }
}

/// The parameters of the device, of the noise rates and the compensation angles.
void add_other_params(const Config& config, gradient::GradientPlan& plan) {
  plan.device_params = device::trainable_device_params(config.device.qubits, config.device.couplings,
                                                       plan.evolution.device);
  for (std::size_t i = 0; i < plan.device_params.size(); ++i) {
    Trainable q;
    q.kind = Kind::device;
    q.device = static_cast<int>(i);
    plan.params.push_back(q);
    const auto [lo, hi] = device_param_range(plan.device_params[i].key);
    plan.info.push_back({plan.device_params[i].name, lo, hi, device_scale(plan.device_params[i].key)});
  }
  for (std::size_t e = 0; e < config.evolution.noise.size(); ++e)
    for (const std::string& rate : config.evolution.noise[e].optimize) {
      Trainable q;
      q.kind = Kind::noise;
      q.noise = static_cast<int>(e);
      q.t1 = rate == "t1";
      plan.params.push_back(q);
      const auto [lo, hi] = coherence_time_range();
      plan.info.push_back({"evolution.noise." + config.evolution.noise[e].qubit + "." + rate, lo, hi, 1000.0});
    }
  const Compensation compensation = config.target->compensation;
  plan.angles_trainable = config.target->compensation_trainable && compensation != Compensation::none;
  if (!plan.angles_trainable) return;
  const int num_qubits = static_cast<int>(plan.evolution.device.qubit_modes().size());
  const int na = fidelity::compensation_angle_count(compensation, num_qubits);
  for (int a = 0; a < na; ++a) {
    Trainable q;
    q.kind = Kind::angle;
    q.angle = a;
    plan.params.push_back(q);
    plan.info.push_back({"compensation.angles[" + std::to_string(a) + "]", -kInf, kInf, 0.01});
  }
}

}  // namespace

gradient::GradientPlan gradient_plan(const Config& config) {
  precondition(config.target.has_value(), "GradientProblem", "target", "gradients without a target");
  gradient::GradientPlan plan;
  plan.resolved = resolve_device(config);
  plan.evolution = evolution_plan(config, device::build_device(plan.resolved));
  add_drive_params(config, plan.evolution, plan);
  add_other_params(config, plan);
  precondition(!plan.params.empty(), "GradientProblem", "pulses", "nothing trainable");
  std::optional<fidelity::ObjectiveSpec> objective = objective_spec(config, plan.evolution);
  precondition(objective.has_value(), "GradientProblem", "evolution.initial_states",
               "gradients without computational initial states");
  plan.objective = std::move(*objective);
  return plan;
}

}  // namespace qevolve::io
