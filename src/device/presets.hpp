// Device presets (physics.md "Reference numbers"): generated modes and couplings.
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

/// Generates a preset; throws InputError (located at device.preset / device.preset_args)
/// for an unknown name or impossible arguments.
[[nodiscard]] PresetDevice make_preset(const PresetSpec& spec, const Config& config);

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
