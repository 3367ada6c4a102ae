// The filter stages of a control line (line_filters.hpp). Each panel's integrals use a
// Gauss-Legendre rule of kGaussNodes points on the part of the panel before the target time,
// with the input evaluated by the panel's interpolant: a polynomial of degree 15 times an
// exponential varying by at most e^(1/2) over the panel is integrated to rounding.
#include "line_filters.hpp"

#include <algorithm>
#include <cmath>

#include "panel_rules.hpp"

namespace qevolve::pulse::detail {
namespace {

constexpr int kN = PanelFunction::kNodes;
constexpr double kInvSqrt2 = 0.70710678118654752440;
constexpr double kInvSqrt2Pi = 0.39894228040143267794;

/// The low-pass states over [a, t] of panel p: given L1, L2 (or I) at a, their values at t.
struct State {
  double l1 = 0.0, l2 = 0.0;
};

State advance(const Section& s, const PanelFunction& x, int p, double a, double t, State at_a) {
  const NodeRule& gl = gauss_rule();
  const double d = t - a;
  if (d <= 0.0) return at_a;
  double j1 = 0.0, j2 = 0.0;
  for (int m = 0; m < kGaussNodes; ++m) {
    const double u = a + 0.5 * d * (1.0 + gl.x[static_cast<std::size_t>(m)]);
    const double w = 0.5 * d * gl.w[static_cast<std::size_t>(m)] / s.tau * x.on_panel(p, u);
    if (s.integrator) {
      j1 += w;
      continue;
    }
    const double r = (t - u) / s.tau;
    const double e = std::exp(-r);
    j1 += w * e;
    j2 += w * r * e;
  }
  if (s.integrator) return {at_a.l1 + j1, 0.0};
  const double ed = std::exp(-d / s.tau);
  return {ed * at_a.l1 + j1, ed * (at_a.l2 + d / s.tau * at_a.l1) + j2};
}

double phi(double z) { return kInvSqrt2Pi * std::exp(-0.5 * z * z); }
/// Phi(z), accurate in both tails.
double cdf(double z) { return 0.5 * std::erfc(-z * kInvSqrt2); }

/// The unit kernel's response to a unit step at 0, seen at z = t / sigma: Phi(z) (order 0), or
/// its second time derivative -z phi(z) / sigma^2 (order 2).
double step_response(const GaussStage& g, double z) {
  return g.order == 0 ? cdf(z) : -z * phi(z) / (g.sigma * g.sigma);
}

/// The kernel at u (order 0: g_sigma(u); order 2: g_sigma''(u)).
double kernel(const GaussStage& g, double u) {
  const double z = u / g.sigma;
  const double k = phi(z) / g.sigma;
  return g.order == 0 ? k : k * (z * z - 1.0) / (g.sigma * g.sigma);
}

}  // namespace

PanelFunction apply_section(const Section& s, const PanelFunction& x) {
  PanelFunction y(x.edges());
  State st;
  for (int p = 0; p < x.panels(); ++p) {
    const double a = x.edges()[static_cast<std::size_t>(p)];
    for (int j = 0; j < kN; ++j) {
      const State at = advance(s, x, p, a, x.node(p, j), st);
      y.value(p, j) = s.alpha * x.value(p, j) + s.beta * at.l1 + s.gamma * at.l2;
    }
    st = advance(s, x, p, a, x.edges()[static_cast<std::size_t>(p) + 1], st);
  }
  return y;
}

double Held::operator()(double t) const {
  if (t < 0.0 || samples.empty()) return 0.0;
  const auto k = static_cast<std::size_t>(std::floor(t * rate));
  return samples[std::min(k, samples.size() - 1)];
}

PanelFunction gauss_of_held(const GaussStage& g, const Held& s, std::vector<double> edges) {
  PanelFunction y(std::move(edges));
  const auto last = static_cast<long>(s.samples.size()) - 1;
  const auto sample = [&](long k) { return k < 0 ? 0.0 : s.samples[static_cast<std::size_t>(std::min(k, last))]; };
  const double reach = kGaussReach * g.sigma;
  for (int p = 0; p < y.panels(); ++p)
    for (int j = 0; j < kN; ++j) {
      const double t = y.node(p, j);
      // Jumps k (at k / rate, of size s_k - s_{k-1}) within the reach; those before it are
      // complete (order 0: their sum is the sample before the reach; order 2: nothing).
      const long k1 = std::max(0L, static_cast<long>(std::floor((t - reach) * s.rate)) + 1);
      const long k2 = std::min(last, static_cast<long>(std::floor((t + reach) * s.rate)));
      double v = g.order == 0 ? sample(k1 - 1) : 0.0;
      for (long k = k1; k <= k2; ++k)
        v += (sample(k) - sample(k - 1)) * step_response(g, (t - static_cast<double>(k) / s.rate) / g.sigma);
      y.value(p, j) = g.scale * v;
    }
  return y;
}

PanelFunction gauss_of_panels(const GaussStage& g, const PanelFunction& x) {
  const NodeRule& gl = gauss_rule();
  const int P = x.panels();
  // The input at each panel's Gauss points, and the points' times and weights.
  std::vector<double> u(static_cast<std::size_t>(P * kGaussNodes)), wx(u.size());
  for (int q = 0; q < P; ++q) {
    const double a = x.edges()[static_cast<std::size_t>(q)], b = x.edges()[static_cast<std::size_t>(q) + 1];
    for (int m = 0; m < kGaussNodes; ++m) {
      const auto i = static_cast<std::size_t>(q * kGaussNodes + m);
      u[i] = 0.5 * (a + b) + 0.5 * (b - a) * gl.x[static_cast<std::size_t>(m)];
      wx[i] = 0.5 * (b - a) * gl.w[static_cast<std::size_t>(m)] * x.on_panel(q, u[i]);
    }
  }
  PanelFunction y(x.edges());
  const double reach = kGaussReach * g.sigma;
  const std::vector<double>& e = x.edges();
  for (int p = 0; p < P; ++p)
    for (int j = 0; j < kN; ++j) {
      const double t = y.node(p, j);
      const auto q1 = std::max<long>(0, std::upper_bound(e.begin(), e.end(), t - reach) - e.begin() - 1);
      const auto q2 = std::min<long>(P - 1, std::upper_bound(e.begin(), e.end(), t + reach) - e.begin() - 1);
      double v = 0.0;
      for (auto i = static_cast<std::size_t>(q1 * kGaussNodes); i < static_cast<std::size_t>((q2 + 1) * kGaussNodes); ++i)
        v += wx[i] * kernel(g, t - u[i]);
      y.value(p, j) = g.scale * v;
    }
  return y;
}

}  // namespace qevolve::pulse::detail
