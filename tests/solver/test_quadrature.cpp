// Gauss rules (include/qevolve/quadrature.hpp) against published tables (Abramowitz & Stegun,
// Table 25.4: Gauss–Legendre and Gauss–Hermite abscissae and weights) and against the exact
// moments a rule of n points integrates (every polynomial of degree <= 2n - 1).
// Tolerance 2e-15 relative: the nodes are eigenvalues of a symmetric tridiagonal matrix of norm
// < 2 sqrt(n), computed to a few ulp of it; the tables give 15-16 digits. The moments x^k, k up
// to 23, carry k times a node's relative error: 1e-13 (Hermite) and 1e-14 (Legendre, nodes in
// [-1, 1]) of the terms' size.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "qevolve/error.hpp"
#include "qevolve/quadrature.hpp"

namespace qevolve::test {
namespace {

void expect_rule(const QuadratureRule& r, const std::vector<double>& nodes, const std::vector<double>& weights,
                 double tol) {
  ASSERT_EQ(r.nodes.size(), nodes.size());
  ASSERT_EQ(r.weights.size(), weights.size());
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    EXPECT_NEAR(r.nodes[k], nodes[k], tol * std::max(1.0, std::abs(nodes[k]))) << "node " << k;
    EXPECT_NEAR(r.weights[k], weights[k], tol) << "weight " << k;
  }
}

double moment(const QuadratureRule& r, int power) {
  double sum = 0.0;
  for (std::size_t k = 0; k < r.nodes.size(); ++k) sum += r.weights[k] * std::pow(r.nodes[k], power);
  return sum;
}

/// The size of the terms of moment(): its rounding is relative to this, not to the moment (an odd
/// moment is 0 by cancellation of terms up to 1e9 for n = 12).
double moment_scale(const QuadratureRule& r, int power) {
  double sum = 0.0;
  for (std::size_t k = 0; k < r.nodes.size(); ++k) sum += r.weights[k] * std::pow(std::abs(r.nodes[k]), power);
  return sum;
}

TEST(Quadrature, GaussLegendreMatchesTheTable) {
  // A&S 25.4, n = 5 on [-1, 1]; the weights there sum to 2, ours (a mean) to 1.
  const double a = 0.906179845938663993, b = 0.538469310105683091;
  const double wa = 0.236926885056189088, wb = 0.478628670499366468, w0 = 0.568888888888888889;
  expect_rule(gauss_legendre(5, -1.0, 1.0), {-a, -b, 0.0, b, a}, {wa / 2, wb / 2, w0 / 2, wb / 2, wa / 2}, 2e-15);
  // Mapped onto [low, high]: nodes move affinely, weights stay.
  expect_rule(gauss_legendre(5, 0.018, 0.022), {0.02 - 0.002 * a, 0.02 - 0.002 * b, 0.02, 0.02 + 0.002 * b, 0.02 + 0.002 * a},
              {wa / 2, wb / 2, w0 / 2, wb / 2, wa / 2}, 2e-15);
  expect_rule(gauss_legendre(1, 2.0, 4.0), {3.0}, {1.0}, 0.0);
}

TEST(Quadrature, GaussHermiteMatchesTheTable) {
  // The 3-point rule: mean -+ sqrt(3) std with 1/6, and the mean with 2/3.
  expect_rule(gauss_hermite(3, 1.0, 0.01), {1.0 - std::sqrt(3.0) * 0.01, 1.0, 1.0 + std::sqrt(3.0) * 0.01},
              {1.0 / 6, 2.0 / 3, 1.0 / 6}, 2e-15);
  // A&S 25.4, n = 5, weight exp(-x^2) (physicists'): x = t sqrt(2) and w / sqrt(pi) for ours.
  const double a = 2.020182870456085632929, b = 0.958572464613818507112;
  const double wa = 0.01995324205904591, wb = 0.3936193231522412, w0 = 0.9453087204829419;
  const double s = std::sqrt(2.0), p = std::sqrt(M_PI);
  expect_rule(gauss_hermite(5, 0.0, 1.0), {-a * s, -b * s, 0.0, b * s, a * s}, {wa / p, wb / p, w0 / p, wb / p, wa / p},
              2e-15);
  expect_rule(gauss_hermite(1, 0.5, 3.0), {0.5}, {1.0}, 0.0);
}

TEST(Quadrature, NPointsIntegrateEveryPolynomialOfDegreeBelow2N) {
  for (int n = 1; n <= 12; ++n) {
    // normal(0, 1): E[X^k] = (k - 1)!! for even k, 0 for odd k.
    const QuadratureRule h = gauss_hermite(n, 0.0, 1.0);
    double double_factorial = 1.0;
    for (int k = 0; k <= 2 * n - 1; ++k) {
      if (k >= 2 && k % 2 == 0) double_factorial *= k - 1;
      const double exact = k % 2 == 1 ? 0.0 : double_factorial;
      EXPECT_NEAR(moment(h, k), exact, 1e-13 * moment_scale(h, k)) << "hermite n " << n << " k " << k;
    }
    // uniform(-1, 1): E[X^k] = 1 / (k + 1) for even k.
    const QuadratureRule l = gauss_legendre(n, -1.0, 1.0);
    for (int k = 0; k <= 2 * n - 1; ++k)
      EXPECT_NEAR(moment(l, k), k % 2 == 1 ? 0.0 : 1.0 / (k + 1), 1e-14 * moment_scale(l, k))
          << "legendre n " << n << " k " << k;
    double sum = 0.0;
    for (double w : h.weights) {
      EXPECT_GT(w, 0.0);
      sum += w;
    }
    EXPECT_NEAR(sum, 1.0, 1e-15);
  }
}

TEST(Quadrature, PreconditionsAreProgrammingErrors) {
  EXPECT_THROW((void)gauss_hermite(0, 0.0, 1.0), std::logic_error);
  EXPECT_THROW((void)gauss_hermite(3, 0.0, 0.0), std::logic_error);
  EXPECT_THROW((void)gauss_legendre(3, 1.0, 1.0), std::logic_error);
}

}  // namespace
}  // namespace qevolve::test
