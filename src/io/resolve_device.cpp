// The resolution stage, device part: merging a preset with explicit device entries, and every
// check of the device section (preset arguments, missing or foreign keys, unknown or duplicate
// names, couplings to unknown modes, operator/type mismatches). Input errors are raised here;
// the device layer builds from the validated result.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "qevolve/device.hpp"
#include "qevolve/names.hpp"
#include "device_rules.hpp"
#include "messages.hpp"
#include "unknown_mode.hpp"
#include "qevolve/presets.hpp"
#include "qevolve/resolve.hpp"
#include "qevolve/text.hpp"

namespace qevolve::io {

const std::vector<std::string>& model_keys(ModeType t) {
  static const std::vector<std::string> flux{"ec", "ej", "el", "flux"};
  static const std::vector<std::string> trans{"ec", "ej", "ng", "flux", "asymmetry"};
  static const std::vector<std::string> res{"frequency"};
  static const std::vector<std::string> duff{"frequency", "anharmonicity"};
  switch (t) {
    case ModeType::fluxonium: return flux;
    case ModeType::transmon: return trans;
    case ModeType::resonator: return res;
    case ModeType::duffing: return duff;
  }
  return res;
}

void check_coupling_operators(const device::Coupling& c, const std::vector<device::ModeParams>& modes,
                              const Config& config) {
  for (int idx : {c.a, c.b}) {
    const device::ModeParams& m = modes[static_cast<std::size_t>(idx)];
    const bool oscillator = m.type == ModeType::resonator || m.type == ModeType::duffing;
    if (c.inductive != 0.0 && m.type == ModeType::transmon)
      fail(config, c.path + ".inductive", Msg::InductiveTransmon, {{"NAME", m.name}});
    if (c.dipole != 0.0 && !oscillator)
      fail(config, c.path + ".dipole", Msg::DipoleOscillators, {{"NAME", m.name}, {"TYPE", enum_name(m.type)}});
  }
}

namespace {

using device::Coupling;
using device::ModeParams;
using device::ResolvedDevice;

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

[[noreturn]] void fail_not_parameter(const Config& config, const std::string& key_path, const std::string& key,
                                     const ModeParams& p) {
  fail(config, key_path, Msg::NotModeParameter,
       {{"KEY", key}, {"TYPE", enum_name(p.type)}, {"NAME", p.name}, {"ALLOWED", join(model_keys(p.type))}});
}

/// Applies the keys present in `e` onto `p` and checks that each applies to p.type.
void apply_entry(const ModeEntry& e, ModeParams& p, const Config& config) {
  const auto& keys = model_keys(p.type);
  auto allowed = [&](const char* key) {
    return std::find(keys.begin(), keys.end(), key) != keys.end();
  };
  auto set = [&](const std::optional<double>& v, const char* key, double& field) {
    if (!v) return;
    if (!allowed(key)) fail_not_parameter(config, e.path + "." + key, key, p);
    field = *v;
  };
  set(e.ec, "ec", p.ec);
  set(e.ej, "ej", p.ej);
  set(e.el, "el", p.el);
  set(e.flux, "flux", p.flux);
  set(e.ng, "ng", p.ng);
  set(e.frequency, "frequency", p.frequency);
  set(e.anharmonicity, "anharmonicity", p.anharmonicity);
  if (e.asymmetry) {
    set(e.asymmetry, "asymmetry", p.asymmetry);
    p.has_asymmetry = true;
  }
  if (e.role) {
    if (*e.role == ModeRole::qubit && p.type == ModeType::resonator)
      fail(config, e.path + ".role", Msg::ResonatorQubitRole, {{"NAME", p.name}});
    p.role = *e.role;
  }
  if (e.levels) p.levels = *e.levels;
  if (e.basis_size) {
    if (p.type == ModeType::resonator || p.type == ModeType::duffing)
      fail(config, e.path + ".basis_size", Msg::BasisSizeExact, {{"TYPE", enum_name(p.type)}, {"NAME", p.name}});
    p.basis_size = *e.basis_size;
  }
  // The loader's rule (config_device.cpp), again on the merged values: a preset's basis_size
  // with an entry's levels.
  if (p.basis_size > 0 && p.basis_size < p.levels)
    fail(config, e.path + ".basis_size", Msg::BasisSmallerThanLevels,
         {{"BASIS", std::to_string(p.basis_size)}, {"LEVELS", std::to_string(p.levels)}});
  for (std::size_t k = 0; k < e.optimize.size(); ++k)
    if (!allowed(e.optimize[k].c_str()))
      fail_not_parameter(config, e.path + ".optimize[" + std::to_string(k) + "]", e.optimize[k], p);
}

/// A new (non-preset) mode must give its type, levels and the model's required keys.
ModeParams new_mode(const ModeEntry& e, const Config& config) {
  if (!e.type) fail(config, e.path, Msg::NewModeNoType, {{"NAME", e.name}});
  if (!e.levels) fail(config, e.path, Msg::NewModeNoLevels, {{"NAME", e.name}});
  ModeParams p;
  p.name = e.name;
  p.type = *e.type;
  if (p.type == ModeType::resonator) p.role = ModeRole::coupler;  // never a qubit (is_qubit)
  auto need = [&](const std::optional<double>& v, const char* key) {
    if (!v) fail(config, e.path, Msg::NewModeNeedsKey, {{"TYPE", enum_name(p.type)}, {"NAME", e.name}, {"KEY", key}});
  };
  switch (p.type) {
    case ModeType::fluxonium: need(e.ec, "ec"); need(e.ej, "ej"); need(e.el, "el"); break;
    case ModeType::transmon: need(e.ec, "ec"); need(e.ej, "ej"); break;
    case ModeType::resonator: need(e.frequency, "frequency"); break;
    case ModeType::duffing: need(e.frequency, "frequency"); need(e.anharmonicity, "anharmonicity"); break;
  }
  return p;
}

/// The computational subspace needs at least one qubit (docs/device.md "Qubits and couplers").
void check_has_qubit(const Config& config, const std::vector<ModeParams>& modes) {
  if (std::any_of(modes.begin(), modes.end(), [](const ModeParams& m) { return device::is_qubit(m); }))
    return;
  // Point at the first explicit `role: coupler` of a mode that could be a qubit, else at the
  // mode list.
  std::string key = config.device.qubits.empty() ? "device" : "device.qubits";
  for (const ModeEntry& e : config.device.qubits) {
    const auto m = std::find_if(modes.begin(), modes.end(), [&](const ModeParams& p) { return p.name == e.name; });
    if (e.role == ModeRole::coupler && m != modes.end() && m->type != ModeType::resonator) {
      key = e.path + ".role";
      break;
    }
  }
  fail(config, key, Msg::NoQubit);
}

/// An entry named like an earlier one: the loader's rule (config_device.cpp), for configs built
/// without it.
[[noreturn]] void fail_duplicate_name(const Config& config, const ModeEntry& e) {
  const auto first = std::find_if(config.device.qubits.begin(), config.device.qubits.end(),
                                  [&](const ModeEntry& f) { return f.name == e.name; });
  fail(config, e.path + ".name", Msg::DuplicateModeName,
       {{"NAME", e.name}, {"LINE", std::to_string(config.locate(first->path).line)}});
}

/// The preset's modes and couplings, its arguments checked first.
device::PresetDevice preset_device(const PresetSpec& spec, const Config& config) {
  const auto& names = device::preset_names();
  if (std::find(names.begin(), names.end(), spec.name) == names.end()) {
    std::string allowed;
    for (const auto& n : names) allowed += (allowed.empty() ? "" : " | ") + n;
    fail(config, "device.preset", Msg::PresetUnknown, {{"NAME", spec.name}, {"ALLOWED", allowed}});
  }
  const int min_qubits = device::min_preset_qubits(spec.name);
  if (spec.qubits < min_qubits)
    fail(config, "device.preset_args.qubits", Msg::PresetTooFewQubits,
         {{"PRESET", spec.name}, {"QUBITS", counted(min_qubits, "qubit")}, {"MIN", std::to_string(min_qubits)}});
  if (spec.periodic && spec.qubits < 3) fail(config, "device.preset_args.periodic", Msg::PresetRingTooSmall);
  try {
    return device::make_preset(spec);
  } catch (const std::domain_error& e) {
    fail(config, "device.preset_args.variance", Msg::PresetVariance, {{"REASON", e.what()}});
  }
}

}  // namespace

ResolvedDevice resolve_device(const Config& config) {
  ResolvedDevice out;
  if (config.device.preset) {
    device::PresetDevice preset = preset_device(*config.device.preset, config);
    out.modes = std::move(preset.modes);
    out.couplings = std::move(preset.couplings);
  }
  const std::size_t n_preset = out.modes.size();
  auto index_of = [&](const std::string& name) -> int {
    for (std::size_t i = 0; i < out.modes.size(); ++i)
      if (out.modes[i].name == name) return static_cast<int>(i);
    return -1;
  };

  for (const ModeEntry& e : config.device.qubits) {
    const int existing = index_of(e.name);
    if (existing >= 0 && static_cast<std::size_t>(existing) >= n_preset) fail_duplicate_name(config, e);
    if (existing >= 0) {
      ModeParams& p = out.modes[static_cast<std::size_t>(existing)];
      if (e.type && *e.type != p.type)
        fail(config, e.path + ".type", Msg::PresetTypeFixed, {{"NAME", e.name}, {"TYPE", enum_name(p.type)}});
      apply_entry(e, p, config);
    } else {
      ModeParams p = new_mode(e, config);
      apply_entry(e, p, config);
      out.modes.push_back(std::move(p));
    }
  }
  if (out.modes.empty()) fail(config, "device", Msg::NoModes);  // the loader's rule, for configs built without it
  check_has_qubit(config, out.modes);

  for (const CouplingEntry& e : config.device.couplings) {
    const int a = index_of(e.a), b = index_of(e.b);
    if (a < 0) fail_unknown_mode(config, e.path + ".qubits", e.a, out.modes);
    if (b < 0) fail_unknown_mode(config, e.path + ".qubits", e.b, out.modes);
    if (a == b) fail(config, e.path + ".qubits", Msg::SelfCoupling, {{"NAME", e.a}});  // the loader's rule, again
    // An explicit coupling on a pair the preset already couples overrides the given strengths.
    auto same_pair = [&](const Coupling& c) {
      return (c.a == a && c.b == b) || (c.a == b && c.b == a);
    };
    auto it = std::find_if(out.couplings.begin(), out.couplings.end(), same_pair);
    Coupling c;
    if (it != out.couplings.end() && it->path == "device.preset") {
      c = *it;
    } else if (it != out.couplings.end()) {
      fail(config, e.path + ".qubits", Msg::CouplingPairTwice, {{"A", e.a}, {"B", e.b}, {"BY", it->path}});
    }
    c.a = a;
    c.b = b;
    if (e.capacitive) c.capacitive = *e.capacitive;
    if (e.inductive) c.inductive = *e.inductive;
    if (e.dipole) c.dipole = *e.dipole;
    if (e.cross_kerr) c.cross_kerr = *e.cross_kerr;
    c.path = e.path;
    check_coupling_operators(c, out.modes, config);
    if (it != out.couplings.end())
      *it = c;
    else
      out.couplings.push_back(c);
  }
  for (const auto& c : out.couplings) check_coupling_operators(c, out.modes, config);
  return out;
}

device::Device build_device(const Config& config) { return device::build_device(resolve_device(config)); }

}  // namespace qevolve::io
