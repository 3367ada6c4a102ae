// The resolution stage (docs/architecture.md "Call order"): right after io::load_config, it
// checks everything that needs more than one section or the merged device -- preset arguments,
// mode entries, couplings, pulses against their modes and operators, the evolution's solver
// options, initial states, noise and collapse operators, the target's gates and matrix files,
// and the prerequisites of gradients and optimisation. It is the only place (with the loader)
// that raises input errors (`FILE:LINE:COL: key.path: problem`, exit code 2); the device,
// pulse, solver, fidelity and gradient layers receive validated values and check their
// preconditions with UnvalidatedInput only. `qevolve check` runs the whole stage, so whatever
// `run` or `optimize` would reject as input, `check` rejects too.
#pragma once

#include "qevolve/config.hpp"
#include "qevolve/device.hpp"

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

/// The whole stage for `purpose`; returns the resolved device. Throws the first InputError.
/// `check` uses Purpose::optimize when the config has an `optimize` section, else evolve.
device::ResolvedDevice resolve(const Config& config, Purpose purpose);

/// The matrix of a `matrix_file` gate (dataset /unitary, relative to the config's folder),
/// checked: readable, 2^k x 2^k for its k qubits, finite, unitary to 1e-10. The stage and the
/// fidelity layer's target build both read it through this.
[[nodiscard]] CMatrix load_gate_matrix(const GateSpec& gate, const Config& config);

/// Whether `run` computes gradients for this config (an `optimize:` list names a parameter,
/// or trainable compensation angles).
[[nodiscard]] bool has_trainable(const Config& config);

}  // namespace qevolve::io
