// Resolution of a PulseSpec: the two-of-three rule, auto values, the preconditions of a spec
// that skipped the resolution stage (whose messages tests/config/test_config_pulse_spec.cpp
// checks), parameter names and trainable().
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "pulse_test_util.hpp"
#include "qevolve/error.hpp"
#include "qevolve/pulse.hpp"

namespace qevolve::pulse {
namespace {

using testing::base_spec;
using testing::make_config;

/// The NumericalError `Pulse(s, 0.5, m01)` throws ("" if none).
std::string build_error(const PulseSpec& s, double m01) {
  try {
    (void)Pulse(s, 0.5, m01);
  } catch (const NumericalError& e) {
    return e.what();
  }
  return "";
}

TEST(PulseResolve, RampFamilyTwoOfThree) {
  const Config config = make_config();
  PulseSpec s = base_spec(Shape::rampcos);
  s.duration = 50.0, s.plateau = 30.0;
  const Pulse a(s, 0.0, 1.0);
  EXPECT_DOUBLE_EQ(a.get(ParamRef{Param::ramp, 0}), 10.0);
  EXPECT_TRUE(a.has_parameter(ParamRef{Param::duration, 0}));
  EXPECT_TRUE(a.has_parameter(ParamRef{Param::plateau, 0}));
  EXPECT_FALSE(a.has_parameter(ParamRef{Param::ramp, 0}));

  PulseSpec t = base_spec(Shape::trapezoid);
  t.ramp = 5.0, t.plateau = 30.0;
  const Pulse b(t, 0.0, 1.0);
  EXPECT_DOUBLE_EQ(b.duration(), 40.0);
  EXPECT_FALSE(b.has_parameter(ParamRef{Param::duration, 0}));

  // All three, consistent: duration and ramp are held, plateau follows.
  s.ramp = 10.0;
  const Pulse c(s, 0.0, 1.0);
  EXPECT_TRUE(c.has_parameter(ParamRef{Param::ramp, 0}));
  EXPECT_FALSE(c.has_parameter(ParamRef{Param::plateau, 0}));
  EXPECT_DOUBLE_EQ(c.get(ParamRef{Param::plateau, 0}), 30.0);

  // plateau 0 is a valid (pure ramp) pulse.
  PulseSpec z = base_spec(Shape::trapezoid);
  z.duration = 20.0, z.plateau = 0.0;
  EXPECT_DOUBLE_EQ(Pulse(z, 0.0, 1.0).envelope(10.0), 0.07);
}

TEST(PulseResolve, GaussianTwoOfThreeAndTanhNeedsAllThree) {
  const Config config = make_config();
  PulseSpec g = base_spec(Shape::gaussian);
  g.sigma = 5.0, g.c = 3.0;
  EXPECT_DOUBLE_EQ(Pulse(g, 0.0, 1.0).duration(), 30.0);
  g.sigma.reset();
  g.duration = 30.0;
  EXPECT_DOUBLE_EQ(Pulse(g, 0.0, 1.0).get(ParamRef{Param::sigma, 0}), 5.0);
  g.sigma = 5.0;  // three, consistent
  const Pulse three(g, 0.0, 1.0);
  EXPECT_TRUE(three.has_parameter(ParamRef{Param::sigma, 0}));
  EXPECT_FALSE(three.has_parameter(ParamRef{Param::c, 0}));

  PulseSpec t = base_spec(Shape::tanh);
  t.duration = 40.0, t.sigma = 2.0, t.c = 3.0;
  const Pulse th(t, 0.0, 1.0);
  for (const Param p : {Param::duration, Param::sigma, Param::c}) {
    EXPECT_TRUE(th.has_parameter(ParamRef{p, 0}));
  }
}

TEST(PulseResolve, PreconditionsOfAnUncheckedSpec) {
  // The resolution stage refuses these with located messages (io::check_pulse_spec,
  // tests/config/test_config_pulse_spec.cpp); the pulse only asserts what it reads.
  PulseSpec s = base_spec(Shape::rampcos);
  s.duration = 50.0;  // one of three
  EXPECT_THROW((void)Pulse(s, 0.0, 1.0), std::logic_error);
  s = base_spec(Shape::cos);  // no duration
  EXPECT_THROW((void)Pulse(s, 0.0, 1.0), std::logic_error);
  s = base_spec(Shape::tanh);
  s.duration = 40.0, s.sigma = 2.0;  // not all three
  EXPECT_THROW((void)Pulse(s, 0.0, 1.0), std::logic_error);
  s = base_spec(Shape::spline);
  s.duration = 10.0, s.values = {1.0, 2.0, 3.0};
  EXPECT_THROW((void)Pulse(s, 0.0, 1.0), std::logic_error);
  s = base_spec(Shape::drag);
  s.duration = 40.0, s.base = Shape::tanh;
  EXPECT_THROW((void)Pulse(s, 0.0, 1.0), std::logic_error);
  s = base_spec(Shape::cos);
  s.duration = 40.0, s.amplitude_auto = true;  // no angle
  EXPECT_THROW((void)Pulse(s, 0.0, 1.0), std::logic_error);
}

TEST(PulseResolve, AutoAmplitudeNeedsAMatrixElement) {
  PulseSpec s = base_spec(Shape::cos);
  s.duration = 40.0;
  s.amplitude_auto = true;
  s.angle = 3.0;
  EXPECT_EQ(build_error(s, 0.0), "pulses[0].amplitude: amplitude: auto needs "
                                 "a nonzero |<0|O|1>| of the drive operator, got 0");
  EXPECT_EQ(build_error(s, 1.0), "");
}

TEST(PulseParams, NamesAndParsing) {
  EXPECT_EQ((ParamRef{Param::value, 3}).name(), "values[3]");
  EXPECT_EQ((ParamRef{Param::lambda, 0}).name(), "lambda");
  const std::vector<std::pair<Param, std::string>> all = {
      {Param::amplitude, "amplitude"}, {Param::frequency, "frequency"}, {Param::phase, "phase"},
      {Param::delay, "delay"},         {Param::duration, "duration"},   {Param::ramp, "ramp"},
      {Param::plateau, "plateau"},     {Param::sigma, "sigma"},         {Param::c, "c"}};
  for (const auto& [p, n] : all) EXPECT_EQ((ParamRef{p, 0}).name(), n);

  EXPECT_EQ(parse_param("values[3]", Shape::spline, 5), (std::vector<ParamRef>{{Param::value, 3}}));
  EXPECT_TRUE(parse_param("values[5]", Shape::spline, 5).empty());
  EXPECT_TRUE(parse_param("values[-1]", Shape::spline, 5).empty());
  EXPECT_TRUE(parse_param("values[]", Shape::spline, 5).empty());
  EXPECT_TRUE(parse_param("values[1x]", Shape::spline, 5).empty());
  EXPECT_TRUE(parse_param("values[1]", Shape::cos, 0).empty());
  EXPECT_EQ(parse_param("values", Shape::piecewise_constant, 3).size(), 3U);
  EXPECT_TRUE(parse_param("amplitude", Shape::spline, 5).empty());
  EXPECT_TRUE(parse_param("sigma", Shape::cos, 0).empty());
  EXPECT_TRUE(parse_param("ramp", Shape::gaussian, 0).empty());
  EXPECT_EQ(parse_param("lambda", Shape::drag, 0), (std::vector<ParamRef>{{Param::lambda, 0}}));
  EXPECT_TRUE(parse_param("lambda", Shape::cos, 0).empty());
  EXPECT_EQ(parse_param("plateau", Shape::trapezoid, 0), (std::vector<ParamRef>{{Param::plateau, 0}}));
  EXPECT_TRUE(parse_param("bogus", Shape::cos, 0).empty());
  for (const std::string n : {"frequency", "phase", "delay", "duration"}) {
    for (const Shape s : {Shape::cos, Shape::spline, Shape::tanh}) EXPECT_EQ(parse_param(n, s, 4).size(), 1U);
  }
}

TEST(PulseParams, ParameterListsPerShape) {
  const Config config = make_config();
  const auto names = [&](const PulseSpec& s) {
    std::string out;
    for (const ParamRef& p : Pulse(s, 0.0, 1.0).parameters()) out += p.name() + " ";
    return out;
  };
  PulseSpec s = base_spec(Shape::rampcos);
  s.ramp = 5.0, s.plateau = 10.0;
  EXPECT_EQ(names(s), "amplitude frequency phase delay ramp plateau ");
  PulseSpec d = base_spec(Shape::drag);
  d.duration = 20.0;
  EXPECT_EQ(names(d), "amplitude frequency phase delay duration lambda ");
  PulseSpec p = base_spec(Shape::piecewise_constant);
  p.duration = 20.0, p.values = {1.0, 2.0};
  EXPECT_EQ(names(p), "frequency phase delay duration values[0] values[1] ");
}

TEST(PulseParams, Trainable) {
  PulseSpec s = base_spec(Shape::rampcos);
  s.duration = 50.0, s.ramp = 12.0;
  s.optimize = {"amplitude", "ramp", "amplitude"};
  const Pulse pulse(s, 0.0, 1.0);
  EXPECT_EQ(pulse.trainable(s),
            (std::vector<ParamRef>{{Param::amplitude, 0}, {Param::ramp, 0}}));
  // A derived shape key or a name the shape does not have: the stage's messages
  // (tests/config/test_config_pulse_spec.cpp); here preconditions.
  s.optimize = {"plateau"};
  EXPECT_THROW((void)pulse.trainable(s), std::logic_error);
  s.optimize = {"sigma"};
  EXPECT_THROW((void)pulse.trainable(s), std::logic_error);

  PulseSpec b = base_spec(Shape::spline);
  b.duration = 10.0, b.values = {1, 2, 3, 4, 5, 6, 7};
  b.optimize = {"values[2]", "values", "phase"};
  const Pulse bp(b, 0.0, 1.0);
  const std::vector<ParamRef> tr = bp.trainable(b);
  ASSERT_EQ(tr.size(), 8U);
  EXPECT_EQ(tr[0], (ParamRef{Param::value, 2}));
  EXPECT_EQ(tr[1], (ParamRef{Param::value, 0}));
  EXPECT_EQ(tr[7], (ParamRef{Param::phase, 0}));
  b.optimize = {"values[9]"};
  EXPECT_THROW((void)bp.trainable(b), std::logic_error);
}

}  // namespace
}  // namespace qevolve::pulse
