// Transmon (docs/models.md "Transmon"):
//   H = 4 EC (n - ng)^2 - EJ_eff cos(phi),
//   EJ_eff = EJ sqrt(cos^2(phi_ext/2) + a^2 sin^2(phi_ext/2))  (tunable, a = asymmetry),
// in the charge basis |n0 + j>, j = -ncut .. ncut, n0 = floor(ng + 1/2), where cos(phi) hops
// n -> n +- 1 with amplitude 1/2. The charge operator is n - ng (docs/models.md).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "mode_internal.hpp"
#include "qevolve/error.hpp"
#include "qevolve/mode.hpp"

namespace qevolve::device {
namespace detail {

void validate_transmon(const ModeParams& p) {
  require_finite(p, "ec", p.ec);
  require_finite(p, "ej", p.ej);
  require_finite(p, "ng", p.ng);
  require_finite(p, "flux", p.flux);
  if (p.has_asymmetry) require_finite(p, "asymmetry", p.asymmetry);
  if (p.levels < 1) fail(p, "levels must be at least 1");
  if (!(p.ec > 0.0)) fail(p, "ec must be positive (got " + std::to_string(p.ec) + ")");
}

double charge_centre(double ng) { return std::floor(ng + 0.5); }

JosephsonOperators josephson_operators(int dim) {
  // exp(i phi)|m> = |m + 1>: cos(phi) hops with 1/2, sin(phi) has <m+1|sin|m> = -i/2.
  JosephsonOperators j;
  j.cos_phi = CMatrix::Zero(dim, dim);
  j.sin_phi = CMatrix::Zero(dim, dim);
  for (int m = 0; m + 1 < dim; ++m) {
    j.cos_phi(m + 1, m) = j.cos_phi(m, m + 1) = 0.5;
    j.sin_phi(m + 1, m) = cplx(0.0, -0.5);
    j.sin_phi(m, m + 1) = cplx(0.0, 0.5);
  }
  return j;
}

JosephsonOperators kept_josephson_operators(const CMatrix& vectors) {
  // Rows of exp(i phi) V are those of V shifted down by one charge state.
  const Index dim = vectors.rows(), L = vectors.cols();
  CMatrix up = CMatrix::Zero(dim, L);  // exp(i phi) V
  up.bottomRows(dim - 1) = vectors.topRows(dim - 1);
  const CMatrix e = vectors.adjoint() * up;  // V^dag exp(i phi) V
  JosephsonOperators j;
  j.cos_phi = 0.5 * (e + e.adjoint());
  j.sin_phi = cplx(0.0, -0.5) * (e - e.adjoint());
  return j;
}

double transmon_ej_eff(const ModeParams& p) {
  if (!p.has_asymmetry) return p.ej;
  const double half = 0.5 * kTwoPi * p.flux;
  const double c = std::cos(half);
  const double s = std::sin(half);
  return p.ej * std::sqrt(c * c + p.asymmetry * p.asymmetry * s * s);
}

int transmon_auto_cutoff(const ModeParams& p) {
  validate_transmon(p);
  const double ej = std::abs(transmon_ej_eff(p));
  const double delta = std::abs(p.ng - charge_centre(p.ng));  // <= 1/2
  // Upper bound of the highest kept level by min-max (|EJ cos phi| <= |EJ|): the levels-th
  // smallest charging energy 4 EC (m - ng)^2 over the integers m, plus |EJ|.
  std::vector<double> charging;
  for (int j = -p.levels - 1; j <= p.levels + 1; ++j) {
    charging.push_back(4.0 * p.ec * (j - delta) * (j - delta));
  }
  std::sort(charging.begin(), charging.end());
  const double e_top = charging[static_cast<std::size_t>(p.levels - 1)] + ej;
  const double a = e_top + ej;
  // Beyond the turning point |m| > sqrt(A / (4 EC)) + delta the amplitude ratio between
  // neighbouring charge states is at most (|EJ|/2) / (4 EC (m - 1/2)^2 - A).
  const double m_t = std::sqrt(a / (4.0 * p.ec)) + delta;
  double m = std::floor(m_t) + 1.0;
  double log_amp = 0.0;
  for (; m <= kMaxAutoChargeCutoff; m += 1.0) {
    const double den = 4.0 * p.ec * (m - 0.5) * (m - 0.5) - a;
    if (den <= 0.0) continue;
    const double ratio = std::min(1.0, 0.5 * ej / den);
    if (ratio == 0.0) break;
    log_amp += std::log(ratio);
    if (log_amp <= -kEdgeAction) break;
  }
  if (m > kMaxAutoChargeCutoff) {
    fail(p, "the automatic charge basis would exceed a cutoff of " +
                std::to_string(kMaxAutoChargeCutoff) + " (ej/ec too large)");
  }
  const int ncut = static_cast<int>(m);
  return std::max(ncut, (p.levels + 1) / 2 + 1);
}

}  // namespace detail

Mode diagonalise_transmon(const ModeParams& p) {
  if (p.type != ModeType::transmon) detail::fail(p, "not a transmon");
  detail::validate_transmon(p);
  const int ncut = p.basis_size > 0 ? p.basis_size : detail::transmon_auto_cutoff(p);
  return detail::diagonalise_transmon_on(p, detail::charge_centre(p.ng), ncut);
}

namespace detail {

Mode diagonalise_transmon_on(const ModeParams& p, double centre, int ncut) {
  validate_transmon(p);
  const int dim = 2 * ncut + 1;
  if (p.levels > dim) {
    detail::fail(p, "levels (" + std::to_string(p.levels) + ") exceed the charge basis size (" +
                        std::to_string(dim) + ", cutoff " + std::to_string(ncut) + ")");
  }
  const double ej_eff = detail::transmon_ej_eff(p);
  RVector charge_diag(dim);  // n - ng on each basis state
  RMatrix h = RMatrix::Zero(dim, dim);
  for (int j = 0; j < dim; ++j) {
    charge_diag(j) = (centre + (j - ncut)) - p.ng;
    h(j, j) = 4.0 * p.ec * charge_diag(j) * charge_diag(j);
    if (j + 1 < dim) {
      h(j + 1, j) = -0.5 * ej_eff;
      h(j, j + 1) = -0.5 * ej_eff;
    }
  }

  Mode mode;
  mode.params = p;
  mode.internal_dim = dim;
  mode.basis.charge_centre = centre;
  mode.basis.charge_cutoff = ncut;
  RMatrix vectors;
  detail::lowest_eigenpairs(h, p.levels, mode.energies, vectors);
  const RMatrix charge = vectors.transpose() * (charge_diag.asDiagonal() * vectors);
  mode.charge = (0.5 * (charge + charge.transpose())).cast<cplx>();
  CMatrix complex_vectors = vectors.cast<cplx>();
  fix_phases(complex_vectors, mode.charge);
  mode.flux.resize(0, 0);
  if (p.has_asymmetry) {  // the operators of a flux pulse (docs/models.md "Flux pulses")
    const JosephsonOperators j = kept_josephson_operators(complex_vectors);
    mode.cos_phi = j.cos_phi;
    mode.sin_phi = j.sin_phi;
  }
  detail::fill_ladder_operators(mode);
  return mode;
}

}  // namespace detail

}  // namespace qevolve::device
