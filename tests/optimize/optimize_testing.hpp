// Synthetic objectives with known minima for the optimiser tests.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "qevolve/optimizer.hpp"

namespace qevolve::testing {

inline constexpr double kInf = std::numeric_limits<double>::infinity();

/// f = (1 - x)^2 + 100 (y - x^2)^2 + 1e-9 (so that f > 0 and a target of 0 never fires).
/// aux = the evaluation's number, so that replay can be checked; restore() counts.
class Rosenbrock : public optimize::Objective {
 public:
  RVector lo = RVector::Constant(2, -kInf), hi = RVector::Constant(2, kInf);
  int evaluations = 0, restores = 0;
  std::vector<double> values;    // f of every live evaluation, in order
  std::vector<double> restored;  // aux of every replayed evaluation, in order
  double min_x = kInf, max_x = -kInf;
  double shift = 0.0;  // added to f: another objective with the same points

  [[nodiscard]] std::vector<std::string> names() const override { return {"x", "y"}; }
  [[nodiscard]] RVector lower() const override { return lo; }
  [[nodiscard]] RVector upper() const override { return hi; }
  double evaluate(const RVector& v, RVector& g, RVector& aux) override {
    ++evaluations;
    const double x = v(0), y = v(1);
    min_x = std::min(min_x, x);
    max_x = std::max(max_x, x);
    g.resize(2);
    g(0) = -2 * (1 - x) - 400 * x * (y - x * x);
    g(1) = 200 * (y - x * x);
    aux = RVector::Constant(1, static_cast<double>(evaluations + restores));
    const double f = (1 - x) * (1 - x) + 100 * (y - x * x) * (y - x * x) + 1e-9 + shift;
    values.push_back(f);
    return f;
  }
  void restore(const RVector& aux) override {
    ++restores;
    restored.push_back(aux.size() == 1 ? aux(0) : -1.0);
  }
};

/// f = |x - (0.3, -0.7)|^2, no aux.
class Quadratic : public optimize::Objective {
 public:
  RVector lo = RVector::Constant(2, -kInf), hi = RVector::Constant(2, kInf);
  double min_y = kInf;
  [[nodiscard]] std::vector<std::string> names() const override { return {"a", "b"}; }
  [[nodiscard]] RVector lower() const override { return lo; }
  [[nodiscard]] RVector upper() const override { return hi; }
  double evaluate(const RVector& v, RVector& g, RVector& /*aux*/) override {
    RVector c(2);
    c << 0.3, -0.7;
    min_y = std::min(min_y, v(1));
    g = 2 * (v - c);
    return (v - c).squaredNorm();
  }
  void restore(const RVector& /*aux*/) override {}
};

/// The classic start point (-1.2, 1).
inline RVector start() {
  RVector x(2);
  x << -1.2, 1.0;
  return x;
}

/// Settings with the target disabled and the given iteration budget.
inline optimize::Settings settings(int iterations) {
  optimize::Settings s;
  s.max_iterations = iterations;
  s.target_infidelity = 0.0;  // never
  return s;
}

/// A fresh path in the temporary folder, unique to this process.
inline std::string temp_path(const std::string& name) {
  const auto p = std::filesystem::temp_directory_path() /
                 ("qevolve-opt-" + std::to_string(::getpid()) + "-" + name);
  std::filesystem::remove(p);
  return p.string();
}

}  // namespace qevolve::testing
