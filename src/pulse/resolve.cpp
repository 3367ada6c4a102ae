// Pulse construction: resolves a PulseSpec (docs/pulses.md "Shapes") into numbers -- the
// two-of-three rule of the shape keys, `amplitude: auto`, `frequency: auto`. The resolution
// stage has checked the spec (io::check_pulse_spec, src/io/resolve_pulse_spec.cpp: every rule
// with its message); what the construction cannot run without (a shape key it reads, the angle
// of `amplitude: auto`, a name of `optimize:`) is asserted with precondition(), a programming
// error for a spec that skipped the stage. Also Pulse::trainable().
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "envelope.hpp"
#include "qevolve/error.hpp"
#include "qevolve/pulse.hpp"
#include "qevolve/types.hpp"

namespace qevolve::pulse {
namespace {

std::string num(double v) {
  std::ostringstream os;
  os << std::setprecision(10) << v;
  return os.str();
}

/// How many of the three optional shape keys are given.
int count_given(const std::optional<double>& a, const std::optional<double>& b, const std::optional<double>& c) {
  return static_cast<int>(a.has_value()) + static_cast<int>(b.has_value()) + static_cast<int>(c.has_value());
}

}  // namespace

Pulse::Pulse(const PulseSpec& spec, double auto_frequency, double matrix_element01)
    : shape_(spec.shape), path_(spec.path) {
  const Shape kind = shape_ == Shape::drag ? spec.base : shape_;
  precondition(shape_ != Shape::drag || enum_row(kind).drag_base, "Pulse", key("base"),
               "a drag base that is neither cos nor gaussian");
  const EnumRow<Shape>& row = enum_row(kind);

  geom_.kind = kind;
  switch (row.family) {
    case ShapeFamily::length:
    case ShapeFamily::values: resolve_length(spec); break;
    case ShapeFamily::ramps: resolve_ramps(spec); break;
    case ShapeFamily::gauss: resolve_gauss(spec); break;
    case ShapeFamily::edges: resolve_edges(spec); break;
  }
  detail::prepare_geometry(geom_);
  if (row.family == ShapeFamily::values) values_ = spec.values;
  lambda_ = shape_ == Shape::drag ? spec.lambda.value_or(0.0) : 0.0;
  phase_ = spec.phase;
  delay_ = spec.delay;

  if (spec.frequency_mode == FrequencyMode::value) {
    frequency_ = spec.frequency;
  } else {
    if (!std::isfinite(auto_frequency)) {
      throw NumericalError(key("frequency") + ": frequency: auto could not be resolved (got " +
                           num(auto_frequency) + ")");
    }
    frequency_ = auto_frequency;
  }
  resolve_amplitude(spec, row.family, matrix_element01);
}

void Pulse::resolve_length(const PulseSpec& spec) {
  precondition(spec.duration.has_value(), "Pulse", key("duration"), "a pulse without a duration");
  precondition(shape_ != Shape::piecewise_constant || !spec.values.empty(), "Pulse", key("values"),
               "a piecewise_constant pulse without values");
  precondition(shape_ != Shape::spline || spec.values.size() >= 4, "Pulse", key("values"),
               "a spline of fewer than 4 control values");
  geom_.L = *spec.duration;
  given_ = kDuration;
}

void Pulse::resolve_ramps(const PulseSpec& spec) {
  precondition(count_given(spec.duration, spec.plateau, spec.ramp) >= 2, "Pulse", path_,
               "fewer than two of duration, plateau, ramp");
  if (spec.duration && spec.ramp) {  // plateau follows (also when all three are given)
    geom_.L = *spec.duration;
    geom_.ramp = *spec.ramp;
    given_ = kDuration | kRamp;
  } else if (spec.duration) {  // (duration, plateau): ramp follows
    geom_.L = *spec.duration;
    geom_.ramp = 0.5 * (*spec.duration - *spec.plateau);
    given_ = kDuration | kPlateau;
  } else {  // (ramp, plateau): duration follows
    geom_.ramp = *spec.ramp;
    geom_.L = *spec.plateau + 2.0 * *spec.ramp;
    given_ = kRamp | kPlateau;
  }
}

void Pulse::resolve_gauss(const PulseSpec& spec) {
  precondition(count_given(spec.duration, spec.sigma, spec.c) >= 2, "Pulse", path_,
               "fewer than two of duration, sigma, c");
  if (spec.duration && spec.sigma) {  // c follows (also when all three are given)
    geom_.sigma = *spec.sigma;
    geom_.c = *spec.duration / (2.0 * *spec.sigma);
    given_ = kDuration | kSigma;
  } else if (spec.duration) {  // (duration, c): sigma follows
    geom_.c = *spec.c;
    geom_.sigma = *spec.duration / (2.0 * *spec.c);
    given_ = kDuration | kC;
  } else {  // (sigma, c): duration follows
    geom_.sigma = *spec.sigma;
    geom_.c = *spec.c;
    given_ = kSigma | kC;
  }
}

void Pulse::resolve_edges(const PulseSpec& spec) {
  // g(tau) has three independent scales (rise at c*sigma, fall at L - c*sigma, width sigma):
  // all three keys are given.
  precondition(count_given(spec.duration, spec.sigma, spec.c) == 3, "Pulse", path_,
               "a tanh or erf pulse without all three of duration, sigma, c");
  geom_.L = *spec.duration;
  geom_.sigma = *spec.sigma;
  geom_.c = *spec.c;
  given_ = kDuration | kSigma | kC;
}

void Pulse::resolve_amplitude(const PulseSpec& spec, ShapeFamily family, double matrix_element01) {
  if (family == ShapeFamily::values) {
    amplitude_ = 1.0;
  } else if (spec.amplitude_auto) {
    precondition(spec.angle.has_value(), "Pulse", key("amplitude"), "amplitude: auto without an angle");
    if (!(matrix_element01 > 0.0) || !std::isfinite(matrix_element01)) {
      throw NumericalError(key("amplitude") +
                           ": amplitude: auto needs a nonzero |<0|O|1>| of the drive operator, got " +
                           num(matrix_element01));
    }
    // docs/pulses.md "`auto` values": A = theta / (2 pi |<0|O|1>| int e), e the unit envelope (drag: its base).
    amplitude_ = *spec.angle / (kTwoPi * matrix_element01 * unit_envelope_integral());
  } else {
    amplitude_ = spec.amplitude;
  }
}

std::vector<ParamRef> Pulse::trainable(const PulseSpec& spec) const {
  const int n = static_cast<int>(values_.size());
  std::vector<ParamRef> out;
  for (const std::string& name : spec.optimize) {
    const std::vector<ParamRef> refs = parse_param(name, shape_, n);
    precondition(!refs.empty(), "Pulse::trainable", path_ + ".optimize", "a name that is not a parameter of the shape");
    for (const ParamRef& p : refs) {
      precondition(has_parameter(p), "Pulse::trainable", path_ + ".optimize",
                   "a parameter this pulse does not hold (a derived shape key)");
      if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
    }
  }
  return out;
}

}  // namespace qevolve::pulse
