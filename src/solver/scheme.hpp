// A time-stepping scheme (docs/solvers.md "Schemes"): one class per solver, owning its
// step-dependent factors, its forward pass and its adjoint, for closed systems (columns) and
// open systems (vectorised density matrices). The simulator holds one and never branches on the
// solver kind; make_scheme() builds the one that the schemes' table (qevolve/scheme_traits.hpp,
// src/solver/scheme_traits.cpp: what each scheme can do, its time order, memory and summary)
// names for the solver and splitting.
//   LocalGateScheme  trotter / magnus4 with splitting terms | bonds (local gates, backend executors)
//   DenseScheme      expm, and trotter / magnus4 with splitting dense (D x D exponentials)
//   ChebyshevScheme  trotter / magnus4 with splitting chebyshev (the dense generator's
//                    exponential applied to the columns by a Chebyshev series)
//   AdaptiveScheme   adaptive (embedded Runge-Kutta on local terms; no adjoint)
#pragma once

#include <atomic>
#include <memory>
#include <vector>

#include "adaptive.hpp"
#include "adjoint.hpp"
#include "bond_list.hpp"
#include "lindblad.hpp"
#include "qevolve/simulator.hpp"
#include "trotter_gates.hpp"

namespace qevolve::solver {

/// The simulator's factors every scheme reads: drive eigensystems, the term and bond lists,
/// the dissipators, and the cache counters (CacheStats).
struct SharedCache {
  std::vector<DriveEigen> drives;       // one per channel
  TermList terms;
  BondList bonds;                       // splitting: bonds
  std::vector<Dissipator> dissipators;  // open systems
  mutable std::atomic<long> static_builds{0}, eigendecompositions{0}, dense_builds{0},
      evaluations{0}, dissipator_builds{0};
};

class Scheme {
 public:
  virtual ~Scheme() = default;
  /// Rebuilds what depends on the number of steps (the simulator's options().steps).
  virtual void set_steps(const Simulator& sim, const SharedCache& shared) = 0;
  /// The dissipators changed (Simulator::set_noise).
  virtual void set_dissipators(const Simulator& /*sim*/, const SharedCache& /*shared*/) {}

  /// Closed system: product-basis lab-frame columns, in place. A non-empty `observe` is called
  /// at every step boundary of trace_steps(sim.options()) with the state there (the observer hook every
  /// scheme honours; docs/solvers.md "Observing the forward pass").
  virtual void evolve(const Simulator& sim, const SharedCache& shared, CMatrix& state,
                      const Progress& progress, const StepObserver& observe) const = 0;
  /// precision: single: the largest deviation of the first column block from a double-precision
  /// run (NaN where the scheme has no single precision).
  [[nodiscard]] virtual double single_precision_deviation(const Simulator& sim, const SharedCache& shared,
                                                          const CMatrix& psi0, const CMatrix& single) const;
  /// Closed adjoint (Simulator::adjoint): psi and lambda carried back in place, tangent sums
  /// added. std::logic_error where the scheme has none.
  virtual void adjoint(const Simulator& sim, const SharedCache& shared, CMatrix& psi, CMatrix& lambda,
                       const std::vector<HamiltonianTangent>& tangents, const SubstepCotangent& on_substep,
                       std::vector<double>& tangent_sums) const;

  /// Open system: vectorised density matrices (D^2 x m), in place; `observe` as for evolve().
  virtual void evolve_density(const Simulator& sim, const SharedCache& shared, CMatrix& vecs,
                              const Progress& progress, const StepObserver& observe) const = 0;
  /// Open adjoint (Simulator::adjoint_density); std::logic_error where the scheme has none.
  virtual void adjoint_density(const Simulator& sim, const SharedCache& shared, const CMatrix& vecs0,
                               CMatrix& lambda, const std::vector<HamiltonianTangent>& tangents,
                               const std::vector<DissipatorTangent>& noise, const SubstepCotangent& on_step,
                               std::vector<double>& tangent_sums, std::vector<double>& noise_sums, int K) const;

  /// H0 + sum_j c_j O_j, dense (from the device unless the scheme keeps the dense parts).
  [[nodiscard]] virtual CMatrix dense_hamiltonian(const Simulator& sim, const std::vector<double>& c) const;
  /// Local-gate schemes: fused gates per step and flops per column and step (0 otherwise).
  [[nodiscard]] virtual int gates_per_step(const Simulator& /*sim*/) const { return 0; }
  [[nodiscard]] virtual double flops_per_column_step(const Simulator& /*sim*/) const { return 0.0; }
};

/// The scheme of the simulator's options: its row's factory (scheme_traits(), src/solver/
/// scheme_traits.cpp); builds its construction-time factors (dense H0, local terms) but not the
/// step-dependent ones.
[[nodiscard]] std::unique_ptr<Scheme> make_scheme(const Simulator& sim, SharedCache& shared);

/// The settings of an adaptive job from the simulator (drive coefficients, time, tolerances).
void set_adaptive_run(AdaptiveJob& job, const Simulator& sim);

}  // namespace qevolve::solver
