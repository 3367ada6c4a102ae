// Device presets (docs/reference.md): generated modes and couplings.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "qevolve/config.hpp"
#include "qevolve/device.hpp"

namespace qevolve::device {

/// A preset's modes and its couplings (mode indices refer to `modes`).
struct PresetDevice {
  std::vector<ModeParams> modes;
  std::vector<Coupling> couplings;
};

/// Names of the presets qevolve knows, for error messages.
[[nodiscard]] const std::vector<std::string>& preset_names();

/// The fewest qubits a preset takes (mpc_fluxonium_1d 1, transmon_coupler_1d 2); a ring
/// (periodic) takes at least 3. The resolution stage (io::resolve_device) checks them.
[[nodiscard]] int min_preset_qubits(const std::string& name);

/// Generates a preset from validated arguments (a known name, enough qubits). A `variance`
/// that makes a parameter non-positive throws std::domain_error naming the mode; an unknown
/// name std::invalid_argument (an internal error: the resolution stage rejects it first).
[[nodiscard]] PresetDevice make_preset(const PresetSpec& spec);

/// qevolve's own standard-normal generator for `variance`: std::mt19937_64(seed) feeding a
/// Box-Muller transform written here, so that results do not depend on the C++ library.
/// Each pair of 64-bit draws (x1, x2) gives u_k = (x_k >> 11) * 2^-53 in [0, 1);
/// r = sqrt(-2 ln(1 - u1)), z1 = r cos(2 pi u2), z2 = r sin(2 pi u2); normals are returned in
/// the order z1, z2, z1', z2', ...
class NormalGenerator {
 public:
  explicit NormalGenerator(std::uint64_t seed);
  double next();

 private:
  std::mt19937_64 engine_;  // the standard fixes its output sequence exactly
  double spare_ = 0.0;
  bool has_spare_ = false;
};

}  // namespace qevolve::device
