// Shared helpers of the pulse tests: a hand-built Config (no YAML loader), spec builders, and an
// independent reference implementation of every envelope written directly from the formulas of
// docs/pulses.md "Shapes" (no code shared with src/pulse).
#pragma once

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "qevolve/config.hpp"
#include "qevolve/pulse.hpp"

namespace qevolve::pulse::testing {

inline constexpr double kPiT = 3.141592653589793238462643383279;

/// A Config with the source file and locations the loader would record for `pulses[0]`.
inline Config make_config(const std::vector<std::string>& present_keys = {}) {
  Config config;
  config.source_file = "pulses.yaml";
  config.where["pulses[0]"] = SourceLocation{"pulses.yaml", 12, 5};
  int line = 13;
  for (const std::string& k : present_keys) {
    config.where["pulses[0]." + k] = SourceLocation{"pulses.yaml", line++, 7};
  }
  return config;
}

/// A pulse spec with carrier settings shared by most tests.
inline PulseSpec base_spec(Shape shape) {
  PulseSpec s;
  s.qubit = "q0";
  s.shape = shape;
  s.amplitude = 0.07;
  s.frequency = 0.55;
  s.phase = 0.3;
  s.delay = 3.0;
  s.path = "pulses[0]";
  return s;
}

/// Reads the value of a parameter from a spec (as the user wrote it).
inline double spec_get(const PulseSpec& s, const ParamRef& p) {
  switch (p.kind) {
    case Param::amplitude: return s.amplitude;
    case Param::frequency: return s.frequency;
    case Param::phase: return s.phase;
    case Param::delay: return s.delay;
    case Param::duration: return *s.duration;
    case Param::ramp: return *s.ramp;
    case Param::plateau: return *s.plateau;
    case Param::sigma: return *s.sigma;
    case Param::c: return *s.c;
    case Param::lambda: return *s.lambda;
    case Param::value: return s.values[static_cast<std::size_t>(p.index)];
  }
  return 0.0;
}

/// A copy of `s` with parameter `p` changed to `v` (the other written keys unchanged).
inline PulseSpec spec_with(PulseSpec s, const ParamRef& p, double v) {
  switch (p.kind) {
    case Param::amplitude: s.amplitude = v; break;
    case Param::frequency: s.frequency = v; break;
    case Param::phase: s.phase = v; break;
    case Param::delay: s.delay = v; break;
    case Param::duration: s.duration = v; break;
    case Param::ramp: s.ramp = v; break;
    case Param::plateau: s.plateau = v; break;
    case Param::sigma: s.sigma = v; break;
    case Param::c: s.c = v; break;
    case Param::lambda: s.lambda = v; break;
    case Param::value: s.values[static_cast<std::size_t>(p.index)] = v; break;
  }
  return s;
}

// ---------------------------------------------------------------------------------------------
// Reference envelopes, from docs/pulses.md. The shape parameters are resolved here independently
// (duration = plateau + 2 ramp, duration = 2 c sigma).
// ---------------------------------------------------------------------------------------------
struct RefShape {
  Shape shape = Shape::cos;
  Shape base = Shape::cos;
  double L = 0, ramp = 0, sigma = 0, c = 0, lambda = 0;
  std::vector<double> values;
};

inline RefShape ref_shape(const PulseSpec& s) {
  RefShape r;
  r.shape = s.shape;
  r.base = s.base;
  r.lambda = s.lambda.value_or(0.0);
  r.values = s.values;
  const Shape kind = s.shape == Shape::drag ? s.base : s.shape;
  if (kind == Shape::rampcos || kind == Shape::trapezoid) {
    r.ramp = s.ramp ? *s.ramp : 0.5 * (*s.duration - *s.plateau);
    r.L = s.duration ? *s.duration : *s.plateau + 2.0 * *s.ramp;
  } else if (kind == Shape::gaussian) {
    if (s.sigma && s.c) {
      r.sigma = *s.sigma;
      r.c = *s.c;
    } else if (s.sigma) {
      r.sigma = *s.sigma;
      r.c = *s.duration / (2.0 * r.sigma);
    } else {
      r.c = *s.c;
      r.sigma = *s.duration / (2.0 * r.c);
    }
    r.L = 2.0 * r.c * r.sigma;
  } else {
    r.L = *s.duration;
    if (s.sigma) r.sigma = *s.sigma;
    if (s.c) r.c = *s.c;
  }
  return r;
}

/// Cox-de Boor recursion for B_{k,p} on knot vector `t` (0/0 := 0), half-open spans except
/// that the last nonempty span includes its right end.
inline double cox_de_boor(const std::vector<double>& t, int k, int p, double x) {
  if (p == 0) {
    const double a = t[static_cast<std::size_t>(k)], b = t[static_cast<std::size_t>(k + 1)];
    if (a < b && a <= x && (x < b || (x == b && b == t.back()))) return 1.0;
    return 0.0;
  }
  double out = 0.0;
  const double d1 = t[static_cast<std::size_t>(k + p)] - t[static_cast<std::size_t>(k)];
  const double d2 = t[static_cast<std::size_t>(k + p + 1)] - t[static_cast<std::size_t>(k + 1)];
  if (d1 > 0) out += (x - t[static_cast<std::size_t>(k)]) / d1 * cox_de_boor(t, k, p - 1, x);
  if (d2 > 0) {
    out += (t[static_cast<std::size_t>(k + p + 1)] - x) / d2 * cox_de_boor(t, k + 1, p - 1, x);
  }
  return out;
}

/// Uniform clamped cubic knot vector for n control values on [0, L].
inline std::vector<double> clamped_knots(int n, double L) {
  std::vector<double> t;
  for (int i = 0; i < 4; ++i) t.push_back(0.0);
  const int segments = n - 3;
  for (int j = 1; j < segments; ++j) t.push_back(L * j / segments);
  for (int i = 0; i < 4; ++i) t.push_back(L);
  return t;
}

/// The unit envelope e(tau) (no amplitude) of a non-drag shape, or the values' function.
inline double ref_unit(const RefShape& r, Shape kind, double tau) {
  const double L = r.L, rr = r.ramp, sg = r.sigma, c = r.c;
  switch (kind) {
    case Shape::cos: return 0.5 * (1.0 + std::cos(2.0 * kPiT / L * (tau - L / 2.0)));
    case Shape::rampcos:
      if (tau < rr) return (1.0 - std::cos(kPiT * tau / rr)) / 2.0;
      if (tau > L - rr) return (1.0 - std::cos(kPiT * (L - tau) / rr)) / 2.0;
      return 1.0;
    case Shape::trapezoid: return std::min({1.0, tau / rr, (L - tau) / rr});
    case Shape::gaussian: {
      const double floor = std::exp(-c * c / 2.0);
      return (std::exp(-(tau - c * sg) * (tau - c * sg) / (2.0 * sg * sg)) - floor) / (1.0 - floor);
    }
    case Shape::tanh:
    case Shape::erf: {
      const auto h = [&](double x) {
        return kind == Shape::tanh ? std::tanh(x / sg) : std::erf(x / (std::sqrt(2.0) * sg));
      };
      const auto g = [&](double x) { return 0.5 * h(x - c * sg) + 0.5 * h(L - c * sg - x); };
      const double o = g(0.0), p = g(L / 2.0);
      return (g(tau) - o) / (p - o);
    }
    case Shape::piecewise_constant: {
      const int n = static_cast<int>(r.values.size());
      const int k = std::min(n - 1, static_cast<int>(std::floor(tau * n / L)));
      return r.values[static_cast<std::size_t>(k)];
    }
    case Shape::spline: {
      const int n = static_cast<int>(r.values.size());
      const std::vector<double> t = clamped_knots(n, L);
      double sum = 0.0;
      for (int k = 0; k < n; ++k) sum += r.values[static_cast<std::size_t>(k)] * cox_de_boor(t, k, 3, tau);
      return sum;
    }
    case Shape::drag: break;
  }
  return 0.0;
}

/// de/dtau of the drag bases, differentiated by hand from the formulas above.
inline double ref_unit_slope(const RefShape& r, double tau) {
  if (r.base == Shape::cos) return kPiT / r.L * std::sin(2.0 * kPiT * tau / r.L);
  const double floor = std::exp(-r.c * r.c / 2.0);
  const double x = tau - r.c * r.sigma;
  return -x / (r.sigma * r.sigma) * std::exp(-x * x / (2.0 * r.sigma * r.sigma)) / (1.0 - floor);
}

/// f(t) from docs/pulses.md for spec `s` with amplitude A.
inline double ref_value(const PulseSpec& s, double A, double t) {
  const RefShape r = ref_shape(s);
  const double tau = t - s.delay;
  if (tau < 0.0 || tau > r.L) return 0.0;
  const double theta = 2.0 * kPiT * s.frequency * tau + s.phase;
  if (s.shape == Shape::drag) {
    return A * (ref_unit(r, r.base, tau) * std::cos(theta) -
                r.lambda * ref_unit_slope(r, tau) * std::sin(theta));
  }
  const bool values = s.shape == Shape::piecewise_constant || s.shape == Shape::spline;
  return (values ? 1.0 : A) * ref_unit(r, s.shape, tau) * std::cos(theta);
}

/// Composite Gauss-Legendre quadrature (8 nodes per panel, nodes from Newton on P_8) of f over
/// each [b_i, b_{i+1}] of `breaks`, `panels` panels per piece.
inline double integrate(const std::function<double(double)>& f, std::vector<double> breaks,
                        int panels) {
  constexpr int n = 8;
  double x[n], w[n];
  for (int i = 0; i < n; ++i) {
    double z = std::cos(kPiT * (i + 0.75) / (n + 0.5));
    double dp = 0.0;
    for (int it = 0; it < 100; ++it) {
      double p0 = 1.0, p1 = z;
      for (int k = 2; k <= n; ++k) {
        const double p2 = ((2.0 * k - 1.0) * z * p1 - (k - 1.0) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      dp = n * (z * p1 - p0) / (z * z - 1.0);
      const double dz = p1 / dp;
      z -= dz;
      if (std::fabs(dz) < 1e-16) break;
    }
    x[i] = z;
    w[i] = 2.0 / ((1.0 - z * z) * dp * dp);
  }
  std::sort(breaks.begin(), breaks.end());
  double sum = 0.0;
  for (std::size_t b = 0; b + 1 < breaks.size(); ++b) {
    const double h = (breaks[b + 1] - breaks[b]) / panels;
    for (int pnl = 0; pnl < panels; ++pnl) {
      const double mid = breaks[b] + (pnl + 0.5) * h;
      for (int i = 0; i < n; ++i) sum += 0.5 * h * w[i] * f(mid + 0.5 * h * x[i]);
    }
  }
  return sum;
}

/// The test cases: every shape, every way of giving the shape keys.
struct Case {
  std::string name;
  PulseSpec spec;
};

inline std::vector<Case> all_cases() {
  std::vector<Case> cases;
  const auto add = [&](const std::string& name, PulseSpec s) { cases.push_back({name, std::move(s)}); };
  {
    PulseSpec s = base_spec(Shape::cos);
    s.duration = 40.0;
    add("cos", s);
  }
  for (const Shape sh : {Shape::rampcos, Shape::trapezoid}) {
    const std::string n = qevolve::enum_name(sh);
    PulseSpec s = base_spec(sh);
    PulseSpec a = s, b = s, c = s;
    a.duration = 50.0, a.ramp = 12.0;
    b.duration = 50.0, b.plateau = 26.0;
    c.ramp = 12.0, c.plateau = 26.0;
    add(n + "(duration,ramp)", a);
    add(n + "(duration,plateau)", b);
    add(n + "(ramp,plateau)", c);
  }
  {
    PulseSpec s = base_spec(Shape::gaussian);
    PulseSpec a = s, b = s, c = s;
    a.sigma = 6.0, a.c = 4.0;
    b.duration = 48.0, b.sigma = 6.0;
    c.duration = 48.0, c.c = 4.0;
    add("gaussian(sigma,c)", a);
    add("gaussian(duration,sigma)", b);
    add("gaussian(duration,c)", c);
  }
  for (const Shape sh : {Shape::tanh, Shape::erf}) {
    PulseSpec s = base_spec(sh);
    s.duration = 50.0, s.sigma = 3.0, s.c = 2.5;
    add(qevolve::enum_name(sh), s);
  }
  {
    PulseSpec s = base_spec(Shape::drag);
    s.duration = 40.0, s.lambda = 0.8;
    add("drag(cos)", s);
    PulseSpec g = base_spec(Shape::drag);
    g.base = Shape::gaussian;
    g.lambda = 0.6;
    PulseSpec a = g, b = g, c = g;
    a.sigma = 6.0, a.c = 4.0;
    b.duration = 48.0, b.sigma = 6.0;
    c.duration = 48.0, c.c = 4.0;
    add("drag(gaussian;sigma,c)", a);
    add("drag(gaussian;duration,sigma)", b);
    add("drag(gaussian;duration,c)", c);
  }
  {
    PulseSpec s = base_spec(Shape::piecewise_constant);
    s.duration = 30.0;
    s.values = {0.01, -0.02, 0.03, 0.015, -0.005};
    add("piecewise_constant", s);
    PulseSpec b = base_spec(Shape::spline);
    b.duration = 30.0;
    b.values = {0.004, 0.02, -0.01, 0.03, 0.025, -0.015, -0.003};
    add("spline", b);
  }
  return cases;
}

}  // namespace qevolve::pulse::testing
