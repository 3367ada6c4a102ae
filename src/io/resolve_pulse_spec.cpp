// The resolution stage's rules for one pulse entry on its own (docs/pulses.md "Shapes";
// include/qevolve/resolve.hpp, check_pulse_spec): drag's base, the keys the shape takes, finite
// numbers and their ranges, the two-of-three rule, `amplitude: auto` and `angle`, the names of
// the `optimize:` list. The loader refuses a config file's pulse entries first, with its own
// messages (config_pulses.cpp); these are the rules for a Config built without it, in the order
// and with the texts the pulse layer had when it checked them itself. pulse::Pulse assumes them.
#include <algorithm>
#include <array>
#include <cmath>
#include <iomanip>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "messages.hpp"
#include "qevolve/config.hpp"
#include "qevolve/names.hpp"
#include "qevolve/pulse.hpp"
#include "qevolve/resolve.hpp"

namespace qevolve::io {
namespace {

/// Relative tolerance for "three consistent shape keys" (duration = plateau + 2 ramp or
/// duration = 2 c sigma): far above rounding of decimal input, far below any intended difference.
constexpr double kShapeConsistencyTol = 1e-9;

std::string spec_number(double v) {
  std::ostringstream os;
  os << std::setprecision(10) << v;
  return os.str();
}

/// "a rampcos pulse", "a drag pulse with base gaussian".
std::string spec_description(Shape shape, Shape kind) {
  if (shape == Shape::drag) return message(Msg::ContextDragNamed, {{"BASE", enum_name(kind)}});
  return message(Msg::ContextPulseNamed, {{"SHAPE", enum_name(shape)}});
}

/// The shape keys of a shape, as listed in messages.
std::string spec_shape_keys(Shape shape, const EnumRow<Shape>& row) {
  std::string k = "duration";
  for (const char* key : row.keys)
    if (key != nullptr) k += std::string(", ") + key;
  if (shape == Shape::drag) k += ", lambda, base";
  return k;
}

/// "cos or gaussian": the shapes drag takes as its base.
std::string spec_drag_bases() {
  std::string s;
  for (const EnumRow<Shape>& row : enum_table<Shape>())
    if (row.drag_base) s += (s.empty() ? "" : " or ") + std::string(row.name);
  return s;
}

/// One pulse entry's rules, each raised located at the key it names.
class PulseSpecRules {
 public:
  PulseSpecRules(const Config& config, const PulseSpec& spec) : config_(config), spec_(spec) {}

  /// The envelope formula: drag's base (cos or gaussian), else the shape itself.
  [[nodiscard]] Shape base() const {
    if (spec_.shape == Shape::drag) {
      if (!enum_row(spec_.base).drag_base)
        fail(config_, key("base"), Msg::PulseDragBase,
             {{"BASES", spec_drag_bases()}, {"BASE", enum_name(spec_.base)}});
      return spec_.base;
    }
    if (spec_.base != Shape::cos)
      fail(config_, key("base"), Msg::PulseBaseNotDrag, {{"SHAPE", enum_name(spec_.shape)}});
    return spec_.shape;
  }

  /// No shape key, lambda or values that the shape does not take.
  void keys(const EnumRow<Shape>& row, const std::string& desc) const {
    const auto foreign = [&](const char* k) {
      fail(config_, key(k), Msg::PulseKeyForeign,
           {{"KEY", k}, {"DESC", desc}, {"KEYS", spec_shape_keys(spec_.shape, row)}});
    };
    const std::pair<const char*, bool> shape_keys_present[] = {
        {"ramp", spec_.ramp.has_value()},
        {"plateau", spec_.plateau.has_value()},
        {"sigma", spec_.sigma.has_value()},
        {"c", spec_.c.has_value()}};
    for (const auto& [k, present] : shape_keys_present)
      if (present && !takes_key(row, k)) foreign(k);
    if (spec_.shape != Shape::drag && spec_.lambda) foreign("lambda");
    if (!spec_.values.empty() && !takes_key(row, "values")) foreign("values");
  }

  /// Every number finite; duration, ramp, sigma, c > 0; plateau, delay >= 0.
  void numbers() const {
    const auto finite = [&](const std::string& k, double v) {
      if (!std::isfinite(v)) fail(config_, key(k), Msg::PulseNotFinite, {{"KEY", k}});
    };
    const auto finite_opt = [&](const char* k, const std::optional<double>& v) {
      if (v) finite(k, *v);
    };
    finite("phase", spec_.phase);
    finite("delay", spec_.delay);
    if (!spec_.amplitude_auto) finite("amplitude", spec_.amplitude);
    if (spec_.frequency_mode == FrequencyMode::value) finite("frequency", spec_.frequency);
    finite_opt("angle", spec_.angle);
    finite_opt("duration", spec_.duration);
    finite_opt("ramp", spec_.ramp);
    finite_opt("plateau", spec_.plateau);
    finite_opt("sigma", spec_.sigma);
    finite_opt("c", spec_.c);
    finite_opt("lambda", spec_.lambda);
    for (std::size_t k = 0; k < spec_.values.size(); ++k)
      finite("values[" + std::to_string(k) + "]", spec_.values[k]);
    if (spec_.delay < 0.0)
      fail(config_, key("delay"), Msg::PulseDelayNegative, {{"VALUE", spec_number(spec_.delay)}});
    const auto positive = [&](const char* k, const std::optional<double>& v) {
      if (v && !(*v > 0.0))
        fail(config_, key(k), Msg::PulseNotPositive, {{"KEY", k}, {"VALUE", spec_number(*v)}});
    };
    positive("duration", spec_.duration);
    positive("ramp", spec_.ramp);
    positive("sigma", spec_.sigma);
    positive("c", spec_.c);
    if (spec_.plateau && *spec_.plateau < 0.0)
      fail(config_, key("plateau"), Msg::PulsePlateauNegative,
           {{"VALUE", spec_number(*spec_.plateau)}});
  }

  /// The shape keys of each ShapeFamily: the two-of-three rule and the relations between them.
  void family(ShapeFamily family, const std::string& desc) const {
    switch (family) {
      case ShapeFamily::length:
      case ShapeFamily::values:
        length(desc);
        break;
      case ShapeFamily::ramps:
        ramps(desc);
        break;
      case ShapeFamily::gauss:
        gauss(desc);
        break;
      case ShapeFamily::edges:
        edges(desc);
        break;
    }
  }

  /// `amplitude: auto` (not for the values shapes, with an angle) and `angle` (only with it).
  void amplitude(const std::string& desc, ShapeFamily family) const {
    if (family == ShapeFamily::values) {
      if (spec_.amplitude_auto)
        fail(config_, key("amplitude"), Msg::PulseAutoValues, {{"DESC", desc}});
    } else if (spec_.amplitude_auto && !spec_.angle) {
      fail(config_, key("amplitude"), Msg::PulseAutoNeedsAngle);
    }
    if (spec_.angle && !spec_.amplitude_auto)
      fail(config_, key("angle"), Msg::PulseAngleWithoutAuto);
  }

  /// Every name of the `optimize:` list a parameter of `built` (the pulse of this spec).
  void trainable(const pulse::Pulse& built, const std::string& desc, ShapeFamily family) const;

 private:
  [[nodiscard]] std::string key(const std::string& k) const { return spec_.path + "." + k; }

  /// The two-of-three rule's count: how many of a family's three shape keys (duration first)
  /// are given; fewer than two are refused at the first missing one, naming `relation`.
  [[nodiscard]] std::size_t given_of_three(
      const std::string& desc,
      const std::array<std::pair<const char*, const std::optional<double>*>, 3>& keys,
      Msg relation) const {
    std::vector<std::string> have;
    for (const auto& [k, v] : keys)
      if (v->has_value()) have.emplace_back(k);
    if (have.size() < 2) {
      const auto missing = std::find_if(keys.begin(), keys.end(),
                                        [](const auto& k) { return !k.second->has_value(); });
      std::string names;
      for (std::size_t i = 0; i < have.size(); ++i) names += (i ? " and " : "") + have[i];
      fail(config_, key(missing->first), Msg::PulseTwoOfThree,
           {{"DESC", desc},
            {"KEYS", std::string(keys[0].first) + ", " + keys[1].first + ", " + keys[2].first},
            {"GIVEN", have.empty() ? message(Msg::NounGivenNone)
                                   : message(Msg::NounGivenOnly, {{"KEYS", names}})},
            {"RELATION", message(relation)}});
    }
    return have.size();
  }

  void length(const std::string& desc) const {
    const char* sname = enum_name(spec_.shape);
    if (!spec_.duration) fail(config_, key("duration"), Msg::PulseNeedsDuration, {{"DESC", desc}});
    if (spec_.shape == Shape::piecewise_constant && spec_.values.empty())
      fail(config_, key("values"), Msg::PulseNeedsValue, {{"SHAPE", sname}});
    if (spec_.shape == Shape::spline && spec_.values.size() < 4)
      fail(config_, key("values"), Msg::PulseSplineValues,
           {{"SHAPE", sname}, {"COUNT", std::to_string(spec_.values.size())}});
  }

  void ramps(const std::string& desc) const {
    const std::size_t given = given_of_three(
        desc, {{{"duration", &spec_.duration}, {"plateau", &spec_.plateau}, {"ramp", &spec_.ramp}}},
        Msg::RelationRamp);
    if (given == 3) {
      const double sum = *spec_.plateau + 2.0 * *spec_.ramp;
      if (std::fabs(*spec_.duration - sum) > kShapeConsistencyTol * *spec_.duration)
        fail(config_, key("duration"), Msg::PulseRampsInconsistent,
             {{"DURATION", spec_number(*spec_.duration)},
              {"PLATEAU", spec_number(*spec_.plateau)},
              {"RAMP", spec_number(*spec_.ramp)},
              {"SUM", spec_number(sum)}});
    }
    if (spec_.duration && spec_.ramp) {  // plateau follows (also when all three are given)
      const double L = *spec_.duration, ramp = *spec_.ramp;
      if (L - 2.0 * ramp < -kShapeConsistencyTol * L)
        fail(config_, key("ramp"), Msg::PulseRampTooLong,
             {{"RAMP", spec_number(ramp)},
              {"DURATION", spec_number(L)},
              {"PLATEAU", spec_number(L - 2.0 * ramp)}});
    } else if (spec_.duration) {  // (duration, plateau): ramp follows
      const double ramp = 0.5 * (*spec_.duration - *spec_.plateau);
      if (!(ramp > 0.0))
        fail(
            config_, key("plateau"), Msg::PulseNoRamp,
            {{"PLATEAU", spec_number(*spec_.plateau)}, {"DURATION", spec_number(*spec_.duration)}});
    }
  }

  void gauss(const std::string& desc) const {
    const std::size_t given = given_of_three(
        desc, {{{"duration", &spec_.duration}, {"sigma", &spec_.sigma}, {"c", &spec_.c}}},
        Msg::RelationSigma);
    if (given != 3) return;
    const double prod = 2.0 * *spec_.c * *spec_.sigma;
    if (std::fabs(*spec_.duration - prod) > kShapeConsistencyTol * *spec_.duration)
      fail(config_, key("duration"), Msg::PulseGaussInconsistent,
           {{"DURATION", spec_number(*spec_.duration)},
            {"SIGMA", spec_number(*spec_.sigma)},
            {"C", spec_number(*spec_.c)},
            {"PRODUCT", spec_number(prod)}});
  }

  /// tanh, erf: g(tau) has three independent scales (rise at c*sigma, fall at L - c*sigma, width
  /// sigma): with L = 2 c sigma it would vanish identically, so all three keys are needed.
  void edges(const std::string& desc) const {
    const std::pair<const char*, const std::optional<double>*> keys[] = {
        {"duration", &spec_.duration}, {"sigma", &spec_.sigma}, {"c", &spec_.c}};
    for (const auto& [k, v] : keys)
      if (!v->has_value())
        fail(config_, key(k), Msg::PulseEdgesMissing, {{"DESC", desc}, {"KEY", k}});
    const double L = *spec_.duration, prod = 2.0 * *spec_.c * *spec_.sigma;
    if (!(L > prod))
      fail(config_, key("duration"), Msg::PulseEdgesOrder,
           {{"DURATION", spec_number(L)}, {"PRODUCT", spec_number(prod)}});
  }

  const Config& config_;
  const PulseSpec& spec_;
};

void PulseSpecRules::trainable(const pulse::Pulse& built, const std::string& desc,
                               ShapeFamily family) const {
  using pulse::Param;
  using pulse::ParamRef;
  const std::string where = spec_.path + ".optimize";
  const int n = static_cast<int>(built.values().size());
  for (const std::string& name : spec_.optimize) {
    const std::vector<ParamRef> refs = pulse::parse_param(name, spec_.shape, n);
    if (refs.empty()) {
      std::string list;
      for (const ParamRef& p : built.parameters()) {
        if (p.kind == Param::value) continue;
        list += (list.empty() ? "" : ", ") + p.name();
      }
      if (n > 0) list += ", values, values[k] (k < " + std::to_string(n) + ")";
      fail(config_, where, Msg::PulseNotParameter,
           {{"NAME", name}, {"DESC", desc}, {"ALLOWED", list}});
    }
    for (const ParamRef& p : refs) {
      if (built.has_parameter(p)) continue;
      if (family != ShapeFamily::ramps && family != ShapeFamily::gauss)
        fail(config_, where, Msg::PulseNotParameterHere, {{"NAME", name}, {"DESC", desc}});
      std::string held;
      for (const ParamRef& q : built.parameters()) {
        const bool shape_key = q.kind == Param::duration || q.kind == Param::ramp ||
                               q.kind == Param::plateau || q.kind == Param::sigma ||
                               q.kind == Param::c;
        if (shape_key) held += (held.empty() ? "" : " and ") + q.name();
      }
      fail(config_, where, Msg::PulseParamDerived,
           {{"NAME", name}, {"DESC", desc}, {"HELD", held}});
    }
  }
}

}  // namespace

void check_pulse_spec(const Config& config, const PulseSpec& spec) {
  const PulseSpecRules rules(config, spec);
  const Shape kind = rules.base();
  const EnumRow<Shape>& row = enum_row(kind);
  const std::string desc = spec_description(spec.shape, kind);
  rules.keys(row, desc);
  rules.numbers();
  rules.family(row.family, desc);
  rules.amplitude(desc, row.family);
  const pulse::Pulse built(spec, 0.0, 1.0);  // the rules above hold: its parameters, for `optimize`
  rules.trainable(built, desc, row.family);
}

}  // namespace qevolve::io
