// The resolution stage's rules for one pulse entry (io::check_pulse_spec,
// src/io/resolve_pulse_spec.cpp) on Configs built without the loader: the exact text of every
// input error, located via Config::fail. (A config file's pulse entries are refused first by the
// loader, with its own messages: test_config_bad_sections.cpp.) The pulse layer itself only
// asserts these (tests/pulse/test_resolve.cpp).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "qevolve/config.hpp"
#include "qevolve/error.hpp"
#include "qevolve/resolve.hpp"
#include "pulse/pulse_test_util.hpp"

namespace qevolve::test {
namespace {

using pulse::testing::base_spec;
using pulse::testing::make_config;

/// The stage's InputError for `s` ("" if it passes).
std::string build_error(const PulseSpec& s, const std::vector<std::string>& present = {}) {
  try {
    io::check_pulse_spec(make_config(present), s);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(PulseSpecRules, GeometryErrors) {
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
}

TEST(PulseSpecRules, KeyAndValueErrors) {
  PulseSpec s = base_spec(Shape::rampcos);
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

TEST(PulseSpecRules, AmplitudeErrors) {
  PulseSpec s = base_spec(Shape::cos);
  s.duration = 40.0;
  s.amplitude_auto = true;
  EXPECT_EQ(build_error(s), "pulses.yaml:12:5: pulses[0].amplitude: amplitude: auto needs an angle "
                            "(expected angle: the rotation angle in rad)");
  s.angle = 3.0;
  s.amplitude_auto = false;
  EXPECT_EQ(build_error(s),
            "pulses.yaml:12:5: pulses[0].angle: angle is only used with amplitude: auto");

  PulseSpec p = base_spec(Shape::piecewise_constant);
  p.duration = 10.0, p.values = {1.0};
  p.amplitude_auto = true, p.angle = 3.0;
  EXPECT_EQ(build_error(p), "pulses.yaml:12:5: pulses[0].amplitude: amplitude: auto does not "
                            "apply to a piecewise_constant pulse: its values are the drive in GHz");
  p.amplitude_auto = false, p.angle.reset();
  // `amplitude` written for a piecewise_constant pulse is the loader's error (test_config_bad);
  // the stage and the pulse ignore the struct's amplitude.
  EXPECT_EQ(build_error(p), "");

  PulseSpec b = base_spec(Shape::spline);
  b.duration = 10.0, b.values = {1.0, 2.0, 3.0};
  EXPECT_EQ(build_error(b), "pulses.yaml:12:5: pulses[0].values: spline needs at least 4 control "
                            "values, got 3 (expected values: [v0, v1, v2, v3, ...] in GHz)");
}

TEST(PulseSpecRules, TrainableNames) {
  PulseSpec s = base_spec(Shape::rampcos);
  s.duration = 50.0, s.ramp = 12.0;
  s.optimize = {"amplitude", "ramp", "amplitude"};
  EXPECT_EQ(build_error(s), "");

  s.optimize = {"plateau"};
  EXPECT_EQ(build_error(s),
            "pulses.yaml:12:5: pulses[0].optimize: 'plateau' of a rampcos pulse is derived from the "
            "given duration and ramp; to train it, give plateau and only one of them");
  s.optimize = {"sigma"};
  EXPECT_EQ(build_error(s),
            "pulses.yaml:12:5: pulses[0].optimize: 'sigma' is not a parameter of a rampcos pulse "
            "(expected one of amplitude, frequency, phase, delay, duration, ramp)");

  PulseSpec g = base_spec(Shape::gaussian);
  g.sigma = 6.0, g.c = 4.0, g.optimize = {"duration"};
  EXPECT_EQ(build_error(g),
            "pulses.yaml:12:5: pulses[0].optimize: 'duration' of a gaussian pulse is derived from "
            "the given sigma and c; to train it, give duration and only one of them");

  PulseSpec d = base_spec(Shape::drag);
  d.duration = 40.0, d.optimize = {"lambda", "sigma"};
  EXPECT_EQ(build_error(d),
            "pulses.yaml:12:5: pulses[0].optimize: 'sigma' is not a parameter of a drag pulse with "
            "base cos");

  PulseSpec b = base_spec(Shape::spline);
  b.duration = 10.0, b.values = {1, 2, 3, 4, 5, 6, 7};
  b.optimize = {"values[2]", "values", "phase"};
  EXPECT_EQ(build_error(b), "");
  b.optimize = {"values[9]"};
  EXPECT_EQ(build_error(b),
            "pulses.yaml:12:5: pulses[0].optimize: 'values[9]' is not a parameter of a spline pulse "
            "(expected one of frequency, phase, delay, duration, values, values[k] (k < 7))");
}

}  // namespace
}  // namespace qevolve::test
