// The resolution stage (docs/architecture.md "Call order"): right after io::load_config, it
// checks everything that needs more than one section or the merged device -- preset arguments,
// mode entries, couplings, pulses against their modes and operators, the evolution's solver
// options, initial states, noise and collapse operators, the target's gates and matrix files,
// and the prerequisites of gradients and optimisation. It is the only place (with the loader)
// that raises input errors (`FILE:LINE:COL: key.path: problem`, exit code 2); the device,
// pulse, backend, solver, fidelity, gradient and optimize layers receive validated values and
// assert their preconditions only (precondition(), a std::logic_error). `qevolve check` runs
// the whole stage, so whatever `run` or `optimize` would reject as input, `check` rejects too.
#pragma once

#include "qevolve/config.hpp"
#include "qevolve/device.hpp"
#include "qevolve/pulse.hpp"

namespace qevolve::io {

/// What the configuration will be used for: gradients add their own requirements (a target,
/// double precision, a solver with an adjoint, ...), optimisation needs something trainable.
enum class Purpose {
  evolve,    ///< `run` (gradients too when an `optimize:` list names a parameter)
  optimize,  ///< `optimize`
  inspect,   ///< `spectrum`: the device section only
};

/// The device section: the preset merged with the explicit entries, every key checked.
[[nodiscard]] device::ResolvedDevice resolve_device(const Config& config);

/// resolve_device() followed by device::build_device().
[[nodiscard]] device::Device build_device(const Config& config);

/// Gradients need something trainable: InputError at `pulses` (the stage's rule for `optimize`,
/// and the Python Session's for gradient calls) when no `optimize:` list names a parameter.
void check_trainable(const Config& config);

/// The whole stage for `purpose`; returns the resolved device. Throws the first InputError.
/// `check` uses Purpose::optimize when the config has an `optimize` section, else evolve.
device::ResolvedDevice resolve(const Config& config, Purpose purpose);

/// One pulse entry on its own (docs/pulses.md "Shapes"), the stage's rules that pulse::Pulse
/// assumes: drag's base, only the keys the shape takes, finite numbers (duration, ramp, sigma,
/// c > 0; plateau, delay >= 0), the two-of-three rule and its relations, `amplitude: auto` and
/// `angle`, the names of its `optimize:` list. The first InputError, located at the key. The
/// loader refuses a file's entries first with its own messages; this is the rule for a Config
/// built without it (src/io/resolve_pulse_spec.cpp).
void check_pulse_spec(const Config& config, const PulseSpec& spec);

/// `qevolve converge`'s requirements (docs/accuracy.md "qevolve converge"), before any work:
/// the tolerance in (0, max_tolerance] (an InputError at `tolerance_key`, the flag or the
/// Python argument), a solver with steps (not adaptive), a target with the computational
/// initial states.
void check_converge(const Config& config, double tolerance, const std::string& tolerance_key, double max_tolerance);

/// converge's first refinement of `mode` (at `key`, the key that sets its levels) from `levels`
/// to `to` levels must be possible: refused when `to` == `levels` (already at max_levels) or
/// when `problem` (why the refined config cannot be run: memory) is not empty.
void check_converge_refinement(const Config& config, const std::string& key, const std::string& mode, int levels,
                               int to, int max_levels, const std::string& problem);

/// The matrix of a `matrix_file` gate (dataset /unitary, relative to the config's folder),
/// checked: readable, 2^k x 2^k for its k qubits, finite, unitary to 1e-10. The stage and the
/// fidelity layer's target build both read it through this.
[[nodiscard]] CMatrix load_gate_matrix(const GateSpec& gate, const Config& config);

/// Whether `run` computes gradients for this config (an `optimize:` list names a parameter,
/// or trainable compensation angles).
[[nodiscard]] bool has_trainable(const Config& config);

/// The range the config accepts for a trainable value (docs/config.md "Physical ranges"), as
/// closed bounds for the optimiser: what `optimize` writes back then loads again. An open end
/// (a duration > 0) is closed at 1e-9 of its unit.
struct TrainableRange {
  double lo = 0.0, hi = 0.0;
};
/// A pulse parameter; `flux`: the pulse drives flux (amplitude and values in flux quanta);
/// `gaussian`: its envelope is a Gaussian (c >= 0.01).
[[nodiscard]] TrainableRange pulse_param_range(pulse::Param p, bool flux, bool gaussian);
/// A device parameter by its key: ec, ej, el, flux, ng, asymmetry, frequency, anharmonicity,
/// capacitive, inductive, dipole, cross_kerr (std::invalid_argument for another).
[[nodiscard]] TrainableRange device_param_range(const std::string& key);
/// T1 and Tphi (ns).
[[nodiscard]] TrainableRange coherence_time_range();

}  // namespace qevolve::io
