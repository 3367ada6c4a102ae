// The `pulses` section (docs/pulses.md "Shapes"): one entry per pulse, the keys that apply
// depending on its shape, the two-of-three shape keys and the trainable parameters.
#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

#include "physical_ranges.hpp"
#include "config_sections.hpp"
#include "qevolve/text.hpp"

namespace qevolve::io::detail {
namespace {

constexpr std::string_view kPulseKeys[] = {
    "qubit", "operator", "shape", "amplitude", "angle",  "frequency", "phase", "duration", "delay",
    "ramp",  "plateau",  "sigma", "c",         "lambda", "base",      "values", "crosstalk",
    "line",  "optimize"};

constexpr std::string_view kOperators[] = {"phi", "n", "x", "y", "flux", "number"};
/// The shape keys a pulse may train, in the order messages list them (Pulse::parameters()).
constexpr std::string_view kTrainableShapeKeys[] = {"duration", "ramp", "plateau", "sigma", "c"};

using ShapeRow = EnumRow<Shape>;

/// Fewest control values of a spline (a cubic B-spline needs 4).
constexpr std::size_t kMinSplineValues = 4;
/// Relative tolerance of the relation between three given shape keys.
constexpr double kShapeRelTol = 1e-9;

/// The shapes a drag pulse takes as its base.
std::vector<ShapeRow> drag_bases() {
  std::vector<ShapeRow> rows;
  for (const ShapeRow& row : enum_table<Shape>())
    if (row.drag_base) rows.push_back(row);
  return rows;
}

/// The keys that apply to a pulse of this shape (all keys while the shape is unknown), in the
/// order of kPulseKeys.
std::vector<std::string_view> applicable_keys(std::optional<Shape> shape, Shape base) {
  if (!shape) return {std::begin(kPulseKeys), std::end(kPulseKeys)};
  const ShapeRow& row = shape_row(*shape, base);
  const auto applies = [&](std::string_view key) {
    if (key == "amplitude" || key == "angle") return row.family != ShapeFamily::values;
    if (key == "ramp" || key == "plateau" || key == "sigma" || key == "c" || key == "values")
      return takes_key(row, key);
    if (key == "lambda" || key == "base") return *shape == Shape::drag;
    return true;
  };
  std::vector<std::string_view> keys;
  for (const std::string_view k : kPulseKeys)
    if (applies(k)) keys.push_back(k);
  return keys;
}

std::string context_of(Shape shape, Shape base) {
  if (shape == Shape::drag)
    return message(Msg::ContextDragBase, {{"BASE", enum_name(base)}});
  return message(Msg::ContextPulseShape, {{"SHAPE", enum_name(shape)}});
}

/// tanh and erf: duration, sigma and c are independent; all three are needed and the rise
/// (centred at c sigma) must come before the fall (centred at duration - c sigma).
void check_edge_keys(Doc& doc, const MapView& m, const PulseSpec& p) {
  std::string got;
  for (const auto& [key, v] : {std::pair{"duration", p.duration.has_value()},
                               std::pair{"sigma", p.sigma.has_value()}, std::pair{"c", p.c.has_value()}})
    if (v) got += (got.empty() ? "" : ", ") + std::string(key);
  if (!p.duration || !p.sigma || !p.c)
    doc.fail(m.mark(), m.path(), Msg::EdgeKeysMissing,
             {{"SHAPE", enum_name(p.shape)},
              {"GOT", got.empty() ? message(Msg::NounNone) : "only " + got}});
  const double overlap = 2.0 * *p.c * *p.sigma;
  if (!(*p.duration > overlap)) {
    const Item& d = *m.find("duration");
    doc.fail(d.mark(), d.path, Msg::EdgesOverlap,
             {{"L", format_number(*p.duration)}, {"P", format_number(overlap)}});
  }
}

/// Two of {duration, a, b} determine the third through `relation`; three must agree.
void check_two_of_three(Doc& doc, const MapView& m, const PulseSpec& p, const ShapeRow& row) {
  const bool ramp = row.family == ShapeFamily::ramps;
  const char* a_key = row.keys[0];
  const char* b_key = row.keys[1];
  const std::optional<double>& a = ramp ? p.plateau : p.sigma;
  const std::optional<double>& b = ramp ? p.ramp : p.c;
  const std::string keys = std::string("duration, ") + a_key + ", " + b_key;
  const std::string relation = message(ramp ? Msg::RelationRamp : Msg::RelationSigma);
  const int given = int{p.duration.has_value()} + int{a.has_value()} + int{b.has_value()};
  if (given < 2) {
    std::string got = message(Msg::NounNone);
    if (given == 1)
      got = message(Msg::NounOnly,
                    {{"KEY", p.duration ? "duration" : (a ? a_key : b_key)}});
    doc.fail(m.mark(), m.path(), Msg::ShapeKeysMissing,
             {{"SHAPE", enum_name(p.shape)},
              {"KEYS", keys},
              {"GOT", got},
              {"RELATION", relation}});
  }
  const auto derived_duration = [&] { return ramp ? *a + 2.0 * *b : 2.0 * *b * *a; };
  if (!ramp) {  // the gauss family: gaussian, drag with base gaussian
    const double c = b ? *b : *p.duration / (2.0 * *a);
    if (c < physical::kMinGaussianC) {
      const Item* at = b ? m.find(b_key) : nullptr;
      doc.fail(at ? at->mark() : m.mark(), at ? at->path : m.path(), Msg::GaussianTooFlat,
               {{"C", b ? "c = " + format_number(c) : "the derived c = duration/(2*sigma) = " + format_number(c)},
                {"MIN", format_number(physical::kMinGaussianC)}});
    }
  }
  if (given == 3) {
    const double rhs = derived_duration();
    if (std::abs(*p.duration - rhs) > kShapeRelTol * std::max(1.0, std::abs(*p.duration))) {
      const Item& d = *m.find("duration");
      doc.fail(d.mark(), d.path, Msg::ShapeKeysInconsistent,
               {{"KEYS", keys},
                {"RELATION", relation},
                {"LHS", format_number(*p.duration)},
                {"RHS", format_number(rhs)}});
    }
    return;
  }
  if (!p.duration) {  // the derived duration: within the range a given one has
    const double derived = derived_duration();
    if (!physical::kDuration.contains(derived))
      doc.fail(m.mark(), m.path(), Msg::DerivedDurationTooLong,
               {{"FORMULA", ramp ? "plateau + 2*ramp" : "2*c*sigma"},
                {"VALUE", format_number(derived)},
                {"MAX", format_number(physical::kDuration.hi)},
                {"KEYS", std::string(a_key) + " and " + b_key}});
    return;
  }
  if (!ramp) return;  // sigma and c are > 0: the derived one is positive
  // duration with ramp: the derived plateau must not be negative; with plateau: the derived
  // ramp must be positive (a ramp of 0 is a jump, refused as a given ramp of 0 is).
  const bool plateau_derived = !a.has_value();
  const double derived = plateau_derived ? *p.duration - 2.0 * *b : 0.5 * (*p.duration - *a);
  if (plateau_derived ? derived < 0.0 : !(derived > 0.0))
    doc.fail(m.mark(), m.path(), plateau_derived ? Msg::ShapeKeyNegative : Msg::ShapeKeyNotPositive,
             {{"KEY", plateau_derived ? "plateau" : "ramp"},
              {"FORMULA", message(plateau_derived ? Msg::FormulaPlateau : Msg::FormulaRamp)},
              {"VALUE", format_number(derived)},
              {"CONDITION",
               message(plateau_derived ? Msg::ConditionPlateau : Msg::ConditionRamp)}});
}

/// `optimize:` of a pulse: amplitude frequency phase delay, the shape keys that were given
/// (a derived one cannot be trained: it follows the others), lambda (drag), values /
/// values[k] (piecewise_constant, spline).
std::vector<std::string> read_pulse_trainables(Doc& doc, const Item& item, const MapView& m,
                                               const PulseSpec& p, const ShapeRow& row) {
  const bool takes_values = row.family == ShapeFamily::values;
  std::vector<std::string_view> allowed;  // every trainable name of this pulse
  std::vector<std::string_view> shape_keys;
  if (!takes_values) allowed.push_back("amplitude");
  allowed.insert(allowed.end(), {"frequency", "phase", "delay"});
  for (const std::string_view k : kTrainableShapeKeys)
    if (k == "duration" || takes_key(row, k)) shape_keys.push_back(k);
  std::vector<std::string_view> given;  // the shape keys that may be trained
  for (const std::string_view k : shape_keys)
    if (m.has(k)) given.push_back(k);
  allowed.insert(allowed.end(), given.begin(), given.end());
  if (p.shape == Shape::drag) allowed.push_back("lambda");
  std::string allowed_text = join(allowed);
  if (takes_values) {
    allowed.push_back("values");
    allowed_text += ", values, " +
                    message(Msg::ExpectValuesIndex, {{"COUNT", std::to_string(p.values.size())}});
  }
  const std::string context = context_of(p.shape, p.base);

  std::vector<std::string> out;
  std::set<std::string> seen;
  std::set<std::size_t> value_index;
  bool all_values = false;
  for (const Item& element : get_list(doc, item, message(Msg::ExpectTrainable))) {
    std::string name = get_string(doc, element);
    const auto fail = [&](Msg id) {
      doc.fail(element.mark(), element.path, id,
               {{"NAME", name}, {"CONTEXT", context}, {"ALLOWED", allowed_text}});
    };
    bool duplicate = false;
    constexpr std::string_view prefix = "values[";
    if (takes_values && name.size() > prefix.size() + 1 &&
        name.compare(0, prefix.size(), prefix) == 0 && name.back() == ']') {
      const std::string index = name.substr(prefix.size(), name.size() - prefix.size() - 1);
      const bool number = index.size() <= 9 && std::all_of(index.begin(), index.end(), [](char c) {
                            return c >= '0' && c <= '9';
                          });
      if (!number || (index.size() > 1 && index[0] == '0')) fail(Msg::NotTrainable);
      const auto k = static_cast<std::size_t>(std::stoul(index));
      if (k >= p.values.size()) fail(Msg::NotTrainable);
      duplicate = all_values || !value_index.insert(k).second;
    } else if (std::find(allowed.begin(), allowed.end(), name) != allowed.end()) {
      duplicate = !seen.insert(name).second || (name == "values" && !value_index.empty());
      if (name == "values") all_values = true;
    } else if (std::find(shape_keys.begin(), shape_keys.end(), name) != shape_keys.end()) {
      fail(Msg::ShapeKeyNotGiven);
    } else {
      fail(Msg::NotTrainable);
    }
    if (duplicate) doc.fail(element.mark(), element.path, Msg::DuplicateTrainable, {{"NAME", name}});
    out.push_back(std::move(name));
  }
  return out;
}

PulseSpec read_pulse(Doc& doc, const Item& item) {
  const MapView m(doc, item);
  PulseSpec p;
  p.path = item.path;
  std::optional<Shape> shape;
  if (const Item* s = m.find("shape")) shape = get_enum(doc, *s, enum_table<Shape>());
  if (shape == Shape::drag)
    if (const Item* b = m.find("base"))
      p.base = get_enum(doc, *b, std::span<const ShapeRow>(drag_bases()));
  m.check_keys(applicable_keys(shape, p.base), kPulseKeys,
               shape ? context_of(*shape, p.base) : std::string{});
  p.qubit = get_name(doc, m.require("qubit", message(Msg::ExpectPulseQubit)));
  if (!shape)
    (void)m.require("shape", message(Msg::ExpectOneOf, {{"ALLOWED", join(enum_names<Shape>())}}));
  p.shape = *shape;
  const ShapeRow& row = shape_row(p.shape, p.base);
  const bool takes_values = row.family == ShapeFamily::values;
  if (const Item* o = m.find("operator"))
    p.op = std::string(kOperators[get_choice(doc, *o, kOperators)]);

  // amplitude (GHz) or auto with angle (rad).
  if (!takes_values) {
    // A flux pulse's amplitude is a flux offset (flux quanta, the static `flux`'s range).
    const bool flux = p.op == "flux";
    const std::string want = message(flux ? Msg::ExpectFluxAmplitude : Msg::ExpectAmplitude);
    const Item& a = m.require("amplitude", want);
    if (a.node.IsScalar() && a.node.Scalar() == "auto")
      p.amplitude_auto = true;
    else
      p.amplitude = get_number(doc, a, flux ? physical::kFlux : physical::kAmplitude, want);
    p.angle = opt_number(doc, m, "angle", Range::any("rad"));
    if (p.amplitude_auto && !p.angle) doc.fail(m.mark(), m.path(), Msg::AutoNeedsAngle);
    if (!p.amplitude_auto && p.angle) {
      const Item& g = *m.find("angle");
      doc.fail(g.anchor, g.path, Msg::AngleWithoutAuto);
    }
  }
  if (const Item* fr = m.find("frequency")) {
    const auto mode = fr->node.IsScalar() ? enum_value<FrequencyMode>(fr->node.Scalar())
                                          : std::nullopt;
    if (mode)
      p.frequency_mode = *mode;
    else
      p.frequency = get_number(doc, *fr, physical::kDriveFrequency, message(Msg::ExpectPulseFrequency));
  }
  if (auto v = opt_number(doc, m, "phase", Range::any("rad"))) p.phase = *v;
  if (auto v = opt_number(doc, m, "delay", physical::kTimeOffset)) p.delay = *v;
  p.duration = opt_number(doc, m, "duration", physical::kDuration);
  p.ramp = opt_number(doc, m, "ramp", physical::kDuration);
  p.plateau = opt_number(doc, m, "plateau", physical::kTimeOffset);
  p.sigma = opt_number(doc, m, "sigma", physical::kDuration);
  p.c = opt_number(doc, m, "c", Range::gt(0.0));
  p.lambda = opt_number(doc, m, "lambda", Range::any("ns"));

  if (takes_values) {
    const std::string want = message(Msg::ExpectNumberList, {{"UNIT", " (GHz)"}});
    const Item& v = m.require("values", want);
    const std::vector<Item> values = get_list(doc, v, want);
    if (values.empty()) doc.fail(v.mark(), v.path, Msg::EmptyList, {{"EXPECTED", want}});
    if (p.shape == Shape::spline && values.size() < kMinSplineValues)
      doc.fail(v.mark(), v.path, Msg::TooFewValues,
               {{"COUNT", std::to_string(values.size())},
                {"MIN", std::to_string(kMinSplineValues)},
                {"SHAPE", enum_name(p.shape)}});
    const Range& range = p.op == "flux" ? physical::kFlux : physical::kAmplitude;  // flux quanta or GHz
    for (const Item& x : values) p.values.push_back(get_number(doc, x, range));
  }
  if (row.family == ShapeFamily::edges)
    check_edge_keys(doc, m, p);
  else if (row.family == ShapeFamily::ramps || row.family == ShapeFamily::gauss)
    check_two_of_three(doc, m, p, row);
  else if (!p.duration)
    (void)m.require("duration", physical::kDuration.text());

  if (const Item* x = m.find("crosstalk")) {
    const MapView ct(doc, *x);
    for (const auto& [name, entry] : ct.entries()) {
      check_name(doc, name, entry.anchor, entry.path);
      if (name == p.qubit) doc.fail(entry.anchor, entry.path, Msg::CrosstalkSelf, {{"NAME", name}});
      p.crosstalk.emplace_back(name, get_number(doc, entry, Range::any()));
    }
  }
  if (const Item* l = m.find("line")) p.line = read_line_ref(doc, *l);
  if (const Item* o = m.find("optimize")) p.optimize = read_pulse_trainables(doc, *o, m, p, row);
  return p;
}

}  // namespace

void read_pulses(Doc& doc, const Item& item, std::vector<PulseSpec>& pulses) {
  for (const Item& entry : get_list(doc, item, message(Msg::ExpectList)))
    pulses.push_back(read_pulse(doc, entry));
}

}  // namespace qevolve::io::detail
