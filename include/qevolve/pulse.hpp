// Pulses (physics.md "Drives"): f(t) = env(tau) * cos(2 pi frequency tau + phase), tau = t - delay,
// zero outside 0 <= tau <= L; drag adds its quadrature term. Every pulse also gives the
// derivative of f(t) with respect to each of its parameters (used by the adjoint gradient).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "qevolve/config.hpp"

namespace qevolve::pulse {

/// A trainable parameter of a pulse. `index` is used by `value` (values[index]) only.
enum class Param { amplitude, frequency, phase, delay, duration, ramp, plateau, sigma, c, lambda, value };

struct ParamRef {
  Param kind = Param::amplitude;
  int index = 0;
  /// Config spelling: "amplitude", "sigma", "values[3]", ...
  [[nodiscard]] std::string name() const;
  friend bool operator==(const ParamRef&, const ParamRef&) = default;
};

/// Parses a config spelling ("amplitude", "values[2]", "values" = all values) for `shape`;
/// returns the refs or an empty vector if `name` is not a parameter of that shape.
[[nodiscard]] std::vector<ParamRef> parse_param(const std::string& name, Shape shape,
                                                int num_values);

/// A fully resolved pulse: every `auto` already replaced by numbers.
class Pulse {
 public:
  /// Resolves a config entry. `auto_frequency` is used when spec.frequency_mode != value;
  /// `matrix_element01` = |<0|O|1>| of the drive operator, used for `amplitude: auto`.
  /// Throws InputError (located via `config`) for inconsistent or missing shape keys.
  Pulse(const PulseSpec& spec, const Config& config, double auto_frequency,
        double matrix_element01);

  /// f(t) at global time t (ns), GHz.
  [[nodiscard]] double value(double t) const;
  /// The envelope env(tau) at local time tau (0 outside [0, L]), amplitude included.
  [[nodiscard]] double envelope(double tau) const;
  /// df(t)/dp for each p in `params`, written to `out` (same length).
  void derivatives(double t, std::span<const ParamRef> params, std::span<double> out) const;

  /// Every parameter this pulse has (for gradients and names), in a fixed order.
  [[nodiscard]] std::vector<ParamRef> parameters() const;
  [[nodiscard]] double get(const ParamRef& p) const;
  /// Sets one parameter, keeping the other given shape keys fixed (e.g. changing `ramp` of a
  /// rampcos given by duration and ramp keeps the duration and shortens the plateau).
  void set(const ParamRef& p, double v);

  [[nodiscard]] Shape shape() const { return shape_; }
  [[nodiscard]] double start() const { return delay_; }
  [[nodiscard]] double end() const { return delay_ + duration_; }
  [[nodiscard]] double duration() const { return duration_; }
  [[nodiscard]] double amplitude() const { return amplitude_; }
  [[nodiscard]] double frequency() const { return frequency_; }
  [[nodiscard]] double phase() const { return phase_; }

  /// Integral of the unit-amplitude envelope over [0, L] (ns), used by `amplitude: auto`.
  [[nodiscard]] double unit_envelope_integral() const;

 private:
  Shape shape_ = Shape::cos;
  Shape base_ = Shape::cos;
  double amplitude_ = 0.0, frequency_ = 0.0, phase_ = 0.0, delay_ = 0.0, duration_ = 0.0;
  double ramp_ = 0.0, plateau_ = 0.0, sigma_ = 0.0, c_ = 0.0, lambda_ = 0.0;
  std::vector<double> values_;
  /// Which two of {duration, plateau, ramp} / {duration, sigma, c} the config gave; the third
  /// is derived and follows when one of the given two changes.
  Param held_a_ = Param::duration, held_b_ = Param::duration;
};

}  // namespace qevolve::pulse
