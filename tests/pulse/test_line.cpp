// Control lines (include/qevolve/line.hpp) against closed forms: each filter's step response,
// the Gaussian of held samples, the exactness of pre-distortion, and every line-parameter
// derivative against central differences. (Waveforms of whole configs against an independent
// numpy reference: python/tests/test_lines.py.)
#include <gtest/gtest.h>

#include <cmath>

#include "qevolve/line.hpp"

namespace qevolve::pulse {
namespace {

constexpr double kT = 60.0;

/// A unit step at t0 (held: the first sample at or after t0 is 1).
LineInput step(double t0) {
  return {[t0](double t) { return t >= t0 ? 1.0 : 0.0; }, {t0}, 0.0};
}

/// A smooth pulse: sin^2 on [5, 45] (continuous with its slope), zero elsewhere.
LineInput bump() {
  return {[](double t) {
            if (t < 5.0 || t > 45.0) return 0.0;
            const double s = std::sin(3.14159265358979323846 * (t - 5.0) / 40.0);
            return 0.3 * s * s;
          },
          {5.0, 45.0}, 0.0};
}

LineSpec line(std::optional<double> rate, std::vector<FilterSpec> filters, bool predistort = false) {
  LineSpec s;
  s.name = "z";
  s.sample_rate = rate;
  s.filters = std::move(filters);
  s.predistort = predistort;
  for (std::size_t i = 0; i < s.filters.size(); ++i) s.filters[i].path = "lines[0].filters[" + std::to_string(i) + "]";
  return s;
}

FilterSpec gaussian(double sigma) { return {FilterType::gaussian, sigma, 0.0, 0.0, {}, {}, {}}; }
FilterSpec highpass(double tau) { return {FilterType::highpass, 0.0, tau, 0.0, {}, {}, {}}; }
FilterSpec exponential(double a, double tau) { return {FilterType::exponential, 0.0, tau, a, {}, {}, {}}; }
FilterSpec fir(std::vector<double> taps) { return {FilterType::fir, 0.0, 0.0, 0.0, std::move(taps), {}, {}}; }

/// Largest |line output - expected| over a fine set of times in [0, T] (avoiding the jump).
template <typename F>
double worst(const PanelFunction& y, F expected, double skip = -1.0) {
  double e = 0.0;
  for (int k = 0; k <= 6000; ++k) {
    const double t = std::min(kT * k / 6000.0 + 1e-7, kT - 1e-9);
    if (std::abs(t - skip) < 1e-6) continue;
    e = std::max(e, std::abs(y(t) - expected(t)));
  }
  return e;
}

TEST(Line, HighpassStepResponse) {
  const PanelFunction y = Line(line(std::nullopt, {highpass(20.0)})).apply(step(10.0), kT);
  EXPECT_LT(worst(y, [](double t) { return t < 10.0 ? 0.0 : std::exp(-(t - 10.0) / 20.0); }, 10.0), 1e-12);
}

TEST(Line, ExponentialStepResponseSampled) {
  // Sampled at 2 GS/s a step at 10 ns is the same step (10 ns is a sample time).
  const PanelFunction y = Line(line(2.0, {exponential(0.3, 5.0)})).apply(step(10.0), kT);
  EXPECT_LT(worst(y, [](double t) { return t < 10.0 ? 0.0 : 1.0 + 0.3 * std::exp(-(t - 10.0) / 5.0); }, 10.0),
            1e-12);
}

TEST(Line, GaussianOfHeldSamplesIsErf) {
  // Held at 2.4 GS/s, a step at 10.1 ns starts at the first sample time after it, 25/2.4.
  const double t1 = 25.0 / 2.4, sigma = 0.5;
  const PanelFunction y = Line(line(2.4, {gaussian(sigma)})).apply(step(10.1), kT);
  EXPECT_LT(worst(y, [&](double t) { return 0.5 * std::erfc(-(t - t1) / (sigma * std::sqrt(2.0))); }), 1e-13);
}

TEST(Line, FirShiftsHeldSamples) {
  const PanelFunction y = Line(line(2.0, {fir({0.25, 0.5, 0.25})})).apply(step(10.0), kT);
  EXPECT_LT(worst(y, [](double t) { return t < 10.0 ? 0.0 : t < 10.5 ? 0.25 : t < 11.0 ? 0.75 : 1.0; }, 10.0),
            1e-13);
}

TEST(Line, PredistortionInvertsTheIirFiltersExactly) {
  // Unsampled, without a Gaussian: the pre-distorted pulse through the line is the pulse.
  const LineInput in = bump();
  const PanelFunction y =
      Line(line(std::nullopt, {highpass(300.0), exponential(-0.02, 30.0), exponential(0.4, 3.0)}, true)).apply(in, kT);
  EXPECT_LT(worst(y, in.f), 1e-12);
}

TEST(Line, ChainOrderDoesNotMatter) {
  const LineInput in = bump();
  const PanelFunction a = Line(line(std::nullopt, {gaussian(0.7), highpass(40.0), exponential(0.1, 8.0)})).apply(in, kT);
  const PanelFunction b = Line(line(std::nullopt, {exponential(0.1, 8.0), highpass(40.0), gaussian(0.7)})).apply(in, kT);
  EXPECT_LT(worst(a, [&](double t) { return b(t); }), 1e-15);
}

/// Every line parameter's derivative against a central difference of the output.
void check_derivatives(LineSpec spec, const LineInput& in) {
  for (std::size_t i = 0; i < spec.filters.size(); ++i) {
    FilterSpec& f = spec.filters[i];
    if (f.type == FilterType::gaussian) f.optimize = {"sigma"};
    if (f.type == FilterType::highpass) f.optimize = {"tau"};
    if (f.type == FilterType::exponential) f.optimize = {"amplitude", "tau"};
    if (f.type == FilterType::fir) f.optimize = {"taps"};
  }
  const Line nominal(spec);
  for (const LineParam& p : nominal.trainable()) {
    const double v = nominal.get(p), h = 1e-4 * std::max(1.0, std::abs(v));
    Line plus = nominal, minus = nominal;
    plus.set(p, v + h);
    minus.set(p, v - h);
    const PanelFunction d = nominal.derivative(in, kT, p), yp = plus.apply(in, kT), ym = minus.apply(in, kT);
    double scale = 0.0;
    for (int k = 0; k <= 600; ++k) scale = std::max(scale, std::abs(d(kT * k / 600.0 + 1e-7)));
    const double err = worst(d, [&](double t) { return (yp(t) - ym(t)) / (2.0 * h); });
    EXPECT_LT(err, 1e-7 * std::max(scale, 1e-3)) << spec.filters[static_cast<std::size_t>(p.filter)].path << "." << p.name()
                                                 << " (largest derivative " << scale << ")";
  }
}

TEST(Line, ParameterDerivativesMatchDifferencesSampled) {
  check_derivatives(line(2.4, {gaussian(0.5), highpass(100.0), exponential(-0.05, 12.0), fir({0.1, 0.8, 0.1})}, true),
                    bump());
}

TEST(Line, ParameterDerivativesMatchDifferencesContinuous) {
  check_derivatives(line(std::nullopt, {gaussian(0.6), highpass(50.0), exponential(0.2, 4.0)}, true), bump());
}

}  // namespace
}  // namespace qevolve::pulse
