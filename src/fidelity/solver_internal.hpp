// Internal pieces of the compensation solver (src/fidelity/solver.cpp, canonical.cpp).
#pragma once

#include <cstdint>
#include <optional>

#include "gauge_orbit.hpp"
#include "qevolve/fidelity.hpp"

namespace qevolve::fidelity::detail {

/// splitmix64: the solver's own seeded stream (independent of the C++ library's distributions).
inline std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/// Uniform in [0, 1) from 53 random bits.
inline double uniform(std::uint64_t& state) {
  return static_cast<double>(splitmix64(state) >> 11) * 0x1.0p-53;
}

/// F at x (and its gradient if `gradient` is not null); sets the objective's angles to x.
double fidelity_at(CompensationObjective& obj, const RVector& x, RVector* gradient = nullptr);

/// Gauge period of one angle: pi (vz: l -> -l) or 2 pi (single_qubit: l -> -l).
[[nodiscard]] double angle_period(Compensation kind);
/// Every angle reduced to (-P/2, P/2], P the period.
[[nodiscard]] RVector reduce_angles(Compensation kind, const RVector& x);

/// single_qubit starts from the weight-1 Pauli transfer blocks (StartSums::pauli_u/_t):
/// conjugation by a local unitary acts on them as a rotation, M_U(p,q) = P_p M_t(p,q) Q_q with
/// P_p, Q_q in SO(3) the adjoint images of the post / pre errors. The rotations are fitted by
/// alternating orthogonal Procrustes from several seeded initial Q; the best fits (least
/// squares residual) are returned as compensation angles (inverse rotations), best first.
[[nodiscard]] std::vector<RVector> pauli_frame_starts(const StartSums& sums, int num_qubits,
                                                      std::uint64_t seed, int count);

/// Exact one-site updates in site order (vz: best phase; single_qubit: best SU(2) factor by a
/// 2x2 Procrustes problem), repeated until |tau| stops growing. Monotone in F.
[[nodiscard]] RVector site_sweeps(CompensationObjective& obj, RVector x, int max_sweeps);

/// Dense BFGS ascent of F with exact gradients and a backtracking (Armijo) line search.
[[nodiscard]] RVector bfgs_maximize(CompensationObjective& obj, RVector x, int max_iterations);

/// Steps 2-3 of the canonical angles on the exact gauge orbit through x (single_qubit; no U
/// involved): the least-norm point found from x and a fixed set of orbit points, range
/// reduction and discrete moves, to a fixed point. Empty if the search fails (the Euler
/// chart's singularity, no convergence). It does not check that the optimal set near x is the
/// orbit (canonical_angles does, with the Hessian).
[[nodiscard]] std::optional<RVector> orbit_least_norm(const GaugeOrbit& orbit, const RVector& x);

/// The canonical representative (docs/fidelity.md "Gauge and canonical angles") of the optimum near x: Newton polish with the
/// exact Hessian, minimum norm along the zero-curvature directions, gauge moves (period shifts,
/// single_qubit Euler flips (a, b, g) -> (a + pi, -b, g + pi)) that lower the norm, reduced
/// ranges; repeated to a fixed point. Returns x itself (reduced) if that lost fidelity.
/// single_qubit with the target's gauge `orbit`: when the Hessian's null space at the polished
/// optimum is exactly the orbit's tangent, the minimum norm is found on the orbit itself (2 x 2
/// algebra, no further Hessians); otherwise, or if that fails, the generic descent runs.
[[nodiscard]] RVector canonical_angles(CompensationObjective& obj, const RVector& x,
                                       const GaugeOrbit* orbit = nullptr);

}  // namespace qevolve::fidelity::detail
