// PanelFunction (include/qevolve/line.hpp): piecewise Chebyshev interpolants. Nodes of the
// first kind (interior points: a signal that jumps at a panel edge is sampled on the right
// side of the jump in each panel) and the barycentric formula for evaluation.
#include <algorithm>
#include <cmath>

#include "panel_rules.hpp"
#include "qevolve/line.hpp"

namespace qevolve::pulse {
namespace detail {

namespace {

constexpr double kPi = 3.14159265358979323846;

NodeRule make_chebyshev() {
  NodeRule r;
  const int n = PanelFunction::kNodes;
  for (int j = 0; j < n; ++j) {
    // Ascending: x_j = -cos((2j + 1) pi / 2n); weights (-1)^j sin((2j + 1) pi / 2n) up to a
    // common factor (the barycentric formula's second form does not need it).
    const double theta = (2.0 * (n - 1 - j) + 1.0) * kPi / (2.0 * n);
    r.x[static_cast<std::size_t>(j)] = std::cos(theta);
    r.w[static_cast<std::size_t>(j)] = ((n - 1 - j) % 2 == 0 ? 1.0 : -1.0) * std::sin(theta);
  }
  return r;
}

/// Gauss-Legendre nodes and weights on [-1, 1] (Newton on P_n from the Chebyshev guesses).
NodeRule make_gauss_legendre() {
  NodeRule r;
  const int n = kGaussNodes;
  for (int i = 0; i < n; ++i) {
    double x = std::cos(kPi * (i + 0.75) / (n + 0.5));
    double dp = 0.0;
    for (int it = 0; it < 100; ++it) {
      double p0 = 1.0, p1 = x;
      for (int k = 2; k <= n; ++k) {
        const double p2 = ((2.0 * k - 1.0) * x * p1 - (k - 1.0) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      dp = n * (x * p1 - p0) / (x * x - 1.0);
      const double dx = p1 / dp;
      x -= dx;
      if (std::abs(dx) < 1e-16) break;
    }
    r.x[static_cast<std::size_t>(n - 1 - i)] = x;
    r.w[static_cast<std::size_t>(n - 1 - i)] = 2.0 / ((1.0 - x * x) * dp * dp);
  }
  return r;
}

}  // namespace

const NodeRule& chebyshev_rule() {
  static const NodeRule rule = make_chebyshev();
  return rule;
}

const NodeRule& gauss_rule() {
  static const NodeRule rule = make_gauss_legendre();
  return rule;
}

}  // namespace detail

PanelFunction::PanelFunction(std::vector<double> edges)
    : edges_(std::move(edges)), values_(edges_.size() < 2 ? 0 : (edges_.size() - 1) * kNodes, 0.0) {}

double PanelFunction::node(int p, int j) const {
  const double a = edges_[static_cast<std::size_t>(p)], b = edges_[static_cast<std::size_t>(p) + 1];
  return 0.5 * (a + b) + 0.5 * (b - a) * detail::chebyshev_rule().x[static_cast<std::size_t>(j)];
}

double PanelFunction::on_panel(int p, double t) const {
  const double a = edges_[static_cast<std::size_t>(p)], b = edges_[static_cast<std::size_t>(p) + 1];
  const double x = (2.0 * t - a - b) / (b - a);
  const detail::NodeRule& r = detail::chebyshev_rule();
  double num = 0.0, den = 0.0;
  for (int j = 0; j < kNodes; ++j) {
    const double d = x - r.x[static_cast<std::size_t>(j)];
    if (d == 0.0) return value(p, j);
    const double c = r.w[static_cast<std::size_t>(j)] / d;
    num += c * value(p, j);
    den += c;
  }
  return num / den;
}

double PanelFunction::operator()(double t) const {
  // [front, back]: the end belongs to the last panel (the flux gauge reads a line's output at
  // t = T, the last step's edge; a piecewise pulse's end belongs to its last slice likewise).
  if (empty() || !(t >= edges_.front() && t <= edges_.back())) return 0.0;
  const auto it = std::upper_bound(edges_.begin(), edges_.end(), t);
  return on_panel(std::min(static_cast<int>(it - edges_.begin()) - 1, panels() - 1), t);
}

void PanelFunction::fill(const std::function<double(double)>& g) {
  for (int p = 0; p < panels(); ++p)
    for (int j = 0; j < kNodes; ++j) value(p, j) = g(node(p, j));
}

}  // namespace qevolve::pulse
