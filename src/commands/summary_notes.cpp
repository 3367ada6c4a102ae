// The summary's notes (summary_notes.hpp): resolved values, the control lines, the step-phase
// check, the lab-frame hint.
#include "summary_notes.hpp"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <stdexcept>

#include "qevolve/pulse.hpp"
#include "qevolve/scheme_traits.hpp"
#include "qevolve/text.hpp"

namespace qevolve::commands {

std::vector<ResolvedValue> resolved_values(const Config& config, const solver::Simulator& sim) {
  std::vector<ResolvedValue> out;
  const auto& pulses = sim.drive().pulses();
  for (std::size_t p = 0; p < pulses.size() && p < config.pulses.size(); ++p) {
    const PulseSpec& spec = config.pulses[p];
    const pulse::Pulse& pu = pulses[p];
    const std::string& path = pu.path();
    if (spec.amplitude_auto) out.push_back({path + ".amplitude", pu.amplitude(), "GHz", "auto"});
    if (spec.frequency_mode != FrequencyMode::value)
      out.push_back({path + ".frequency", pu.frequency(), "GHz", std::string(enum_name(spec.frequency_mode))});
    // Shape keys the pulse has but whose value the config did not fix: derived from the others.
    for (pulse::Param k : {pulse::Param::duration, pulse::Param::ramp, pulse::Param::plateau, pulse::Param::sigma,
                           pulse::Param::c}) {
      const pulse::ParamRef ref{k, 0};
      if (pu.has_parameter(ref)) continue;
      double v = 0.0;
      try {
        v = pu.get(ref);
      } catch (const std::invalid_argument&) {
        continue;  // not a key of this shape
      }
      out.push_back({path + "." + ref.name(), v, k == pulse::Param::c ? "" : "ns", "derived"});
    }
  }
  if (config.evolution.steps_auto) {
    char how[80];
    std::snprintf(how, sizeof how, "auto, tolerance %.1e",
                  config.evolution.tolerance.value_or(EvolutionSpec::kDefaultTolerance));
    out.push_back({"evolution.steps", static_cast<double>(sim.options().steps), "", how});
  }
  if (!config.evolution.duration)
    out.push_back({"evolution.duration", sim.options().duration, "ns", "latest pulse end"});
  return out;
}

namespace {

/// `format` (one double) printed; the compiler checks each call's format against its argument.
[[gnu::format(printf, 1, 2)]] std::string number(const char* format, ...) {
  char text[64];
  va_list args;
  va_start(args, format);
  std::vsnprintf(text, sizeof text, format, args);
  va_end(args);
  return text;
}

/// `gaussian 0.5 ns`, `highpass 1000 ns`, `exponential 1 - 0.02 e^(-t/30 ns)`, `fir 3 taps`.
std::string describe_filter(const FilterSpec& f) {
  switch (f.type) {
    case FilterType::gaussian: return "gaussian " + number("%.6g", f.sigma) + " ns";
    case FilterType::highpass: return "highpass " + number("%.6g", f.tau) + " ns";
    case FilterType::exponential:
      return "exponential 1 " + std::string(f.amplitude < 0 ? "- " : "+ ") + number("%.6g", std::abs(f.amplitude)) +
             " e^(-t/" + number("%.6g", f.tau) + " ns)";
    case FilterType::fir: return "fir " + counted(f.taps.size(), "tap");
  }
  return {};
}

}  // namespace

std::vector<std::string> line_notes(const solver::Simulator& sim) {
  std::vector<std::string> out;
  for (std::size_t l = 0; l < sim.drive().lines().size(); ++l) {
    std::string pulses;
    for (std::size_t p = 0; p < sim.drive().pulses().size(); ++p)
      if (sim.drive().pulse_line(p) == static_cast<int>(l)) pulses += (pulses.empty() ? "" : ", ") + sim.drive().pulses()[p].path();
    if (pulses.empty()) continue;  // a line no pulse uses (a plausibility warning)
    const LineSpec& spec = sim.drive().lines()[l].spec();
    std::string filters;
    for (const FilterSpec& f : spec.filters) filters += (filters.empty() ? "" : ", ") + describe_filter(f);
    out.push_back("lines: " + pulses + " through " + spec.name + " (" +
                  (spec.sample_rate ? number("%.6g", *spec.sample_rate) + " GS/s" : std::string("no sampling")) +
                  "; " + (filters.empty() ? std::string("no filters") : filters) +
                  (spec.predistort ? "; predistorted)" : ")"));
  }
  return out;
}

std::optional<StepPhase> fastest_step_phase(const solver::Simulator& sim) {
  const auto& o = sim.options();
  const solver::SchemeTraits& scheme = solver::scheme_traits(o.solver, o.splitting);
  if (!scheme.steps) return std::nullopt;
  const device::Device& dev = sim.device();
  StepPhase best;
  for (int m = 0; m < dev.num_modes(); ++m) {
    const auto& mode = dev.modes()[static_cast<std::size_t>(m)];
    // A dense generator (expm, splitting dense or chebyshev) exponentiates the static part
    // exactly in every step: only the drives' carriers must be resolved.
    const bool exact_static = scheme.exact_static;
    double rate = mode.energies.size() > 1 && !exact_static ? mode.energies(1) - mode.energies(0) : 0.0;
    for (const auto& ch : sim.drive().channels())
      if (ch.mode == m) rate = std::max(rate, std::abs(sim.drive().pulses()[static_cast<std::size_t>(ch.pulse)].frequency()));
    const double phase = kTwoPi * rate * sim.options().dt();
    if (phase > best.phase) best = {phase, mode.name(), rate, 0};
  }
  if (!(best.phase > 0.0)) return std::nullopt;
  best.steps_needed = static_cast<long long>(std::ceil(kTwoPi * best.frequency * o.duration / kMaxPhasePerStep));
  return best;
}

std::string step_size_warning(const solver::Simulator& sim, const std::string& where) {
  const std::optional<StepPhase> p = fastest_step_phase(sim);
  if (!p || p->phase <= kMaxPhasePerStep) return {};
  char line[400];
  std::snprintf(line, sizeof line, "%.3g rad per step on mode `%s` (%.6g GHz x dt = %.6g ns", p->phase,
                p->mode.c_str(), p->frequency, sim.options().dt());
  std::string text = line + (where.empty() ? std::string() : ", " + where);
  std::snprintf(line, sizeof line, ") exceeds %.3g rad: the step error may be large; use evolution.steps >= %lld",
                kMaxPhasePerStep, p->steps_needed);
  return text + line;
}

std::optional<ConditionalPhase> conditional_phase(const Config& config, const CMatrix& unitary) {
  if (!config.target || config.target->gates.size() != 1 || unitary.rows() != 4 || unitary.cols() != 4)
    return std::nullopt;
  const GateSpec& g = config.target->gates.front();
  if (g.gate != "CZ" && g.gate != "CPHASE") return std::nullopt;
  const cplx c = unitary(0, 0) * unitary(3, 3) * std::conj(unitary(1, 1)) * std::conj(unitary(2, 2));
  const double target = std::remainder(g.gate == "CZ" ? kPi : g.angle.value_or(0.0), 2.0 * kPi);  // [-pi, pi]
  return ConditionalPhase{std::arg(c), target == -kPi ? kPi : target};
}

bool lab_frame_hint_applies(const solver::Simulator& sim, const Config& config) {
  return sim.options().frame == Frame::lab && config.target && config.target->compensation == Compensation::none;
}

}  // namespace qevolve::commands
