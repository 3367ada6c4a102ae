// The filter stages of a control line (src/pulse/line_filters.cpp, docs/lines.md "Method"),
// each exact to rounding on a PanelFunction whose panels are short against the filter's time
// scales.
#pragma once

#include <vector>

#include "qevolve/line.hpp"

namespace qevolve::pulse::detail {

/// A first-order IIR section y = alpha x + beta L x + gamma L(L x), L the unit-gain low pass
/// (L x)(t) = (1/tau) int_{-inf}^t e^{-(t-u)/tau} x(u) du; or, `integrator`, y = alpha x +
/// beta (1/tau) int_{-inf}^t x. highpass: (1, -1, 0); exponential (A): (1 + A, -A, 0); the
/// pre-distortion of a highpass: the integrator (1, 1). gamma appears in tau-derivatives.
struct Section {
  bool integrator = false;
  double alpha = 1.0, beta = 0.0, gamma = 0.0, tau = 1.0;
};

/// The section applied to x, on x's panels (x is zero before its first edge).
[[nodiscard]] PanelFunction apply_section(const Section& s, const PanelFunction& x);

/// A zero-order-hold signal: s(t) = samples[k] on [k/rate, (k+1)/rate), 0 before 0, held at
/// its last sample after the last.
struct Held {
  double rate = 1.0;
  std::vector<double> samples;
  [[nodiscard]] double operator()(double t) const;
};

/// The Gaussian stage y = scale * (d/dt)^order (g_sigma * x), order 0 or 2, on `edges`.
struct GaussStage {
  double sigma = 0.0;
  int order = 0;
  double scale = 1.0;
};
/// ... of a held signal: closed form (erf sums over the jumps within 10 sigma).
[[nodiscard]] PanelFunction gauss_of_held(const GaussStage& g, const Held& s, std::vector<double> edges);
/// ... of a piecewise polynomial: Gauss-Legendre on each source panel (panels <= sigma / 2).
[[nodiscard]] PanelFunction gauss_of_panels(const GaussStage& g, const PanelFunction& x);

/// The reach of a Gaussian kernel in standard deviations (Phi(-10) = 8e-24).
constexpr double kGaussReach = 10.0;

}  // namespace qevolve::pulse::detail
