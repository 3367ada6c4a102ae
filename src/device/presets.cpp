#include "qevolve/presets.hpp"

#include <stdexcept>

#include <cmath>
#include <string>

#include "qevolve/types.hpp"

namespace qevolve::device {

NormalGenerator::NormalGenerator(std::uint64_t seed) : engine_(seed) {}

double NormalGenerator::next() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_;
  }
  constexpr double k2pow53 = 1.0 / 9007199254740992.0;  // 2^-53
  const double u1 = static_cast<double>(engine_() >> 11) * k2pow53;
  const double u2 = static_cast<double>(engine_() >> 11) * k2pow53;
  const double r = std::sqrt(-2.0 * std::log(1.0 - u1));  // 1 - u1 lies in (0, 1]
  spare_ = r * std::sin(kTwoPi * u2);
  has_spare_ = true;
  return r * std::cos(kTwoPi * u2);
}

const std::vector<std::string>& preset_names() {
  static const std::vector<std::string> names{"mpc_fluxonium_1d", "transmon_coupler_1d"};
  return names;
}

namespace {

/// "q" + index (spelled out: GCC 12 warns falsely about `"q" + std::to_string(i)`).
std::string indexed(const char* prefix, int i) {
  std::string s(prefix);
  s += std::to_string(i);
  return s;
}

ModeParams fluxonium(std::string name, int levels, double ec, double ej, double el, double flux) {
  ModeParams p;
  p.name = std::move(name);
  p.type = ModeType::fluxonium;
  p.levels = levels;
  p.ec = ec;
  p.ej = ej;
  p.el = el;
  p.flux = flux;
  return p;
}

ModeParams transmon(std::string name, int levels, double ec, double ej, double ng) {
  ModeParams p;
  p.name = std::move(name);
  p.type = ModeType::transmon;
  p.levels = levels;
  p.ec = ec;
  p.ej = ej;
  p.ng = ng;
  return p;
}

Coupling capacitive(int a, int b, double jc, double jl = 0.0) {
  Coupling c;
  c.a = a;
  c.b = b;
  c.capacitive = jc;
  c.inductive = jl;
  c.path = "device.preset";
  return c;
}

/// Multiplies each listed parameter by (1 + variance * g), g drawn in the order given.
/// A factor <= 0 throws std::domain_error (the resolution stage turns it into an input error at
/// device.preset_args.variance).
void apply_variance(std::vector<ModeParams>& modes, double variance, std::uint64_t seed,
                    bool with_el) {
  if (variance == 0.0) return;
  NormalGenerator gen(seed);
  for (auto& m : modes) {
    double* params[3] = {&m.ec, &m.ej, &m.el};
    for (int k = 0; k < (with_el ? 3 : 2); ++k) {
      const double factor = 1.0 + variance * gen.next();
      if (factor <= 0.0)
        throw std::domain_error("variance " + std::to_string(variance) +
                                " made a parameter of mode " + m.name + " non-positive");
      *params[k] *= factor;
    }
  }
}

PresetDevice mpc_fluxonium_1d(const PresetSpec& s) {
  PresetDevice d;
  static constexpr double kEL[3] = {0.9, 1.0, 1.1};
  for (int i = 0; i < s.qubits; ++i)
    d.modes.push_back(fluxonium(indexed("q", i), s.levels, 1.0, 4.0, kEL[i % 3], 0.5));
  apply_variance(d.modes, s.variance, s.seed, true);
  for (int i = 0; i + 1 < s.qubits; ++i) d.couplings.push_back(capacitive(i, i + 1, 0.020, -0.002));
  if (s.periodic) d.couplings.push_back(capacitive(s.qubits - 1, 0, 0.020, -0.002));
  return d;
}

PresetDevice transmon_coupler_1d(const PresetSpec& s) {
  const int coupler_levels = s.coupler_levels.value_or(3);
  const int n_couplers = s.periodic ? s.qubits : s.qubits - 1;
  PresetDevice d;
  std::vector<int> qubit_index, coupler_index;
  for (int i = 0; i < s.qubits; ++i) {
    const bool even = i % 2 == 0;
    qubit_index.push_back(static_cast<int>(d.modes.size()));
    d.modes.push_back(transmon(indexed("q", i), s.levels, even ? 0.105 : 0.120,
                               even ? 33.063 : 22.234, 0.5));
    if (i < n_couplers) {
      coupler_index.push_back(static_cast<int>(d.modes.size()));
      ModeParams c = transmon(indexed("c", i), coupler_levels, 0.185, 30.694, 0.5);
      c.has_asymmetry = true;  // a tunable (symmetric-SQUID) coupler; flux 0 by default
      c.role = ModeRole::coupler;  // held in its ground state: d = 2^qubits
      d.modes.push_back(c);
    }
  }
  apply_variance(d.modes, s.variance, s.seed, false);
  for (int i = 0; i < n_couplers; ++i) {
    const int a = qubit_index[static_cast<std::size_t>(i)];
    const int b = qubit_index[static_cast<std::size_t>((i + 1) % s.qubits)];
    const int c = coupler_index[static_cast<std::size_t>(i)];
    d.couplings.push_back(capacitive(a, b, 0.012));
    d.couplings.push_back(capacitive(a, c, 0.122));
    d.couplings.push_back(capacitive(c, b, 0.105));
  }
  return d;
}

}  // namespace

int min_preset_qubits(const std::string& name) { return name == "transmon_coupler_1d" ? 2 : 1; }

PresetDevice make_preset(const PresetSpec& spec) {
  if (spec.name == "mpc_fluxonium_1d") return mpc_fluxonium_1d(spec);
  if (spec.name == "transmon_coupler_1d") return transmon_coupler_1d(spec);
  throw std::invalid_argument("make_preset: unknown preset `" + spec.name + "`");
}

}  // namespace qevolve::device
