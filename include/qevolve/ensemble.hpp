// Device ensembles (docs/config.md "ensemble"): one pulse over several variants of a config,
// each member a list of overrides in `--set` syntax put into the config text before it is read.
// The loader reads `ensemble:` (Config::ensemble); ensemble_members lists the members with their
// normalised weights; check_ensemble is the resolution stage's check of every member.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "qevolve/config.hpp"
#include "qevolve/config_loader.hpp"

namespace qevolve::io {

/// Most members an ensemble may have: explicit entries, or the product of `vary`'s points.
inline constexpr std::size_t kMaxEnsembleMembers = 1000;

struct EnsembleMember {
  /// The member's overrides, in order: key, value text (a number: its shortest exact
  /// spelling), and a label that locates the entry, "FILE:LINE:COL: ensemble.members[1].set"
  /// or "FILE:LINE:COL: ensemble.vary[0]", at which the loader reports a problem of the value.
  std::vector<Override> sets;
  double weight = 0;  ///< normalised: the members' weights sum to 1
  std::string label;  ///< "device.qubits[0].el = 0.99, ..." for tables and messages
};

/// The members of config.ensemble, in order, weights normalised (empty without an ensemble).
/// Explicit members: their `set` in file order, weight / sum of weights. `vary`: the tensor
/// grid, the first entry slowest; normal: Gauss-Hermite nodes mean + sqrt(2) std x_i with
/// weights w_i / sqrt(pi) (3 points: mean -/+ sqrt(3) std, 1/6 2/3 1/6); uniform:
/// Gauss-Legendre nodes mapped onto [low, high], weights w_i / 2; a member's weight is the
/// product of its nodes' weights. points = 1 gives the mean (the midpoint).
[[nodiscard]] std::vector<EnsembleMember> ensemble_members(const Config& config);

/// The resolution stage's check of every member of `nominal.ensemble` (nothing without one),
/// for a nominal config that passed the stage: `parsed` read with `sets` (the command's
/// `--set`) then the member's overrides must load (a key that does not exist, with a
/// suggestion; a value that is not a number or out of its key's range: located at the member's
/// label) and resolve; its device must have the nominal device's structure (the same modes in
/// the same order, levels per mode, qubits and so d); no member key may be one that an
/// `optimize:` list of the nominal config trains. Throws the first InputError. Builds no
/// simulator: one device resolution per member.
void check_ensemble(const ParsedConfig& parsed, const std::vector<Override>& sets, const Config& nominal);

/// A config with an ensemble: no key changed from outside (`flag`: a sweep axis `--vary`, an
/// override `--set`) may be a key a member sets (the member's value would replace it);
/// InputError at `ensemble` naming it. Keys compared as written.
void check_ensemble_axes(const Config& config, const std::vector<std::string>& keys, const std::string& flag);

/// A command that does not evaluate an ensemble (`command`: "sweep", "converge", ...)
/// refuses a config with one: a located InputError at `ensemble` (nothing without one).
void refuse_ensemble(const Config& config, const std::string& command);

}  // namespace qevolve::io
