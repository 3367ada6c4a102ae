// The evolution plan's builders (include/qevolve/evolution_plan.hpp): pulses resolved on the
// device with their drive channels and lines, the total duration, the initial states. The
// resolution stage calls them on a validated config; they assert preconditions only.
#include "qevolve/evolution_plan.hpp"

#include <algorithm>
#include <cmath>

#include "qevolve/error.hpp"

namespace qevolve::solver {

namespace {

int mode_of(const device::Device& device, const std::string& name, const std::string& path) {
  const int m = device.find(name);
  precondition(m >= 0, "Simulator", path, "an unknown mode");
  return m;
}

/// The channels of pulse `pulse` on mode `q` with crosstalk `factor` (one, or a flux pulse's
/// per its mode's law, merged into the mode's existing flux channels); `path` locates a mode
/// without the operator.
void add_channels(const device::Device& device, int pulse, int q, double factor, const std::string& op,
                  const std::string& path, std::vector<DriveChannel>& channels) {
  const device::Mode& mode = device.modes()[static_cast<std::size_t>(q)];
  if (op != "flux") {
    precondition(mode.op(op) != nullptr, "Simulator", path, "a crosstalk operator the mode does not have");
    channels.push_back({pulse, q, factor, op, device::DriveLaw::linear, {}});
    return;
  }
  // A flux pulse (docs/models.md "Flux pulses"): the law of its mode, one set of channels per
  // mode whatever the number of flux sources on it.
  precondition(device::accepts_pulse_operator(mode.params, op), "Simulator", path, "a flux pulse on a mode without flux");
  bool merged = false;
  for (DriveChannel& ch : channels)
    if (ch.mode == q && ch.law != device::DriveLaw::linear) {
      ch.sources.emplace_back(pulse, factor);
      merged = true;
    }
  if (merged) return;
  const auto flux_channel = [&](device::DriveLaw law) {
    channels.push_back({pulse, q, factor, std::string(device::law_operator(law, op)), law, {{pulse, factor}}});
  };
  if (mode.params.type == ModeType::fluxonium) {
    flux_channel(device::DriveLaw::inductive);
  } else {
    flux_channel(device::DriveLaw::squid_cos);
    flux_channel(device::DriveLaw::squid_sin);
    flux_channel(device::DriveLaw::squid_n);  // the moving gauge's -g'(t) n / 2 pi
  }
}

/// The frequency `auto` and `auto_dressed` resolve to for a pulse on mode q.
double auto_frequency(const device::Device& device, const std::optional<device::DressedBasis>& dressed,
                      const PulseSpec& spec, int q) {
  const device::Mode& mode = device.modes()[static_cast<std::size_t>(q)];
  if (spec.frequency_mode != FrequencyMode::auto_dressed) return mode.energies(1) - mode.energies(0);
  precondition(dressed.has_value(), "Simulator", spec.path + ".frequency", "auto_dressed without a dressed basis");
  std::vector<int> lv(static_cast<std::size_t>(device.num_modes()), 0);
  const double e0 = dressed->energy_of_bare(device.flat_index(lv));
  lv[static_cast<std::size_t>(q)] = 1;
  return dressed->energy_of_bare(device.flat_index(lv)) - e0;
}

}  // namespace

Drive make_drive(const device::Device& device, const std::optional<device::DressedBasis>& dressed,
                 const std::vector<PulseSpec>& specs, const std::vector<LineSpec>& lines) {
  Drive out;
  for (std::size_t p = 0; p < specs.size(); ++p) {
    const PulseSpec& spec = specs[p];
    const int q = mode_of(device, spec.qubit, spec.path + ".qubit");
    const device::Mode& mode = device.modes()[static_cast<std::size_t>(q)];
    const std::string op = spec.op.empty() ? std::string(mode.default_operator()) : spec.op;
    precondition(device::accepts_pulse_operator(mode.params, op), "Simulator", spec.path + ".operator",
                 "a drive operator the mode does not have");
    const CMatrix* O = mode.op(op == "flux" ? "phi" : op);
    out.pulses.emplace_back(spec, auto_frequency(device, dressed, spec, q), O != nullptr ? std::abs((*O)(0, 1)) : 1.0);
    add_channels(device, static_cast<int>(p), q, 1.0, op, spec.path + ".operator", out.channels);
    for (const auto& [other, factor] : spec.crosstalk)
      add_channels(device, static_cast<int>(p), mode_of(device, other, spec.path + ".crosstalk." + other), factor, op,
                   spec.path + ".crosstalk." + other, out.channels);
  }
  for (const LineSpec& spec : lines) out.lines.emplace_back(spec);
  out.pulse_line.assign(out.pulses.size(), -1);
  for (std::size_t p = 0; p < specs.size(); ++p) {
    const std::string& name = specs[p].line;
    if (name.empty()) continue;
    const auto it = std::find_if(out.lines.begin(), out.lines.end(), [&](const pulse::Line& l) { return l.name() == name; });
    precondition(it != out.lines.end(), "Simulator", specs[p].path + ".line", "an unknown line");
    out.pulse_line[p] = static_cast<int>(it - out.lines.begin());
  }
  return out;
}

double total_duration(const std::optional<double>& duration, const std::vector<pulse::Pulse>& pulses) {
  double latest = 0.0;
  for (const auto& p : pulses) latest = std::max(latest, p.end());
  if (!duration) return latest;
  precondition(*duration >= latest - 1e-12 * latest, "Simulator", "evolution.duration",
               "a duration shorter than the latest pulse end");
  return *duration;
}

std::vector<Index> initial_indices(const device::Device& device, const InitialStates& is) {
  std::vector<Index> out;
  if (is.kind == InitialStates::Kind::computational) return device.computational_indices();
  if (is.kind == InitialStates::Kind::all) {
    for (Index i = 0; i < device.dim(); ++i) out.push_back(i);
    return out;
  }
  for (std::size_t k = 0; k < is.labels.size(); ++k) {
    const std::string& label = is.labels[k];
    const std::string path = "evolution.initial_states[" + std::to_string(k) + "]";
    precondition(static_cast<int>(label.size()) == device.num_modes(), "Simulator", path,
                 "a label without one digit per mode");
    std::vector<int> lv;
    for (std::size_t q = 0; q < label.size(); ++q) {
      const int level = label[q] - '0';
      precondition(level >= 0 && level < device.dims()[q], "Simulator", path, "a level that is not kept");
      lv.push_back(level);
    }
    out.push_back(device.flat_index(lv));
  }
  return out;
}

bool same_channels(const std::vector<DriveChannel>& a, const std::vector<DriveChannel>& b) {
  const auto same = [](const DriveChannel& x, const DriveChannel& y) {
    return x.pulse == y.pulse && x.mode == y.mode && x.factor == y.factor && x.op == y.op && x.law == y.law &&
           x.sources == y.sources;
  };
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), same);
}

}  // namespace qevolve::solver
