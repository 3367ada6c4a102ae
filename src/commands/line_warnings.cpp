// Warnings about control lines (line_warnings.hpp, docs/lines.md "Warnings").
#include "line_warnings.hpp"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>

namespace qevolve::commands {
namespace {

/// printf into a string; the compiler checks each call's format against its arguments.
[[gnu::format(printf, 1, 2)]] std::string format(const char* fmt, ...) {
  char text[512];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(text, sizeof text, fmt, args);
  va_end(args);
  return text;
}

/// The summed Gaussian sigma of a line (its filters compose to one Gaussian).
double gaussian_sigma(const LineSpec& spec) {
  double var = 0.0;
  for (const FilterSpec& f : spec.filters)
    if (f.type == FilterType::gaussian) var += f.sigma * f.sigma;
  return std::sqrt(var);
}

/// Held samples jump every 1/rate; without a Gaussian wider than a step the output jumps too,
/// and a step that straddles a jump has a first-order error. The steps end on every sample edge
/// when steps / (T rate) is a whole number.
std::string hold_warning(const solver::Simulator& sim, std::size_t p, const pulse::Line& line) {
  const LineSpec& spec = line.spec();
  if (!spec.sample_rate || gaussian_sigma(spec) >= sim.options().dt()) return {};
  const double rate = *spec.sample_rate, T = sim.options().duration, N = sim.options().steps;
  const double per_sample = N / (T * rate);
  if (per_sample >= 1.0 && std::abs(per_sample - std::round(per_sample)) <= 1e-9 * per_sample) return {};
  const double samples = T * rate;
  std::string fix;
  if (std::abs(samples - std::round(samples)) <= 1e-9 * samples)
    fix = format("evolution.steps = %.0f (a multiple of the %.0f samples over T)",
                 std::round(samples) * std::ceil(N / std::round(samples)), std::round(samples));
  else
    fix = format("an evolution.duration of a whole number of samples (e.g. %.6g ns) with steps a multiple of them",
                 std::ceil(samples) / rate);
  return format("%s: its line `%s` holds each sample for %.4g ns and smooths less than a step: the steps (dt = %.4g "
                "ns) do not end where the samples do, so the step error is first order in dt; use %s, or a "
                "gaussian filter (docs/lines.md \"Warnings\")",
                sim.drive().pulses()[p].path().c_str(), line.name().c_str(), 1.0 / rate, sim.options().dt(), fix.c_str());
}

}  // namespace

double worst_line_tail(const solver::Simulator& sim) {
  double worst = 0.0;
  for (std::size_t p = 0; p < sim.drive().pulses().size(); ++p) {
    const auto s = sim.drive().line_summary(p);
    if (s.pulse_peak > 0.0) worst = std::max(worst, s.end_gap / s.pulse_peak);
  }
  return worst;
}

std::vector<std::string> line_tail_warnings(const solver::Simulator& sim, const std::string& where) {
  std::vector<std::string> out;
  for (std::size_t p = 0; p < sim.drive().pulses().size(); ++p) {
    const auto s = sim.drive().line_summary(p);
    if (!(s.end_gap > kLineTailWarning * s.pulse_peak)) continue;
    const std::string& line = sim.drive().lines()[static_cast<std::size_t>(sim.drive().pulse_line(p))].name();
    out.push_back(format("%s: the output of its line `%s` is %.3g away from the pulse at the evolution's end (%.3g "
                         "of the pulse's peak %.3g%s): the line's tail is cut off; extend evolution.duration to let "
                         "it settle",
                         sim.drive().pulses()[p].path().c_str(), line.c_str(), s.end_gap, s.end_gap / s.pulse_peak,
                         s.pulse_peak, where.empty() ? "" : (", " + where).c_str()));
  }
  return out;
}

std::vector<std::string> line_warnings(const solver::Simulator& sim) {
  std::vector<std::string> out = line_tail_warnings(sim);
  for (std::size_t p = 0; p < sim.drive().pulses().size(); ++p) {
    if (sim.drive().pulse_line(p) < 0) continue;
    const pulse::Line& line = sim.drive().lines()[static_cast<std::size_t>(sim.drive().pulse_line(p))];
    const std::string& path = sim.drive().pulses()[p].path();
    const double carrier = std::abs(sim.drive().pulses()[p].frequency());
    if (line.spec().sample_rate && carrier > 0.5 * *line.spec().sample_rate)
      out.push_back(format("%s: its carrier (%.4g GHz) is above the Nyquist frequency of its line `%s` (%.4g GHz = "
                           "sample_rate / 2): the line samples the pulse itself, carrier included, and aliases it "
                           "(docs/lines.md \"Filters\")",
                           path.c_str(), carrier, line.name().c_str(), 0.5 * *line.spec().sample_rate));
    const auto s = sim.drive().line_summary(p);
    if (s.pulse_peak > 0.0 && s.output_peak < kLinePassWarning * s.pulse_peak)
      out.push_back(format("%s: its line `%s` passes at most %.3g of the pulse's peak (%.3g of %.3g): the mode "
                           "barely sees the pulse (a carrier the filters remove, or a pulse shorter than a sample?)",
                           path.c_str(), line.name().c_str(), s.output_peak / s.pulse_peak, s.output_peak,
                           s.pulse_peak));
    if (std::string w = hold_warning(sim, p, line); !w.empty()) out.push_back(std::move(w));
  }
  return out;
}

}  // namespace qevolve::commands
