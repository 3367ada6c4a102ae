// What each time-stepping scheme can do (docs/solvers.md "Schemes"), in one table of the solver
// layer (src/solver/scheme_traits.cpp): one row per scheme kind, a (solver, splittings) pair,
// with its factory. The loader's and the stage's refusals, the device choice (cpu_only_part),
// the memory estimate, the time estimate and the run summary ask the row instead of switching
// on the solver. A new scheme: its file (src/solver/<name>_scheme.cpp) and its row.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "qevolve/config.hpp"

namespace qevolve::solver {

class Scheme;
class Simulator;
struct SharedCache;

/// What a scheme's working memory depends on (the memory estimate, src/io/resolve_memory.cpp).
struct SchemeMemoryInput {
  double side = 0.0;      ///< an operator's dimension: D (closed system) or D^2 (open)
  double state = 0.0;     ///< bytes of the evolved columns
  double channels = 0.0;  ///< drive channels (config.pulses)
  bool gradient = false;  ///< the run computes gradients
};

/// A term of a scheme's working memory: its bytes, the estimate's words for it ("the dense
/// propagator needs") and the config key that sets it.
struct SchemeMemoryTerm {
  double bytes;
  const char* part;
  const char* key;
};

struct SchemeTraits {
  Solver solver;
  unsigned splittings;  ///< the Splitting values of the row, one bit each (kAnySplitting: ignored)
  /// Messages name the row by its splitting ("splitting: dense") rather than its solver.
  bool named_by_splitting;
  const char* label;  ///< after the solver's name in the memory estimate: "", " (dense)"
  bool adjoint;       ///< closed-system gradients (Scheme::adjoint)
  bool open_systems;  ///< the forward pass of open systems (Scheme::evolve_density)
  bool open_adjoint;  ///< open-system gradients (Scheme::adjoint_density)
  bool steps;         ///< fixed steps (evolution.steps; steps: auto, converge, the time estimate)
  bool cuda_forward;  ///< the CUDA backend runs its closed forward pass
  bool cuda_adjoint;  ///< ... its closed adjoint
  bool cuda_open;     ///< ... its open forward pass
  /// Exponentiates the static part exactly in every step (a dense generator): the step-phase
  /// note counts only the drives' carriers.
  bool exact_static;
  /// A step's cost grows with dt (the time estimate times it on its own grid).
  bool dt_dependent_cost;
  /// The global order of its error in dt for `evolution.order` (docs/accuracy.md); 0: no
  /// fixed step.
  int (*time_order)(int order);
  /// Its working memory beside the states (empty: none).
  std::vector<SchemeMemoryTerm> (*memory)(const SchemeMemoryInput& in);
  /// What the run summary's `solver:` line says after the solver's name (", splitting dense
  /// (exact exponentials, midpoint rule)", " order 2 (12 local gates per step)", or nothing).
  std::string (*summary)(const Simulator& sim);
  /// Builds the scheme (construction-time factors, not the step-dependent ones).
  std::unique_ptr<Scheme> (*make)(const Simulator& sim, SharedCache& shared);
};

inline constexpr unsigned kAnySplitting = ~0u;

/// The row of (solver, splitting); every pair has one.
[[nodiscard]] const SchemeTraits& scheme_traits(Solver solver, Splitting splitting);
[[nodiscard]] inline const SchemeTraits& scheme_traits(const EvolutionSpec& e) {
  return scheme_traits(e.solver, e.splitting);
}

/// Whether some row of `solver` (with some splitting) has the trait.
[[nodiscard]] bool solver_has(Solver solver, bool SchemeTraits::*trait);
/// The solvers with the trait, in the solver table's order, for messages: "expm, trotter or
/// magnus4".
[[nodiscard]] std::string solvers_with(bool SchemeTraits::*trait);

/// The part of this run that only the CPU backend has, in words ("solver: adaptive"), or empty
/// when the CUDA backend can run all of it (the rows' cuda_* traits): the forward pass of the
/// schemes with cuda_forward, their closed adjoint with cuda_adjoint, open systems with
/// cuda_open; open-system gradients run on the CPU only. Read by choose_compute_device
/// (include/qevolve/compute_device.hpp).
/// `trainable`: what makes the run compute gradients (Config::first_trainable), empty: none.
[[nodiscard]] std::string cpu_only_part(const EvolutionSpec& e, const std::string& trainable);

}  // namespace qevolve::solver
