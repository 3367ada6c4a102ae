// Names of pulse parameters and shapes, as spelled in the config.
#include <algorithm>
#include <charconv>
#include <string>
#include <string_view>
#include <vector>

#include "qevolve/pulse.hpp"

namespace qevolve::pulse {
namespace {

bool has_values(Shape s) { return s == Shape::piecewise_constant || s == Shape::spline; }
bool has_ramp(Shape s) { return s == Shape::rampcos || s == Shape::trapezoid; }
bool has_sigma(Shape s) {
  return s == Shape::gaussian || s == Shape::tanh || s == Shape::erf || s == Shape::drag;
}

}  // namespace

const char* shape_name(Shape shape) {
  switch (shape) {
    case Shape::cos: return "cos";
    case Shape::rampcos: return "rampcos";
    case Shape::trapezoid: return "trapezoid";
    case Shape::gaussian: return "gaussian";
    case Shape::tanh: return "tanh";
    case Shape::erf: return "erf";
    case Shape::drag: return "drag";
    case Shape::piecewise_constant: return "piecewise_constant";
    case Shape::spline: return "spline";
  }
  return "?";
}

std::string ParamRef::name() const {
  switch (kind) {
    case Param::amplitude: return "amplitude";
    case Param::frequency: return "frequency";
    case Param::phase: return "phase";
    case Param::delay: return "delay";
    case Param::duration: return "duration";
    case Param::ramp: return "ramp";
    case Param::plateau: return "plateau";
    case Param::sigma: return "sigma";
    case Param::c: return "c";
    case Param::lambda: return "lambda";
    case Param::value: return "values[" + std::to_string(index) + "]";
  }
  return "?";
}

std::vector<ParamRef> parse_param(const std::string& name, Shape shape, int num_values) {
  const auto one = [](Param p) { return std::vector<ParamRef>{ParamRef{p, 0}}; };
  if (name == "amplitude") return has_values(shape) ? std::vector<ParamRef>{} : one(Param::amplitude);
  if (name == "frequency") return one(Param::frequency);
  if (name == "phase") return one(Param::phase);
  if (name == "delay") return one(Param::delay);
  if (name == "duration") return one(Param::duration);
  if (name == "ramp" && has_ramp(shape)) return one(Param::ramp);
  if (name == "plateau" && has_ramp(shape)) return one(Param::plateau);
  if (name == "sigma" && has_sigma(shape)) return one(Param::sigma);
  if (name == "c" && has_sigma(shape)) return one(Param::c);
  if (name == "lambda" && shape == Shape::drag) return one(Param::lambda);
  if (!has_values(shape)) return {};
  if (name == "values") {
    std::vector<ParamRef> all;
    all.reserve(static_cast<std::size_t>(std::max(num_values, 0)));
    for (int k = 0; k < num_values; ++k) all.push_back(ParamRef{Param::value, k});
    return all;
  }
  // "values[k]" with a plain non-negative decimal k < num_values.
  constexpr std::string_view prefix = "values[";
  if (name.size() > prefix.size() + 1 && name.compare(0, prefix.size(), prefix) == 0 &&
      name.back() == ']') {
    const char* first = name.data() + prefix.size();
    const char* last = name.data() + name.size() - 1;
    int k = -1;
    const auto [ptr, ec] = std::from_chars(first, last, k);
    const bool digit = *first >= '0' && *first <= '9';
    if (digit && ec == std::errc{} && ptr == last && k < num_values) {
      return std::vector<ParamRef>{ParamRef{Param::value, k}};
    }
  }
  return {};
}

}  // namespace qevolve::pulse
