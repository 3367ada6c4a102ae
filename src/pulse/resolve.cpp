// Pulse construction: resolves a validated PulseSpec (docs/pulses.md "Shapes") into numbers -- the
// two-of-three rule of the shape keys, `amplitude: auto`, `frequency: auto`. The resolution
// stage (io::resolve) has checked the spec; a violated precondition here (a programmatic spec)
// throws UnvalidatedInput naming the key. Also Pulse::trainable().
#include <algorithm>
#include <array>
#include <cmath>
#include <iomanip>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "envelope.hpp"
#include "qevolve/pulse.hpp"
#include "qevolve/types.hpp"

namespace qevolve::pulse {
namespace {

/// Relative tolerance for "three consistent shape keys" (duration = plateau + 2 ramp or
/// duration = 2 c sigma): far above rounding of decimal input, far below any intended difference.
constexpr double kConsistencyTol = 1e-9;

std::string num(double v) {
  std::ostringstream os;
  os << std::setprecision(10) << v;
  return os.str();
}

/// "a rampcos pulse", "a drag pulse with base gaussian".
std::string describe(Shape shape, Shape kind) {
  std::string d = std::string("a ") + enum_name(shape) + " pulse";
  if (shape == Shape::drag) d += std::string(" with base ") + enum_name(kind);
  return d;
}

/// The shape keys of a shape, as listed in messages.
std::string shape_keys(Shape shape, const EnumRow<Shape>& row) {
  std::string k = "duration";
  for (const char* key : row.keys)
    if (key != nullptr) k += std::string(", ") + key;
  if (shape == Shape::drag) k += ", lambda, base";
  return k;
}

/// "cos or gaussian": the shapes drag takes as its base.
std::string drag_bases() {
  std::string s;
  for (const EnumRow<Shape>& row : enum_table<Shape>())
    if (row.drag_base) s += (s.empty() ? "" : " or ") + std::string(row.name);
  return s;
}

/// "none is given", "only duration is given".
std::string given_text(const std::vector<std::string>& names) {
  if (names.empty()) return "none is given";
  std::string s = "only ";
  for (std::size_t i = 0; i < names.size(); ++i) s += (i ? " and " : "") + names[i];
  return s + " is given";
}

/// The two-of-three rule's count: how many of a family's three shape keys (duration first)
/// are given. Fewer than two: UnvalidatedInput at the first missing one, naming `relation`.
std::size_t given_of_three(
    const std::string& path, const std::string& desc,
    const std::array<std::pair<const char*, const std::optional<double>*>, 3>& keys,
    const char* relation) {
  std::vector<std::string> have;
  for (const auto& [k, v] : keys)
    if (v->has_value()) have.emplace_back(k);
  if (have.size() < 2) {
    const auto missing = std::find_if(keys.begin(), keys.end(), [](const auto& k) { return !k.second->has_value(); });
    unvalidated(path + "." + missing->first,
                desc + " needs two of " + keys[0].first + ", " + keys[1].first + ", " + keys[2].first + "; " +
                    given_text(have),
                relation);
  }
  return have.size();
}

}  // namespace

Pulse::Pulse(const PulseSpec& spec, double auto_frequency, double matrix_element01)
    : shape_(spec.shape), path_(spec.path) {
  const Shape kind = checked_base(spec);
  const EnumRow<Shape>& row = enum_row(kind);
  const std::string desc = describe(shape_, kind);
  check_keys(spec, row, desc);
  check_numbers(spec);

  geom_.kind = kind;
  switch (row.family) {
    case ShapeFamily::length:
    case ShapeFamily::values: resolve_length(spec, desc); break;
    case ShapeFamily::ramps: resolve_ramps(spec, desc); break;
    case ShapeFamily::gauss: resolve_gauss(spec, desc); break;
    case ShapeFamily::edges: resolve_edges(spec, desc); break;
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
  resolve_amplitude(spec, desc, row.family, matrix_element01);
}

Shape Pulse::checked_base(const PulseSpec& spec) const {
  if (shape_ == Shape::drag) {
    if (!enum_row(spec.base).drag_base) {
      unvalidated(key("base"), "drag base must be " + drag_bases() + ", not " +
                                   enum_name(spec.base));
    }
    return spec.base;
  }
  if (spec.base != Shape::cos) {
    unvalidated(key("base"),
                std::string("base applies only to shape drag, not to ") + enum_name(shape_));
  }
  return shape_;
}

void Pulse::check_keys(const PulseSpec& spec, const EnumRow<Shape>& row,
                       const std::string& desc) const {
  const auto foreign = [&](const char* k) {
    unvalidated(key(k), std::string(k) + " does not apply to " + desc,
                "the keys of " + desc + ": " + shape_keys(shape_, row));
  };
  const std::pair<const char*, bool> shape_keys_present[] = {
      {"ramp", spec.ramp.has_value()}, {"plateau", spec.plateau.has_value()},
      {"sigma", spec.sigma.has_value()}, {"c", spec.c.has_value()}};
  for (const auto& [k, present] : shape_keys_present)
    if (present && !takes_key(row, k)) foreign(k);
  if (shape_ != Shape::drag && spec.lambda) foreign("lambda");
  if (!spec.values.empty() && !takes_key(row, "values")) foreign("values");
}

void Pulse::check_numbers(const PulseSpec& spec) const {
  const auto finite = [&](const std::string& k, double v) {
    if (!std::isfinite(v)) unvalidated(key(k), k + " must be a finite number");
  };
  const auto finite_opt = [&](const char* k, const std::optional<double>& v) {
    if (v) finite(k, *v);
  };
  finite("phase", spec.phase);
  finite("delay", spec.delay);
  if (!spec.amplitude_auto) finite("amplitude", spec.amplitude);
  if (spec.frequency_mode == FrequencyMode::value) finite("frequency", spec.frequency);
  finite_opt("angle", spec.angle);
  finite_opt("duration", spec.duration);
  finite_opt("ramp", spec.ramp);
  finite_opt("plateau", spec.plateau);
  finite_opt("sigma", spec.sigma);
  finite_opt("c", spec.c);
  finite_opt("lambda", spec.lambda);
  for (std::size_t k = 0; k < spec.values.size(); ++k) {
    finite("values[" + std::to_string(k) + "]", spec.values[k]);
  }
  if (spec.delay < 0.0) unvalidated(key("delay"), "delay must be >= 0 ns, got " + num(spec.delay));
  const auto positive = [&](const char* k, const std::optional<double>& v) {
    if (v && !(*v > 0.0)) unvalidated(key(k), std::string(k) + " must be > 0, got " + num(*v));
  };
  positive("duration", spec.duration);
  positive("ramp", spec.ramp);
  positive("sigma", spec.sigma);
  positive("c", spec.c);
  if (spec.plateau && *spec.plateau < 0.0) {
    unvalidated(key("plateau"), "plateau must be >= 0, got " + num(*spec.plateau));
  }
}

void Pulse::resolve_length(const PulseSpec& spec, const std::string& desc) {
  const char* sname = enum_name(shape_);
  if (!spec.duration) {
    unvalidated(key("duration"), desc + " needs a duration", "duration: the length in ns");
  }
  geom_.L = *spec.duration;
  given_ = kDuration;
  if (shape_ == Shape::piecewise_constant && spec.values.empty()) {
    unvalidated(key("values"), std::string(sname) + " needs at least one value",
                "values: [v0, v1, ...] in GHz");
  }
  if (shape_ == Shape::spline && spec.values.size() < 4) {
    unvalidated(key("values"), std::string(sname) + " needs at least 4 control values, got " +
                                   std::to_string(spec.values.size()),
                "values: [v0, v1, v2, v3, ...] in GHz");
  }
}

void Pulse::resolve_ramps(const PulseSpec& spec, const std::string& desc) {
  const std::size_t given = given_of_three(
      path_, desc, {{{"duration", &spec.duration}, {"plateau", &spec.plateau}, {"ramp", &spec.ramp}}},
      "duration = plateau + 2*ramp");
  if (given == 3) {
    const double sum = *spec.plateau + 2.0 * *spec.ramp;
    if (std::fabs(*spec.duration - sum) > kConsistencyTol * *spec.duration) {
      unvalidated(key("duration"), "duration " + num(*spec.duration) + ", plateau " +
                                       num(*spec.plateau) + " and ramp " + num(*spec.ramp) +
                                       " are inconsistent: plateau + 2*ramp = " + num(sum),
                  "only two of them, or duration = plateau + 2*ramp");
    }
  }
  if (spec.duration && spec.ramp) {  // plateau follows (also when all three are given)
    geom_.L = *spec.duration;
    geom_.ramp = *spec.ramp;
    given_ = kDuration | kRamp;
    if (geom_.L - 2.0 * geom_.ramp < -kConsistencyTol * geom_.L) {
      unvalidated(key("ramp"), "ramp " + num(geom_.ramp) + " is longer than half the duration " +
                                   num(geom_.L) + ": plateau = duration - 2*ramp = " +
                                   num(geom_.L - 2.0 * geom_.ramp),
                  "ramp <= duration/2");
    }
  } else if (spec.duration) {  // (duration, plateau): ramp follows
    geom_.L = *spec.duration;
    geom_.ramp = 0.5 * (*spec.duration - *spec.plateau);
    given_ = kDuration | kPlateau;
    if (!(geom_.ramp > 0.0)) {
      unvalidated(key("plateau"), "plateau " + num(*spec.plateau) +
                                      " leaves no ramp in duration " + num(geom_.L),
                  "plateau < duration");
    }
  } else {  // (ramp, plateau): duration follows
    geom_.ramp = *spec.ramp;
    geom_.L = *spec.plateau + 2.0 * *spec.ramp;
    given_ = kRamp | kPlateau;
  }
}

void Pulse::resolve_gauss(const PulseSpec& spec, const std::string& desc) {
  const std::size_t given = given_of_three(
      path_, desc, {{{"duration", &spec.duration}, {"sigma", &spec.sigma}, {"c", &spec.c}}},
      "duration = 2*c*sigma");
  if (given == 3) {
    const double prod = 2.0 * *spec.c * *spec.sigma;
    if (std::fabs(*spec.duration - prod) > kConsistencyTol * *spec.duration) {
      unvalidated(key("duration"), "duration " + num(*spec.duration) + ", sigma " +
                                       num(*spec.sigma) + " and c " + num(*spec.c) +
                                       " are inconsistent: 2*c*sigma = " + num(prod),
                  "only two of them, or duration = 2*c*sigma");
    }
  }
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

void Pulse::resolve_edges(const PulseSpec& spec, const std::string& desc) {
  // g(tau) has three independent scales (rise at c*sigma, fall at L - c*sigma, width sigma):
  // with L = 2 c sigma it would vanish identically, so all three keys are needed.
  const std::pair<const char*, const std::optional<double>*> keys[] = {
      {"duration", &spec.duration}, {"sigma", &spec.sigma}, {"c", &spec.c}};
  for (const auto& [k, v] : keys) {
    if (!v->has_value()) {
      unvalidated(key(k), desc + " needs all three of duration, sigma, c (independent: the " +
                              "rise is centred at c*sigma, the fall at duration - c*sigma); " +
                              k + " is missing");
    }
  }
  geom_.L = *spec.duration;
  geom_.sigma = *spec.sigma;
  geom_.c = *spec.c;
  given_ = kDuration | kSigma | kC;
  if (!(geom_.L > 2.0 * geom_.c * geom_.sigma)) {
    unvalidated(key("duration"), "duration " + num(geom_.L) + " must exceed 2*c*sigma = " +
                                     num(2.0 * geom_.c * geom_.sigma) +
                                     " (the rise centre c*sigma must come before the fall "
                                     "centre duration - c*sigma)");
  }
}

void Pulse::resolve_amplitude(const PulseSpec& spec, const std::string& desc, ShapeFamily family,
                              double matrix_element01) {
  if (family == ShapeFamily::values) {
    if (spec.amplitude_auto) {
      unvalidated(key("amplitude"), std::string("amplitude: auto does not apply to ") + desc +
                                        ": its values are the drive in GHz");
    }
    amplitude_ = 1.0;
  } else if (spec.amplitude_auto) {
    if (!spec.angle) {
      unvalidated(key("amplitude"), "amplitude: auto needs an angle",
                  "angle: the rotation angle in rad");
    }
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
  if (spec.angle && !spec.amplitude_auto) {
    unvalidated(key("angle"), "angle is only used with amplitude: auto");
  }
}

std::vector<ParamRef> Pulse::trainable(const PulseSpec& spec) const {
  const std::string where = path_ + ".optimize";
  const std::string desc = describe(shape_, geom_.kind);
  const int n = static_cast<int>(values_.size());
  std::vector<ParamRef> out;
  for (const std::string& name : spec.optimize) {
    const std::vector<ParamRef> refs = parse_param(name, shape_, n);
    if (refs.empty()) {
      std::string list;
      for (const ParamRef& p : parameters()) {
        if (p.kind == Param::value) continue;
        list += (list.empty() ? "" : ", ") + p.name();
      }
      if (n > 0) list += ", values, values[k] (k < " + std::to_string(n) + ")";
      unvalidated(where, "'" + name + "' is not a parameter of " + desc, "one of " + list);
    }
    for (const ParamRef& p : refs) {
      if (!has_parameter(p)) {
        std::string why = "'" + name + "' is not a parameter of " + desc;
        const ShapeFamily fam = enum_row(geom_.kind).family;
        if (fam == ShapeFamily::ramps || fam == ShapeFamily::gauss) {
          std::string held;
          for (const ParamRef& q : parameters()) {
            const bool shape_key = q.kind == Param::duration || q.kind == Param::ramp ||
                                   q.kind == Param::plateau || q.kind == Param::sigma ||
                                   q.kind == Param::c;
            if (shape_key) held += (held.empty() ? "" : " and ") + q.name();
          }
          why = "'" + name + "' of " + desc + " is derived from the given " + held +
                "; to train it, give " + name + " and only one of them";
        }
        unvalidated(where, why);
      }
      if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
    }
  }
  return out;
}

}  // namespace qevolve::pulse
