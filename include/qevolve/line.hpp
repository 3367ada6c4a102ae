// Control lines (docs/lines.md): what a pulse becomes between the AWG and the mode. A line
// samples the pulse (zero-order hold at its sample rate), then applies linear time-invariant
// filters (gaussian, highpass, exponential, fir), optionally after pre-distorting the pulse by
// the exact inverse of its highpass and exponential filters. The line's output is a function
// of time over the whole evolution (tails run past the pulse's end), represented exactly to
// ~1e-13 of its peak by piecewise Chebyshev polynomials (PanelFunction).
#pragma once

#include <functional>
#include <span>
#include <string>
#include <vector>

#include "qevolve/config.hpp"

namespace qevolve::pulse {

/// A piecewise polynomial: on each panel [edges[p], edges[p+1]) the interpolant of its values
/// at kNodes Chebyshev-Lobatto points; the last panel includes its end. Zero outside
/// [edges.front(), edges.back()].
class PanelFunction {
 public:
  static constexpr int kNodes = 16;
  PanelFunction() = default;
  explicit PanelFunction(std::vector<double> edges);

  [[nodiscard]] double operator()(double t) const;
  [[nodiscard]] bool empty() const { return edges_.size() < 2; }
  [[nodiscard]] int panels() const { return static_cast<int>(edges_.size()) - 1; }
  [[nodiscard]] const std::vector<double>& edges() const { return edges_; }
  /// The time of node j of panel p (ascending within the panel, both ends included).
  [[nodiscard]] double node(int p, int j) const;
  [[nodiscard]] double& value(int p, int j) { return values_[static_cast<std::size_t>(p * kNodes + j)]; }
  [[nodiscard]] double value(int p, int j) const { return values_[static_cast<std::size_t>(p * kNodes + j)]; }
  /// The interpolant of panel p at t (t need not lie in the panel).
  [[nodiscard]] double on_panel(int p, double t) const;
  /// Fills every node value with g(node time).
  void fill(const std::function<double(double)>& g);

 private:
  std::vector<double> edges_;
  std::vector<double> values_;
};

/// A trainable parameter of a line: filter `filter`'s key (sigma, tau, amplitude, or tap
/// `tap` of an fir filter).
struct LineParam {
  enum class Key { sigma, tau, amplitude, tap } key = Key::tau;
  int filter = 0;
  int tap = 0;
  /// Config spelling: "tau", "taps[2]".
  [[nodiscard]] std::string name() const;
  friend bool operator==(const LineParam&, const LineParam&) = default;
};

/// A pulse as the line's input: f(t), and the times where f or one of its derivatives jumps
/// (window edges, ramp ends, slice edges), which the line's panels align to.
struct LineInput {
  std::function<double(double)> f;
  std::vector<double> breaks;
  /// The largest carrier frequency (GHz) of f, which bounds the panels' length.
  double frequency = 0.0;
};

/// The most panels a line may use (each holds 16 values; docs/lines.md "Cost").
constexpr double kMaxLinePanels = 2e5;

class Line {
 public:
  /// A line of the config; the spec must have passed the resolution stage.
  explicit Line(const LineSpec& spec);

  [[nodiscard]] const std::string& name() const { return name_; }
  [[nodiscard]] const LineSpec& spec() const { return spec_; }
  /// The line's output for the input `in` over the evolution [0, T].
  [[nodiscard]] PanelFunction apply(const LineInput& in, double T) const;
  /// d(output)/d(param) for the same input (the output is linear in the input and smooth in
  /// the line's parameters; exact, not a difference).
  [[nodiscard]] PanelFunction derivative(const LineInput& in, double T, const LineParam& param) const;

  /// About how many panels apply() uses over [0, T] for a carrier of `frequency` GHz (the
  /// resolution stage refuses a line above kMaxLinePanels before any work).
  [[nodiscard]] double panel_estimate(double T, double frequency) const;

  /// The trainable parameters `spec.filters[k].optimize` names, in filter order.
  [[nodiscard]] std::vector<LineParam> trainable() const;
  [[nodiscard]] double get(const LineParam& p) const;
  /// Sets a parameter; NumericalError (line unchanged) if it leaves its domain (tau <= 0,
  /// sigma < 0, amplitude <= -1 with predistortion).
  void set(const LineParam& p, double v);

 private:
  struct Chain;
  /// The panels' span [lo, hi], longest panel h, the summed Gaussian and the sample rate (0:
  /// none).
  struct Grid {
    double lo = 0.0, hi = 0.0, h = 0.0, sigma = 0.0, rate = 0.0;
  };
  [[nodiscard]] Chain chain() const;
  [[nodiscard]] Grid grid(double T, double frequency) const;
  [[nodiscard]] PanelFunction run(const std::vector<Chain>& terms, const LineInput& in, double T) const;

  std::string name_;
  LineSpec spec_;
};

}  // namespace qevolve::pulse
