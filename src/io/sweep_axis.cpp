#include "qevolve/sweep_axis.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "messages.hpp"
#include "qevolve/text.hpp"

namespace qevolve::io {
namespace {

/// `text` as a whole as a finite number (strtod: correctly rounded, as the loader's numbers).
bool to_number(const std::string& text, double& out) {
  if (text.empty() || text.find_first_of(" \t") != std::string::npos) return false;
  char* end = nullptr;
  out = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && std::isfinite(out);
}

/// The shortest spelling that reads back as exactly v; integral values as integers (so that
/// an integer key such as evolution.steps accepts them). If p significant digits read back
/// exactly, so do p + 1: the fewest are found by bisection (a 10^6-point axis in a second).
std::string exact(double v) {
  char buf[40];
  if (v == std::floor(v) && std::abs(v) < 1e15) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
  }
  // std::to_chars with a precision spells as printf's %.*g does, without its cost.
  const auto spell = [&buf, v](int digits) {
    return std::string(buf, std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, digits).ptr);
  };
  int low = 1, high = 17;  // 17 digits always read back
  while (low < high) {
    const int digits = (low + high) / 2;
    const std::string text = spell(digits);
    double back = 0.0;
    std::from_chars(text.data(), text.data() + text.size(), back);
    if (back == v)
      high = digits;
    else
      low = digits + 1;
  }
  return spell(low);
}

void read_range(SweepAxis& axis, const std::string& spec, const std::string& label) {
  const auto bad = [&](const std::string& why) {
    return input_error({label, 0, 0}, axis.key, Msg::VaryBadRange, {{"SPEC", spec}, {"WHY", why}});
  };
  const auto c1 = spec.find(':'), c2 = spec.find(':', c1 + 1);
  if (c2 == std::string::npos || spec.find(':', c2 + 1) != std::string::npos)
    throw bad("a range has three parts");
  double start = 0, stop = 0, count_d = 0;
  if (!to_number(trim(spec.substr(0, c1)), start)) throw bad("START is not a finite number");
  if (!to_number(trim(spec.substr(c1 + 1, c2 - c1 - 1)), stop)) throw bad("STOP is not a finite number");
  if (!to_number(trim(spec.substr(c2 + 1)), count_d) || count_d != std::floor(count_d) || count_d < 1 ||
      count_d > static_cast<double>(kMaxSweepPoints))
    throw bad("COUNT is not an integer from 1 to " + std::to_string(kMaxSweepPoints));
  const auto count = static_cast<std::size_t>(count_d);
  // START and STOP exactly; between them START + i (STOP - START) / (COUNT - 1) (numpy.linspace).
  const double step = count > 1 ? (stop - start) / static_cast<double>(count - 1) : 0.0;
  for (std::size_t i = 0; i < count; ++i) {
    const double v = i + 1 == count && count > 1 ? stop : start + static_cast<double>(i) * step;
    axis.values.push_back(v);
    axis.texts.push_back(exact(v));
  }
}

void read_list(SweepAxis& axis, const std::string& spec, const std::string& label) {
  std::size_t start = 0;
  bool numbers = true;
  for (;;) {
    const auto comma = spec.find(',', start);
    const std::string item = trim(spec.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (item.empty())
      throw input_error({label, 0, 0}, axis.key, Msg::VaryBadList,
                        {{"SPEC", spec}, {"WHY", "value " + std::to_string(axis.texts.size() + 1) + " is empty"}});
    double v = 0;
    numbers = numbers && to_number(item, v);
    axis.texts.push_back(item);
    axis.values.push_back(v);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (!numbers) axis.values.clear();
}

}  // namespace

SweepAxis parse_vary(const std::string& argument) {
  const Override o = parse_override(argument, "--vary");
  SweepAxis axis;
  axis.key = o.key;
  axis.argument = argument;
  const std::string top = o.key.substr(0, o.key.find_first_of(".["));
  if (top == "device") axis.scope = SweepScope::device;
  else if (top == "evolution") axis.scope = SweepScope::evolution;
  else if (top == "pulses") axis.scope = SweepScope::pulses;
  else if (top == "lines") axis.scope = SweepScope::lines;
  else if (top == "target") axis.scope = SweepScope::target;
  else throw input_error({o.label, 0, 0}, o.key, Msg::VaryScope, {{"KEY", o.key}});
  // A role decides d (docs/device.md "Qubits and couplers"); /sweep/populations has one d.
  if (o.key.size() >= 5 && o.key.compare(o.key.size() - 5, 5, ".role") == 0)
    throw input_error({o.label, 0, 0}, o.key, Msg::VaryRole, {{"KEY", o.key}});
  if (o.value.find(':') != std::string::npos)
    read_range(axis, o.value, o.label);
  else
    read_list(axis, o.value, o.label);
  return axis;
}

std::int64_t sweep_points(const std::vector<SweepAxis>& axes) {
  double n = 1;
  for (const SweepAxis& a : axes) n *= static_cast<double>(a.texts.size());
  if (n > static_cast<double>(kMaxSweepPoints))
    throw input_error({"--vary", 0, 0}, {}, Msg::VaryTooMany,
                      {{"COUNT", std::to_string(static_cast<long long>(n))}, {"LIMIT", std::to_string(kMaxSweepPoints)}});
  return static_cast<std::int64_t>(n);
}

Override axis_override(const SweepAxis& axis, std::size_t i) {
  return Override{axis.key, axis.texts[i], "--vary " + axis.argument + " (value " + axis.texts[i] + ")"};
}

void check_sweepable(const Config& config) {
  if (config.evolution.initial_states.kind != InitialStates::Kind::computational)
    fail(config, "evolution.initial_states", Msg::SweepNotComputational);
}

}  // namespace qevolve::io
