// Rules of the device section that more than resolve_device asks (resolve_device.cpp): the
// parameters of each model, and the coupling kinds the modes' operators carry.
#pragma once

#include <string>
#include <vector>

#include "qevolve/config.hpp"
#include "qevolve/device.hpp"

namespace qevolve::io {

/// The parameter keys of a model, also the names `optimize:` may list for a mode: fluxonium
/// ec ej el flux; transmon ec ej ng flux asymmetry; resonator frequency; duffing frequency
/// anharmonicity.
[[nodiscard]] const std::vector<std::string>& model_keys(ModeType t);

/// Fails (Config::fail at `c.path`.inductive or .dipole) for a coupling the operators of its
/// modes cannot carry: an inductive one with a transmon, a dipole one without oscillators.
void check_coupling_operators(const device::Coupling& c, const std::vector<device::ModeParams>& modes,
                              const Config& config);

}  // namespace qevolve::io
