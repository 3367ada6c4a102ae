// Sizes and the memory estimate of a run (docs/cli.md "Memory"). Every size derived from the
// Hilbert-space dimension D is computed here in floating point (exact to 2^53, no overflow),
// so that the resolution stage can refuse a run that cannot fit before anything is allocated:
// `FILE:LINE:COL: device: D = 3^41 = 3.6e19 states: the states need 5.8e20 bytes; 23 GiB
// available (physical memory)`, exit 2. The formulas the solver layer itself uses for the same
// sizes are shared with it: the checkpointing of the open-system adjoint
// (include/qevolve/checkpoints.hpp) and when a dressed basis is built (needs_dressed_basis,
// which the stage's plan builder asks too).
#pragma once

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "qevolve/checkpoints.hpp"
#include "qevolve/config.hpp"
#include "qevolve/device.hpp"
#include "qevolve/resolve.hpp"

namespace qevolve::sizes {

/// Whether the simulator builds the dense dressed basis (basis: dressed, frequency: auto_dressed).
/// A pulse resolves its frequency on the dressed basis (frequency: auto_dressed).
[[nodiscard]] inline bool pulses_need_dressed_basis(const std::vector<PulseSpec>& pulses) {
  return std::any_of(pulses.begin(), pulses.end(),
                     [](const PulseSpec& p) { return p.frequency_mode == FrequencyMode::auto_dressed; });
}
[[nodiscard]] inline bool needs_dressed_basis(const Config& config) {
  return config.evolution.basis == Basis::dressed || pulses_need_dressed_basis(config.pulses);
}
/// `run` writes /energies (a dense diagonalisation) up to this D (docs/output.md).
inline constexpr double kMaxDenseEnergies = 4096;

}  // namespace qevolve::sizes

namespace qevolve::io {

/// The estimate of a command's dominant allocations, in bytes (doubles: no overflow).
struct MemoryEstimate {
  double bytes = 0.0;        ///< total, fixed process overhead included
  double dim = 1.0;          ///< D = product of the kept levels
  std::string dim_text;      ///< "D = 3^41 = 3.6e19"
  double columns = 0.0;      ///< evolved columns (open systems: density matrices)
  std::string scheme;        ///< "trotter", "expm", "spectrum", ...
  // The largest single term, for the message.
  std::string part;          ///< "the states need", "the dense propagator needs", ...
  double part_bytes = 0.0;
  std::string key;           ///< the config key that sets that size ("device", "evolution.solver", ...)
};

/// Memory the process may use and what limits it (the smallest of physical memory, the cgroup
/// limit, RLIMIT_AS / RLIMIT_DATA and --max-memory).
struct MemoryLimit {
  double bytes = 0.0;
  std::string source;  ///< "physical memory", "cgroup memory.max", "RLIMIT_AS", "--max-memory"
};

/// The estimate for `purpose` (inspect: `spectrum`'s dense diagonalisation). `writes_output`:
/// run / optimize write an HDF5 file (with /energies, a dense diagonalisation up to D = 4096).
[[nodiscard]] MemoryEstimate estimate_memory(const Config& config, const device::ResolvedDevice& dev,
                                             Purpose purpose, bool writes_output = true);

[[nodiscard]] MemoryLimit available_memory(std::optional<double> max_memory);

/// estimate_memory(), refused with Config::fail (exit 2) when it exceeds available_memory().
MemoryEstimate check_memory(const Config& config, const device::ResolvedDevice& dev, Purpose purpose,
                            std::optional<double> max_memory, bool writes_output = true);

/// The size of a sweep as one process sees it (docs/cli.md "Memory").
struct SweepSize {
  double points = 0.0;        ///< the whole grid: rank 0 gathers and writes every point's results
  double local_points = 0.0;  ///< the points this process validates and keeps
  double threads = 1.0;       ///< points this process evaluates at once
  std::string point;          ///< the estimated point's axis values, for the message ("" = point 0)
};

/// `qevolve sweep`: `point`'s evolution (no output file of its own) on each of the threads at
/// once, the validated points kept and the gathered results of the grid (3 + d^2 numbers per
/// point). The largest part names its key: the point's (located) or `--vary`.
[[nodiscard]] MemoryEstimate estimate_sweep_memory(const Config& point, const device::ResolvedDevice& dev,
                                                   const SweepSize& size);

/// estimate_sweep_memory(), refused (exit 2) when it exceeds available_memory().
MemoryEstimate check_sweep_memory(const Config& point, const device::ResolvedDevice& dev, const SweepSize& size,
                                  std::optional<double> max_memory);

/// "8G", "500M", "2GiB", "1.5T", "1000000" -> bytes (K, M, G, T and KiB ... TiB are powers of
/// 1024; KB, MB, GB, TB powers of 1000). InputError naming `flag` otherwise.
[[nodiscard]] double parse_memory_size(const std::string& text, const std::string& flag);

/// "1.2 GiB", "512 MiB", "2.3e21 bytes" (beyond 1 EiB).
[[nodiscard]] std::string format_bytes(double bytes);

/// The line `check` prints: "~1.2 GiB estimated (D = 6561, 256 columns, trotter)".
[[nodiscard]] std::string describe(const MemoryEstimate& estimate);

}  // namespace qevolve::io
