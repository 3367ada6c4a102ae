// Ensembles (docs/config.md "ensemble"): the members of `vary` on the Gauss rules' nodes with
// their weights, the tensor grid's order, explicit members' normalised weights, override texts
// that read back exactly, and the resolution stage's check of each member (io::check_ensemble):
// problems located at the member's entry, structure changes and trained keys refused.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "qevolve/config_loader.hpp"
#include "qevolve/ensemble.hpp"
#include "qevolve/error.hpp"
#include "qevolve/quadrature.hpp"
#include "qevolve/resolve.hpp"

namespace qevolve::test {
namespace {

/// examples/fluxonium_x.yaml: one fluxonium (q0 in device.qubits[0], 10 levels), an X gate.
std::string fluxonium_x() {
  std::ifstream in(std::string(QEVOLVE_SOURCE_DIR) + "/examples/fluxonium_x.yaml");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

Config with_ensemble(const std::string& ensemble, const std::string& base = fluxonium_x()) {
  return io::parse_config(base + ensemble, "fx.yaml");
}

double number(const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  EXPECT_EQ(end, text.c_str() + text.size()) << text;
  return v;
}

/// The line of the config where the appended ensemble text starts (1-based).
int first_line_after(const std::string& base) {
  int lines = 0;
  for (const char c : base) lines += c == '\n' ? 1 : 0;
  return lines + 1;
}

TEST(EnsembleMembers, NormalThreePointsAreMeanPlusMinusSqrt3Std) {
  const std::string base = fluxonium_x();
  const Config c = with_ensemble(
      "ensemble:\n"
      "  vary:\n"
      "    - {key: \"device.qubits[0].el\", distribution: normal, mean: 1.0, std: 0.01, points: 3}\n",
      base);
  ASSERT_TRUE(c.ensemble);
  const std::vector<io::EnsembleMember> m = io::ensemble_members(c);
  ASSERT_EQ(m.size(), 3u);
  const double s3 = std::sqrt(3.0) * 0.01;
  const double nodes[] = {1.0 - s3, 1.0, 1.0 + s3};
  const double weights[] = {1.0 / 6, 2.0 / 3, 1.0 / 6};
  const std::string label = "fx.yaml:" + std::to_string(first_line_after(base) + 2) + ":7: ensemble.vary[0]";
  for (std::size_t k = 0; k < 3; ++k) {
    ASSERT_EQ(m[k].sets.size(), 1u);
    EXPECT_EQ(m[k].sets[0].key, "device.qubits[0].el");
    EXPECT_NEAR(number(m[k].sets[0].value), nodes[k], 1e-15);
    EXPECT_NEAR(m[k].weight, weights[k], 1e-15);
    EXPECT_EQ(m[k].sets[0].label, label);
    EXPECT_EQ(m[k].label, "device.qubits[0].el = " + m[k].sets[0].value);
  }
  EXPECT_EQ(m[1].sets[0].value, "1");  // the mean, integral: spelt as an integer
}

TEST(EnsembleMembers, UniformTwoPointsAreMidpointPlusMinusHalfWidthOverSqrt3) {
  const Config c = with_ensemble(
      "ensemble:\n"
      "  vary:\n"
      "    - {key: \"device.qubits[0].ej\", distribution: uniform, low: 3.9, high: 4.1, points: 2}\n");
  const std::vector<io::EnsembleMember> m = io::ensemble_members(c);
  ASSERT_EQ(m.size(), 2u);
  const double d = (4.1 - 3.9) / (2.0 * std::sqrt(3.0));
  EXPECT_NEAR(number(m[0].sets[0].value), 4.0 - d, 1e-15);
  EXPECT_NEAR(number(m[1].sets[0].value), 4.0 + d, 1e-15);
  EXPECT_NEAR(m[0].weight, 0.5, 1e-15);
  EXPECT_NEAR(m[1].weight, 0.5, 1e-15);
}

TEST(EnsembleMembers, OnePointIsTheMeanOrTheMidpoint) {
  const Config c = with_ensemble(
      "ensemble:\n"
      "  vary:\n"
      "    - {key: \"device.qubits[0].el\", distribution: normal, mean: 1.03, std: 0.01, points: 1}\n"
      "    - {key: \"device.qubits[0].ej\", distribution: uniform, low: 3.5, high: 4.5, points: 1}\n");
  const std::vector<io::EnsembleMember> m = io::ensemble_members(c);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].sets[0].value, "1.03");
  EXPECT_EQ(m[0].sets[1].value, "4");
  EXPECT_EQ(m[0].weight, 1.0);
  EXPECT_EQ(m[0].label, "device.qubits[0].el = 1.03, device.qubits[0].ej = 4");
}

TEST(EnsembleMembers, TensorGridFirstEntrySlowestWeightsMultiply) {
  const Config c = with_ensemble(
      "ensemble:\n"
      "  vary:\n"
      "    - {key: \"device.qubits[0].el\", distribution: normal, mean: 1.0, std: 0.01, points: 3}\n"
      "    - {key: \"pulses[0].frequency\", distribution: uniform, low: 0.58, high: 0.585, points: 2}\n"
      "  objective: worst\n");
  EXPECT_EQ(c.ensemble->objective, EnsembleObjective::worst);
  const std::vector<io::EnsembleMember> m = io::ensemble_members(c);
  ASSERT_EQ(m.size(), 6u);
  const QuadratureRule a = gauss_hermite(3, 1.0, 0.01), b = gauss_legendre(2, 0.58, 0.585);
  double total = 0.0;
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 2; ++j) {
      const io::EnsembleMember& x = m[i * 2 + j];
      ASSERT_EQ(x.sets.size(), 2u);
      EXPECT_EQ(x.sets[0].key, "device.qubits[0].el");
      EXPECT_EQ(x.sets[1].key, "pulses[0].frequency");
      EXPECT_EQ(number(x.sets[0].value), a.nodes[i]);
      EXPECT_EQ(number(x.sets[1].value), b.nodes[j]);
      EXPECT_NEAR(x.weight, a.weights[i] * b.weights[j], 1e-15);
      EXPECT_NE(x.sets[0].label, x.sets[1].label);  // each at its own vary entry
      total += x.weight;
    }
  EXPECT_NEAR(total, 1.0, 1e-15);
}

TEST(EnsembleMembers, ExplicitWeightsAreNormalisedAndSetsKeepFileOrder) {
  const std::string base = fluxonium_x();
  const Config c = with_ensemble(
      "ensemble:\n"
      "  members:\n"
      "    - {set: {\"device.qubits[0].el\": 0.99, \"pulses[0].phase\": 0.6}}\n"
      "    - {set: {\"device.qubits[0].el\": 1.00}, weight: 2}\n"
      "    - set: {\"device.qubits[0].el\": 1.01, \"pulses[0].values\": [1, 2e-3], evolution.steps: '2000'}\n"
      "      weight: 1\n",
      base);
  const std::vector<io::EnsembleMember> m = io::ensemble_members(c);
  ASSERT_EQ(m.size(), 3u);
  EXPECT_DOUBLE_EQ(m[0].weight, 0.25);
  EXPECT_DOUBLE_EQ(m[1].weight, 0.5);
  EXPECT_DOUBLE_EQ(m[2].weight, 0.25);
  ASSERT_EQ(m[0].sets.size(), 2u);
  EXPECT_EQ(m[0].sets[1].key, "pulses[0].phase");
  EXPECT_EQ(m[0].label, "device.qubits[0].el = 0.99, pulses[0].phase = 0.6");
  EXPECT_EQ(m[1].sets[0].value, "1.00");  // the file's text
  ASSERT_EQ(m[2].sets.size(), 3u);
  EXPECT_EQ(m[2].sets[1].value, "[1, 2e-3]");
  EXPECT_EQ(m[2].sets[2].value, "\"2000\"");  // a quoted scalar stays a string
  const int line = first_line_after(base);
  EXPECT_EQ(m[0].sets[0].label, "fx.yaml:" + std::to_string(line + 2) + ":8: ensemble.members[0].set");
  EXPECT_EQ(m[2].sets[0].label, "fx.yaml:" + std::to_string(line + 4) + ":7: ensemble.members[2].set");
}

TEST(EnsembleMembers, OverrideTextsReadBackAsTheSameDouble) {
  const Config c = with_ensemble(
      "ensemble:\n"
      "  vary:\n"
      "    - {key: \"device.qubits[0].el\", distribution: normal, mean: 0.987654321, std: 1.2345e-3, points: 7}\n"
      "    - {key: \"device.qubits[0].ej\", distribution: uniform, low: 3.9, high: 4.1, points: 5}\n");
  const QuadratureRule a = gauss_hermite(7, 0.987654321, 1.2345e-3), b = gauss_legendre(5, 3.9, 4.1);
  const std::vector<io::EnsembleMember> m = io::ensemble_members(c);
  ASSERT_EQ(m.size(), 35u);
  for (std::size_t k = 0; k < m.size(); ++k) {
    EXPECT_EQ(number(m[k].sets[0].value), a.nodes[k / 5]) << m[k].sets[0].value;
    EXPECT_EQ(number(m[k].sets[1].value), b.nodes[k % 5]) << m[k].sets[1].value;
  }
}

TEST(EnsembleMembers, MoreThanTheMaximumOfExplicitMembersIsRefused) {
  std::string text = "ensemble:\n  members:\n";
  for (std::size_t k = 0; k <= io::kMaxEnsembleMembers; ++k) text += "    - {set: {evolution.steps: 2000}}\n";
  const std::string base = fluxonium_x();
  try {
    (void)with_ensemble(text, base);
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "fx.yaml:" + std::to_string(first_line_after(base) + 2) +
                                         ":5: ensemble.members: the ensemble has 1001 members (expected at most 1000 members)");
  }
  text.resize(text.rfind("    - "));  // 1000 members are fine
  EXPECT_EQ(io::ensemble_members(with_ensemble(text)).size(), io::kMaxEnsembleMembers);
}

TEST(EnsembleMembers, NoEnsembleNoMembers) {
  EXPECT_TRUE(io::ensemble_members(io::parse_config(fluxonium_x(), "fx.yaml")).empty());
  EXPECT_FALSE(io::parse_config(fluxonium_x(), "fx.yaml").output.ensemble_unitaries);
  EXPECT_TRUE(io::parse_config(fluxonium_x() + "output: {ensemble_unitaries: true}\n", "fx.yaml").output.ensemble_unitaries);
}

// --- the resolution stage -------------------------------------------------------------------

/// check_ensemble as `check` runs it: the nominal config through the stage, then its members.
void check(const std::string& text, const std::vector<io::Override>& sets = {}) {
  const Config nominal = io::parse_config(text, "fx.yaml", sets);
  (void)io::resolve(nominal, io::Purpose::evolve);
  io::check_ensemble(io::ParsedConfig(text, "fx.yaml"), sets, nominal);
}

/// The message of check(text), or "accepted".
std::string refusal(const std::string& text, const std::vector<io::Override>& sets = {}) {
  try {
    check(text, sets);
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(EnsembleCheck, ValidEnsemblesOfTheFluxoniumXGateAreAccepted) {
  const std::string base = fluxonium_x();
  EXPECT_NO_THROW(check(base +
                        "ensemble:\n"
                        "  vary:\n"
                        "    - {key: \"device.qubits[q0].el\", distribution: normal, mean: 1.0, std: 0.01, points: 3}\n"
                        "    - {key: \"pulses[0].frequency\", distribution: uniform, low: 0.58, high: 0.585, points: 2}\n"
                        "  objective: worst\n"));
  EXPECT_NO_THROW(check(base +
                        "ensemble:\n"
                        "  members:\n"
                        "    - {set: {\"device.qubits[0].el\": 0.99}, weight: 0.25}\n"
                        "    - {set: {\"device.qubits[0].el\": 1.00, \"device.qubits[0].flux\": 0.501}}\n"));
  // The command's --set come first: a member of a 11-level device keeps its 11 levels.
  EXPECT_NO_THROW(check(base + "ensemble:\n  members:\n    - {set: {\"device.qubits[0].el\": 0.99}}\n",
                        {io::parse_override("device.qubits[0].levels=11", "--set")}));
}

TEST(EnsembleCheck, AnUnknownKeyIsLocatedAtTheMemberWithASuggestion) {
  const std::string base = fluxonium_x();
  const int line = first_line_after(base);
  EXPECT_EQ(refusal(base + "ensemble:\n  members:\n"
                           "    - {set: {\"device.qubits[0].el\": 0.99}}\n"
                           "    - {set: {\"device.qubits[0].elx\": 1.01}}\n"),
            "fx.yaml:" + std::to_string(line + 3) +
                ":8: ensemble.members[1].set: device.qubits[0].elx: unknown key `elx`, did you mean `el`? "
                "(expected one of: name, type, role, levels, ec, ej, el, flux, basis_size, optimize)");
}

TEST(EnsembleCheck, AnOutOfRangeValueIsLocatedAtTheMember) {
  const std::string base = fluxonium_x();
  const int line = first_line_after(base);
  EXPECT_EQ(refusal(base + "ensemble:\n  members:\n"
                           "    - {set: {\"device.qubits[0].el\": 0.99}}\n"
                           "    - {set: {\"device.qubits[0].el\": -1.0}}\n"),
            "fx.yaml:" + std::to_string(line + 3) +
                ":8: ensemble.members[1].set: device.qubits[0].el: `-1.0` is out of range (expected a number in "
                "[1e-4, 100] (GHz))");
  // A generated value: at its `vary` entry.
  EXPECT_EQ(refusal(base + "ensemble:\n  vary:\n"
                           "    - {key: \"device.qubits[0].el\", distribution: uniform, low: -1, high: 1, points: 1}\n"),
            "fx.yaml:" + std::to_string(line + 2) +
                ":7: ensemble.vary[0]: device.qubits[0].el: `0` is out of range (expected a number in "
                "[1e-4, 100] (GHz))");
  // A value that is not a number.
  EXPECT_EQ(refusal(base + "ensemble:\n  members:\n    - {set: {\"pulses[0].phase\": fast}}\n"),
            "fx.yaml:" + std::to_string(line + 2) +
                ":8: ensemble.members[0].set: pulses[0].phase: `fast` is not a number (expected a finite number (rad))");
}

TEST(EnsembleCheck, AChangeOfTheDeviceStructureIsRefused) {
  const std::string base = fluxonium_x();
  const int line = first_line_after(base);
  EXPECT_EQ(refusal(base + "ensemble:\n  members:\n"
                           "    - {set: {\"device.qubits[0].el\": 0.99}}\n"
                           "    - {set: {\"pulses[0].phase\": 0.6, \"device.qubits[0].levels\": 11}}\n"),
            "fx.yaml:" + std::to_string(line + 3) +
                ":8: ensemble.members[1].set: changes the device's structure: mode 0 (`q0`) has 11 levels, the nominal 10 "
                "(expected members with the nominal device's modes (in order), levels and d = 2)");
}

TEST(EnsembleCheck, ATrainedKeyCannotVary) {
  std::string base = fluxonium_x();
  const std::string flow = "levels: 10}";
  ASSERT_NE(base.find(flow), std::string::npos);
  base.replace(base.find(flow), flow.size(), "levels: 10, optimize: [el]}");
  const int line = first_line_after(base);
  EXPECT_EQ(refusal(base + "ensemble:\n  vary:\n"
                           "    - {key: \"device.qubits[q0].el\", distribution: normal, mean: 1.0, std: 0.01, points: 3}\n"),
            "fx.yaml:" + std::to_string(line + 2) +
                ":7: ensemble.vary[0]: `device.qubits[q0].el` is trained (`device.qubits[0].optimize` lists `el`); a "
                "trained key cannot also vary (expected a key that no `optimize:` list names, or remove it from the "
                "list)");
  // Another key of the same mode may vary.
  EXPECT_EQ(refusal(base + "ensemble:\n  members:\n    - {set: {\"device.qubits[0].ej\": 4.01}}\n"), "accepted");
}

TEST(EnsembleCheck, OneKeyTwiceByIndexAndByNameIsRefused) {
  const std::string base = fluxonium_x();
  const int line = first_line_after(base);
  EXPECT_EQ(refusal(base + "ensemble:\n  vary:\n"
                           "    - {key: \"device.qubits[q0].el\", distribution: normal, mean: 1.0, std: 0.01, points: 3}\n"
                           "    - {key: \"device.qubits[0].el\", distribution: normal, mean: 1.0, std: 0.01, points: 2}\n"),
            "fx.yaml:" + std::to_string(line + 3) + ":7: ensemble.vary[1]: key `device.qubits[0].el` varies twice (first at line " +
                std::to_string(line + 2) + ") (expected each key in one entry of `vary`; several entries form the tensor grid)");
}

}  // namespace
}  // namespace qevolve::test
