// Time-dependent flux (docs/models.md "Flux pulses"): how a pulse with `operator: flux` enters
// the Hamiltonian of its mode. The pulse value x(t) (flux quanta, crosstalk factor included)
// multiplies no fixed operator; each mode type has its own law c for the coefficient of a
// fixed kept-basis operator:
//   fluxonium         H_static + c(x) phi,          c = 2 pi EL x
//   tunable transmon  H_static + c_cos cos(phi) + c_sin sin(phi) + c_n n, in the moving gauge
//                     (the lab state rotated by exp(i g(t) n), g the gauge angle relative to
//                     the static one): with h = pi flux, e = pi (flux + x), C + iS = exp(iG),
//                     G = P(h) + g the absolute gauge angle, P(u) = atan2(a sin u, cos u),
//                     c_cos = -EJ [cos e C + a sin e S] + EJ_eff(2h),
//                     c_sin = -EJ [a sin e C - cos e S],
//                     c_n   = -g'(t) / (2 pi)   (GHz; g' in rad/ns),
//                     i.e. -EJ_eff(2e) cos(phi - (P(e) - G)) + EJ_eff(2h) cos(phi) - g' n / 2 pi.
// The gauge g follows P(e(t)) - P(h) linearly between the edges t_s, t_s+1 of each time step,
// so it reads the flux at the sample and at the step's edges (FluxSample); for a = 0 it is 0
// (G = P(h): the cosine law of a symmetric SQUID, no n term).
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
  squid_n,    ///< tunable transmon flux: the gauge's term -g'(t)/(2 pi) on `n`
};

/// The total flux offset of a mode where a law is evaluated: x at the sample time t, lo and hi
/// at the edges t_s, t_s + dt of the time step that contains t, w = (t - t_s)/dt.
struct FluxSample {
  double x = 0.0, lo = 0.0, hi = 0.0;
  double w = 0.5, dt = 1.0;
};
/// A constant offset x (no motion: g' = 0).
[[nodiscard]] inline FluxSample steady(double x) { return {x, x, x, 0.5, 1.0}; }

/// dc/d(x, lo, hi) of a law.
struct LawSlopes {
  double x = 0.0, lo = 0.0, hi = 0.0;
};

/// The operator name (Mode::op) a law's channel multiplies; `linear` returns `op` itself.
[[nodiscard]] std::string_view law_operator(DriveLaw law, std::string_view op);

/// c of the law for a mode with static parameters `p` (offsets in flux quanta).
[[nodiscard]] double law_value(DriveLaw law, const ModeParams& p, const FluxSample& s);
/// dc/dx, dc/dlo, dc/dhi.
[[nodiscard]] LawSlopes law_slopes(DriveLaw law, const ModeParams& p, const FluxSample& s);
/// dc/d(key) at fixed offsets for a mode parameter key (ec ej el flux ng asymmetry ...); 0 for
/// keys the law does not read.
[[nodiscard]] double law_partial(DriveLaw law, const ModeParams& p, const FluxSample& s, std::string_view key);

/// A tunable transmon's gauge angle g at a constant offset x: P(e) - P(h) in (-pi, pi] (0 for
/// a = 0 and for other modes). The lab state is exp(-i g n) times the moving-gauge state.
[[nodiscard]] double gauge_angle(const ModeParams& p, double x);
/// dg/dx, and dg/d(key) at fixed x (flux, asymmetry; 0 for other keys).
[[nodiscard]] double gauge_slope(const ModeParams& p, double x);
[[nodiscard]] double gauge_partial(const ModeParams& p, double x, std::string_view key);

}  // namespace qevolve::device
