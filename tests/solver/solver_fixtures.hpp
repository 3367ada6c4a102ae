// Configs shared by the solver tests, built directly as Config structs.
#pragma once

#include <cmath>
#include <string>

#include "qevolve/config.hpp"
#include "qevolve/types.hpp"

namespace qevolve::testing {

/// docs/reference.md "A single-fluxonium X gate": EC/EJ/EL = 1/4/1, flux 0.5, 10 levels, cos pulse of
/// 40 ns, A = 0.51753615/(2 pi), f = 3.65911655/(2 pi), phase 0.64509906.
inline Config single_fluxonium_x(Solver solver, int steps) {
  Config c;
  c.source_file = "fluxonium_x.yaml";
  ModeEntry q;
  q.name = "q0";
  q.type = ModeType::fluxonium;
  q.levels = 10;
  q.ec = 1.0;
  q.ej = 4.0;
  q.el = 1.0;
  q.flux = 0.5;
  q.path = "device.qubits[0]";
  c.device.qubits.push_back(q);
  PulseSpec p;
  p.qubit = "q0";
  p.shape = Shape::cos;
  p.amplitude = 0.51753615 / kTwoPi;
  p.frequency = 3.65911655 / kTwoPi;
  p.phase = 0.64509906;
  p.duration = 40.0;
  p.path = "pulses[0]";
  c.pulses.push_back(p);
  c.evolution.solver = solver;
  c.evolution.steps = steps;
  c.has_evolution = true;
  return c;
}

/// An MPC chain of `qubits` fluxonia with `levels` levels, each driven by a resonant cos pulse
/// (a pi rotation, `auto` amplitude), `duration` ns.
inline Config driven_chain(int qubits, int levels, double duration = 20.0) {
  Config c;
  c.source_file = "chain.yaml";
  PresetSpec p;
  p.name = "mpc_fluxonium_1d";
  p.qubits = qubits;
  p.levels = levels;
  c.device.preset = p;
  for (int q = 0; q < qubits; ++q) {
    PulseSpec s;
    // (appended rather than "q" + to_string: GCC 12 -Wrestrict false positive, PR 105329)
    s.qubit = std::string("q").append(std::to_string(q));
    s.shape = Shape::cos;
    s.amplitude_auto = true;
    s.angle = kPi;
    s.frequency_mode = FrequencyMode::auto_bare;
    s.phase = -kPi / 2;
    s.duration = duration;
    s.path = std::string("pulses[").append(std::to_string(q)).append("]");
    c.pulses.push_back(s);
  }
  c.evolution.solver = Solver::trotter;
  c.evolution.order = 2;
  c.evolution.steps = 500;
  c.has_evolution = true;
  return c;
}

/// Leakage-aware fidelity (docs/fidelity.md "Conventions"), written out independently of the fidelity layer.
inline double gate_fidelity(const CMatrix& U, const CMatrix& target) {
  const double d = static_cast<double>(U.rows());
  const double tr_uu = (U.adjoint() * U).trace().real();
  const double overlap = std::norm((target.adjoint() * U).trace());
  return (tr_uu + overlap) / (d * (d + 1));
}

}  // namespace qevolve::testing
