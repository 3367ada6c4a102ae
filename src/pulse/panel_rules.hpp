// Node rules of the line's panels (src/pulse/panel_function.cpp): the Chebyshev points of
// PanelFunction and the Gauss-Legendre rule the filters integrate with.
#pragma once

#include <array>

#include "qevolve/line.hpp"

namespace qevolve::pulse::detail {

/// Gauss-Legendre points per integral: exact for polynomials of degree 2 kGaussNodes - 1, so a
/// panel's degree-15 interpolant times a smooth kernel is integrated to rounding.
constexpr int kGaussNodes = 20;

struct NodeRule {
  std::array<double, 32> x{};  ///< on [-1, 1], ascending
  std::array<double, 32> w{};  ///< barycentric weights (Chebyshev) or quadrature weights (Gauss)
};

[[nodiscard]] const NodeRule& chebyshev_rule();
[[nodiscard]] const NodeRule& gauss_rule();

}  // namespace qevolve::pulse::detail
