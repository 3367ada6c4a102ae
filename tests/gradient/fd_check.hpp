// The gradient tests' check: every entry of an adjoint gradient against a Richardson-
// extrapolated central difference of the same run (tests/gradient/test_gradient.cpp explains
// the step and the tolerance).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "qevolve/gradient.hpp"

namespace qevolve::testing {

/// Every entry of the adjoint gradient against a Richardson-extrapolated central difference
/// of the same run (tolerance max(1e-6 |g|, 1e-9)); prints the worst relative difference.
/// `step`: h = step max(|v|, 0.05); the coupler case takes 1e-5, its carriers being 10x faster.
inline void expect_adjoint_matches_fd(gradient::GradientProblem& problem, const std::string& label, double step = 1e-4) {
  const auto names = problem.names();
  const RVector x0 = problem.values();
  const gradient::Evaluation ev = problem.evaluate(true);
  ASSERT_EQ(ev.gradient.size(), x0.size());
  EXPECT_GT(ev.infidelity, 1e-3);  // far from any optimum: no gradient vanishes trivially
  double worst = 0.0;
  auto f_at = [&](Index i, double v) {
    RVector x = x0;
    x(i) = v;
    problem.set_values(x);
    return problem.evaluate(false).infidelity;
  };
  for (Index i = 0; i < x0.size(); ++i) {
    const double h = step * std::max(std::abs(x0(i)), 0.05);
    const double d1 = (f_at(i, x0(i) + h) - f_at(i, x0(i) - h)) / (2 * h);
    const double d2 = (f_at(i, x0(i) + 2 * h) - f_at(i, x0(i) - 2 * h)) / (4 * h);
    const double fd = (4 * d1 - d2) / 3;  // Richardson: error O(h^4)
    const double g = ev.gradient(i);
    const double tol = std::max(1e-6 * std::abs(fd), 1e-9);
    EXPECT_NEAR(g, fd, tol) << names[static_cast<std::size_t>(i)];
    worst = std::max(worst, std::abs(g - fd) / std::max(std::abs(fd), 1e-3));
  }
  problem.set_values(x0);
  std::printf("[ gradient ] %s: %lld parameters, 1-F = %.4e, worst |adjoint - FD| / max(|FD|, 1e-3) = %.2e\n",
              label.c_str(), static_cast<long long>(x0.size()), ev.infidelity, worst);
}

}  // namespace qevolve::testing
