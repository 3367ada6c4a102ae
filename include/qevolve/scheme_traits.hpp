// What each time-stepping scheme can do (docs/solvers.md "Schemes"), in one table of the solver
// layer (src/solver/scheme_traits.cpp): one row per scheme kind, a (solver, splittings) pair,
// with its factory. The loader's and the stage's refusals, the device choice (cpu_only_part),
// the memory estimate, the time estimate and the run summary ask the row instead of switching
// on the solver. A new scheme: its file (src/solver/<name>_scheme.cpp) and its row.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "qevolve/backend/capabilities.hpp"
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
  /// The executor kinds its paths use (backend/capabilities.hpp): the closed forward pass, the
  /// closed adjoint pass, the open forward pass and the open adjoint pass (kNoExecutor where the
  /// row has no such path). A path runs on a backend that implements all of its kinds
  /// (backend::runs); nothing else says what runs on CUDA.
  backend::ExecutorKinds forward_uses;
  backend::ExecutorKinds adjoint_uses;
  backend::ExecutorKinds open_uses;
  backend::ExecutorKinds open_adjoint_uses;
  /// The row's splittings in words, for what_runs_on ("on local gates", "with splitting: dense";
  /// "": the solver's only row for these splittings).
  const char* where;
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
/// when the CUDA backend can run all of it: each path the run takes (the row's forward, adjoint,
/// open and open adjoint executor kinds) against the kinds the CUDA backend implements
/// (backend::kBackendExecutors). Read by choose_compute_device
/// (include/qevolve/compute_device.hpp).
/// `trainable`: what makes the run compute gradients (Config::first_trainable), empty: none.
[[nodiscard]] std::string cpu_only_part(const EvolutionSpec& e, const std::string& trainable);

/// What `device` runs, in words, after its refusal: " (it runs trotter, magnus4 and expm,
/// gradients of closed systems with trotter or magnus4 on local gates, and the forward pass of
/// open systems with trotter on local gates)" for CUDA. Made from the rows whose paths run on
/// it: per part (forward; closed gradients; open forward; open gradients) the solvers in the
/// table's row order, and the rows' `where` when they share one and another row of the same
/// solvers with that path does not run there.
[[nodiscard]] std::string what_runs_on(ComputeDevice device);

}  // namespace qevolve::solver
