// Every envelope against the docs/pulses.md formulas (independent implementation in
// pulse_test_util.hpp), boundary values, spline properties, integrals and amplitude: auto.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "pulse_test_util.hpp"
#include "qevolve/pulse.hpp"

namespace qevolve::pulse {
namespace {

using testing::all_cases;
using testing::kPiT;
using testing::make_config;
using testing::ref_shape;
using testing::ref_unit;
using testing::ref_value;

// Both sides evaluate the same closed forms with different algebra; they agree to rounding.
// 1e-13 relative to the pulse's amplitude scale leaves room for ~100 ulp of cancellation (the
// tanh/erf normalisation (g - o)/(p - o) and the gaussian floor subtraction).
constexpr double kFormulaTol = 1e-13;

TEST(PulseEnvelope, EveryShapeMatchesPhysicsFormulaAtManyTimes) {
  const Config config = make_config();
  for (const auto& [name, spec] : all_cases()) {
    SCOPED_TRACE(name);
    const Pulse pulse(spec, 0.0, 1.0);
    const double L = ref_shape(spec).L;
    ASSERT_NEAR(pulse.duration(), L, 1e-12 * L);
    EXPECT_DOUBLE_EQ(pulse.start(), spec.delay);
    EXPECT_NEAR(pulse.end(), spec.delay + L, 1e-12 * L);
    double scale = 0.0;
    for (int i = 0; i <= 400; ++i) scale = std::max(scale, std::fabs(ref_value(spec, 0.07, spec.delay + L * i / 400.0)));
    ASSERT_GT(scale, 0.0);
    for (int i = -3; i <= 403; ++i) {
      // 0.37 offsets avoid landing exactly on slice or ramp boundaries.
      const double t = spec.delay + L * (i + 0.37) / 400.0;
      EXPECT_NEAR(pulse.value(t), ref_value(spec, 0.07, t), kFormulaTol * scale) << "t=" << t;
    }
  }
}

TEST(PulseEnvelope, ZeroOutsideTheWindowAndAtTheEnds) {
  const Config config = make_config();
  for (const auto& [name, spec] : all_cases()) {
    SCOPED_TRACE(name);
    const Pulse pulse(spec, 0.0, 1.0);
    const double L = pulse.duration();
    EXPECT_EQ(pulse.value(spec.delay - 1e-9), 0.0);
    EXPECT_EQ(pulse.value(spec.delay + L + 1e-9), 0.0);
    EXPECT_EQ(pulse.value(-1e6), 0.0);
    EXPECT_EQ(pulse.envelope(-1e-12), 0.0);
    EXPECT_EQ(pulse.envelope(L * (1.0 + 1e-12)), 0.0);
    const Shape s = spec.shape;
    if (s == Shape::piecewise_constant || s == Shape::spline) continue;
    // Bump shapes: 0 at both ends, A at the centre (docs/pulses.md "Shapes").
    EXPECT_NEAR(pulse.envelope(0.0), 0.0, 1e-15);
    EXPECT_NEAR(pulse.envelope(L), 0.0, 1e-15);
    EXPECT_NEAR(pulse.envelope(L / 2.0), 0.07, 1e-15);
  }
}

TEST(PulseEnvelope, TanhAndErfAreFlatTopsWithSigmaEdges) {
  // A long tanh/erf pulse is ~A on its plateau and ~A/2 where each edge is centred.
  for (const Shape sh : {Shape::tanh, Shape::erf}) {
    PulseSpec s = testing::base_spec(sh);
    s.duration = 200.0, s.sigma = 2.0, s.c = 4.0;
    const Pulse pulse(s, 0.0, 1.0);
    EXPECT_NEAR(pulse.envelope(100.0), 0.07, 1e-15);
    EXPECT_NEAR(pulse.envelope(60.0), 0.07, 1e-9);
    // At tau = c sigma: g = h(0)/2 + h(L/sigma - 2c)/2 ~ 1/2.
    EXPECT_NEAR(pulse.envelope(8.0), 0.035, 2e-3);
    EXPECT_NEAR(pulse.envelope(192.0), 0.035, 2e-3);
  }
}

TEST(PulseEnvelope, PiecewiseSlicesAndSplineEndpoints) {
  const Config config = make_config();
  PulseSpec p = testing::base_spec(Shape::piecewise_constant);
  p.duration = 10.0;
  p.values = {1.0, 2.0, 3.0, 4.0, 5.0};
  const Pulse pw(p, 0.0, 1.0);
  EXPECT_EQ(pw.amplitude(), 1.0);
  EXPECT_EQ(pw.envelope(0.0), 1.0);
  EXPECT_EQ(pw.envelope(1.999), 1.0);
  EXPECT_EQ(pw.envelope(2.001), 2.0);
  EXPECT_EQ(pw.envelope(9.999), 5.0);
  EXPECT_EQ(pw.envelope(10.0), 5.0);  // tau = L belongs to the last slice

  PulseSpec b = testing::base_spec(Shape::spline);
  b.duration = 12.0;
  b.values = {0.7, -0.2, 0.5, 1.1, -0.4, 0.9};
  const Pulse sp(b, 0.0, 1.0);
  EXPECT_NEAR(sp.envelope(0.0), 0.7, 1e-15);
  EXPECT_NEAR(sp.envelope(12.0), 0.9, 1e-15);
}

TEST(PulseEnvelope, SplineBasisIsAPartitionOfUnityAndMatchesCoxDeBoor) {
  // With frequency 0 and phase 0, df/dvalues[k] = B_k(tau).
  const Config config = make_config();
  for (const int n : {4, 5, 9}) {
    SCOPED_TRACE(n);
    PulseSpec b = testing::base_spec(Shape::spline);
    b.frequency = 0.0, b.phase = 0.0, b.delay = 0.0, b.duration = 7.0;
    b.values.assign(static_cast<std::size_t>(n), 1.0);
    const Pulse sp(b, 0.0, 1.0);
    std::vector<ParamRef> refs = parse_param("values", Shape::spline, n);
    ASSERT_EQ(refs.size(), static_cast<std::size_t>(n));
    std::vector<double> d(refs.size());
    const std::vector<double> knots = testing::clamped_knots(n, 7.0);
    for (int i = 0; i <= 140; ++i) {
      const double t = 7.0 * i / 140.0;
      EXPECT_NEAR(sp.value(t), 1.0, 1e-14) << t;  // all values 1 -> env = sum B_k = 1
      sp.derivatives(t, refs, d);
      double sum = 0.0;
      for (int k = 0; k < n; ++k) {
        sum += d[static_cast<std::size_t>(k)];
        EXPECT_NEAR(d[static_cast<std::size_t>(k)], testing::cox_de_boor(knots, k, 3, t), 1e-14);
        EXPECT_GE(d[static_cast<std::size_t>(k)], -1e-15);
      }
      EXPECT_NEAR(sum, 1.0, 1e-14);
    }
  }
}

TEST(PulseEnvelope, UnitIntegralMatchesQuadrature) {
  const Config config = make_config();
  for (const auto& [name, spec] : all_cases()) {
    SCOPED_TRACE(name);
    const Pulse pulse(spec, 0.0, 1.0);
    const testing::RefShape r = ref_shape(spec);
    const Shape kind = spec.shape == Shape::drag ? spec.base : spec.shape;
    std::vector<double> breaks = {0.0, r.L};
    if (kind == Shape::rampcos || kind == Shape::trapezoid) {
      breaks.push_back(r.ramp);
      breaks.push_back(r.L - r.ramp);
    }
    if (kind == Shape::piecewise_constant || kind == Shape::spline) {
      const int n = static_cast<int>(r.values.size());
      const int pieces = kind == Shape::spline ? n - 3 : n;
      for (int k = 1; k < pieces; ++k) breaks.push_back(r.L * k / pieces);
    }
    // 8-point Gauss-Legendre on 64 panels per smooth piece: converged to rounding for these
    // analytic integrands (checked: halving the panels changes nothing at 1e-14).
    const double quad = testing::integrate([&](double tau) { return ref_unit(r, kind, tau); }, breaks, 64);
    const double coarse = testing::integrate([&](double tau) { return ref_unit(r, kind, tau); }, breaks, 32);
    ASSERT_NEAR(quad, coarse, 1e-13 * std::fabs(quad));
    EXPECT_NEAR(pulse.unit_envelope_integral(), quad, 1e-12 * std::fabs(quad));
  }
}

TEST(PulseEnvelope, ClosedFormIntegralsOfSimpleShapes) {
  const Config config = make_config();
  PulseSpec c = testing::base_spec(Shape::cos);
  c.duration = 40.0;
  EXPECT_DOUBLE_EQ(Pulse(c, 0.0, 1.0).unit_envelope_integral(), 20.0);
  PulseSpec r = testing::base_spec(Shape::rampcos);
  r.duration = 50.0, r.ramp = 10.0;
  EXPECT_DOUBLE_EQ(Pulse(r, 0.0, 1.0).unit_envelope_integral(), 40.0);  // plateau + ramp
  r.shape = Shape::trapezoid;
  EXPECT_DOUBLE_EQ(Pulse(r, 0.0, 1.0).unit_envelope_integral(), 40.0);
}

TEST(PulseAuto, CosAmplitudeReproducesTheRotationAngle) {
  // docs/pulses.md "`auto` values": for cos, A = theta / (pi L |<0|O|1>|).
  PulseSpec s = testing::base_spec(Shape::cos);
  s.duration = 40.0;
  s.amplitude_auto = true;
  s.angle = kPiT;
  s.amplitude = 123.0;  // ignored with auto
  const double m01 = 2.131013;
  const Pulse pulse(s, 0.0, m01);
  EXPECT_NEAR(pulse.amplitude(), kPiT / (kPiT * 40.0 * m01), 1e-16);
}

TEST(PulseAuto, EveryAmplitudeShapeReproducesTheAngle) {
  // 2 pi |<0|O|1>| A int e = theta, with int e from independent quadrature.
  const Config config = make_config();
  for (const auto& [name, spec0] : all_cases()) {
    if (spec0.shape == Shape::piecewise_constant || spec0.shape == Shape::spline) continue;
    SCOPED_TRACE(name);
    PulseSpec spec = spec0;
    spec.amplitude_auto = true;
    spec.angle = 0.5 * kPiT;
    const double m01 = 0.8;
    const Pulse pulse(spec, 0.0, m01);
    const testing::RefShape r = ref_shape(spec);
    const Shape kind = spec.shape == Shape::drag ? spec.base : spec.shape;
    std::vector<double> breaks = {0.0, r.L};
    if (kind == Shape::rampcos || kind == Shape::trapezoid) {
      breaks.push_back(r.ramp);
      breaks.push_back(r.L - r.ramp);
    }
    const double integral = testing::integrate([&](double tau) { return ref_unit(r, kind, tau); }, breaks, 64);
    EXPECT_NEAR(2.0 * kPiT * m01 * pulse.amplitude() * integral, 0.5 * kPiT, 1e-12);
  }
}

TEST(PulseAuto, FrequencyAutoUsesThePassedValue) {
  PulseSpec s = testing::base_spec(Shape::cos);
  s.duration = 40.0;
  s.frequency_mode = FrequencyMode::auto_dressed;
  s.frequency = 9.0;  // ignored
  EXPECT_EQ(Pulse(s, 0.5821936219, 1.0).frequency(), 0.5821936219);
  s.frequency_mode = FrequencyMode::value;
  EXPECT_EQ(Pulse(s, 0.5821936219, 1.0).frequency(), 9.0);
}

TEST(PulseCrosstalk, IsNotAppliedByThePulse) {
  // Crosstalk factors belong to the simulator: a pulse with crosstalk entries is the same pulse.
  const Config config = make_config();
  for (const auto& [name, spec] : all_cases()) {
    SCOPED_TRACE(name);
    PulseSpec with = spec;
    with.crosstalk = {{"q1", 0.05}, {"q2", -0.3}};
    const Pulse a(spec, 0.0, 1.0), b(with, 0.0, 1.0);
    const std::vector<ParamRef> refs = a.parameters();
    ASSERT_EQ(refs, b.parameters());
    std::vector<double> da(refs.size()), db(refs.size());
    for (int i = 0; i < 50; ++i) {
      const double t = spec.delay + a.duration() * (i + 0.5) / 50.0;
      EXPECT_EQ(a.value(t), b.value(t));
      a.derivatives(t, refs, da);
      b.derivatives(t, refs, db);
      EXPECT_EQ(da, db);
    }
  }
}

}  // namespace
}  // namespace qevolve::pulse
