// Names of pulse parameters, as spelled in the config (shape names: qevolve/names.hpp).
#include <algorithm>
#include <charconv>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "qevolve/pulse.hpp"

namespace qevolve::pulse {
namespace {

/// The shape keys a parameter name may be, by name.
constexpr std::pair<const char*, Param> kShapeKeys[] = {
    {"ramp", Param::ramp}, {"plateau", Param::plateau}, {"sigma", Param::sigma}, {"c", Param::c}};

bool has_values(Shape s) { return enum_row(s).family == ShapeFamily::values; }

/// Whether `key` is a shape key of `s` (its row); drag accepts those of every base it can take.
bool has_key(Shape s, std::string_view key) {
  if (s != Shape::drag) return takes_key(enum_row(s), key);
  for (const EnumRow<Shape>& base : enum_table<Shape>())
    if (base.drag_base && takes_key(base, key)) return true;
  return false;
}

}  // namespace

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
  for (const auto& [key, param] : kShapeKeys)
    if (name == key && has_key(shape, key)) return one(param);
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
