// Plausibility warnings (include/qevolve/plausibility.hpp, docs/config.md "Plausibility
// warnings"): a static flux beyond +/-1 flux quantum, a flux pulse beyond +/-0.5, a pulse
// frequency that looks angular (rad/ns where GHz is meant), an EJ/EC outside the usual range of
// the mode type, a control line no pulse goes through. Each names its key, located as the
// stage's errors are, and the likely intent.
#include "qevolve/plausibility.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

#include "qevolve/names.hpp"

namespace qevolve::io {
namespace {

using device::ModeParams;

constexpr double kTwoPi = 2.0 * std::numbers::pi;

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

/// "FILE:LINE:COL: key.path: problem", as InputError formats a located message.
std::string located(const Config& config, const std::string& key, const std::string& problem) {
  return InputError(config.locate(key), key, problem).what();
}

/// The entry of device.qubits that names `mode`, or nullptr (a preset mode without one).
const ModeEntry* entry_of(const Config& config, const std::string& mode) {
  for (const ModeEntry& e : config.device.qubits)
    if (e.name == mode) return &e;
  return nullptr;
}

void static_flux(const Config& config, const ModeParams& m, std::vector<std::string>& out) {
  const bool has_flux = m.type == ModeType::fluxonium || (m.type == ModeType::transmon && m.has_asymmetry);
  if (!has_flux || !(std::abs(m.flux) > kPlausibleStaticFlux)) return;
  const ModeEntry* e = entry_of(config, m.name);
  const std::string key = e != nullptr && e->flux ? e->path + ".flux" : std::string("device.preset");
  out.push_back(located(config, key,
                        num(m.flux) + " flux quanta is beyond +/-1 (the spectrum repeats every flux quantum) "
                        "(did you mean " + num(m.flux / kTwoPi) + " = " + num(m.flux) +
                        " / (2 pi)? `flux` is in flux quanta, not radians)"));
}

/// EJ/EC of a fluxonium or transmon against the usual range of its type.
void ej_ec(const Config& config, const ModeParams& m, std::vector<std::string>& out) {
  if (m.type != ModeType::fluxonium && m.type != ModeType::transmon) return;
  if (!(m.ej > 0.0) || !(m.ec > 0.0)) return;  // ej: 0 is a deliberate junction-free mode
  const EjEcRange range = m.type == ModeType::fluxonium ? kFluxoniumEjEc : kTransmonEjEc;
  const double ratio = m.ej / m.ec;
  if (ratio >= range.lo && ratio <= range.hi) return;
  const ModeEntry* e = entry_of(config, m.name);
  std::string key = "device.preset";
  if (e != nullptr) key = e->path + (e->ej ? ".ej" : e->ec ? ".ec" : "");
  const double swapped = m.ec / m.ej;
  const std::string intent =
      swapped >= range.lo && swapped <= range.hi
          ? "did you mean ec: " + num(m.ej) + ", ej: " + num(m.ec) + "? the two look swapped"
          : std::string(ratio < range.lo ? "is ec or ej in other units?" : "is ec in other units?") +
                " both are in GHz";
  out.push_back(located(config, key,
                        "EJ/EC = " + num(ratio) + " (ej " + num(m.ej) + " GHz, ec " + num(m.ec) +
                            " GHz) is outside the usual [" + num(range.lo) + ", " + num(range.hi) + "] of a " +
                            enum_name(m.type) + " (" + intent + ")"));
}

/// The peak of a flux pulse: its amplitude, or the first of its `values` beyond the bound.
void flux_pulse(const Config& config, const PulseSpec& p, std::vector<std::string>& out) {
  if (p.op != "flux") return;
  std::string key = p.path + ".amplitude";
  double peak = p.amplitude;
  if (!p.values.empty()) {
    peak = 0.0;
    for (std::size_t k = 0; k < p.values.size(); ++k)
      if (std::abs(p.values[k]) > kPlausibleFluxPulse) {
        key = p.path + ".values[" + std::to_string(k) + "]";
        peak = p.values[k];
        break;
      }
  }
  if (!(std::abs(peak) > kPlausibleFluxPulse)) return;
  out.push_back(located(config, key,
                        "a flux pulse of " + num(peak) + " flux quanta goes beyond +/-0.5 (half the period of the "
                        "spectrum) (did you mean " + num(peak / kTwoPi) + " = " + num(peak) +
                        " / (2 pi)? flux pulses are in flux quanta, not radians)"));
}

/// A transition of one mode: its frequency (GHz, bare) and levels.
struct Transition {
  double f = 0.0;
  std::string mode;
  int lower = 0, upper = 0;
};

/// Every transition between the kept levels of every mode (bare, memoised diagonalisations);
/// a mode that cannot be diagonalised is left out (the build reports it).
std::vector<Transition> transitions(const std::vector<ModeParams>& modes) {
  std::vector<Transition> out;
  for (const ModeParams& m : modes) {
    RVector e;
    try {
      e = device::diagonalise(m).energies;
    } catch (const Error&) {
      continue;
    }
    for (Index i = 0; i < e.size(); ++i)
      for (Index j = i + 1; j < e.size(); ++j)
        out.push_back({e(j) - e(i), m.name, static_cast<int>(i), static_cast<int>(j)});
  }
  return out;
}

bool near(double f, double t) { return std::abs(f - t) <= kTransitionMatch * t; }

/// A single- or multi-photon (t/2, t/3) transition near `f`.
bool drives_a_transition(double f, const std::vector<Transition>& ts) {
  for (const Transition& t : ts)
    for (int n = 1; n <= 3; ++n)
      if (near(f, t.f / n)) return true;
  return false;
}

std::optional<Transition> nearest_match(double f, const std::vector<Transition>& ts) {
  std::optional<Transition> best;
  for (const Transition& t : ts)
    if (near(f, t.f) && (!best || std::abs(f - t.f) < std::abs(f - best->f))) best = t;
  return best;
}

/// A carrier that looks angular: above 20 GHz, or 2 pi x a transition, and near none itself.
/// Flux and number pulses modulate a parameter (at a difference of frequencies, not a
/// transition): only the 20 GHz bound applies to them.
void drive_frequency(const Config& config, const PulseSpec& p, const std::vector<ModeParams>& modes,
                     std::optional<std::vector<Transition>>& ts, std::vector<std::string>& out) {
  const double f = p.frequency;
  if (p.frequency_mode != FrequencyMode::value || !(f > 0.0)) return;
  const bool parametric = p.op == "flux" || p.op == "number";
  const std::string key = p.path + ".frequency";
  const std::string units = "? pulse frequencies are in GHz, not rad/ns)";
  if (parametric) {
    if (f > kPlausibleDriveGHz)
      out.push_back(located(config, key, num(f) + " GHz is above 20 GHz (did you mean " + num(f / kTwoPi) +
                                             " = " + num(f) + " / (2 pi)" + units));
    return;
  }
  if (!ts) ts = transitions(modes);
  if (drives_a_transition(f, *ts)) return;
  if (const std::optional<Transition> t = nearest_match(f / kTwoPi, *ts))
    out.push_back(located(config, key,
                          num(f) + " GHz drives no transition, but is 2 pi x " + num(f / kTwoPi) + " GHz, near the " +
                              std::to_string(t->lower) + "-" + std::to_string(t->upper) + " transition of mode `" +
                              t->mode + "` (" + num(t->f) + " GHz) (did you mean " + num(f / kTwoPi) + units));
  else if (f > kPlausibleDriveGHz)
    out.push_back(located(config, key,
                          num(f) + " GHz is above 20 GHz and drives no transition (did you mean " + num(f / kTwoPi) +
                              " = " + num(f) + " / (2 pi)" + units));
}

/// A line of `lines` that no pulse names in its `line` key: its filters act on nothing.
void unused_lines(const Config& config, std::vector<std::string>& out) {
  for (const LineSpec& line : config.lines) {
    const bool used = std::any_of(config.pulses.begin(), config.pulses.end(),
                                  [&](const PulseSpec& p) { return p.line == line.name; });
    if (!used) out.push_back(located(config, line.path, "no pulse uses the line `" + line.name + "`"));
  }
}

}  // namespace

std::vector<std::string> plausibility_warnings(const Config& config, const std::vector<ModeParams>& modes) {
  std::vector<std::string> out;
  for (const ModeParams& m : modes) {
    static_flux(config, m, out);
    ej_ec(config, m, out);
  }
  std::optional<std::vector<Transition>> ts;  // computed when a drive needs them
  for (const PulseSpec& p : config.pulses) {
    flux_pulse(config, p, out);
    drive_frequency(config, p, modes, ts, out);
  }
  unused_lines(config, out);
  return out;
}

}  // namespace qevolve::io
