// Fluxonium (docs/models.md "Fluxonium"):
//   H = 4 EC n^2 + (EL/2)(phi + phi_ext)^2 - EJ cos(phi),   phi_ext = 2 pi flux,
// on a periodic phase grid with the kinetic term applied spectrally. docs/models.md derives the
// automatic grid; tests/modes/test_fluxonium.cpp proves its convergence.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "mode_internal.hpp"
#include "phase_grid.hpp"
#include "qevolve/error.hpp"
#include "qevolve/mode.hpp"

namespace qevolve::device {
namespace detail {
namespace {

void validate_fluxonium(const ModeParams& p) {
  require_finite(p, "ec", p.ec);
  require_finite(p, "ej", p.ej);
  require_finite(p, "el", p.el);
  require_finite(p, "flux", p.flux);
  if (p.levels < 1) fail(p, "levels must be at least 1");
  if (!(p.ec > 0.0)) fail(p, "ec must be positive (got " + std::to_string(p.ec) + ")");
  if (!(p.el > 0.0)) {
    fail(p, "el must be positive: without an inductance the spectrum is a band, not levels (got " +
                std::to_string(p.el) + ")");
  }
}

// Smallest wavenumber k >= k_t at which the Josephson hopping k -> k + 1 (amplitude EJ/2) has
// suppressed the wavefunction by exp(-action): the ratio psi(m)/psi(m-1) is bounded by
// (|EJ|/2) / (4 EC m^2 - A) once that is below 1 (the transmon charge-basis recurrence).
double hopping_edge(double k_t, double ec, double ej, double a, double action) {
  double m = std::floor(k_t) + 1.0;
  double log_amp = 0.0;
  for (int guard = 0; guard < 100000; ++guard, m += 1.0) {
    const double den = 4.0 * ec * m * m - a;
    if (den <= 0.0) continue;
    const double ratio = std::min(1.0, 0.5 * std::abs(ej) / den);
    if (ratio == 0.0) return m;  // EJ = 0: no hopping
    log_amp += std::log(ratio);
    if (log_amp <= -action) return m;
  }
  return m;
}

void require_valid(const PhaseGrid& grid) {
  if (grid.points < 2 || !(grid.half_width > 0.0) || !std::isfinite(grid.half_width) ||
      !std::isfinite(grid.center)) {
    throw NumericalError("invalid phase grid: " + std::to_string(grid.points) +
                         " points, half width " + std::to_string(grid.half_width));
  }
}

}  // namespace

PhaseGrid fluxonium_grid(const ModeParams& p) {
  validate_fluxonium(p);
  const double ej = std::abs(p.ej);
  // Upper bound of the highest kept level by min-max: -EJ cos(phi) <= |EJ|, so
  // E_k <= sqrt(8 EC EL)(k + 1/2) + |EJ| (harmonic levels of the LC part).
  const double omega = std::sqrt(8.0 * p.ec * p.el);
  const double e_top = omega * (p.levels - 0.5) + ej;
  // Below V_low(u) = (EL/2) u^2 - |EJ| (u = phi + phi_ext) the classically allowed region for
  // energies up to e_top is (EL/2) u^2 <= A.
  const double a = e_top + ej;
  // Phase direction: kinetic 4 EC p^2, so the decay rate is sqrt((V - E)/(4 EC)) >=
  // sqrt(EL/(8 EC)) sqrt(u^2 - u_t^2).
  const double u_t = std::sqrt(2.0 * a / p.el);
  const double half_width = wkb_edge(u_t, std::sqrt(p.el / (8.0 * p.ec)), kEdgeAction);
  // Wavenumber direction: 4 EC k^2 is the potential, (EL/2)(i d/dk)^2 the kinetic term, and
  // -EJ cos(phi) hops k -> k +- 1. Both channels must have decayed at the cutoff.
  const double k_t = std::sqrt(a / (4.0 * p.ec));
  const double k_inductive = wkb_edge(k_t, std::sqrt(8.0 * p.ec / p.el), kEdgeAction);
  const double k_josephson = hopping_edge(k_t, p.ec, ej, a, kEdgeAction);
  const double k_cut = std::max(k_inductive, k_josephson);

  PhaseGrid grid;
  grid.center = -kTwoPi * p.flux;
  grid.half_width = half_width;
  if (p.basis_size > 0) {
    grid.points = p.basis_size;
  } else {
    // h = pi / k_cut  =>  N = 2 L k_cut / pi (the phase-space area over 2 pi), rounded up to even.
    const double n = std::ceil(2.0 * half_width * k_cut / kPi);
    if (!(n <= kMaxAutoGridPoints)) {
      fail(p, "the automatic phase grid would need " + std::to_string(n) + " points (more than " +
                  std::to_string(kMaxAutoGridPoints) +
                  "): el is too small or levels too many for a converged basis");
    }
    int points = static_cast<int>(n);
    points += points % 2;
    grid.points = std::max(points, 32);
  }
  return grid;
}

RMatrix spectral_n_squared(const PhaseGrid& grid) {
  require_valid(grid);
  // Trigonometric interpolation on [0, 2 pi) with spacing h (Trefethen, "Spectral Methods in
  // MATLAB", ch. 3), rescaled by (pi / half_width)^2 to the box. Even N keeps the Nyquist
  // mode with k^2 = (N/2)^2, as an FFT with numpy's fftfreq does.
  const int n = grid.points;
  const double h = kTwoPi / n;
  const double scale = (kPi / grid.half_width) * (kPi / grid.half_width);
  const bool even = n % 2 == 0;
  const double diag = even ? (static_cast<double>(n) * n / 12.0 + 1.0 / 6.0)
                           : (static_cast<double>(n) * n - 1.0) / 12.0;
  std::vector<double> band;  // entry at distance d (circulant)
  band.reserve(static_cast<std::size_t>(n));
  band.push_back(scale * diag);
  for (int d = 1; d < n; ++d) {
    const double s = std::sin(0.5 * d * h);
    const double sign = d % 2 == 0 ? 1.0 : -1.0;
    band.push_back(even ? scale * sign * 0.5 / (s * s)
                        : scale * sign * 0.5 * std::cos(0.5 * d * h) / (s * s));
  }
  RMatrix t(n, n);
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) t(i, j) = band[static_cast<std::size_t>(std::abs(i - j))];
  }
  return t;
}

RMatrix spectral_derivative(const PhaseGrid& grid) {
  require_valid(grid);
  const int n = grid.points;
  const double h = kTwoPi / n;
  const double scale = kPi / grid.half_width;
  const bool even = n % 2 == 0;
  std::vector<double> band;  // D(i, j) for i - j = d >= 0
  band.reserve(static_cast<std::size_t>(n));
  band.push_back(0.0);
  for (int d = 1; d < n; ++d) {
    const double sign = d % 2 == 0 ? 1.0 : -1.0;
    band.push_back(even ? scale * sign * 0.5 / std::tan(0.5 * d * h)
                        : scale * sign * 0.5 / std::sin(0.5 * d * h));
  }
  RMatrix dmat(n, n);
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {  // antisymmetric: D(j, i) = -D(i, j)
      const auto d = static_cast<std::size_t>(std::abs(i - j));
      dmat(i, j) = i >= j ? band[d] : -band[d];
    }
  }
  return dmat;
}

Mode diagonalise_fluxonium_on(const ModeParams& p, const PhaseGrid& grid) {
  validate_fluxonium(p);
  const int n = grid.points;
  if (p.levels > n) {
    fail(p, "levels (" + std::to_string(p.levels) + ") exceed the phase grid size (" +
                std::to_string(n) + ")");
  }
  const double phi_ext = kTwoPi * p.flux;
  RVector branch(n);  // inductor branch phase phi + phi_ext at each grid point
  RMatrix h = (4.0 * p.ec) * spectral_n_squared(grid);
  for (int j = 0; j < n; ++j) {
    const double phi = grid.phi(j);
    branch(j) = phi + phi_ext;
    h(j, j) += 0.5 * p.el * branch(j) * branch(j) - p.ej * std::cos(phi);
  }

  Mode mode;
  mode.params = p;
  mode.internal_dim = n;
  mode.basis.grid_center = grid.center;
  mode.basis.grid_half_width = grid.half_width;
  mode.basis.grid_points = grid.points;
  RMatrix vectors;
  lowest_eigenpairs(h, p.levels, mode.energies, vectors);

  // n = -i d/dphi in the kept eigenbasis (real eigenvectors: -i times a real antisymmetric
  // matrix), then the phase convention, then phi + phi_ext in the re-phased basis.
  const RMatrix dv = spectral_derivative(grid) * vectors;
  const RMatrix d_eig = vectors.transpose() * dv;
  mode.charge = cplx(0.0, -1.0) * d_eig.cast<cplx>();
  CMatrix complex_vectors = vectors.cast<cplx>();
  fix_phases(complex_vectors, mode.charge);
  const CMatrix flux = complex_vectors.adjoint() * (branch.cast<cplx>().asDiagonal() * complex_vectors);
  mode.flux = 0.5 * (flux + flux.adjoint());
  const CMatrix charge = mode.charge;
  mode.charge = 0.5 * (charge + charge.adjoint());
  fill_ladder_operators(mode);
  return mode;
}

}  // namespace detail

Mode diagonalise_fluxonium(const ModeParams& params) {
  if (params.type != ModeType::fluxonium) detail::fail(params, "not a fluxonium");
  return detail::diagonalise_fluxonium_on(params, detail::fluxonium_grid(params));
}

}  // namespace qevolve::device
