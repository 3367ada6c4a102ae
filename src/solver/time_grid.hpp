// How the steps of a run map onto the exponentials that are actually applied ("substeps") and
// onto the times at which the drive coefficients are sampled (docs/solvers.md "Time stepping").
//
// - Midpoint rule (expm, trotter): one substep per step, dt long, with the coefficients at the
//   step midpoint.
// - magnus4: two substeps per step. With a1 + a2 = 1/2 each Magnus exponential is
//   exp(-i 2 pi (dt/2) [H0 + sum_j ctilde_j O_j]), i.e. an ordinary step of length dt/2 whose
//   drive coefficients are a fixed combination of the values at the two Gauss points:
//   first (right) factor ctilde = 2 a2 c(t1) + 2 a1 c(t2), second ctilde = 2 a1 c(t1) + 2 a2 c(t2).
// The solvers see only substeps; the adjoint maps substep cotangents back to the samples.
#pragma once

#include <array>
#include <cmath>

namespace qevolve::solver {

struct TimeGrid {
  int steps = 0;
  double dt = 0.0;
  bool magnus = false;

  /// Gauss–Legendre nodes c1,2 = 1/2 -/+ sqrt(3)/6 and Magnus weights a1,2 = (3 -/+ 2 sqrt(3))/12.
  static constexpr double kC1 = 0.5 - 0.28867513459481288225;
  static constexpr double kC2 = 0.5 + 0.28867513459481288225;
  static constexpr double kA1 = 0.25 - 0.28867513459481288225;
  static constexpr double kA2 = 0.25 + 0.28867513459481288225;

  [[nodiscard]] int substeps() const { return magnus ? 2 * steps : steps; }
  [[nodiscard]] double substep_dt() const { return magnus ? 0.5 * dt : dt; }
  [[nodiscard]] int samples_per_step() const { return magnus ? 2 : 1; }
  /// Sample i of step s (ascending in time).
  [[nodiscard]] double sample_time(int s, int i) const {
    if (!magnus) return (s + 0.5) * dt;
    return (s + (i == 0 ? kC1 : kC2)) * dt;
  }
  /// Weight of sample i of step substep_step(u) in the coefficients of substep u.
  [[nodiscard]] double weight(int u, int i) const {
    if (!magnus) return 1.0;
    const bool first = u % 2 == 0;  // the right factor, applied first
    return 2.0 * ((first == (i == 0)) ? kA2 : kA1);
  }
  [[nodiscard]] int substep_step(int u) const { return magnus ? u / 2 : u; }
};

}  // namespace qevolve::solver
