// Overrides (`--set`, sweep values) on the parsed tree and the sweep axes: values land where the
// key path says (lists by index or name, new keys and entries created), problems are located
// at the override, the rest of the file keeps its locations, and START:STOP:COUNT hits both
// ends exactly.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "qevolve/config_loader.hpp"
#include "qevolve/error.hpp"
#include "qevolve/resolve.hpp"
#include "qevolve/sweep_axis.hpp"

namespace qevolve::test {
namespace {

constexpr const char* kText =
    "device:\n"
    "  preset: mpc_fluxonium_1d\n"
    "  preset_args: {qubits: 2, levels: 3}\n"
    "  qubits:\n"
    "    - {name: q0, el: 1.05}\n"
    "pulses:\n"
    "  - {qubit: q0, shape: cos, amplitude: 0.05, frequency: 0.5, duration: 20}\n"
    "evolution: {steps: 100}\n";

io::Override set(const std::string& argument) { return io::parse_override(argument, "--set"); }

TEST(ConfigOverrides, ValuesLandAtTheirKeyPaths) {
  const Config c = io::parse_config(kText, "t.yaml",
                                    {set("device.qubits[q0].el=1.1"), set("device.qubits[q1].ej=4.5"),
                                     set("pulses[0].amplitude=0.07"), set("pulses[1]={qubit: q1, shape: cos, "
                                                                          "amplitude: 0.01, frequency: 0.6, duration: 20}"),
                                     set("evolution.steps=250"), set("output.file=o.h5")});
  ASSERT_EQ(c.device.qubits.size(), 2u);
  EXPECT_EQ(*c.device.qubits[0].el, 1.1);
  EXPECT_EQ(c.device.qubits[1].name, "q1");  // a preset mode got an entry {name: q1, ej: 4.5}
  EXPECT_EQ(*c.device.qubits[1].ej, 4.5);
  ASSERT_EQ(c.pulses.size(), 2u);
  EXPECT_EQ(c.pulses[0].amplitude, 0.07);
  EXPECT_EQ(c.pulses[1].qubit, "q1");
  EXPECT_EQ(c.evolution.steps, 250);
  EXPECT_EQ(c.output.file, "o.h5");
  const device::ResolvedDevice dev = io::resolve(c, io::Purpose::evolve);
  EXPECT_EQ(dev.modes[1].ej, 4.5);
  // where: the overridden keys at their --set, the rest at the file
  EXPECT_EQ(c.locate("evolution.steps").file, "--set evolution.steps=250");
  EXPECT_EQ(c.locate("pulses[0].frequency").line, 7);
  EXPECT_EQ(c.overrides.size(), 6u);
  EXPECT_EQ(c.yaml_text.rfind("# t.yaml with --set device.qubits[q0].el=1.1 --set", 0), 0u);
  // the text as run reads back to the same config
  const Config again = io::parse_config(c.yaml_text, "again.yaml");
  EXPECT_EQ(again.pulses[0].amplitude, 0.07);
  EXPECT_EQ(again.evolution.steps, 250);
}

TEST(ConfigOverrides, ProblemsAreLocatedAtTheOverride) {
  const auto message = [](const std::string& arg) {
    try {
      (void)io::parse_config(kText, "t.yaml", {set(arg)});
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("pulses[0].amplitude=x"),
            "--set pulses[0].amplitude=x: pulses[0].amplitude: `x` is not a number (expected a number in "
            "[-100, 100] (GHz), or auto with angle)");
  EXPECT_EQ(message("device.qubits[q0].el.x=1").rfind("--set device.qubits[q0].el.x=1: device.qubits[0].el: is the value", 0), 0u);
  EXPECT_EQ(message("device.qubits[3].el=1").rfind("--set device.qubits[3].el=1: device.qubits[3]: there is 1 qubit", 0), 0u);
  EXPECT_THROW((void)set("no_equals"), InputError);
  EXPECT_THROW((void)set("a..b=1"), InputError);
  EXPECT_THROW((void)set("[0]=1"), InputError);
}

TEST(SweepAxis, RangesHitBothEndsAndListsKeepTheirText) {
  const io::SweepAxis a = io::parse_vary("pulses[0].amplitude=0.07:0.09:3");
  ASSERT_EQ(a.values.size(), 3u);
  EXPECT_EQ(a.values.front(), 0.07);
  EXPECT_EQ(a.values.back(), 0.09);
  EXPECT_EQ(a.texts, (std::vector<std::string>{"0.07", "0.08", "0.09"}));
  EXPECT_EQ(a.scope, io::SweepScope::pulses);
  const io::SweepAxis one = io::parse_vary("evolution.steps=100:200:1");
  EXPECT_EQ(one.texts, (std::vector<std::string>{"100"}));
  EXPECT_EQ(one.scope, io::SweepScope::evolution);
  const io::SweepAxis names = io::parse_vary("evolution.solver=expm, trotter");
  EXPECT_EQ(names.texts, (std::vector<std::string>{"expm", "trotter"}));
  EXPECT_TRUE(names.values.empty());
  EXPECT_EQ(io::parse_vary("device.qubits[q0].el=1,1.1").scope, io::SweepScope::device);
  EXPECT_THROW((void)io::parse_vary("output.file=a,b"), InputError);
  EXPECT_THROW((void)io::parse_vary("pulses[0].amplitude=1:2"), InputError);
  EXPECT_THROW((void)io::parse_vary("pulses[0].amplitude=1:2:0"), InputError);
  EXPECT_EQ(io::axis_override(a, 1).label, "--vary pulses[0].amplitude=0.07:0.09:3 (value 0.08)");
}

/// A byte a YAML stream may not hold, in a --set or --vary argument: refused before the value is
/// read, with the argument escaped (no control byte reaches the terminal) and the position.
TEST(ConfigOverrides, BytesAStreamMayNotHoldAreRefusedEscaped) {
  const auto refusal = [](const std::string& argument, bool vary = false) {
    try {
      if (vary)
        (void)io::parse_vary(argument);
      else
        (void)io::parse_override(argument, "--set");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("<accepted>");
  };
  EXPECT_EQ(refusal("pulses[0].phase=0.1 # \x1b[31m"),
            "--set pulses[0].phase=0.1 # \\x1b[31m: byte 0x1b at character 23 of the argument (shown as \\x1b) is a "
            "control character (expected UTF-8 text without control characters other than tab, CR and LF)");
  EXPECT_EQ(refusal("pulses[0].qubit=q\xED\xA0\x80"),
            "--set pulses[0].qubit=q\\xed\\xa0\\x80: invalid UTF-8 sequence starting with byte 0xed at character 18 "
            "of the argument (shown as \\xed) (expected UTF-8 text)");
  EXPECT_EQ(refusal("pulses[0].qubit=\xC3\xA9\xC0\xAF"),  // after a valid two-byte character: character 18
            "--set pulses[0].qubit=\xC3\xA9\\xc0\\xaf: invalid UTF-8 sequence starting with byte 0xc0 at character 18 "
            "of the argument (shown as \\xc0) (expected UTF-8 text)");
  EXPECT_EQ(refusal(std::string("evolution.steps=1\0", 18)),
            "--set evolution.steps=1\\x00: byte 0x00 at character 18 of the argument (shown as \\x00) is a control "
            "character (expected UTF-8 text without control characters other than tab, CR and LF)");
  EXPECT_EQ(refusal("pulses[0].amplitude=0.01,0.02\xFF", true),
            "--vary pulses[0].amplitude=0.01,0.02\\xff: invalid UTF-8 sequence starting with byte 0xff at character "
            "30 of the argument (shown as \\xff) (expected UTF-8 text)");
  EXPECT_EQ(refusal("pulses[0].phase=\t0.1"), "<accepted>");  // tab, as in a file
  EXPECT_EQ(refusal("device.qubits[0].name=q\xC3\xA9"), "<accepted>");
}

}  // namespace
}  // namespace qevolve::test
