// Gauss rules by Golub–Welsch: the nodes are the eigenvalues of the symmetric tridiagonal
// Jacobi matrix of the orthogonal polynomials of the weight, the weights the squared first
// components of its unit eigenvectors (times the weight's total mass, here 1).
//   Hermite (probabilists', He_k): diagonal 0, off-diagonal sqrt(k), k = 1 .. n - 1.
//   Legendre on [-1, 1] (P_k):     diagonal 0, off-diagonal k / sqrt(4 k^2 - 1).
#include "qevolve/quadrature.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <stdexcept>

#include "qevolve/error.hpp"
#include "qevolve/types.hpp"

namespace qevolve {
namespace {

template <typename OffDiagonal>
QuadratureRule golub_welsch(int n, OffDiagonal beta) {
  precondition(n >= 1, "gauss quadrature", "points", "at least one point");
  RMatrix J = RMatrix::Zero(n, n);
  for (int k = 1; k < n; ++k) J(k, k - 1) = J(k - 1, k) = beta(k);
  const Eigen::SelfAdjointEigenSolver<RMatrix> es(J);
  const Eigen::VectorXd& x = es.eigenvalues();
  double total = 0.0;
  for (int k = 0; k < n; ++k) total += es.eigenvectors()(0, k) * es.eigenvectors()(0, k);
  // The rule is symmetric about 0: mirrored nodes and their weights are averaged so that it is
  // exactly (the middle node of an odd rule is 0), and the weights are scaled to sum 1.
  QuadratureRule r;
  for (int k = 0; k < n; ++k) {
    const int m = n - 1 - k;
    const double vk = es.eigenvectors()(0, k), vm = es.eigenvectors()(0, m);
    r.nodes.push_back(0.5 * (x(k) - x(m)));
    r.weights.push_back(0.5 * (vk * vk + vm * vm) / total);
  }
  return r;
}

}  // namespace

QuadratureRule gauss_hermite(int n, double mean, double std) {
  precondition(std > 0.0, "gauss_hermite", "std", "a positive standard deviation");
  QuadratureRule r = golub_welsch(n, [](int k) { return std::sqrt(static_cast<double>(k)); });
  for (double& x : r.nodes) x = mean + std * x;
  return r;
}

QuadratureRule gauss_legendre(int n, double low, double high) {
  precondition(low < high, "gauss_legendre", "low", "low < high");
  QuadratureRule r = golub_welsch(n, [](int k) {
    const double kk = static_cast<double>(k);
    return kk / std::sqrt(4.0 * kk * kk - 1.0);
  });
  const double mid = 0.5 * (low + high), half = 0.5 * (high - low);
  for (double& x : r.nodes) x = mid + half * x;
  return r;
}

}  // namespace qevolve
