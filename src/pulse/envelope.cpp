#include "envelope.hpp"

#include <algorithm>
#include <cmath>

#include "bspline.hpp"
#include "qevolve/types.hpp"

namespace qevolve::pulse::detail {
namespace {

constexpr double kSqrt2 = 1.4142135623730950488016887242097;
constexpr double kSqrt2OverPi = 0.79788456080286535587989211986876;  // sqrt(2/pi)
constexpr double kSqrtPi = 1.7724538509055160272981674833411;

/// The edge function h of tanh / erf in units of sigma: tanh(x), or erf(x / sqrt 2).
double edge(Shape kind, double x) {
  return kind == Shape::tanh ? std::tanh(x) : std::erf(x / kSqrt2);
}
/// h'(x).
double edge_slope(Shape kind, double x) {
  if (kind == Shape::tanh) {
    const double t = std::tanh(x);
    return 1.0 - t * t;
  }
  return kSqrt2OverPi * std::exp(-0.5 * x * x);
}
/// An antiderivative of h, even in x: ln cosh x, or x erf(x/sqrt2) + sqrt(2/pi) exp(-x^2/2).
double edge_integral(Shape kind, double x) {
  if (kind == Shape::tanh) {
    const double a = std::fabs(x);
    return a + std::log1p(std::exp(-2.0 * a)) - std::log(2.0);  // overflow-free ln cosh
  }
  return x * std::erf(x / kSqrt2) + kSqrt2OverPi * std::exp(-0.5 * x * x);
}

// --- cos: e = (1 + cos x)/2, x = 2 pi (tau - L/2)/L ---------------------------------------
void eval_cos(const EnvelopeGeometry& g, double tau, EvalLevel level, UnitEval& u) {
  const double L = g.L;
  const double x = kTwoPi / L * (tau - 0.5 * L);
  const double s = std::sin(x), co = std::cos(x);
  u.e = 0.5 * (1.0 + co);
  u.slope = -kPi / L * s;
  if (level == EvalLevel::value) return;
  u.curve = -2.0 * kPi * kPi / (L * L) * co;
  // dx/dL at fixed tau = -2 pi tau / L^2.
  u.d_shape[kCoordL] = kPi * tau / (L * L) * s;
  u.d_slope[kCoordL] = kPi / (L * L) * s + 2.0 * kPi * kPi * tau / (L * L * L) * co;
}

// --- rampcos: (1 - cos(pi tau/r))/2 rising, 1 on the plateau, mirrored falling -------------
void eval_rampcos(const EnvelopeGeometry& g, double tau, EvalLevel level, UnitEval& u) {
  const double L = g.L, r = g.ramp;
  if (tau < r) {
    const double x = kPi * tau / r;
    u.e = 0.5 * (1.0 - std::cos(x));
    if (level == EvalLevel::value) return;
    const double s = std::sin(x);
    u.slope = 0.5 * kPi / r * s;
    u.d_shape[kCoordRamp] = -0.5 * kPi * tau / (r * r) * s;
  } else if (tau > L - r) {
    const double x = kPi * (L - tau) / r;
    u.e = 0.5 * (1.0 - std::cos(x));
    if (level == EvalLevel::value) return;
    const double s = std::sin(x);
    u.slope = -0.5 * kPi / r * s;
    u.d_shape[kCoordL] = 0.5 * kPi / r * s;
    u.d_shape[kCoordRamp] = -0.5 * kPi * (L - tau) / (r * r) * s;
  } else {
    u.e = 1.0;
  }
}

// --- trapezoid: min(1, tau/r, (L - tau)/r) -----------------------------------------------
void eval_trapezoid(const EnvelopeGeometry& g, double tau, EvalLevel level, UnitEval& u) {
  const double L = g.L, r = g.ramp;
  if (tau < r && tau <= L - tau) {
    u.e = tau / r;
    if (level == EvalLevel::value) return;
    u.slope = 1.0 / r;
    u.d_shape[kCoordRamp] = -tau / (r * r);
  } else if (tau > L - r) {
    u.e = (L - tau) / r;
    if (level == EvalLevel::value) return;
    u.slope = -1.0 / r;
    u.d_shape[kCoordL] = 1.0 / r;
    u.d_shape[kCoordRamp] = -(L - tau) / (r * r);
  } else {
    u.e = 1.0;
  }
}

// --- gaussian: (exp(-v^2/2) - E)/(1 - E), v = tau/sigma - c, E = exp(-c^2/2) ----------------
void eval_gaussian(const EnvelopeGeometry& g, double tau, EvalLevel level, UnitEval& u) {
  const double sigma = g.sigma, c = g.c, norm = g.inv_norm;
  const double v = tau / sigma - c;
  const double q = std::exp(-0.5 * v * v);
  u.e = (q - g.floor) * norm;
  u.slope = -v * q / sigma * norm;
  if (level == EvalLevel::value) return;
  u.curve = (v * v - 1.0) * q / (sigma * sigma) * norm;
  // d e/d floor = (q - 1) norm^2, d floor/dc = -c floor; dv/dsigma = -tau/sigma^2, dv/dc = -1.
  const double dnorm_dc = -c * g.floor * norm;  // (d norm/dc) / norm
  u.d_shape[kCoordSigma] = v * q * tau / (sigma * sigma) * norm;
  u.d_shape[kCoordC] = v * q * norm + (q - 1.0) * norm * norm * (-c * g.floor);
  // slope = -v q / sigma * norm; d(v q)/dv = (1 - v^2) q.
  const double dvq_dv = (1.0 - v * v) * q;
  u.d_slope[kCoordSigma] = (dvq_dv * tau / (sigma * sigma * sigma) + v * q / (sigma * sigma)) * norm;
  u.d_slope[kCoordC] = dvq_dv / sigma * norm + u.slope * dnorm_dc;
}

// --- tanh / erf: (g - o)/(p - o), g = (h(a) + h(b))/2, a = tau/sigma - c, b = (L-tau)/sigma - c
void eval_edges(const EnvelopeGeometry& g, double tau, EvalLevel level, UnitEval& u) {
  const double L = g.L, sigma = g.sigma, c = g.c, norm = g.inv_norm;
  const double a = tau / sigma - c, b = (L - tau) / sigma - c;
  const double gv = 0.5 * (edge(g.kind, a) + edge(g.kind, b));
  u.e = (gv - g.offset) * norm;
  if (level == EvalLevel::value) return;
  const double ha = edge_slope(g.kind, a), hb = edge_slope(g.kind, b);
  u.slope = 0.5 * (ha - hb) / sigma * norm;
  const double dg[3] = {0.5 * hb / sigma,                                         // L
                        -0.5 * (ha * tau + hb * (L - tau)) / (sigma * sigma),     // sigma
                        -0.5 * (ha + hb)};                                        // c
  constexpr int coord[3] = {kCoordL, kCoordSigma, kCoordC};
  for (int i = 0; i < 3; ++i) {
    u.d_shape[coord[i]] =
        (dg[i] - g.d_offset[i] - u.e * (g.d_peak[i] - g.d_offset[i])) * norm;
  }
}

// --- piecewise_constant: values[k] on [k L/N, (k+1) L/N) (tau = L: the last slice) ----------
void eval_piecewise(const EnvelopeGeometry& g, std::span<const double> values, double tau,
                    UnitEval& u) {
  const int n = static_cast<int>(values.size());
  const int k = std::clamp(static_cast<int>(std::floor(tau / g.L * n)), 0, n - 1);
  u.e = values[static_cast<std::size_t>(k)];
  u.first = k;
  u.count = 1;
  u.basis[0] = 1.0;
}

// --- spline: sum_k values[k] B_k(tau) ---------------------------------------------------
void eval_spline(const EnvelopeGeometry& g, std::span<const double> values, double tau,
                 EvalLevel level, UnitEval& u) {
  const int n = static_cast<int>(values.size());
  const SplineBasis b = cubic_basis(n, g.L, tau);
  u.first = b.first;
  u.count = 4;
  for (int j = 0; j < 4; ++j) {
    const double v = values[static_cast<std::size_t>(b.first + j)];
    u.e += v * b.value[j];
    u.slope += v * b.slope[j];
    u.basis[j] = b.value[j];
  }
  // The knots scale with L: e depends on tau/L only, so de/dL = -(tau/L) de/dtau.
  if (level == EvalLevel::full) u.d_shape[kCoordL] = -tau / g.L * u.slope;
}

}  // namespace

void prepare_geometry(EnvelopeGeometry& g) {
  g.floor = g.inv_norm = g.offset = g.peak = 0.0;
  for (int i = 0; i < 3; ++i) g.d_offset[i] = g.d_peak[i] = 0.0;
  if (g.kind == Shape::gaussian) {
    g.L = 2.0 * g.c * g.sigma;
    g.floor = std::exp(-0.5 * g.c * g.c);
    g.inv_norm = 1.0 / (1.0 - g.floor);
  } else if (g.kind == Shape::tanh || g.kind == Shape::erf) {
    const double L = g.L, sigma = g.sigma, c = g.c;
    const double w = L / sigma - c;        // argument of the falling edge at tau = 0
    const double m = 0.5 * L / sigma - c;  // both arguments at tau = L/2
    g.offset = 0.5 * (edge(g.kind, -c) + edge(g.kind, w));
    g.peak = edge(g.kind, m);
    g.inv_norm = 1.0 / (g.peak - g.offset);
    const double hw = edge_slope(g.kind, w), hc = edge_slope(g.kind, c), hm = edge_slope(g.kind, m);
    g.d_offset[0] = 0.5 * hw / sigma;
    g.d_offset[1] = -0.5 * hw * L / (sigma * sigma);
    g.d_offset[2] = -0.5 * (hc + hw);
    g.d_peak[0] = 0.5 * hm / sigma;
    g.d_peak[1] = -0.5 * hm * L / (sigma * sigma);
    g.d_peak[2] = -hm;
  }
}

UnitEval evaluate_unit(const EnvelopeGeometry& g, std::span<const double> values, double tau,
                       EvalLevel level) {
  UnitEval u;
  switch (g.kind) {
    case Shape::cos:
    case Shape::drag:  // never the kind of a geometry (drag uses its base); kept for -Wswitch
      eval_cos(g, tau, level, u);
      break;
    case Shape::rampcos: eval_rampcos(g, tau, level, u); break;
    case Shape::trapezoid: eval_trapezoid(g, tau, level, u); break;
    case Shape::gaussian: eval_gaussian(g, tau, level, u); break;
    case Shape::tanh:
    case Shape::erf: eval_edges(g, tau, level, u); break;
    case Shape::piecewise_constant: eval_piecewise(g, values, tau, u); break;
    case Shape::spline: eval_spline(g, values, tau, level, u); break;
  }
  return u;
}

double unit_integral(const EnvelopeGeometry& g, std::span<const double> values) {
  switch (g.kind) {
    case Shape::cos:
    case Shape::drag: return 0.5 * g.L;
    case Shape::rampcos:
    case Shape::trapezoid: return g.L - g.ramp;  // plateau + 2 ramps of mean height 1/2
    case Shape::gaussian: {
      // int_0^L exp(-(tau - c sigma)^2/(2 sigma^2)) dtau = sigma sqrt(2 pi) erf(c/sqrt 2).
      const double bell = g.sigma * kSqrt2 * kSqrtPi * std::erf(g.c / kSqrt2);
      return (bell - g.L * g.floor) * g.inv_norm;
    }
    case Shape::tanh:
    case Shape::erf: {
      // int_0^L g = sigma [H(L/sigma - c) - H(c)] with H an even antiderivative of h.
      const double integral_g =
          g.sigma * (edge_integral(g.kind, g.L / g.sigma - g.c) - edge_integral(g.kind, g.c));
      return (integral_g - g.L * g.offset) * g.inv_norm;
    }
    case Shape::piecewise_constant: {
      double sum = 0.0;
      for (const double v : values) sum += v;
      return sum * g.L / static_cast<double>(values.size());
    }
    case Shape::spline: {
      const int n = static_cast<int>(values.size());
      double sum = 0.0;
      for (int k = 0; k < n; ++k) {
        sum += values[static_cast<std::size_t>(k)] * cubic_basis_integral(n, g.L, k);
      }
      return sum;
    }
  }
  return 0.0;
}

}  // namespace qevolve::pulse::detail
