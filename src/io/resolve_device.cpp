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
      config.fail(c.path + ".inductive",
                  "transmon `" + m.name + "` has no flux-like operator for an inductive coupling",
                  "capacitive for transmons");
    if (c.dipole != 0.0 && !oscillator)
      config.fail(c.path + ".dipole",
                  "a dipole coupling needs oscillators, but `" + m.name + "` is a " +
                      enum_name(m.type),
                  "resonator or duffing modes");
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
  const MsgArgs args{
      {"KEY", key}, {"TYPE", enum_name(p.type)}, {"NAME", p.name}, {"ALLOWED", join(model_keys(p.type))}};
  config.fail(key_path, message(Msg::NotModeParameter, args), expected(Msg::NotModeParameter, args));
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
      config.fail(e.path + ".role",
                  "resonator `" + p.name + "` cannot be a qubit: a resonator is held in its ground state",
                  "role: coupler or no role");
    p.role = *e.role;
  }
  if (e.levels) p.levels = *e.levels;
  if (e.basis_size) {
    if (p.type == ModeType::resonator || p.type == ModeType::duffing)
      config.fail(e.path + ".basis_size",
                  "`basis_size` does not apply to " + std::string(enum_name(p.type)) +
                      " mode `" + p.name + "` (its Fock basis is exact)");
    p.basis_size = *e.basis_size;
  }
  if (p.basis_size > 0 && p.basis_size < p.levels)
    config.fail(e.path + ".basis_size",
                "basis_size " + std::to_string(p.basis_size) + " is smaller than levels " +
                    std::to_string(p.levels),
                "basis_size >= levels");
  for (std::size_t k = 0; k < e.optimize.size(); ++k)
    if (!allowed(e.optimize[k].c_str()))
      fail_not_parameter(config, e.path + ".optimize[" + std::to_string(k) + "]", e.optimize[k], p);
}

/// A new (non-preset) mode must give its type, levels and the model's required keys.
ModeParams new_mode(const ModeEntry& e, const Config& config) {
  if (!e.type)
    config.fail(e.path, "mode `" + e.name + "` is not a preset mode and has no `type`",
                "type: fluxonium | transmon | resonator | duffing");
  if (!e.levels) config.fail(e.path, "mode `" + e.name + "` has no `levels`", "an integer >= 2");
  ModeParams p;
  p.name = e.name;
  p.type = *e.type;
  if (p.type == ModeType::resonator) p.role = ModeRole::coupler;  // never a qubit (is_qubit)
  auto need = [&](const std::optional<double>& v, const char* key) {
    if (!v)
      config.fail(e.path, std::string(enum_name(p.type)) + " mode `" + e.name + "` needs `" +
                              key + "`");
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
  config.fail(key, "the device has no qubit: every mode is a coupler or a resonator",
              "at least one fluxonium, transmon or duffing mode whose role is qubit, the default");
}

/// The preset's modes and couplings, its arguments checked first.
device::PresetDevice preset_device(const PresetSpec& spec, const Config& config) {
  const auto& names = device::preset_names();
  if (std::find(names.begin(), names.end(), spec.name) == names.end()) {
    std::string allowed;
    for (const auto& n : names) allowed += (allowed.empty() ? "" : " | ") + n;
    config.fail("device.preset", "unknown preset `" + spec.name + "`", allowed);
  }
  const int min_qubits = device::min_preset_qubits(spec.name);
  if (spec.qubits < min_qubits)
    config.fail("device.preset_args.qubits",
                spec.name + " needs at least " + std::to_string(min_qubits) +
                    (min_qubits == 1 ? " qubit" : " qubits"),
                "an integer >= " + std::to_string(min_qubits));
  if (spec.periodic && spec.qubits < 3)
    config.fail("device.preset_args.periodic", "a ring needs at least 3 qubits",
                "qubits >= 3 or periodic: false");
  try {
    return device::make_preset(spec);
  } catch (const std::domain_error& e) {
    config.fail("device.preset_args.variance", e.what(), "a smaller variance");
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
    if (existing >= 0 && static_cast<std::size_t>(existing) >= n_preset)
      config.fail(e.path + ".name", "duplicate mode name `" + e.name + "`", "unique names");
    if (existing >= 0) {
      ModeParams& p = out.modes[static_cast<std::size_t>(existing)];
      if (e.type && *e.type != p.type)
        config.fail(e.path + ".type",
                    "preset mode `" + e.name + "` is a " + enum_name(p.type) +
                        "; its type cannot be changed",
                    std::string("type: ") + enum_name(p.type) + " or no type");
      apply_entry(e, p, config);
    } else {
      ModeParams p = new_mode(e, config);
      apply_entry(e, p, config);
      out.modes.push_back(std::move(p));
    }
  }
  if (out.modes.empty())
    config.fail("device", "the device has no modes", "a preset or a non-empty `qubits` list");
  check_has_qubit(config, out.modes);

  for (const CouplingEntry& e : config.device.couplings) {
    const int a = index_of(e.a), b = index_of(e.b);
    if (a < 0) fail_unknown_mode(config, e.path + ".qubits", e.a, out.modes);
    if (b < 0) fail_unknown_mode(config, e.path + ".qubits", e.b, out.modes);
    if (a == b) config.fail(e.path + ".qubits", "a mode cannot be coupled to itself");
    // An explicit coupling on a pair the preset already couples overrides the given strengths.
    auto same_pair = [&](const Coupling& c) {
      return (c.a == a && c.b == b) || (c.a == b && c.b == a);
    };
    auto it = std::find_if(out.couplings.begin(), out.couplings.end(), same_pair);
    Coupling c;
    if (it != out.couplings.end() && it->path == "device.preset") {
      c = *it;
    } else if (it != out.couplings.end()) {
      config.fail(e.path + ".qubits",
                  "modes `" + e.a + "` and `" + e.b + "` are already coupled by " + it->path,
                  "one entry per pair of modes");
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
