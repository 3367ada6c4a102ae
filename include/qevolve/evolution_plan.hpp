// The evolution plan (docs/architecture.md "Call order"): what a cached Simulator is built from,
// every value resolved -- the built device (and its dressed basis when the run needs one), the
// resolved pulses (`auto` amplitudes and frequencies fixed), their drive channels and control
// lines, the time grid, the initial states, the noise and the compute device. The resolution
// stage builds it from a validated config (io::evolution_plan, include/qevolve/plan.hpp); the
// engine never sees the config. The builders here assert preconditions only: the stage has
// checked the input.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "qevolve/config.hpp"
#include "qevolve/device.hpp"
#include "qevolve/flux_drive.hpp"
#include "qevolve/line.hpp"
#include "qevolve/pulse.hpp"
#include "qevolve/types.hpp"

namespace qevolve::solver {

/// One drive channel: c_j(t) * O on `mode` with c_j(t) = factor * f_p(t) (a pulse's own mode
/// has factor 1; each crosstalk entry adds a channel with its factor on the other mode).
/// A flux pulse's channels follow the law of their mode (include/qevolve/flux_drive.hpp): one
/// channel on a fluxonium's `phi`, two on a tunable transmon's cos(phi) and sin(phi), whose
/// coefficient is law(x(t)) of the mode's total flux offset x(t) = sum of factor_s f_s(t) over
/// `sources`, every flux pulse and flux crosstalk on that mode (flux adds before the law).
struct DriveChannel {
  int pulse = 0;        ///< the (first) pulse
  int mode = 0;
  double factor = 1.0;  ///< linear channels: c = factor f_pulse
  std::string op;  ///< operator name on `mode` (Mode::op: "phi", "n", "x", "y", "number", "cos_phi", "sin_phi")
  device::DriveLaw law = device::DriveLaw::linear;
  std::vector<std::pair<int, double>> sources;  ///< flux laws: (pulse, factor) of each flux source
};

struct Options {
  Solver solver = Solver::trotter;
  int order = 2;
  Splitting splitting = Splitting::terms;
  int steps = 1000;
  double duration = 0.0;  ///< total time T (ns), resolved
  double rtol = 1e-10, atol = 1e-12;
  Basis basis = Basis::product;
  Frame frame = Frame::lab;
  InitialStates initial_states;
  Precision precision = Precision::double_;
  int threads = 0;  ///< 0: all cores
  bool open = false;  ///< evolution.noise given: Lindblad evolution of density matrices
  /// Where the closed evolution runs: evolution.device resolved to cpu or cuda (never auto_;
  /// docs/backend.md "Selection"), and why, for the run summary ("auto: no CUDA device
  /// found"; empty for an explicit `device: cpu`).
  ComputeDevice device = ComputeDevice::cpu;
  std::string device_note;
  /// output.trace: where the forward pass is observed (solver::trace_steps).
  TraceSpec trace;

  /// The time step duration / steps (ns).
  [[nodiscard]] double dt() const { return duration / steps; }
};

/// The resolved pulses of an evolution, their drive channels and their control lines.
struct Drive {
  std::vector<pulse::Pulse> pulses;
  std::vector<DriveChannel> channels;  ///< per pulse: its own mode, then its crosstalk entries
  std::vector<pulse::Line> lines;
  std::vector<int> pulse_line;  ///< per pulse: its line, or -1
};

/// Everything a Simulator is built from. A sweep point, an optimiser iteration or an ensemble
/// member is another plan with other values: Simulator::set_drive takes a new Drive when the
/// channels and the duration stay, set_noise new rates, set_steps a new grid.
struct EvolutionPlan {
  device::Device device;
  std::optional<device::DressedBasis> dressed;  ///< basis: dressed, or a pulse's frequency: auto_dressed
  Options options;  ///< resolved: duration > 0, compute device chosen; threads 0 (the Simulator's own)
  Drive drive;
  std::vector<Index> initial;  ///< flat indices of the initial states
  std::vector<NoiseSpec> noise;         ///< open systems: evolution.noise, config order
  std::vector<CollapseSpec> collapse;   ///< evolution.collapse
};

/// The pulses of `specs` resolved on `device` (auto frequencies from its bare levels, or from
/// `dressed` for frequency: auto_dressed, which then must be present) with their channels, and
/// the lines of `lines` attached by name.
[[nodiscard]] Drive make_drive(const device::Device& device, const std::optional<device::DressedBasis>& dressed,
                               const std::vector<PulseSpec>& specs, const std::vector<LineSpec>& lines);
/// `duration` when given (not shorter than the latest pulse end), else the latest pulse end.
[[nodiscard]] double total_duration(const std::optional<double>& duration, const std::vector<pulse::Pulse>& pulses);
/// Flat indices of the initial states on `device`.
[[nodiscard]] std::vector<Index> initial_indices(const device::Device& device, const InitialStates& states);
/// The drive channels of two Drives are the same (modes, operators, factors, laws, sources).
[[nodiscard]] bool same_channels(const std::vector<DriveChannel>& a, const std::vector<DriveChannel>& b);

}  // namespace qevolve::solver
