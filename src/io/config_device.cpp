// The `device` section: preset, preset_args, qubits (mode entries) and couplings.
// Checks that need the merged device (a coupling to a mode that only a preset defines, the
// keys a preset override still lacks) belong to the resolution stage, io::resolve_device() (resolve_device.cpp).
#include <algorithm>
#include <array>
#include <climits>
#include <map>
#include <optional>

#include "physical_ranges.hpp"
#include "config_sections.hpp"
#include "qevolve/text.hpp"

namespace qevolve::io::detail {
namespace {

constexpr std::string_view kDeviceKeys[] = {"preset", "preset_args", "qubits", "couplings"};
constexpr std::string_view kPresets[] = {"mpc_fluxonium_1d", "transmon_coupler_1d"};
constexpr std::string_view kPresetArgKeys[] = {"qubits", "periodic",       "levels",
                                               "variance", "seed", "coupler_levels"};
constexpr std::string_view kMpcArgKeys[] = {"qubits", "periodic", "levels", "variance", "seed"};

constexpr std::string_view kModeKeys[] = {"name",      "type",      "role",          "levels",
                                          "ec",        "ej",        "el",            "flux",
                                          "ng",        "asymmetry", "frequency",     "anharmonicity",
                                          "basis_size", "optimize"};
constexpr std::string_view kFluxoniumKeys[] = {"name", "type", "role", "levels",     "ec",
                                               "ej",   "el",   "flux", "basis_size", "optimize"};
constexpr std::string_view kTransmonKeys[] = {"name", "type", "role",      "levels",     "ec",      "ej",
                                              "ng",   "flux", "asymmetry", "basis_size", "optimize"};
constexpr std::string_view kResonatorKeys[] = {"name", "type", "role", "levels", "frequency", "optimize"};
constexpr std::string_view kDuffingKeys[] = {"name",      "type",          "role",    "levels",
                                             "frequency", "anharmonicity", "optimize"};

/// Parameters `optimize:` may name (docs/gradients.md "Trainable parameters"), per model; all for an entry
/// without a type (a preset override, checked again once merged).
constexpr std::string_view kAllModeParams[] = {"ec",        "ej",        "el",
                                               "flux",      "ng",        "asymmetry",
                                               "frequency", "anharmonicity"};
constexpr std::string_view kFluxoniumParams[] = {"ec", "ej", "el", "flux"};
constexpr std::string_view kTransmonParams[] = {"ec", "ej", "ng", "flux", "asymmetry"};
constexpr std::string_view kResonatorParams[] = {"frequency"};
constexpr std::string_view kDuffingParams[] = {"frequency", "anharmonicity"};
/// Keys a new mode of each type must give.
constexpr std::string_view kFluxoniumNeeds[] = {"ec", "ej", "el"};
constexpr std::string_view kTransmonNeeds[] = {"ec", "ej"};
constexpr std::string_view kResonatorNeeds[] = {"frequency"};
constexpr std::string_view kDuffingNeeds[] = {"frequency", "anharmonicity"};

constexpr std::string_view kCouplingKeys[] = {"qubits", "capacitive", "inductive",
                                              "dipole", "cross_kerr", "optimize"};
constexpr std::string_view kCouplingParams[] = {"capacitive", "inductive", "dipole",
                                                "cross_kerr"};

constexpr long long kMinLevels = 2, kMaxLevels = 1000;
constexpr long long kMaxPresetQubits = 64;
constexpr long long kMaxBasisSize = 100000;

struct TypeInfo {
  std::span<const std::string_view> keys, params, needs;
};

TypeInfo info(ModeType t) {
  switch (t) {
    case ModeType::fluxonium: return {kFluxoniumKeys, kFluxoniumParams, kFluxoniumNeeds};
    case ModeType::transmon: return {kTransmonKeys, kTransmonParams, kTransmonNeeds};
    case ModeType::resonator: return {kResonatorKeys, kResonatorParams, kResonatorNeeds};
    case ModeType::duffing: return {kDuffingKeys, kDuffingParams, kDuffingNeeds};
  }
  return {kModeKeys, kAllModeParams, {}};
}

std::optional<int> opt_int(Doc& doc, const MapView& m, std::string_view key, long long lo,
                           long long hi) {
  if (const Item* it = m.find(key)) return static_cast<int>(get_integer(doc, *it, lo, hi));
  return std::nullopt;
}

PresetSpec read_preset(Doc& doc, const MapView& device) {
  PresetSpec p;
  p.name = std::string(kPresets[get_choice(doc, *device.find("preset"), kPresets)]);
  const Item* args_item = device.find("preset_args");
  if (args_item == nullptr) return p;
  const MapView args(doc, *args_item);
  const bool coupler = p.name == "transmon_coupler_1d";
  args.check_keys(coupler ? std::span<const std::string_view>(kPresetArgKeys) : kMpcArgKeys,
                  kPresetArgKeys, message(Msg::ContextPreset, {{"PRESET", p.name}}));
  if (auto v = opt_int(doc, args, "qubits", 1, kMaxPresetQubits)) p.qubits = *v;
  if (const Item* it = args.find("periodic")) p.periodic = get_bool(doc, *it);
  if (auto v = opt_int(doc, args, "levels", kMinLevels, kMaxLevels)) p.levels = *v;
  if (auto v = opt_int(doc, args, "coupler_levels", kMinLevels, kMaxLevels)) p.coupler_levels = v;
  if (auto v = opt_number(doc, args, "variance", Range::ge(0.0))) p.variance = *v;
  if (const Item* it = args.find("seed")) p.seed = get_uint64(doc, *it);
  return p;
}

ModeEntry read_mode(Doc& doc, const Item& item, bool has_preset) {
  const MapView m(doc, item);
  ModeEntry e;
  e.path = item.path;
  if (const Item* t = m.find("type")) e.type = get_enum(doc, *t, enum_table<ModeType>());
  const TypeInfo ti = e.type ? info(*e.type) : TypeInfo{kModeKeys, kAllModeParams, {}};
  const std::string context =
      e.type ? message(Msg::ContextModeType, {{"TYPE", std::string(enum_name(*e.type))}})
             : message(Msg::ContextMode);
  m.check_keys(ti.keys, kModeKeys, context);
  e.name = get_name(doc, m.require("name", message(Msg::ExpectName)));
  if (const Item* r = m.find("role")) e.role = get_enum(doc, *r, enum_table<ModeRole>());

  e.levels = opt_int(doc, m, "levels", kMinLevels, kMaxLevels);
  e.ec = opt_number(doc, m, "ec", physical::kEnergy);
  e.ej = opt_number(doc, m, "ej", physical::kJosephson);
  e.el = opt_number(doc, m, "el", physical::kEnergy);
  e.flux = opt_number(doc, m, "flux", physical::kFlux);
  e.ng = opt_number(doc, m, "ng", physical::kOffsetCharge);
  e.asymmetry = opt_number(doc, m, "asymmetry", physical::kAsymmetry);
  e.frequency = opt_number(doc, m, "frequency", physical::kModeFrequency);
  e.anharmonicity = opt_number(doc, m, "anharmonicity", physical::kCoupling);
  e.basis_size = opt_int(doc, m, "basis_size", kMinLevels, kMaxBasisSize);
  if (e.basis_size && e.levels && *e.basis_size < *e.levels) {
    const Item& b = *m.find("basis_size");
    doc.fail(b.mark(), b.path, Msg::BasisSmallerThanLevels,
             {{"BASIS", std::to_string(*e.basis_size)}, {"LEVELS", std::to_string(*e.levels)}});
  }
  if (const Item* o = m.find("optimize")) e.optimize = read_trainables(doc, *o, ti.params, context);

  if (!has_preset) {  // a new mode: everything its model needs must be here
    if (!e.type) (void)m.require("type", message(Msg::ExpectModeType));
    if (!e.levels)
      (void)m.require("levels", message(Msg::ExpectInt, {{"MIN", std::to_string(kMinLevels)},
                                                         {"MAX", std::to_string(kMaxLevels)}}));
    const std::string keys = join(ti.needs);
    for (const std::string_view key : ti.needs)
      (void)m.require(key, message(Msg::ExpectTypeKeys,
                                   {{"KEYS", keys}, {"TYPE", std::string(enum_name(*e.type))}}));
  }

  // Aliases by name ("device.qubits[q0].el"), the spelling of gradient names.
  const std::string by_name = "device.qubits[" + e.name + "]";
  doc.record(by_name, item.mark());
  for (const auto& [key, it] : m.entries()) doc.record(child_path(by_name, key), it.anchor);
  return e;
}

CouplingEntry read_coupling(Doc& doc, const Item& item) {
  const MapView m(doc, item);
  m.check_keys(kCouplingKeys);
  CouplingEntry c;
  c.path = item.path;
  const std::string pair = expected(Msg::PairCount);
  const Item& q = m.require("qubits", pair);
  const std::vector<Item> names = get_list(doc, q, pair);
  if (names.size() != 2)
    doc.fail(q.mark(), q.path, Msg::PairCount, {{"COUNT", std::to_string(names.size())}});
  c.a = get_name(doc, names[0]);
  c.b = get_name(doc, names[1]);
  if (c.a == c.b) doc.fail(names[1].mark(), names[1].path, Msg::SelfCoupling, {{"NAME", c.a}});
  c.capacitive = opt_number(doc, m, "capacitive", physical::kCoupling);
  c.inductive = opt_number(doc, m, "inductive", physical::kCoupling);
  c.dipole = opt_number(doc, m, "dipole", physical::kCoupling);
  c.cross_kerr = opt_number(doc, m, "cross_kerr", physical::kCoupling);
  if (!c.capacitive && !c.inductive && !c.dipole && !c.cross_kerr)
    doc.fail(m.mark(), m.path(), Msg::NoCouplingTerm);
  if (const Item* o = m.find("optimize"))
    c.optimize = read_trainables(doc, *o, kCouplingParams, message(Msg::ContextCoupling));
  return c;
}

}  // namespace

std::vector<std::string> read_trainables(Doc& doc, const Item& item,
                                         std::span<const std::string_view> allowed,
                                         const std::string& context) {
  std::vector<std::string> out;
  std::map<std::string, bool> seen;
  for (const Item& element : get_list(doc, item, message(Msg::ExpectTrainable))) {
    std::string name = get_string(doc, element);
    if (std::find(allowed.begin(), allowed.end(), name) == allowed.end())
      doc.fail(element.mark(), element.path, Msg::NotTrainable,
               {{"NAME", name}, {"CONTEXT", context}, {"ALLOWED", join(allowed)}});
    if (!seen.emplace(name, true).second)
      doc.fail(element.mark(), element.path, Msg::DuplicateTrainable, {{"NAME", name}});
    out.push_back(std::move(name));
  }
  return out;
}

void read_device(Doc& doc, const Item& item, DeviceSpec& device) {
  const MapView m(doc, item);
  m.check_keys(kDeviceKeys);
  if (m.has("preset")) {
    device.preset = read_preset(doc, m);
  } else if (const Item* args = m.find("preset_args")) {
    doc.fail(args->anchor, args->path, Msg::PresetArgsWithoutPreset);
  }
  const bool has_preset = device.preset.has_value();

  if (const Item* q = m.find("qubits")) {
    std::map<std::string, int> first_line;
    for (const Item& entry : get_list(doc, *q, message(Msg::ExpectList))) {
      ModeEntry e = read_mode(doc, entry, has_preset);
      const int line = doc.at(entry.mark()).line;
      if (const auto it = first_line.find(e.name); it != first_line.end()) {
        const MapView again(doc, entry);
        const Item& name = *again.find("name");
        doc.fail(name.mark(), name.path, Msg::DuplicateModeName,
                 {{"NAME", e.name}, {"LINE", std::to_string(it->second)}});
      }
      first_line.emplace(e.name, line);
      device.qubits.push_back(std::move(e));
    }
  }
  if (!has_preset && device.qubits.empty()) doc.fail(m.mark(), m.path(), Msg::NoModes);

  if (const Item* c = m.find("couplings"))
    for (const Item& entry : get_list(doc, *c, message(Msg::ExpectList)))
      device.couplings.push_back(read_coupling(doc, entry));
}

}  // namespace qevolve::io::detail
