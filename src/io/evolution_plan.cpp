// The evolution plan of a validated config (include/qevolve/plan.hpp): the options resolved
// from the evolution section, the compute device chosen, the pulses resolved on the device;
// the objective with the target read once.
#include <utility>

#include "qevolve/compute_device.hpp"
#include "qevolve/error.hpp"
#include "qevolve/memory_estimate.hpp"
#include "qevolve/plan.hpp"
#include "qevolve/resolve.hpp"

namespace qevolve::io {

namespace {

/// The evolution section as the solver takes it; the duration is set from the pulses later.
solver::Options options_of(const Config& config) {
  const EvolutionSpec& e = config.evolution;
  solver::Options o;
  o.solver = e.solver;
  o.order = e.order;
  o.splitting = e.splitting;
  o.steps = e.steps;
  o.rtol = e.rtol;
  o.atol = e.atol;
  o.basis = e.basis;
  o.frame = e.frame;
  o.initial_states = e.initial_states;
  o.precision = e.precision;
  if (o.solver == Solver::magnus4) o.order = 4;  // each exponential split at order 4
  o.open = e.is_open();
  o.trace = config.output.trace;
  solver::ComputeDeviceChoice c = solver::choose_compute_device(e, config.first_trainable());
  precondition(c.refusal.empty(), "Simulator", "evolution.device", "a CUDA run this build or machine cannot do");
  o.device = c.device;
  o.device_note = std::move(c.note);
  return o;
}

}  // namespace

solver::EvolutionPlan evolution_plan(const Config& config, device::Device device) {
  solver::EvolutionPlan plan;
  plan.options = options_of(config);
  // (the one test the memory estimate uses too: include/qevolve/memory_estimate.hpp)
  if (sizes::needs_dressed_basis(config)) plan.dressed = device::dress(device);
  plan.drive = solver::make_drive(device, plan.dressed, config.pulses, config.lines);
  plan.options.duration = solver::total_duration(config.evolution.duration, plan.drive.pulses);
  plan.initial = solver::initial_indices(device, plan.options.initial_states);
  if (plan.options.open) {
    plan.noise = config.evolution.noise;
    plan.collapse = config.evolution.collapse;
  }
  plan.device = std::move(device);
  return plan;
}

solver::EvolutionPlan evolution_plan(const Config& config) { return evolution_plan(config, build_device(config)); }

std::optional<solver::Drive> drive_on(const Config& config, const device::Device& device,
                                      const std::optional<device::DressedBasis>& dressed) {
  if (sizes::pulses_need_dressed_basis(config.pulses) && !dressed) return std::nullopt;
  return solver::make_drive(device, dressed, config.pulses, config.lines);
}

CMatrix target_unitary(const Config& config, const std::vector<std::string>& qubit_names) {
  std::vector<CMatrix> file_gates;
  for (const GateSpec& g : config.target->gates)
    file_gates.push_back(g.gate.empty() ? load_gate_matrix(g, config) : CMatrix());
  return fidelity::target_unitary(*config.target, qubit_names, file_gates);
}

namespace {

std::optional<fidelity::ObjectiveSpec> objective_on(const Config& config, const device::Device& dev,
                                                    const std::vector<Index>& initial) {
  if (!config.target || initial != dev.computational_indices()) return std::nullopt;
  std::vector<std::string> qubit_names;
  for (int q : dev.qubit_modes()) qubit_names.push_back(dev.modes()[static_cast<std::size_t>(q)].name());
  fidelity::ObjectiveSpec spec;
  spec.target = target_unitary(config, qubit_names);
  spec.compensation = config.target->compensation;
  spec.computational = dev.computational_indices();
  return spec;
}

}  // namespace

std::optional<fidelity::ObjectiveSpec> objective_spec(const Config& config, const solver::Simulator& sim) {
  return objective_on(config, sim.device(), sim.states().initial_indices());
}

std::optional<fidelity::ObjectiveSpec> objective_spec(const Config& config, const solver::EvolutionPlan& plan) {
  return objective_on(config, plan.device, plan.initial);
}

Config frozen_config(const Config& config, const solver::Simulator& sim) {
  Config frozen = config;
  for (std::size_t p = 0; p < frozen.pulses.size() && p < sim.drive().pulses().size(); ++p) {
    PulseSpec& spec = frozen.pulses[p];
    const pulse::Pulse& pulse = sim.drive().pulses()[p];
    if (spec.amplitude_auto) {
      spec.amplitude_auto = false;
      spec.amplitude = pulse.amplitude();
      spec.angle.reset();
    }
    if (spec.frequency_mode != FrequencyMode::value) {
      spec.frequency_mode = FrequencyMode::value;
      spec.frequency = pulse.frequency();
    }
  }
  frozen.evolution.duration = sim.options().duration;
  frozen.evolution.steps = sim.options().steps;
  return frozen;
}

}  // namespace qevolve::io
