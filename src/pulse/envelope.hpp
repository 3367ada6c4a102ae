// Unit-amplitude envelopes of docs/pulses.md "Shapes" with their time derivatives and their
// partial derivatives with respect to the shape parameters in natural coordinates:
//   cos, piecewise_constant, spline: L;   rampcos, trapezoid: (L, ramp);
//   gaussian: (sigma, c) with L = 2 c sigma;   tanh, erf: (L, sigma, c), all independent.
// Pulse maps these to the keys the config gave (the two-of-three rule) by the chain rule.
#pragma once

#include <span>

#include "qevolve/pulse.hpp"

namespace qevolve::pulse::detail {

/// Indices into UnitEval::d_shape / d_slope.
enum ShapeCoord { kCoordL = 0, kCoordRamp = 1, kCoordSigma = 2, kCoordC = 3 };

/// One evaluation of the unit envelope e at local time tau (inside [0, L]).
struct UnitEval {
  double e = 0.0;       ///< e(tau) (for piecewise_constant / spline: the values' function)
  double slope = 0.0;   ///< de/dtau (1/ns); 0 a.e. for piecewise_constant
  double curve = 0.0;   ///< d2e/dtau2, only for the drag bases cos and gaussian
  /// de/d(natural coordinate), indexed by ShapeCoord (0 for coordinates the shape lacks).
  double d_shape[4] = {0.0, 0.0, 0.0, 0.0};
  /// d(de/dtau)/d(natural coordinate), only for the drag bases cos and gaussian.
  double d_slope[4] = {0.0, 0.0, 0.0, 0.0};
  /// piecewise_constant / spline: de/dvalues[first + j] = basis[j], j < count.
  int first = 0, count = 0;
  double basis[4] = {0.0, 0.0, 0.0, 0.0};
};

/// How much of UnitEval to fill.
enum class EvalLevel {
  value,  ///< e, plus slope for the drag bases (the quadrature term needs it)
  full    ///< everything
};

/// Fills the cached constants of `g` from g.kind, L, ramp, sigma, c.
void prepare_geometry(EnvelopeGeometry& g);

/// Evaluates the unit envelope at 0 <= tau <= L (no allocation). `values` are the control
/// values of piecewise_constant / spline (ignored otherwise).
[[nodiscard]] UnitEval evaluate_unit(const EnvelopeGeometry& g, std::span<const double> values,
                                     double tau, EvalLevel level);

/// Closed-form integral of the unit envelope over [0, L] (values' function for
/// piecewise_constant / spline).
[[nodiscard]] double unit_integral(const EnvelopeGeometry& g, std::span<const double> values);

}  // namespace qevolve::pulse::detail
