// The axes of `qevolve sweep` (docs/cli.md "sweep"): `--vary KEY=START:STOP:COUNT` or
// `--vary KEY=v1,v2,...`, each point's value put into the config as an override.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "qevolve/config_loader.hpp"

namespace qevolve::io {

/// What a swept key changes, and so what a point must rebuild: nothing for `target`, the
/// pulses for `pulses` (Simulator::set_drive), the pulses' control lines for `lines`
/// (Simulator::set_drive rebuilds them with the pulses), the simulator for `evolution`, the
/// device and the simulator for `device`.
enum class SweepScope { target, pulses, lines, evolution, device };

struct SweepAxis {
  std::string key;                 ///< KEY
  std::string argument;            ///< "KEY=SPEC" as given
  SweepScope scope = SweepScope::pulses;
  std::vector<std::string> texts;  ///< each point's value as YAML text (ranges: the shortest exact spelling)
  std::vector<double> values;      ///< the same as numbers; empty when a value is not a number
};

/// Most points a sweep grid may have.
inline constexpr std::int64_t kMaxSweepPoints = 1000000;

/// Parses a `--vary` argument. START:STOP:COUNT: COUNT points from START to STOP inclusive,
/// linearly spaced (COUNT = 1: START alone); v1,v2,...: those values. InputError naming the
/// argument for a bad spec or a key outside device, pulses, lines, evolution and target.
[[nodiscard]] SweepAxis parse_vary(const std::string& argument);

/// Number of grid points (the product of the axes' lengths); InputError above kMaxSweepPoints.
[[nodiscard]] std::int64_t sweep_points(const std::vector<SweepAxis>& axes);

/// The override of value `i` of `axis`, labelled "--vary KEY=SPEC (value TEXT)".
[[nodiscard]] Override axis_override(const SweepAxis& axis, std::size_t i);

/// What a sweep point needs besides a valid config: the computational initial states (its
/// figures are of the computational block). InputError otherwise.
void check_sweepable(const Config& config);

}  // namespace qevolve::io
