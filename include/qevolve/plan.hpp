// The resolution stage's product (docs/architecture.md "Call order"): from a config that
// io::resolve accepted, the evolution plan the cached Simulator is built from
// (include/qevolve/evolution_plan.hpp). The engine layers take the plan, never the config.
#pragma once

#include <optional>

#include "qevolve/config.hpp"
#include "qevolve/device.hpp"
#include "qevolve/evolution_plan.hpp"
#include "qevolve/fidelity.hpp"
#include "qevolve/gradient_plan.hpp"
#include "qevolve/simulator.hpp"

namespace qevolve::io {

/// The evolution plan of `config` on `device` (built from config's device section, possibly
/// with changed parameters): the dressed basis when the run needs one, the pulses resolved,
/// the options (evolution section, output.trace, the compute device chosen), the initial
/// states and the noise.
[[nodiscard]] solver::EvolutionPlan evolution_plan(const Config& config, device::Device device);
/// The same on the device of config's own device section (io::build_device).
[[nodiscard]] solver::EvolutionPlan evolution_plan(const Config& config);

/// config's pulses and lines resolved on an existing device and dressed basis (a sweep point
/// or a Session call that changes pulse keys only): nullopt when a pulse's frequency:
/// auto_dressed needs a dressed basis that `dressed` does not hold.
[[nodiscard]] std::optional<solver::Drive> drive_on(const Config& config, const device::Device& device,
                                                    const std::optional<device::DressedBasis>& dressed);

/// config.target's unitary on the qubits `qubit_names` (mode order): its `matrix_file` gates
/// read once (io::load_gate_matrix) and the gates composed (fidelity::target_unitary).
[[nodiscard]] CMatrix target_unitary(const Config& config, const std::vector<std::string>& qubit_names);

/// The objective of a config on the simulator built from it: its target on the device's
/// qubits, the compensation and the computational rows; empty when the config has no target or
/// the initial states are not the computational ones (no fidelity: docs/fidelity.md
/// "Conventions").
[[nodiscard]] std::optional<fidelity::ObjectiveSpec> objective_spec(const Config& config,
                                                                   const solver::Simulator& sim);
/// The same on the plan a simulator would be built from.
[[nodiscard]] std::optional<fidelity::ObjectiveSpec> objective_spec(const Config& config,
                                                                   const solver::EvolutionPlan& plan);

/// The plan of a GradientProblem for a config the stage accepted for gradients (a target,
/// computational initial states, something trainable: io::resolve's rules, asserted here).
[[nodiscard]] gradient::GradientPlan gradient_plan(const Config& config);

/// `config` with what `sim` resolved written in: `auto` amplitudes and frequencies, the total
/// duration and the step count (certified or chosen by steps: auto); what `optimize` writes
/// back (write_back_yaml) besides the trained values.
[[nodiscard]] Config frozen_config(const Config& config, const solver::Simulator& sim);

}  // namespace qevolve::io
