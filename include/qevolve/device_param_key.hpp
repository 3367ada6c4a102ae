// The device parameters that keys name, spelt as `--set` takes them (docs/cli.md "--set"):
// what Session::spectrum differentiates (Simulation.spectrum(gradient=[...]), docs/python.md).
#pragma once

#include <string>
#include <vector>

#include "qevolve/config.hpp"
#include "qevolve/device.hpp"
#include "qevolve/device_derivative.hpp"

namespace qevolve::io {

/// The device parameter each key names, in order: device.qubits[MODE].PARAMETER (MODE a mode
/// name, a preset's modes included, or the index of an entry of the config's device.qubits
/// list) with PARAMETER one of its model's (fluxonium ec ej el flux; transmon ec ej ng flux
/// asymmetry; resonator frequency; duffing frequency anharmonicity), or
/// device.couplings[INDEX].PARAMETER (an entry of the config's device.couplings list; capacitive
/// inductive dipole cross_kerr). DeviceParam::name is the spelling of /gradient_names
/// (device.qubits[q0].ej). `config` is the config as read, its overrides applied; `resolved`
/// its resolve_device. An InputError at FILE `label` for a key of another form, an index out
/// of range, an unknown mode (the nearest name suggested), a parameter the model has not (did
/// you mean ...), a parameter named twice; located in the file for a coupling kind its modes'
/// operators cannot carry (an inductive coupling to a transmon).
[[nodiscard]] std::vector<device::DeviceParam> device_params_of_keys(const Config& config,
                                                                    const device::ResolvedDevice& resolved,
                                                                    const std::vector<std::string>& keys,
                                                                    const std::string& label);

}  // namespace qevolve::io
