// Coefficient laws of drive channels (include/qevolve/flux_drive.hpp, docs/models.md "Flux
// pulses"). The tunable transmon's laws are written with h = pi flux (half the static phase),
// e = pi (flux + x) (half the pulsed one), P(u) = atan2(a sin u, cos u) and the absolute gauge
// angle G = P(e_lo) + w D, D = P(e_hi) - P(e_lo) (wrapped), e_lo, e_hi at the step's edges:
//   c_cos = -EJ [cos e C + a sin e S] + EJ R,   c_sin = -EJ [a sin e C - cos e S],
//   c_n = -D / (2 pi dt),   R = sqrt(cos^2 h + a^2 sin^2 h), C = cos G, S = sin G.
// dP/du = a / R(u)^2 and dP/da = sin u cos u / R(u)^2 give every derivative.
#include "qevolve/flux_drive.hpp"

#include <cmath>
#include <string>

#include "qevolve/error.hpp"
#include "qevolve/types.hpp"

namespace qevolve::device {
namespace {

/// The quantities of a tunable transmon's laws at one FluxSample, and the gauge's derivatives.
struct Squid {
  double ej = 0.0, a = 0.0, w = 0.5, dt = 1.0;
  double ce = 0.0, se = 0.0;  ///< cos e, sin e
  double ch = 0.0, sh = 0.0;  ///< cos h, sin h
  double R = 0.0;             ///< EJ_eff(2h) / EJ
  double C = 1.0, S = 0.0;    ///< cos G, sin G
  double D = 0.0;             ///< the gauge's step D = P(e_hi) - P(e_lo)
  /// d(G, D)/d(e_lo, e_hi) and d(G, D)/da at fixed e's; `ok` false where R(e_lo or e_hi) = 0
  /// (possible for a = 0 only, where the e-derivatives of G and D are 0).
  double dG_lo = 0.0, dG_hi = 0.0, dD_lo = 0.0, dD_hi = 0.0, dG_a = 0.0, dD_a = 0.0;
  bool ok = true;
};

Squid squid(const ModeParams& p, const FluxSample& f) {
  Squid s;
  s.ej = p.ej;
  s.a = p.asymmetry;
  s.w = f.w;
  s.dt = f.dt;
  const double h = kPi * p.flux, e = kPi * (p.flux + f.x);
  const double elo = kPi * (p.flux + f.lo), ehi = kPi * (p.flux + f.hi);
  s.ce = std::cos(e);
  s.se = std::sin(e);
  s.ch = std::cos(h);
  s.sh = std::sin(h);
  const double a = s.a, a2 = a * a;
  s.R = std::sqrt(s.ch * s.ch + a2 * s.sh * s.sh);
  const double clo = std::cos(elo), slo = std::sin(elo), chi = std::cos(ehi), shi = std::sin(ehi);
  double G = std::atan2(0.0, s.ch);  // a = 0: the static angle, no moving gauge
  if (a != 0.0) {
    s.D = std::atan2(a * std::sin(ehi - elo), clo * chi + a2 * slo * shi);
    G = std::atan2(a * slo, clo) + s.w * s.D;
  }
  s.C = std::cos(G);
  s.S = std::sin(G);
  const double r_lo = clo * clo + a2 * slo * slo, r_hi = chi * chi + a2 * shi * shi;
  s.ok = r_lo > 0.0 && r_hi > 0.0;
  if (!s.ok) return s;  // a = 0 at EJ_eff = 0 only
  if (a != 0.0) {
    s.dD_lo = -a / r_lo;
    s.dD_hi = a / r_hi;
    s.dG_lo = (1.0 - s.w) * a / r_lo;
    s.dG_hi = s.w * a / r_hi;
  }
  const double t_lo = slo * clo / r_lo, t_hi = shi * chi / r_hi;
  s.dD_a = t_hi - t_lo;
  s.dG_a = t_lo + s.w * s.dD_a;
  return s;
}

/// The bracket of each law as a function of (cos e, sin e, C, S), without -EJ.
double cos_bracket(const Squid& s, double ce, double se, double C, double S) { return ce * C + s.a * se * S; }
double sin_bracket(const Squid& s, double ce, double se, double C, double S) { return s.a * se * C - ce * S; }
double bracket(bool cos_law, const Squid& s, double ce, double se, double C, double S) {
  return cos_law ? cos_bracket(s, ce, se, C, S) : sin_bracket(s, ce, se, C, S);
}
/// dc/de and dc/dG of the cos or sin law.
double by_e(bool cos_law, const Squid& s) { return -s.ej * bracket(cos_law, s, -s.se, s.ce, s.C, s.S); }
double by_G(bool cos_law, const Squid& s) { return -s.ej * bracket(cos_law, s, s.ce, s.se, -s.S, s.C); }

[[noreturn]] void singular(const ModeParams& p) {
  throw NumericalError("mode '" + p.name + "': EJ_eff is zero at the static or pulsed flux " + std::to_string(p.flux) +
                       ": the derivative of its flux coupling is not defined");
}

double squid_value(DriveLaw law, const ModeParams& p, const FluxSample& f) {
  const Squid s = squid(p, f);
  if (law == DriveLaw::squid_n) return -s.D / (kTwoPi * s.dt);
  if (law == DriveLaw::squid_cos) return -s.ej * cos_bracket(s, s.ce, s.se, s.C, s.S) + s.ej * s.R;
  return -s.ej * sin_bracket(s, s.ce, s.se, s.C, s.S);
}

LawSlopes squid_slopes(DriveLaw law, const ModeParams& p, const FluxSample& f) {
  const Squid s = squid(p, f);
  if (law == DriveLaw::squid_n) return {0.0, -s.dD_lo / (2.0 * s.dt), -s.dD_hi / (2.0 * s.dt)};
  const bool cos_law = law == DriveLaw::squid_cos;
  const double g = by_G(cos_law, s);
  return {kPi * by_e(cos_law, s), kPi * s.dG_lo * g, kPi * s.dG_hi * g};
}

double squid_partial(DriveLaw law, const ModeParams& p, const FluxSample& f, std::string_view key) {
  const Squid s = squid(p, f);
  const bool n_law = law == DriveLaw::squid_n, cos_law = law == DriveLaw::squid_cos;
  if (key == "ej") return n_law ? 0.0 : -bracket(cos_law, s, s.ce, s.se, s.C, s.S) + (cos_law ? s.R : 0.0);
  if (key != "flux" && key != "asymmetry") return 0.0;
  if (!s.ok || !(s.R > 0.0)) singular(p);
  if (key == "flux") {
    // d/dflux = pi (d/dh + d/de + d/de_lo + d/de_hi): every phase moves with the static flux.
    if (n_law) return -kPi * (s.dD_lo + s.dD_hi) / (kTwoPi * s.dt);
    const double dR = s.sh * s.ch * (s.a * s.a - 1.0) / s.R;
    return kPi * (by_e(cos_law, s) + by_G(cos_law, s) * (s.dG_lo + s.dG_hi) + (cos_law ? s.ej * dR : 0.0));
  }
  // asymmetry: explicit in the bracket, through G, and through R.
  if (n_law) return -s.dD_a / (kTwoPi * s.dt);
  const double explicit_a = cos_law ? s.se * s.S : s.se * s.C;
  const double dR = s.a * s.sh * s.sh / s.R;
  return -s.ej * explicit_a + by_G(cos_law, s) * s.dG_a + (cos_law ? s.ej * dR : 0.0);
}

bool squid_law(DriveLaw law) {
  return law == DriveLaw::squid_cos || law == DriveLaw::squid_sin || law == DriveLaw::squid_n;
}

}  // namespace

std::string_view law_operator(DriveLaw law, std::string_view op) {
  switch (law) {
    case DriveLaw::linear: return op;
    case DriveLaw::inductive: return "phi";
    case DriveLaw::squid_cos: return "cos_phi";
    case DriveLaw::squid_sin: return "sin_phi";
    case DriveLaw::squid_n: return "n";
  }
  return op;
}

double law_value(DriveLaw law, const ModeParams& p, const FluxSample& s) {
  if (law == DriveLaw::linear) return s.x;
  if (law == DriveLaw::inductive) return kTwoPi * p.el * s.x;
  return squid_value(law, p, s);
}

LawSlopes law_slopes(DriveLaw law, const ModeParams& p, const FluxSample& s) {
  if (law == DriveLaw::linear) return {1.0, 0.0, 0.0};
  if (law == DriveLaw::inductive) return {kTwoPi * p.el, 0.0, 0.0};
  return squid_slopes(law, p, s);
}

double law_partial(DriveLaw law, const ModeParams& p, const FluxSample& s, std::string_view key) {
  if (law == DriveLaw::linear) return 0.0;
  if (law == DriveLaw::inductive) return key == "el" ? kTwoPi * s.x : 0.0;
  if (squid_law(law)) return squid_partial(law, p, s, key);
  return 0.0;
}

double gauge_angle(const ModeParams& p, double x) {
  if (p.type != ModeType::transmon || p.asymmetry == 0.0) return 0.0;
  const double a = p.asymmetry, h = kPi * p.flux, e = kPi * (p.flux + x);
  return std::atan2(a * std::sin(e - h), std::cos(e) * std::cos(h) + a * a * std::sin(e) * std::sin(h));
}

namespace {
/// R(u)^2 = cos^2 u + a^2 sin^2 u and sin u cos u / R(u)^2 (dP/da).
double r2(double a, double u) { return std::cos(u) * std::cos(u) + a * a * std::sin(u) * std::sin(u); }
double dP_da(double a, double u) { return std::sin(u) * std::cos(u) / r2(a, u); }
}  // namespace

double gauge_slope(const ModeParams& p, double x) {
  if (p.type != ModeType::transmon || p.asymmetry == 0.0) return 0.0;
  return kPi * p.asymmetry / r2(p.asymmetry, kPi * (p.flux + x));
}

double gauge_partial(const ModeParams& p, double x, std::string_view key) {
  if (p.type != ModeType::transmon || p.asymmetry == 0.0) return 0.0;
  const double a = p.asymmetry, h = kPi * p.flux, e = kPi * (p.flux + x);
  if (key == "flux") return kPi * (a / r2(a, e) - a / r2(a, h));
  if (key == "asymmetry") return dP_da(a, e) - dP_da(a, h);
  return 0.0;
}

}  // namespace qevolve::device
