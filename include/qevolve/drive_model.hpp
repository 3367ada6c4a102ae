// What the modes see of the drive over time (a Simulator's part, docs/architecture.md "Plans"):
// the resolved pulses, their control lines and the lines' outputs, the drive channels and
// their coefficients c_j(t) (linear, or a flux law of the mode's total flux offset), the flux
// gauge's predicates, the derivatives a gradient pass asks for, and the time grid the drive is
// sampled on. The Simulator owns one and hands out only a const reference; its set_drive,
// replace_pulses, track_derivatives and set_steps change it.
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "qevolve/evolution_plan.hpp"

namespace qevolve::solver {

struct TimeGrid;  // src/solver/time_grid.hpp

/// The drive samples of a run (DriveModel::pulse_samples, docs/output.md "Pulse samples").
struct PulseSamples {
  std::vector<double> time;                 ///< S sample times (ns), ascending
  std::vector<std::vector<double>> values;  ///< [P][S]: f_p(t) of every pulse (GHz), after its line
  std::vector<std::vector<double>> ideal;   ///< [P][S]: the pulses before their lines (empty: no line)
  std::vector<std::string> names;           ///< [P]: the pulses' key paths ("pulses[0]")
};

class DriveModel {
 public:
  /// `device` must outlive the model (the Simulator owns both). `magnus`: two samples per step.
  DriveModel(const device::Device& device, Drive drive, double duration, int steps, bool magnus);

  [[nodiscard]] const std::vector<DriveChannel>& channels() const { return drive_.channels; }
  [[nodiscard]] const std::vector<pulse::Pulse>& pulses() const { return drive_.pulses; }
  /// The control lines (docs/lines.md) and the line of each pulse (-1: none).
  [[nodiscard]] const std::vector<pulse::Line>& lines() const { return drive_.lines; }
  [[nodiscard]] int pulse_line(std::size_t p) const { return drive_.pulse_line[p]; }

  /// Through a line, at the line's nodes in [0, T]: |output - f| at the evolution's end (the
  /// line's tail, not yet settled), the pulse's peak max|f| and the output's max|y|; all 0
  /// without a line.
  struct LineSummary {
    double end_gap = 0.0, pulse_peak = 0.0, output_peak = 0.0;
  };
  [[nodiscard]] LineSummary line_summary(std::size_t p) const;
  /// What the mode sees of pulse p at time t: the pulse itself, or its line's output.
  [[nodiscard]] double pulse_value(std::size_t p, double t) const;
  /// NumericalError when these values of the pulses and lines would make a line's output
  /// unaffordable (more than pulse::kMaxLinePanels panels, docs/lines.md "Cost"): an optimiser's
  /// step is refused before anything changes. replace_pulses checks it first too.
  void check_lines(const std::vector<pulse::Pulse>& pulses, const std::vector<pulse::Line>& lines) const;

  /// d(pulse_value(p, t))/d(params): the pulse's derivatives, or (through a line) the line's
  /// output for them. Through a line, `params` must be among those tracked for p
  /// (Simulator::track_derivatives; std::logic_error otherwise) and update_line_derivatives()
  /// must have run since the last change.
  void pulse_derivatives(std::size_t p, double t, std::span<const pulse::ParamRef> params,
                         std::span<double> out) const;
  /// d(pulse_value(p, t))/d(param) of a tracked parameter of pulse p's line.
  [[nodiscard]] double line_derivative(std::size_t p, const pulse::LineParam& param, double t) const;
  /// Computes the tracked derivatives through lines (line outputs) for the current pulses and
  /// lines; a no-op when current. A cache: a gradient pass calls it once, before the pass (not
  /// while another thread reads the derivatives).
  void update_line_derivatives() const;

  /// Drive coefficients c_j(t) = law_j(f_p(t) * factor) of every channel.
  void drive_coefficients(double t, std::vector<double>& out) const;
  /// per_pulse[p] += weight * dc_j/df_p(t) for every pulse p channel j reads (the factor for a
  /// linear channel; the law's slope times each source's factor for a flux channel).
  void add_channel_slopes(std::size_t j, double t, double weight, std::vector<double>& per_pulse) const;
  /// A tunable transmon's flux channels also read the flux at the edges (t_s, t_s + dt) of the
  /// step that contains t (the moving gauge, docs/models.md "Flux pulses"): lo[p] += weight *
  /// dc_j/df_p(t_s), hi[p] += weight * dc_j/df_p(t_s + dt); nothing for other channels.
  void add_channel_edge_slopes(std::size_t j, double t, double weight, std::vector<double>& lo,
                               std::vector<double>& hi) const;
  /// dc_j/d(key) at time t and fixed pulse values for a parameter `key` of the channel's mode
  /// (zero for linear channels; the flux laws read el, ej, flux, asymmetry).
  [[nodiscard]] double channel_partial(std::size_t j, double t, std::string_view key) const;
  /// Whether a tunable transmon's flux channel moves its gauge (docs/models.md "Flux pulses"):
  /// a != 0 (a symmetric SQUID keeps the static gauge, no n term).
  [[nodiscard]] bool gauge_moves(const DriveChannel& ch) const;
  /// Whether the gauge angle of a mode whose gauge moves is nonzero at t (the turn at t = 0 or
  /// t = T is not the identity).
  [[nodiscard]] bool gauge_turned(double t) const;
  /// The turns exp(-+i g n) at t = T and t = 0 that take the moving gauge to the lab one depend
  /// on the flux there: the adjoints report their cotangents d(objective)/dg through on_step as
  /// samples at exactly t = T and t = 0 (no sample time of a fixed-step solver), with dc_j on
  /// the channel j of the gauge's n term. At those two times add_channel_slopes and
  /// channel_partial give that channel's dg/df_p and dg/d(key), add_channel_edge_slopes nothing.
  [[nodiscard]] bool gauge_end(const DriveChannel& ch, double t) const;
  /// The edges (t_s, t_s + dt) of the time step that contains t (s clamped to [0, steps - 1]).
  [[nodiscard]] std::pair<double, double> step_edges(double t) const;
  /// The total flux offset x(t) of a flux channel (sum over its sources).
  [[nodiscard]] double flux_offset(const DriveChannel& ch, double t) const;

  /// Steps -> gate steps and drive samples (src/solver/time_grid.hpp), and the drive
  /// coefficients of gate step u (the midpoint values, or magnus4's Gauss combination): what
  /// the schemes (src/solver/scheme.hpp) step on.
  [[nodiscard]] TimeGrid time_grid() const;
  [[nodiscard]] std::function<void(int, std::vector<double>&)> substep_coefficients() const;
  /// Every pulse sampled where the fixed-step solvers sample it: the step midpoints (expm,
  /// trotter, the open-system step), the two Gauss points of each step (magnus4); adaptive
  /// evaluates the formula at its own times, its samples are those of the midpoint grid of
  /// evolution.steps. f_p(t) without crosstalk factors.
  [[nodiscard]] PulseSamples pulse_samples() const;

  // The Simulator's changes (it holds the model and hands out only a const reference).
  /// Other pulses and lines on the same channels (the Simulator checks the channels).
  void set_drive(Drive drive);
  /// The same pulses and lines, in the same order, with other values; `lines` empty: kept.
  void replace_pulses(std::vector<pulse::Pulse> pulses, std::vector<pulse::Line> lines);
  void set_steps(int steps) { steps_ = steps; }
  /// Names the parameters whose derivatives through lines will be asked (per pulse).
  void track_derivatives(std::vector<std::vector<pulse::ParamRef>> params,
                         std::vector<std::vector<pulse::LineParam>> line_params);

 private:
  /// x at t and at the edges of the time step that contains t (the flux gauge's grid).
  [[nodiscard]] device::FluxSample flux_sample(const DriveChannel& ch, double t) const;
  /// The lines' outputs of every pulse on a line; the tracked derivatives become stale.
  void update_lines();
  [[nodiscard]] pulse::LineInput line_input(std::size_t p) const;
  [[nodiscard]] double dt() const { return duration_ / steps_; }

  const device::Device* device_;
  Drive drive_;
  double duration_;
  int steps_;
  bool magnus_;
  std::vector<pulse::PanelFunction> line_out_;                 ///< per pulse: its line's output (empty: none)
  std::vector<std::vector<pulse::ParamRef>> tracked_;          ///< per pulse (track_derivatives)
  std::vector<std::vector<pulse::LineParam>> tracked_line_;    ///< per pulse
  // The cache of update_line_derivatives():
  mutable std::vector<std::vector<pulse::PanelFunction>> tracked_out_;  ///< the tracked_ line outputs
  mutable std::vector<std::vector<pulse::PanelFunction>> tracked_line_out_;
  mutable bool derivatives_current_ = false;  ///< tracked_out_, tracked_line_out_ match the pulses and lines
};

}  // namespace qevolve::solver
