// Internal helpers shared by the single-mode models (fluxonium.cpp, transmon.cpp,
// oscillator.cpp, mode.cpp). Not part of the public API; the mode tests include it to reach
// the automatic basis rules and the fixed-basis entry points.
#pragma once

#include <string>

#include "qevolve/mode.hpp"
#include "qevolve/types.hpp"

namespace qevolve::device::detail {

/// WKB decay action required at the edge of every internal basis by the automatic sizing
/// rules (docs/models.md): the neglected amplitude is below e^-20 ~ 2e-9 of its value at the
/// classical turning point, so kept energies move by ~e^-40 relative (far below 1e-9 GHz).
inline constexpr double kEdgeAction = 20.0;
/// Largest automatic phase grid; needing more means the parameters are out of any sane range.
inline constexpr int kMaxAutoGridPoints = 4096;
/// Largest automatic transmon charge cutoff (basis 2 * cutoff + 1).
inline constexpr int kMaxAutoChargeCutoff = 2000;

/// Throws NumericalError("mode '<name>' (<type>): <problem>").
[[noreturn]] void fail(const ModeParams& params, const std::string& problem);

/// Throws unless `value` is finite.
void require_finite(const ModeParams& params, const char* key, double value);

/// Lowest `count` eigenpairs of the real symmetric matrix `h` (lower triangle read, `h` is
/// destroyed), by LAPACK's MRRR subset driver dsyevr. Values ascending; vectors are columns.
void lowest_eigenpairs(RMatrix& h, int count, RVector& values, RMatrix& vectors);

/// Fills Mode::lowering (sqrt(k) on the superdiagonal) and Mode::number (diag 0..levels-1).
void fill_ladder_operators(Mode& mode);

/// Solves coef * integral_{u_t}^{u} sqrt(x^2 - u_t^2) dx = action for u >= u_t: the distance
/// from the origin at which a WKB solution in the potential coef^2 (x^2 - u_t^2) has decayed
/// by exp(-action) from its turning point u_t.
[[nodiscard]] double wkb_edge(double u_t, double coef, double action);

/// Throws NumericalError unless the transmon parameters are finite and EC > 0, levels >= 1.
void validate_transmon(const ModeParams& params);

/// Centre n0 = floor(ng + 1/2) of the transmon charge basis: the integer nearest ng, shifted
/// by exactly one when ng is (so results are invariant under ng -> ng + 1).
[[nodiscard]] double charge_centre(double ng);

/// cos(phi) and sin(phi) in a transmon charge basis of `dim` states (exp(i phi)|m> = |m + 1>).
struct JosephsonOperators {
  CMatrix cos_phi, sin_phi;
};
[[nodiscard]] JosephsonOperators josephson_operators(int dim);
/// The same in the columns of `vectors` (charge-basis vectors): V^dag cos(phi) V, V^dag sin(phi) V,
/// Hermitian by construction, without the dense charge-basis matrices.
[[nodiscard]] JosephsonOperators kept_josephson_operators(const CMatrix& vectors);

/// Effective Josephson energy of a transmon: EJ * sqrt(cos^2(phi_ext/2) + a^2 sin^2(phi_ext/2))
/// when params.has_asymmetry, else EJ (docs/models.md "Transmon").
[[nodiscard]] double transmon_ej_eff(const ModeParams& params);

/// Charge cutoff ncut of the automatic transmon basis n0 - ncut .. n0 + ncut, n0 = floor(ng + 1/2).
[[nodiscard]] int transmon_auto_cutoff(const ModeParams& params);

/// Diagonalises a transmon in the charge basis centre - ncut .. centre + ncut.
[[nodiscard]] Mode diagonalise_transmon_on(const ModeParams& params, double centre, int ncut);

}  // namespace qevolve::device::detail
