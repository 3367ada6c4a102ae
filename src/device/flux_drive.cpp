// Coefficient laws of drive channels (include/qevolve/flux_drive.hpp, docs/models.md "Flux
// pulses"). The tunable transmon's laws are written with h = pi flux (half the static phase),
// e = pi (flux + x) (half the pulsed one) and the static gauge angle p0(2h) = atan2(a sin h, cos h):
//   c_cos = -EJ [cos e C + a sin e S] + EJ R,   c_sin = -EJ [a sin e C - cos e S],
//   R = sqrt(cos^2 h + a^2 sin^2 h), C = cos p0, S = sin p0.
#include "qevolve/flux_drive.hpp"

#include <cmath>
#include <string>

#include "qevolve/error.hpp"
#include "qevolve/types.hpp"

namespace qevolve::device {
namespace {

/// The static quantities of a tunable transmon's laws and their h- and a-derivatives.
struct Squid {
  double ej = 0.0, a = 0.0;
  double ce = 0.0, se = 0.0;  ///< cos e, sin e
  double R = 0.0, C = 1.0, S = 0.0;
  double sh = 0.0, ch = 0.0;  ///< sin h, cos h
};

Squid squid(const ModeParams& p, double x) {
  Squid s;
  s.ej = p.ej;
  s.a = p.asymmetry;
  const double h = kPi * p.flux;
  const double e = kPi * (p.flux + x);
  s.ce = std::cos(e);
  s.se = std::sin(e);
  s.ch = std::cos(h);
  s.sh = std::sin(h);
  s.R = std::sqrt(s.ch * s.ch + s.a * s.a * s.sh * s.sh);
  const double p0 = std::atan2(s.a * s.sh, s.ch);
  s.C = std::cos(p0);
  s.S = std::sin(p0);
  return s;
}

/// The bracket of each law as a function of (cos e, sin e, C, S), without -EJ.
double cos_bracket(const Squid& s, double ce, double se, double C, double S) { return ce * C + s.a * se * S; }
double sin_bracket(const Squid& s, double ce, double se, double C, double S) { return s.a * se * C - ce * S; }

[[noreturn]] void singular(const ModeParams& p) {
  throw NumericalError("mode '" + p.name + "': EJ_eff is zero at the static flux " + std::to_string(p.flux) +
                       ": the derivative of its flux coupling is not defined");
}

double squid_partial(bool cos_law, const ModeParams& p, double x, std::string_view key) {
  const Squid s = squid(p, x);
  const auto bracket = [&](double ce, double se, double C, double S) {
    return cos_law ? cos_bracket(s, ce, se, C, S) : sin_bracket(s, ce, se, C, S);
  };
  if (key == "ej") return -bracket(s.ce, s.se, s.C, s.S) + (cos_law ? s.R : 0.0);
  if (key != "flux" && key != "asymmetry") return 0.0;
  if (!(s.R > 0.0)) singular(p);
  const double R2 = s.R * s.R;
  if (key == "flux") {
    // d/dflux = pi d/dh with e moving with h: de = dh, dp0/dh = a / R^2.
    const double dp0 = s.a / R2;
    const double dR = s.sh * s.ch * (s.a * s.a - 1.0) / s.R;
    const double via_e = bracket(-s.se, s.ce, s.C, s.S);
    const double via_p0 = bracket(s.ce, s.se, -s.S * dp0, s.C * dp0);
    return kPi * s.ej * (-(via_e + via_p0) + (cos_law ? dR : 0.0));
  }
  // asymmetry: the bracket is linear in a where a appears explicitly, plus p0 and R.
  const double dp0 = s.sh * s.ch / R2;
  const double dR = s.a * s.sh * s.sh / s.R;
  const double explicit_a = cos_law ? s.se * s.S : s.se * s.C;
  const double via_p0 = bracket(s.ce, s.se, -s.S * dp0, s.C * dp0);
  return s.ej * (-(explicit_a + via_p0) + (cos_law ? dR : 0.0));
}

}  // namespace

std::string_view law_operator(DriveLaw law, std::string_view op) {
  switch (law) {
    case DriveLaw::linear: return op;
    case DriveLaw::inductive: return "phi";
    case DriveLaw::squid_cos: return "cos_phi";
    case DriveLaw::squid_sin: return "sin_phi";
  }
  return op;
}

double law_value(DriveLaw law, const ModeParams& p, double x) {
  switch (law) {
    case DriveLaw::linear: return x;
    case DriveLaw::inductive: return kTwoPi * p.el * x;
    case DriveLaw::squid_cos: {
      const Squid s = squid(p, x);
      return -s.ej * cos_bracket(s, s.ce, s.se, s.C, s.S) + s.ej * s.R;
    }
    case DriveLaw::squid_sin: {
      const Squid s = squid(p, x);
      return -s.ej * sin_bracket(s, s.ce, s.se, s.C, s.S);
    }
  }
  return x;
}

double law_slope(DriveLaw law, const ModeParams& p, double x) {
  switch (law) {
    case DriveLaw::linear: return 1.0;
    case DriveLaw::inductive: return kTwoPi * p.el;
    case DriveLaw::squid_cos: {
      const Squid s = squid(p, x);
      return -kPi * s.ej * cos_bracket(s, -s.se, s.ce, s.C, s.S);
    }
    case DriveLaw::squid_sin: {
      const Squid s = squid(p, x);
      return -kPi * s.ej * sin_bracket(s, -s.se, s.ce, s.C, s.S);
    }
  }
  return 1.0;
}

double law_partial(DriveLaw law, const ModeParams& p, double x, std::string_view key) {
  switch (law) {
    case DriveLaw::linear: return 0.0;
    case DriveLaw::inductive: return key == "el" ? kTwoPi * x : 0.0;
    case DriveLaw::squid_cos: return squid_partial(true, p, x, key);
    case DriveLaw::squid_sin: return squid_partial(false, p, x, key);
  }
  return 0.0;
}

}  // namespace qevolve::device
