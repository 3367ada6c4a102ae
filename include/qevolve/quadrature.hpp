// Gauss quadrature rules for averages over a parameter's distribution (an uncertain device
// parameter's variants): n nodes and positive weights summing to 1 such that
// sum_k w_k f(x_k) = E[f(X)] exactly for every polynomial f of degree <= 2n - 1.
#pragma once

#include <vector>

namespace qevolve {

struct QuadratureRule {
  std::vector<double> nodes;    ///< ascending
  std::vector<double> weights;  ///< positive, sum 1
};

/// X ~ normal(mean, std), std > 0: Gauss–Hermite (probabilists' weight exp(-x^2/2)); n = 3
/// gives mean - sqrt(3) std, mean, mean + sqrt(3) std with weights 1/6, 2/3, 1/6.
[[nodiscard]] QuadratureRule gauss_hermite(int n, double mean, double std);
/// X ~ uniform(low, high), low < high: Gauss–Legendre mapped onto [low, high].
[[nodiscard]] QuadratureRule gauss_legendre(int n, double low, double high);

}  // namespace qevolve
