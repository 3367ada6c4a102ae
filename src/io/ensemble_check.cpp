// The resolution stage's check of an ensemble's members (io::check_ensemble, docs/config.md
// "ensemble"): each member's config loads and resolves, keeps the nominal device's structure,
// and varies no trained key. Problems with a member's value are located at its entry through
// its overrides' labels; the others at the entry itself.
#include <string>
#include <vector>

#include "messages.hpp"
#include "qevolve/device.hpp"
#include "qevolve/ensemble.hpp"
#include "qevolve/names.hpp"
#include "qevolve/resolve.hpp"

namespace qevolve::io {
namespace {

/// A key path a member may not change, and the `optimize:` list that trains it.
struct Trained {
  std::string path;  ///< "device.qubits[0].el"
  std::string list;  ///< "device.qubits[0].optimize"
  std::string name;  ///< "el"
};

void add_trained(std::vector<Trained>& out, const std::string& entry, const std::vector<std::string>& names) {
  for (const std::string& n : names) out.push_back({entry + "." + n, entry + ".optimize", n});
}

/// Every key the nominal config's `optimize:` lists train, by index paths (Config's `path`s).
std::vector<Trained> trained_keys(const Config& c) {
  std::vector<Trained> out;
  for (const ModeEntry& q : c.device.qubits) add_trained(out, q.path, q.optimize);
  for (const CouplingEntry& e : c.device.couplings) add_trained(out, e.path, e.optimize);
  for (const PulseSpec& p : c.pulses) add_trained(out, p.path, p.optimize);
  for (const NoiseSpec& n : c.evolution.noise) add_trained(out, "evolution.noise." + n.qubit, n.optimize);
  for (const LineSpec& l : c.lines)
    for (const FilterSpec& f : l.filters) add_trained(out, f.path, f.optimize);
  return out;
}

/// `a` is `b` or a key below it ("pulses[0].values[2]" below "pulses[0].values").
bool at_or_below(const std::string& a, const std::string& b) {
  return a == b || (a.size() > b.size() && a.compare(0, b.size(), b) == 0 && (a[b.size()] == '.' || a[b.size()] == '['));
}

/// d = 2^qubits as text.
std::string computational_dim(const std::vector<device::ModeParams>& modes) {
  int qubits = 0;
  for (const device::ModeParams& m : modes) qubits += device::is_qubit(m) ? 1 : 0;
  return qubits < 63 ? std::to_string(1LL << qubits) : "2^" + std::to_string(qubits);
}

/// What differs between the member's modes and the nominal ones (empty: the same structure).
std::string structure_change(const std::vector<device::ModeParams>& member,
                             const std::vector<device::ModeParams>& nominal) {
  if (member.size() != nominal.size())
    return std::to_string(member.size()) + " modes, not " + std::to_string(nominal.size());
  for (std::size_t i = 0; i < member.size(); ++i) {
    const device::ModeParams &a = member[i], &b = nominal[i];
    const std::string mode = "mode " + std::to_string(i) + " (`" + b.name + "`)";
    if (a.name != b.name) return "mode " + std::to_string(i) + " is `" + a.name + "`, not `" + b.name + "`";
    if (a.type != b.type)
      return mode + " is a " + enum_name(a.type) + ", not a " + enum_name(b.type);
    if (a.levels != b.levels)
      return mode + " has " + std::to_string(a.levels) + " levels, the nominal " + std::to_string(b.levels);
    if (device::is_qubit(a) != device::is_qubit(b))
      return mode + " is a " + enum_name(device::effective_role(a)) + ", not a " +
             enum_name(device::effective_role(b)) + " (d = " + computational_dim(member) + ")";
  }
  return {};
}

/// The key path of each member override's entry: ensemble.members[k].set, or ensemble.vary[j].
std::vector<std::string> entry_paths(const Config& nominal, std::size_t k, std::size_t sets) {
  std::vector<std::string> out;
  for (std::size_t j = 0; j < sets; ++j)
    out.push_back(nominal.ensemble->vary.empty() ? "ensemble.members[" + std::to_string(k) + "].set"
                                                 : "ensemble.vary[" + std::to_string(j) + "]");
  return out;
}

/// The member's overrides as the loader applied them: the last `count` of config.overrides,
/// each the key path it set by index ("device.qubits[0].el" for "device.qubits[q0].el").
std::vector<std::string> applied_paths(const Config& member, std::size_t count) {
  std::vector<std::string> out;
  for (std::size_t j = member.overrides.size() - count; j < member.overrides.size(); ++j)
    out.push_back(member.overrides[j].paths.empty() ? std::string() : member.overrides[j].paths.back());
  return out;
}

/// A member override of a trained key, or two `vary` entries of one key (by index paths).
void check_member_keys(const Config& nominal, const std::vector<Trained>& trained, const EnsembleMember& m,
                       const std::vector<std::string>& paths, const std::vector<std::string>& entries) {
  for (std::size_t j = 0; j < paths.size(); ++j) {
    for (const Trained& t : trained)
      if (at_or_below(paths[j], t.path) || at_or_below(t.path, paths[j]))
        throw input_error(nominal.locate(entries[j]), entries[j], Msg::EnsembleKeyTrained,
                          {{"KEY", m.sets[j].key}, {"LIST", t.list}, {"NAME", t.name}});
    for (std::size_t i = 0; i < j && !nominal.ensemble->vary.empty(); ++i)
      if (paths[i] == paths[j])
        throw input_error(nominal.locate(entries[j]), entries[j], Msg::EnsembleVaryTwice,
                          {{"KEY", m.sets[j].key}, {"LINE", std::to_string(nominal.locate(entries[i]).line)}});
  }
}

/// The entry to blame for a structure change: the first override of a device key.
std::size_t device_override(const std::vector<std::string>& paths) {
  for (std::size_t j = 0; j < paths.size(); ++j)
    if (at_or_below(paths[j], "device")) return j;
  return 0;
}

}  // namespace

void check_ensemble(const ParsedConfig& parsed, const std::vector<Override>& sets, const Config& nominal) {
  if (!nominal.ensemble) return;
  const bool device_only = nominal.pulses.empty() && !nominal.has_evolution && !nominal.target;
  const Purpose purpose = device_only ? Purpose::inspect : Purpose::evolve;
  const std::vector<device::ModeParams> modes = resolve_device(nominal).modes;
  const std::vector<Trained> trained = trained_keys(nominal);
  const std::vector<EnsembleMember> members = ensemble_members(nominal);
  for (std::size_t k = 0; k < members.size(); ++k) {
    const EnsembleMember& m = members[k];
    std::vector<Override> all = sets;
    all.insert(all.end(), m.sets.begin(), m.sets.end());
    // The loader and the stage: keys that do not exist, values that are not numbers or out of
    // range, at the member's labels.
    const Config member = parsed.read(all, false);
    const std::vector<std::string> entries = entry_paths(nominal, k, m.sets.size());
    const std::vector<std::string> paths = applied_paths(member, m.sets.size());
    check_member_keys(nominal, trained, m, paths, entries);
    const device::ResolvedDevice dev = resolve(member, purpose);
    if (const std::string change = structure_change(dev.modes, modes); !change.empty()) {
      const std::string& entry = entries[device_override(paths)];
      throw input_error(nominal.locate(entry), entry, Msg::EnsembleStructure,
                        {{"WHAT", change}, {"D", computational_dim(modes)}});
    }
  }
}

void check_ensemble_axes(const Config& config, const std::vector<std::string>& keys, const std::string& flag) {
  if (!config.ensemble) return;
  // Each key as the list indices spell it, so that `device.qubits[q0].el` and
  // `device.qubits[0].el` are one key.
  std::vector<std::string> all = keys;  // the keys, then every member's (one parse of the text)
  for (const EnsembleMember& m : ensemble_members(config))
    for (const Override& o : m.sets) all.push_back(o.key);
  const std::vector<std::string> indexed = indexed_keys(config.yaml_text, all);
  for (std::size_t j = keys.size(); j < indexed.size(); ++j)
    for (std::size_t i = 0; i < keys.size(); ++i)
      if (indexed[j] == indexed[i]) fail(config, "ensemble", Msg::EnsembleAxis, {{"FLAG", flag}, {"KEY", keys[i]}});
}

void refuse_ensemble(const Config& config, const std::string& command) {
  if (config.ensemble) fail(config, "ensemble", Msg::EnsembleCommand, {{"COMMAND", command}});
}

}  // namespace qevolve::io
