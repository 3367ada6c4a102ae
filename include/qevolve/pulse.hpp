// Pulses (docs/pulses.md "Shapes"): f(t) = env(tau) * cos(2 pi frequency tau + phase), tau = t - delay,
// zero outside 0 <= tau <= L; drag adds its quadrature term. Every pulse also gives the
// derivative of f(t) with respect to each of its parameters (used by the adjoint gradient).
// docs/pulses.md describes every shape, the two-of-three rule and the derivative semantics.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "qevolve/config.hpp"
#include "qevolve/names.hpp"

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
/// (`sigma`/`c` are accepted for drag; whether a given pulse has them depends on its base and
/// on which shape keys the config gave: see Pulse::has_parameter and Pulse::trainable.)
[[nodiscard]] std::vector<ParamRef> parse_param(const std::string& name, Shape shape,
                                                int num_values);

namespace detail {
/// Shape parameters of the unit envelope in its natural coordinates, plus constants that
/// depend only on them (cached so that value() does no redundant work). Internal to the pulse
/// layer; filled by prepare_geometry() (src/pulse/envelope.hpp).
struct EnvelopeGeometry {
  Shape kind = Shape::cos;  ///< the envelope formula (for drag: its base, cos or gaussian)
  double L = 0.0;           ///< duration (ns)
  double ramp = 0.0;        ///< rampcos, trapezoid (ns); plateau = L - 2 ramp
  double sigma = 0.0;       ///< gaussian, tanh, erf (ns)
  double c = 0.0;           ///< gaussian, tanh, erf (dimensionless)
  // gaussian: floor = exp(-c^2/2), inv_norm = 1/(1 - floor).
  double floor = 0.0, inv_norm = 0.0;
  // tanh / erf: o = g(0), p = g(L/2), inv_norm = 1/(p - o), and d(o, p)/d(L, sigma, c).
  double offset = 0.0, peak = 0.0;
  double d_offset[3] = {0.0, 0.0, 0.0}, d_peak[3] = {0.0, 0.0, 0.0};
};
}  // namespace detail

/// A fully resolved pulse: every `auto` already replaced by numbers.
///
/// Shape keys: two of {duration, plateau, ramp} (rampcos, trapezoid) or of {duration, sigma, c}
/// (gaussian, drag with base gaussian) are "given" and held fixed; the third follows. tanh and
/// erf take all three of {duration, sigma, c} (they are independent there). Only given keys are
/// parameters: derivatives with respect to a shape key hold the other given keys fixed.
class Pulse {
 public:
  /// Resolves a config entry. `auto_frequency` is used when spec.frequency_mode != value;
  /// `matrix_element01` = |<0|O|1>| of the drive operator, used for `amplitude: auto`.
  /// The spec must have passed the resolution stage (io::check_pulse_spec, which refuses
  /// inconsistent or missing shape keys, keys that do not belong to the shape and out-of-range
  /// values): a missing key it reads is a precondition failure (std::logic_error). A non-finite
  /// `auto_frequency` or a zero |<0|O|1>| for `amplitude: auto` is a NumericalError.
  /// spec.crosstalk is not used here (the simulator applies the factors).
  Pulse(const PulseSpec& spec, double auto_frequency, double matrix_element01);

  /// f(t) at global time t (ns), GHz. No allocation.
  [[nodiscard]] double value(double t) const;
  /// The envelope env(tau) at local time tau (0 outside [0, L]), amplitude included
  /// (drag: the in-phase part A e(tau); piecewise_constant/spline: the values' function).
  [[nodiscard]] double envelope(double tau) const;
  /// df(t)/dp for each p in `params`, written to `out` (same length). Each p must satisfy
  /// has_parameter(p) (std::invalid_argument otherwise). Where f jumps as a function of p (slice
  /// edges of piecewise_constant, the window edges) this is the derivative almost everywhere,
  /// i.e. the jump contributes nothing. No allocation.
  void derivatives(double t, std::span<const ParamRef> params, std::span<double> out) const;

  /// Every parameter this pulse has (for gradients and names), in a fixed order:
  /// amplitude (not piecewise_constant/spline), frequency, phase, delay, the given shape keys
  /// (duration, ramp, plateau, sigma, c in this order), lambda (drag), values[0..N-1].
  [[nodiscard]] std::vector<ParamRef> parameters() const;
  /// Whether `p` is one of parameters().
  [[nodiscard]] bool has_parameter(const ParamRef& p) const;
  /// The current value of `p`; derived shape keys (e.g. plateau of a rampcos given by duration
  /// and ramp) may be read too. std::invalid_argument if the shape has no such key.
  [[nodiscard]] double get(const ParamRef& p) const;
  /// Sets one parameter, keeping the other given shape keys fixed (e.g. changing `ramp` of a
  /// rampcos given by duration and ramp keeps the duration and shortens the plateau).
  /// std::invalid_argument unless has_parameter(p); NumericalError (pulse unchanged) if the new
  /// value leaves the shape's domain (duration <= 0, plateau < 0, sigma <= 0, ...).
  void set(const ParamRef& p, double v);

  /// The parameters named by spec.optimize (the same entry this pulse was built from), in
  /// order, without duplicates. A name that is not a parameter of this pulse (unknown, not used
  /// by the shape, or a derived shape key) is a precondition failure (std::logic_error): the
  /// resolution stage refuses those first (io::check_pulse_spec).
  [[nodiscard]] std::vector<ParamRef> trainable(const PulseSpec& spec) const;

  [[nodiscard]] Shape shape() const { return shape_; }
  /// drag: the base envelope (cos or gaussian); other shapes: shape().
  [[nodiscard]] Shape base() const { return geom_.kind; }
  [[nodiscard]] double start() const { return delay_; }
  [[nodiscard]] double end() const { return delay_ + geom_.L; }
  [[nodiscard]] double duration() const { return geom_.L; }
  /// A (GHz); 1 for piecewise_constant and spline, which do not use it.
  [[nodiscard]] double amplitude() const { return amplitude_; }
  [[nodiscard]] double frequency() const { return frequency_; }
  [[nodiscard]] double phase() const { return phase_; }
  [[nodiscard]] double lambda() const { return lambda_; }
  [[nodiscard]] const std::vector<double>& values() const { return values_; }
  /// Key path of the config entry ("pulses[3]"), for messages.
  [[nodiscard]] const std::string& path() const { return path_; }

  /// Integral of the unit-amplitude envelope over [0, L] (ns), used by `amplitude: auto`
  /// (closed form for every shape; drag: its base envelope; piecewise_constant/spline: the
  /// integral of the values' function in GHz ns, as they carry no amplitude).
  [[nodiscard]] double unit_envelope_integral() const;

  /// The times (ns) where f or one of its derivatives may jump: the window's edges, the ends
  /// of the ramps, the slice edges (piecewise_constant) or inner knots (spline). A control
  /// line aligns its panels to them (include/qevolve/line.hpp).
  [[nodiscard]] std::vector<double> breakpoints() const;

 private:
  /// Bits of the shape keys the config gave (held fixed; the others are derived).
  enum Given : unsigned { kDuration = 1U, kRamp = 2U, kPlateau = 4U, kSigma = 8U, kC = 16U };

  [[nodiscard]] bool given(Given g) const { return (given_ & g) != 0U; }
  /// "pulses[3].<k>", for messages.
  [[nodiscard]] std::string key(const std::string& k) const { return path_ + "." + k; }

  // The constructor's stages (src/pulse/resolve.cpp), on a spec the resolution stage has
  // checked (io::check_pulse_spec); each asserts the keys it reads (precondition()).
  /// The shape keys of each ShapeFamily (the two-of-three rule) into geom_ and given_.
  void resolve_length(const PulseSpec& spec);
  void resolve_ramps(const PulseSpec& spec);
  void resolve_gauss(const PulseSpec& spec);
  void resolve_edges(const PulseSpec& spec);
  /// amplitude_: the config's value, `auto` from the angle, or 1 for the values shapes.
  void resolve_amplitude(const PulseSpec& spec, ShapeFamily family, double matrix_element01);
  /// Sets shape key `k` (duration, ramp, plateau, sigma, c) to `v` with the other given keys
  /// fixed; throws NumericalError (nothing changed) if the shape leaves its domain.
  void set_shape_key(Param k, double v);
  /// d/d(given shape key k) from the partials `nat` in natural coordinates (chain rule).
  [[nodiscard]] double shape_partial(Param k, const double* nat) const;

  Shape shape_ = Shape::cos;
  std::string path_;
  double amplitude_ = 0.0, frequency_ = 0.0, phase_ = 0.0, delay_ = 0.0, lambda_ = 0.0;
  std::vector<double> values_;
  detail::EnvelopeGeometry geom_;
  unsigned given_ = 0U;
};

}  // namespace qevolve::pulse
