// Time-dependent flux (docs/models.md "Flux pulses"): how a pulse with `operator: flux` enters
// the Hamiltonian of its mode. The pulse value x(t) (flux quanta, crosstalk factor included)
// multiplies no fixed operator; each mode type has its own law c(x) for the coefficient of a
// fixed kept-basis operator:
//   fluxonium         H_static + c(x) phi,          c = 2 pi EL x
//   tunable transmon  H_static + c_cos(x) cos(phi) + c_sin(x) sin(phi),
//                     c_cos = -[EJ cos(xe/2) C + a EJ sin(xe/2) S] + EJ_eff(xs),
//                     c_sin = -[a EJ sin(xe/2) C - EJ cos(xe/2) S],
//                     xs = 2 pi flux, xe = xs + 2 pi x, C + iS = exp(i p0(xs)),
//                     p0(u) = atan2(a sin(u/2), cos(u/2)),
// which is -EJ_eff(xe) cos(phi - (p0(xe) - p0(xs))) + EJ_eff(xs) cos(phi) written without the
// branch of p0(xe) (EJ_eff(u) cos p0(u) = EJ cos(u/2), EJ_eff(u) sin p0(u) = a EJ sin(u/2)).
// Every other drive channel is linear: c(x) = x.
#pragma once

#include <string_view>

#include "qevolve/mode.hpp"

namespace qevolve::device {

/// The coefficient law of one drive channel.
enum class DriveLaw {
  linear,     ///< c = x (every non-flux drive, `operator: number`)
  inductive,  ///< fluxonium flux: c = 2 pi EL x on `phi`
  squid_cos,  ///< tunable transmon flux: the coefficient of cos(phi)
  squid_sin,  ///< tunable transmon flux: the coefficient of sin(phi)
};

/// The operator name (Mode::op) a law's channel multiplies; `linear` returns `op` itself.
[[nodiscard]] std::string_view law_operator(DriveLaw law, std::string_view op);

/// c(x) of the law for a mode with static parameters `p` (x in flux quanta for the flux laws).
[[nodiscard]] double law_value(DriveLaw law, const ModeParams& p, double x);
/// dc/dx.
[[nodiscard]] double law_slope(DriveLaw law, const ModeParams& p, double x);
/// dc/d(key) at fixed x for a mode parameter key (ec ej el flux ng asymmetry ...); 0 for keys
/// the law does not read.
[[nodiscard]] double law_partial(DriveLaw law, const ModeParams& p, double x, std::string_view key);

}  // namespace qevolve::device
