// The periodic phase grid of the fluxonium (docs/models.md "Fluxonium"): N equally spaced
// points phi_j = center - half_width + j h, h = 2 half_width / N, with the kinetic operator
// n^2 = -d^2/dphi^2 and n = -i d/dphi applied spectrally (band-limited trigonometric
// interpolation, i.e. exactly what an FFT round trip does) and written in closed form.
// Internal header: used by fluxonium.cpp and the mode tests.
#pragma once

#include "qevolve/mode.hpp"
#include "qevolve/types.hpp"

namespace qevolve::device::detail {

struct PhaseGrid {
  double center = 0.0;      ///< middle of the box (rad)
  double half_width = 0.0;  ///< box is [center - half_width, center + half_width)
  int points = 0;           ///< N

  [[nodiscard]] double spacing() const { return 2.0 * half_width / points; }
  [[nodiscard]] double phi(int j) const { return center - half_width + j * spacing(); }
  /// Largest wavenumber the grid resolves, pi / h.
  [[nodiscard]] double k_max() const { return kPi / spacing(); }
};

/// The automatic grid of docs/models.md: centred on the inductive minimum phi = -phi_ext, wide
/// enough that WKB decay through the inductive wall reaches kEdgeAction before the edge, fine
/// enough that the same holds in wavenumber space (through both the inductive term and the
/// Josephson hopping k -> k +- 1). params.basis_size > 0 replaces the number of points only.
/// Throws NumericalError for EC <= 0, EL <= 0 or a grid beyond kMaxAutoGridPoints.
[[nodiscard]] PhaseGrid fluxonium_grid(const ModeParams& params);

/// Spectral n^2 = -d^2/dphi^2 on the grid (real symmetric, N x N).
[[nodiscard]] RMatrix spectral_n_squared(const PhaseGrid& grid);

/// Spectral d/dphi on the grid (real antisymmetric, N x N; Nyquist mode dropped for even N).
[[nodiscard]] RMatrix spectral_derivative(const PhaseGrid& grid);

/// Diagonalises the fluxonium on a given grid (diagonalise_fluxonium uses fluxonium_grid).
[[nodiscard]] Mode diagonalise_fluxonium_on(const ModeParams& params, const PhaseGrid& grid);

}  // namespace qevolve::device::detail
