// Resolution of a PulseSpec: the two-of-three rule, auto values, and the exact text of every
// input error (located via Config::fail), plus parameter names and trainable().
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "pulse_test_util.hpp"
#include "qevolve/error.hpp"
#include "qevolve/pulse.hpp"

namespace qevolve::pulse {
namespace {

using testing::base_spec;
using testing::make_config;

/// The message `make` throws ("" if none): a precondition failure of the pulse layer located
/// in `config` as the resolution stage (io::resolve) reports it, or a NumericalError's text.
std::string error_of(const std::function<void()>& make, const Config& config = make_config()) {
  try {
    make();
  } catch (const UnvalidatedInput& e) {
    return InputError(config.locate(e.key_path()), e.key_path(), e.problem(), e.expected()).what();
  } catch (const NumericalError& e) {
    return e.what();
  }
  return "";
}

std::string build_error(const PulseSpec& s, const std::vector<std::string>& present = {},
                        double m01 = 1.0) {
  const Config config = make_config(present);
  return error_of([&] { (void)Pulse(s, 0.5, m01); }, config);
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

TEST(PulseResolve, ErrorMessages) {
  PulseSpec s = base_spec(Shape::rampcos);
  s.duration = 50.0;
  EXPECT_EQ(build_error(s, {"duration"}),
            "pulses.yaml:12:5: pulses[0].plateau: a rampcos pulse needs two of duration, plateau, "
            "ramp; only duration is given (expected duration = plateau + 2*ramp)");

  s = base_spec(Shape::trapezoid);
  EXPECT_EQ(build_error(s),
            "pulses.yaml:12:5: pulses[0].duration: a trapezoid pulse needs two of duration, "
            "plateau, ramp; none is given (expected duration = plateau + 2*ramp)");

  s = base_spec(Shape::rampcos);
  s.duration = 50.0, s.plateau = 30.0, s.ramp = 5.0;
  EXPECT_EQ(build_error(s, {"duration", "plateau", "ramp"}),
            "pulses.yaml:13:7: pulses[0].duration: duration 50, plateau 30 and ramp 5 are "
            "inconsistent: plateau + 2*ramp = 40 (expected only two of them, or duration = "
            "plateau + 2*ramp)");

  s = base_spec(Shape::rampcos);
  s.duration = 50.0, s.ramp = 30.0;
  EXPECT_EQ(build_error(s, {"duration", "ramp"}),
            "pulses.yaml:14:7: pulses[0].ramp: ramp 30 is longer than half the duration 50: "
            "plateau = duration - 2*ramp = -10 (expected ramp <= duration/2)");

  s = base_spec(Shape::trapezoid);
  s.duration = 50.0, s.plateau = 50.0;
  EXPECT_EQ(build_error(s), "pulses.yaml:12:5: pulses[0].plateau: plateau 50 leaves no ramp in "
                            "duration 50 (expected plateau < duration)");

  s = base_spec(Shape::gaussian);
  s.sigma = 6.0;
  EXPECT_EQ(build_error(s), "pulses.yaml:12:5: pulses[0].duration: a gaussian pulse needs two of "
                            "duration, sigma, c; only sigma is given (expected duration = 2*c*sigma)");

  s = base_spec(Shape::drag);
  s.base = Shape::gaussian;
  s.c = 4.0;
  EXPECT_EQ(build_error(s), "pulses.yaml:12:5: pulses[0].duration: a drag pulse with base gaussian "
                            "needs two of duration, sigma, c; only c is given (expected duration = "
                            "2*c*sigma)");

  s = base_spec(Shape::gaussian);
  s.duration = 48.0, s.sigma = 6.0, s.c = 5.0;
  EXPECT_EQ(build_error(s), "pulses.yaml:12:5: pulses[0].duration: duration 48, sigma 6 and c 5 are "
                            "inconsistent: 2*c*sigma = 60 (expected only two of them, or duration = "
                            "2*c*sigma)");

  s = base_spec(Shape::tanh);
  s.duration = 40.0, s.sigma = 2.0;
  EXPECT_EQ(build_error(s), "pulses.yaml:12:5: pulses[0].c: a tanh pulse needs all three of "
                            "duration, sigma, c (independent: the rise is centred at c*sigma, the "
                            "fall at duration - c*sigma); c is missing");

  s = base_spec(Shape::erf);
  s.duration = 10.0, s.sigma = 3.0, s.c = 2.5;
  EXPECT_EQ(build_error(s), "pulses.yaml:12:5: pulses[0].duration: duration 10 must exceed "
                            "2*c*sigma = 15 (the rise centre c*sigma must come before the fall "
                            "centre duration - c*sigma)");

  s = base_spec(Shape::cos);
  EXPECT_EQ(build_error(s), "pulses.yaml:12:5: pulses[0].duration: a cos pulse needs a duration "
                            "(expected duration: the length in ns)");

  s = base_spec(Shape::rampcos);
  s.duration = 50.0, s.ramp = 10.0, s.sigma = 2.0;
  EXPECT_EQ(build_error(s, {"duration", "ramp", "sigma"}),
            "pulses.yaml:15:7: pulses[0].sigma: sigma does not apply to a rampcos pulse (expected "
            "the keys of a rampcos pulse: duration, plateau, ramp)");

  s = base_spec(Shape::drag);
  s.duration = 40.0, s.sigma = 2.0;
  EXPECT_EQ(build_error(s), "pulses.yaml:12:5: pulses[0].sigma: sigma does not apply to a drag "
                            "pulse with base cos (expected the keys of a drag pulse with base cos: "
                            "duration, lambda, base)");

  s = base_spec(Shape::gaussian);
  s.duration = 40.0, s.sigma = 2.0, s.lambda = 0.5;
  EXPECT_EQ(build_error(s), "pulses.yaml:12:5: pulses[0].lambda: lambda does not apply to a "
                            "gaussian pulse (expected the keys of a gaussian pulse: duration, "
                            "sigma, c)");

  s = base_spec(Shape::cos);
  s.duration = 40.0, s.values = {1.0, 2.0};
  EXPECT_EQ(build_error(s), "pulses.yaml:12:5: pulses[0].values: values does not apply to a cos "
                            "pulse (expected the keys of a cos pulse: duration)");

  s = base_spec(Shape::drag);
  s.duration = 40.0, s.base = Shape::tanh;
  EXPECT_EQ(build_error(s), "pulses.yaml:12:5: pulses[0].base: drag base must be cos or gaussian, "
                            "not tanh");

  s = base_spec(Shape::cos);
  s.duration = 40.0, s.base = Shape::gaussian;  // `base:` in a file is the loader's error
  EXPECT_EQ(build_error(s),
            "pulses.yaml:12:5: pulses[0].base: base applies only to shape drag, not to cos");

  s = base_spec(Shape::rampcos);
  s.duration = 40.0, s.ramp = -2.0;
  EXPECT_EQ(build_error(s), "pulses.yaml:12:5: pulses[0].ramp: ramp must be > 0, got -2");

  s = base_spec(Shape::cos);
  s.duration = 40.0, s.delay = -1.0;
  EXPECT_EQ(build_error(s), "pulses.yaml:12:5: pulses[0].delay: delay must be >= 0 ns, got -1");
}

TEST(PulseResolve, AmplitudeErrors) {
  PulseSpec s = base_spec(Shape::cos);
  s.duration = 40.0;
  s.amplitude_auto = true;
  EXPECT_EQ(build_error(s), "pulses.yaml:12:5: pulses[0].amplitude: amplitude: auto needs an angle "
                            "(expected angle: the rotation angle in rad)");
  s.angle = 3.0;
  EXPECT_EQ(build_error(s, {}, 0.0), "pulses[0].amplitude: amplitude: auto needs "
                                     "a nonzero |<0|O|1>| of the drive operator, got 0");
  s.amplitude_auto = false;
  EXPECT_EQ(build_error(s),
            "pulses.yaml:12:5: pulses[0].angle: angle is only used with amplitude: auto");

  PulseSpec p = base_spec(Shape::piecewise_constant);
  p.duration = 10.0, p.values = {1.0};
  p.amplitude_auto = true, p.angle = 3.0;
  EXPECT_EQ(build_error(p), "pulses.yaml:12:5: pulses[0].amplitude: amplitude: auto does not "
                            "apply to a piecewise_constant pulse: its values are the drive in GHz");
  p.amplitude_auto = false, p.angle.reset();
  // `amplitude` written for a piecewise_constant pulse is the loader's error (config tests); the
  // pulse ignores the struct's amplitude.
  EXPECT_EQ(build_error(p), "");

  PulseSpec b = base_spec(Shape::spline);
  b.duration = 10.0, b.values = {1.0, 2.0, 3.0};
  EXPECT_EQ(build_error(b), "pulses.yaml:12:5: pulses[0].values: spline needs at least 4 control "
                            "values, got 3 (expected values: [v0, v1, v2, v3, ...] in GHz)");
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
  const Config config = make_config();
  PulseSpec s = base_spec(Shape::rampcos);
  s.duration = 50.0, s.ramp = 12.0;
  s.optimize = {"amplitude", "ramp", "amplitude"};
  const Pulse pulse(s, 0.0, 1.0);
  EXPECT_EQ(pulse.trainable(s),
            (std::vector<ParamRef>{{Param::amplitude, 0}, {Param::ramp, 0}}));

  s.optimize = {"plateau"};
  EXPECT_EQ(error_of([&] { (void)pulse.trainable(s); }),
            "pulses.yaml:12:5: pulses[0].optimize: 'plateau' of a rampcos pulse is derived from the "
            "given duration and ramp; to train it, give plateau and only one of them");
  s.optimize = {"sigma"};
  EXPECT_EQ(error_of([&] { (void)pulse.trainable(s); }),
            "pulses.yaml:12:5: pulses[0].optimize: 'sigma' is not a parameter of a rampcos pulse "
            "(expected one of amplitude, frequency, phase, delay, duration, ramp)");

  PulseSpec g = base_spec(Shape::gaussian);
  g.sigma = 6.0, g.c = 4.0, g.optimize = {"duration"};
  const Pulse gp(g, 0.0, 1.0);
  EXPECT_EQ(error_of([&] { (void)gp.trainable(g); }),
            "pulses.yaml:12:5: pulses[0].optimize: 'duration' of a gaussian pulse is derived from "
            "the given sigma and c; to train it, give duration and only one of them");

  PulseSpec d = base_spec(Shape::drag);
  d.duration = 40.0, d.optimize = {"lambda", "sigma"};
  const Pulse dp(d, 0.0, 1.0);
  EXPECT_EQ(error_of([&] { (void)dp.trainable(d); }),
            "pulses.yaml:12:5: pulses[0].optimize: 'sigma' is not a parameter of a drag pulse with "
            "base cos");

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
  EXPECT_EQ(error_of([&] { (void)bp.trainable(b); }),
            "pulses.yaml:12:5: pulses[0].optimize: 'values[9]' is not a parameter of a spline pulse "
            "(expected one of frequency, phase, delay, duration, values, values[k] (k < 7))");
}

}  // namespace
}  // namespace qevolve::pulse
