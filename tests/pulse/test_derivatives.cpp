// Every derivative of every shape against a central finite difference of f(t). The finite
// difference rebuilds the pulse from a spec with one key changed and the other written keys
// unchanged -- the documented semantics (a shape key's derivative holds the other given keys
// fixed) -- so it checks derivatives() and Pulse::set() independently.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "pulse_test_util.hpp"
#include "qevolve/error.hpp"
#include "qevolve/pulse.hpp"

namespace qevolve::pulse {
namespace {

using testing::all_cases;
using testing::make_config;
using testing::spec_get;
using testing::spec_with;

/// Central-difference step per parameter. Truncation error ~ h^2 f'''/6 and rounding error
/// ~ 1e-16 |f| / h are both below 1e-9 of the derivative's scale for these steps: the largest
/// third derivative is d^3f/dfrequency^3 ~ A (2 pi tau)^3 ~ 2e6 with h = 1e-7 (error ~ 4e-9
/// against a derivative of ~20, i.e. 2e-10 relative).
double fd_step(const ParamRef& p) {
  switch (p.kind) {
    case Param::frequency: return 1e-7;  // GHz; the carrier phase 2 pi nu tau is ~300 rad
    case Param::amplitude:
    case Param::phase:
    case Param::c:
    case Param::value: return 1e-6;
    default: return 1e-5;  // ns: delay, duration, ramp, plateau, sigma, lambda
  }
}

/// Sample points as fractions of L: away from the window edges, the ramp kinks (0.24, 0.76 of
/// L = 50) and the piecewise slice edges (multiples of 0.2) by far more than any step.
constexpr double kFractions[] = {0.03, 0.11, 0.29, 0.47, 0.5, 0.53, 0.71, 0.88, 0.97};

// Acceptance: |FD - exact| <= 1e-7 * (largest |exact| of that parameter over the sample points).
// The FD error estimate above is ~1e-9 of that scale, so 1e-7 fails on any real formula error.
constexpr double kRelTol = 1e-7;

TEST(PulseDerivatives, EveryParameterOfEveryShapeMatchesFiniteDifferences) {
  const Config config = make_config();
  double worst = 0.0;
  for (const auto& [name, spec] : all_cases()) {
    const Pulse pulse(spec, 0.0, 1.0);
    const std::vector<ParamRef> params = pulse.parameters();
    std::vector<double> exact(params.size());
    for (std::size_t i = 0; i < params.size(); ++i) {
      const ParamRef& p = params[i];
      SCOPED_TRACE(name + " d/d" + p.name());
      const double v = spec_get(spec, p), h = fd_step(p);
      const Pulse plus(spec_with(spec, p, v + h), 0.0, 1.0);
      const Pulse minus(spec_with(spec, p, v - h), 0.0, 1.0);
      std::vector<double> ex, fd;
      for (const double frac : kFractions) {
        const double t = spec.delay + frac * pulse.duration();
        pulse.derivatives(t, params, exact);
        ex.push_back(exact[i]);
        fd.push_back((plus.value(t) - minus.value(t)) / (2.0 * h));
      }
      double scale = 0.0;
      for (const double e : ex) scale = std::max(scale, std::fabs(e));
      // Every derivative is nonzero somewhere except d/dduration of piecewise_constant, which
      // is zero almost everywhere (only the slice edges move).
      const bool zero_ae = spec.shape == Shape::piecewise_constant && p.kind == Param::duration;
      if (zero_ae) {
        EXPECT_EQ(scale, 0.0);
        for (const double f : fd) EXPECT_EQ(f, 0.0);
        continue;
      }
      ASSERT_GT(scale, 0.0);
      for (std::size_t k = 0; k < ex.size(); ++k) {
        const double dev = std::fabs(fd[k] - ex[k]) / scale;
        worst = std::max(worst, dev);
        EXPECT_LE(dev, kRelTol) << "t fraction " << kFractions[k] << " exact " << ex[k]
                                << " fd " << fd[k];
      }
    }
  }
  std::printf("max |FD - exact| / scale over all shapes and parameters: %.3g\n", worst);
}

TEST(PulseDerivatives, SetAgreesWithRebuildingFromTheSpec) {
  // set() keeps the other given keys fixed, exactly like rebuilding with one key changed.
  const Config config = make_config();
  for (const auto& [name, spec] : all_cases()) {
    const Pulse pulse(spec, 0.0, 1.0);
    for (const ParamRef& p : pulse.parameters()) {
      SCOPED_TRACE(name + " set " + p.name());
      const double v = spec_get(spec, p);
      EXPECT_NEAR(pulse.get(p), v, 1e-14 * std::max(1.0, std::fabs(v)));
      const double nv = v * 1.05 + 0.01;  // stays inside every domain for these cases
      Pulse changed = pulse;
      changed.set(p, nv);
      EXPECT_NEAR(changed.get(p), nv, 1e-14 * std::max(1.0, std::fabs(nv)));
      const Pulse rebuilt(spec_with(spec, p, nv), 0.0, 1.0);
      EXPECT_NEAR(changed.duration(), rebuilt.duration(), 1e-13 * rebuilt.duration());
      for (int i = 0; i <= 60; ++i) {
        const double t = spec.delay + rebuilt.duration() * (i + 0.41) / 61.0;
        EXPECT_NEAR(changed.value(t), rebuilt.value(t), 1e-13) << t;
      }
    }
  }
}

TEST(PulseDerivatives, ShapeKeysHoldTheOtherGivenKey) {
  const Config config = make_config();
  // rampcos given by duration + ramp: d/dramp keeps the duration, shrinks the plateau.
  PulseSpec s = testing::base_spec(Shape::rampcos);
  s.duration = 50.0, s.ramp = 12.0;
  Pulse a(s, 0.0, 1.0);
  a.set(ParamRef{Param::ramp, 0}, 14.0);
  EXPECT_DOUBLE_EQ(a.duration(), 50.0);
  EXPECT_DOUBLE_EQ(a.get(ParamRef{Param::plateau, 0}), 22.0);
  // given by ramp + plateau: d/dramp lengthens the pulse.
  PulseSpec r = testing::base_spec(Shape::rampcos);
  r.ramp = 12.0, r.plateau = 26.0;
  Pulse b(r, 0.0, 1.0);
  b.set(ParamRef{Param::ramp, 0}, 14.0);
  EXPECT_DOUBLE_EQ(b.duration(), 54.0);
  EXPECT_DOUBLE_EQ(b.get(ParamRef{Param::plateau, 0}), 26.0);
  // gaussian given by duration + sigma: c follows.
  PulseSpec g = testing::base_spec(Shape::gaussian);
  g.duration = 48.0, g.sigma = 6.0;
  Pulse c(g, 0.0, 1.0);
  c.set(ParamRef{Param::sigma, 0}, 8.0);
  EXPECT_DOUBLE_EQ(c.duration(), 48.0);
  EXPECT_DOUBLE_EQ(c.get(ParamRef{Param::c, 0}), 3.0);
}

TEST(PulseDerivatives, ZeroOutsideTheWindow) {
  const Config config = make_config();
  for (const auto& [name, spec] : all_cases()) {
    SCOPED_TRACE(name);
    const Pulse pulse(spec, 0.0, 1.0);
    const std::vector<ParamRef> params = pulse.parameters();
    std::vector<double> d(params.size(), 1.0);
    pulse.derivatives(spec.delay - 0.5, params, d);
    for (const double x : d) EXPECT_EQ(x, 0.0);
    std::fill(d.begin(), d.end(), 1.0);
    pulse.derivatives(pulse.end() + 0.5, params, d);
    for (const double x : d) EXPECT_EQ(x, 0.0);
  }
}

TEST(PulseDerivatives, PiecewiseValuesAreSliceIndicators) {
  PulseSpec s = testing::base_spec(Shape::piecewise_constant);
  s.duration = 10.0, s.delay = 0.0, s.frequency = 0.0, s.phase = 0.0;
  s.values = {1.0, 2.0, 3.0, 4.0, 5.0};
  const Pulse pulse(s, 0.0, 1.0);
  const std::vector<ParamRef> refs = parse_param("values", Shape::piecewise_constant, 5);
  std::vector<double> d(5);
  pulse.derivatives(4.5, refs, d);
  EXPECT_EQ(d, (std::vector<double>{0.0, 0.0, 1.0, 0.0, 0.0}));
  // d/ddelay and d/dduration are the a.e. derivatives: only the carrier moves (here: nothing).
  std::vector<ParamRef> dd = {ParamRef{Param::delay, 0}, ParamRef{Param::duration, 0}};
  std::vector<double> out(2, 7.0);
  pulse.derivatives(4.5, dd, out);
  EXPECT_EQ(out, (std::vector<double>{0.0, 0.0}));
}

TEST(PulseDerivatives, InvalidParametersAreRejected) {
  const Config config = make_config();
  PulseSpec s = testing::base_spec(Shape::rampcos);
  s.duration = 50.0, s.ramp = 12.0;
  Pulse pulse(s, 0.0, 1.0);
  const ParamRef plateau{Param::plateau, 0};
  EXPECT_FALSE(pulse.has_parameter(plateau));
  EXPECT_DOUBLE_EQ(pulse.get(plateau), 26.0);  // a derived key can be read
  EXPECT_THROW(pulse.set(plateau, 20.0), std::invalid_argument);
  std::vector<ParamRef> refs = {plateau};
  std::vector<double> out(1);
  EXPECT_THROW(pulse.derivatives(10.0, refs, out), std::invalid_argument);
  EXPECT_THROW((void)pulse.get(ParamRef{Param::sigma, 0}), std::invalid_argument);
  // Leaving the domain: NumericalError, pulse unchanged.
  EXPECT_THROW(pulse.set(ParamRef{Param::ramp, 0}, 26.0), NumericalError);
  EXPECT_THROW(pulse.set(ParamRef{Param::ramp, 0}, -1.0), NumericalError);
  EXPECT_THROW(pulse.set(ParamRef{Param::duration, 0}, 20.0), NumericalError);
  EXPECT_DOUBLE_EQ(pulse.get(ParamRef{Param::ramp, 0}), 12.0);
  EXPECT_DOUBLE_EQ(pulse.duration(), 50.0);
  pulse.set(ParamRef{Param::ramp, 0}, 25.0);  // plateau 0 is allowed
  EXPECT_DOUBLE_EQ(pulse.get(plateau), 0.0);

  PulseSpec t = testing::base_spec(Shape::tanh);
  t.duration = 50.0, t.sigma = 3.0, t.c = 2.5;
  Pulse th(t, 0.0, 1.0);
  try {
    th.set(ParamRef{Param::sigma, 0}, 10.0);
    FAIL() << "expected NumericalError";
  } catch (const NumericalError& e) {
    EXPECT_EQ(std::string(e.what()), "pulses[0].sigma = 10.000000: duration must exceed 2 c sigma");
  }
}

}  // namespace
}  // namespace qevolve::pulse
