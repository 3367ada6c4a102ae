#include "qevolve/workloads.hpp"

#include <string>

#include "qevolve/types.hpp"

namespace qevolve::commands {

Config standard_workload(int qubits, int steps, Splitting splitting) {
  Config c;
  c.source_file = "<standard workload>";
  PresetSpec preset;
  preset.name = "mpc_fluxonium_1d";
  preset.qubits = qubits;
  preset.levels = 2;
  c.device.preset = preset;
  TargetSpec target;
  for (int q = 0; q < qubits; ++q) {
    const std::string name = "q" + std::to_string(q);
    PulseSpec p;
    p.qubit = name;
    p.shape = Shape::cos;
    p.amplitude_auto = true;
    p.angle = kPi;
    p.frequency_mode = FrequencyMode::auto_bare;
    p.phase = -kPi / 2;
    p.duration = 50.0;
    p.path = "pulses[" + std::to_string(q) + "]";
    c.pulses.push_back(p);
    GateSpec g;
    g.gate = "X";
    g.qubits = {name};
    g.path = "target.gates[" + std::to_string(q) + "]";
    target.gates.push_back(g);
  }
  c.target = target;
  c.evolution.solver = Solver::trotter;
  c.evolution.order = 2;
  c.evolution.splitting = splitting;
  c.evolution.steps = steps;
  c.has_evolution = true;
  return c;
}

}  // namespace qevolve::commands
