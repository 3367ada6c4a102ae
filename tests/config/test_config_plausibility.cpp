// Plausibility warnings (include/qevolve/plausibility.hpp, docs/config.md "Plausibility
// warnings"): each fires on a planted unit mistake (or a control line no pulse uses), located at
// its key with the likely intent, stays silent just inside its bound, and none fires on any
// shipped example or preset.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "qevolve/config_loader.hpp"
#include "qevolve/plausibility.hpp"
#include "qevolve/resolve.hpp"

namespace qevolve::test {
namespace {

/// The warnings of `text` (FILE p.yaml) after the whole resolution stage.
std::vector<std::string> warnings_of(const std::string& text, const std::vector<std::string>& sets = {}) {
  std::vector<io::Override> overrides;
  for (const std::string& s : sets) overrides.push_back(io::parse_override(s, "--set"));
  const Config c = io::parse_config(text, "p.yaml", overrides);
  const device::ResolvedDevice dev = io::resolve(c, io::Purpose::evolve);
  return io::plausibility_warnings(c, dev.modes);
}

/// examples/fluxonium_x.yaml's device and pulse (f01 = 0.582366 GHz), the pulse's keys given.
std::string fluxonium(const std::string& flux, const std::string& pulse) {
  return "device:\n"
         "  qubits:\n"
         "    - {name: q0, type: fluxonium, ec: 1.0, ej: 4.0, el: 1.0, flux: " + flux + ", levels: 10}\n"
         "pulses:\n"
         "  - {qubit: q0, shape: cos, duration: 40, " + pulse + "}\n"
         "evolution: {solver: expm, steps: 1279}\n";
}

/// One transmon (ec 0.2, ej 15: f01 = 4.6 GHz) with the given keys, a charge drive.
std::string transmon(const std::string& keys, const std::string& pulse = "amplitude: 0.01") {
  return "device:\n"
         "  qubits:\n"
         "    - {name: t0, type: transmon, " + keys + ", levels: 3}\n"
         "pulses:\n"
         "  - {qubit: t0, shape: cos, duration: 20, " + pulse + "}\n"
         "evolution: {steps: 2000}\n";
}

TEST(Plausibility, StaticFluxInRadians) {
  const auto w = warnings_of(fluxonium("3.14159", "amplitude: 0.08, frequency: 0.5823664862818624"));
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0],
            "p.yaml:3:62: device.qubits[0].flux: 3.14159 flux quanta is beyond +/-1 (the spectrum repeats every "
            "flux quantum) (did you mean 0.5 = 3.14159 / (2 pi)? `flux` is in flux quanta, not radians)");
  EXPECT_EQ(warnings_of(fluxonium("-1.2", "amplitude: 0.08")).size(), 1u);
  EXPECT_TRUE(warnings_of(fluxonium("1.0", "amplitude: 0.08")).empty());  // the bound itself
  EXPECT_TRUE(warnings_of(fluxonium("-0.5", "amplitude: 0.08")).empty());
  // A tunable transmon's flux too.
  const auto t = warnings_of(transmon("ec: 0.2, ej: 15.0, asymmetry: 0.3, flux: 6.28"));
  ASSERT_EQ(t.size(), 1u);
  EXPECT_NE(t[0].find("device.qubits[0].flux: 6.28 flux quanta"), std::string::npos) << t[0];
}

TEST(Plausibility, FluxPulseInRadians) {
  const auto w = warnings_of(fluxonium("0.5", "amplitude: 2.4, operator: flux"));
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0],
            "p.yaml:5:43: pulses[0].amplitude: a flux pulse of 2.4 flux quanta goes beyond +/-0.5 (half the period "
            "of the spectrum) (did you mean 0.381972 = 2.4 / (2 pi)? flux pulses are in flux quanta, not radians)");
  EXPECT_TRUE(warnings_of(fluxonium("0.5", "amplitude: -0.5, operator: flux")).empty());
  // The first value of a piecewise flux pulse beyond the bound.
  const std::string values =
      "device:\n"
      "  qubits:\n"
      "    - {name: q0, type: fluxonium, ec: 1.0, ej: 4.0, el: 1.0, flux: 0.5, levels: 4}\n"
      "pulses:\n"
      "  - {qubit: q0, operator: flux, shape: piecewise_constant, duration: 20, values: [0.1, -0.2, -0.9, 3]}\n"
      "evolution: {solver: expm, steps: 200}\n";
  const auto v = warnings_of(values);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_NE(v[0].find("pulses[0].values[2]: a flux pulse of -0.9 flux quanta"), std::string::npos) << v[0];
  // Placed by --set: located at the override.
  const auto s = warnings_of(fluxonium("0.5", "amplitude: 0.1, operator: flux"), {"pulses[0].amplitude=3.0"});
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].rfind("--set pulses[0].amplitude=3.0: pulses[0].amplitude: a flux pulse of 3 flux quanta", 0), 0u)
      << s[0];
}

TEST(Plausibility, AngularDriveFrequency) {
  // The case: 3.659 = 2 pi x 0.5824, q0's 0-1 transition; 3.659 itself drives none.
  const auto w = warnings_of(fluxonium("0.5", "amplitude: 0.08, frequency: 3.65911655"));
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0],
            "p.yaml:5:60: pulses[0].frequency: 3.65912 GHz drives no transition, but is 2 pi x 0.582366 GHz, near "
            "the 0-1 transition of mode `q0` (0.581849 GHz) (did you mean 0.582366? pulse frequencies are in GHz, "
            "not rad/ns)");
  // Above 20 GHz, near no transition: 45 GHz on a 4.6 GHz transmon.
  const auto high = warnings_of(transmon("ec: 0.2, ej: 15.0", "amplitude: 0.01, frequency: 45"));
  ASSERT_EQ(high.size(), 1u);
  EXPECT_NE(high[0].find("pulses[0].frequency: 45 GHz is above 20 GHz and drives no transition (did you mean "
                         "7.16197 = 45 / (2 pi)?"),
            std::string::npos)
      << high[0];
  // 2 pi x the transmon's f01 (4.6 GHz): 28.9 GHz.
  const auto angular = warnings_of(transmon("ec: 0.2, ej: 15.0", "amplitude: 0.01, frequency: 28.9"));
  ASSERT_EQ(angular.size(), 1u);
  EXPECT_NE(angular[0].find("near the 0-1 transition of mode `t0`"), std::string::npos) << angular[0];
  // A flux pulse's modulation frequency: the 20 GHz bound only.
  const auto flux = warnings_of(fluxonium("0.5", "amplitude: 0.1, operator: flux, frequency: 25"));
  ASSERT_EQ(flux.size(), 1u);
  EXPECT_NE(flux[0].find("pulses[0].frequency: 25 GHz is above 20 GHz (did you mean 3.97887 = 25 / (2 pi)?"),
            std::string::npos)
      << flux[0];
  EXPECT_TRUE(warnings_of(fluxonium("0.5", "amplitude: 0.1, operator: flux, frequency: 3.65911655")).empty());
  // Drives of a transition (single or two-photon) stay silent, above 20 GHz too.
  EXPECT_TRUE(warnings_of(fluxonium("0.5", "amplitude: 0.08, frequency: 0.5823664862818624")).empty());
  EXPECT_TRUE(warnings_of(transmon("ec: 0.2, ej: 15.0", "amplitude: 0.01, frequency: 4.6")).empty());
  EXPECT_TRUE(warnings_of(transmon("ec: 0.2, ej: 15.0", "amplitude: 0.01, frequency: 4.5")).empty());  // f02 / 2
  const std::string duffing =
      "device:\n"
      "  qubits:\n"
      "    - {name: d, type: duffing, frequency: 25.0, anharmonicity: -0.2, levels: 3}\n"
      "pulses:\n"
      "  - {qubit: d, shape: cos, duration: 20, amplitude: 0.01, frequency: 25.0}\n"
      "evolution: {steps: 20000}\n";
  EXPECT_TRUE(warnings_of(duffing).empty());
}

TEST(Plausibility, EjEcOutsideTheModesRange) {
  // EC and EJ swapped on a transmon: the swap is suggested.
  const auto swapped = warnings_of(transmon("ec: 15.0, ej: 0.2"));
  ASSERT_EQ(swapped.size(), 1u);
  EXPECT_EQ(swapped[0],
            "p.yaml:3:44: device.qubits[0].ej: EJ/EC = 0.0133333 (ej 0.2 GHz, ec 15 GHz) is outside the usual "
            "[10, 1000] of a transmon (did you mean ec: 0.2, ej: 15? the two look swapped)");
  const auto low = warnings_of(transmon("ec: 0.2, ej: 1.0"));
  ASSERT_EQ(low.size(), 1u);
  EXPECT_NE(low[0].find("EJ/EC = 5 (ej 1 GHz, ec 0.2 GHz) is outside the usual [10, 1000] of a transmon (is ec or "
                        "ej in other units? both are in GHz)"),
            std::string::npos)
      << low[0];
  const auto high = warnings_of(transmon("ec: 0.05, ej: 100.0"));
  ASSERT_EQ(high.size(), 1u);
  EXPECT_NE(high[0].find("EJ/EC = 2000"), std::string::npos) << high[0];
  EXPECT_TRUE(warnings_of(transmon("ec: 0.2, ej: 2.0")).empty());    // 10: the bound
  EXPECT_TRUE(warnings_of(transmon("ec: 0.2, ej: 0.0")).empty());    // no junction: deliberate
  // A fluxonium with EC and EJ swapped (ec 4, ej 1: 0.25).
  const std::string swapped_fluxonium =
      "device:\n"
      "  qubits:\n"
      "    - {name: q0, type: fluxonium, ec: 4.0, ej: 1.0, el: 1.0, flux: 0.5, levels: 3}\n"
      "evolution: {duration: 10}\n";
  const auto sf = warnings_of(swapped_fluxonium);
  ASSERT_EQ(sf.size(), 1u);
  EXPECT_NE(sf[0].find("device.qubits[0].ej: EJ/EC = 0.25 (ej 1 GHz, ec 4 GHz) is outside the usual [0.5, 50] of a "
                       "fluxonium (did you mean ec: 1, ej: 4? the two look swapped)"),
            std::string::npos)
      << sf[0];
}

TEST(Plausibility, ALineNoPulseUses) {
  const std::string lines =
      "lines:\n"
      "  - {name: zline, filters: [{type: gaussian, sigma: 0.5}]}\n"
      "  - {name: xy, sample_rate: 2.4}\n";
  const auto w = warnings_of(fluxonium("0.5", "amplitude: 0.08, frequency: 0.5823664862818624, line: zline") + lines);
  EXPECT_EQ(w, std::vector<std::string>{"p.yaml:9:5: lines[1]: no pulse uses the line `xy`"});
  // Every line used: silent.
  const auto none = warnings_of(fluxonium("0.5", "amplitude: 0.08, frequency: 0.5823664862818624, line: zline") +
                                "lines: [{name: zline}]\n");
  EXPECT_TRUE(none.empty()) << none[0];
}

/// Every shipped example: not one warning (the bounds are wide enough for real devices).
TEST(Plausibility, NoneOnTheShippedExamples) {
  int checked = 0;
  for (const auto& e : std::filesystem::directory_iterator(std::filesystem::path(QEVOLVE_SOURCE_DIR) / "examples")) {
    if (e.path().extension() != ".yaml") continue;
    const Config c = io::load_config(e.path().string());
    const io::Purpose purpose = c.optimize ? io::Purpose::optimize : io::Purpose::evolve;
    const device::ResolvedDevice dev = c.pulses.empty() && !c.target ? io::resolve_device(c) : io::resolve(c, purpose);
    EXPECT_EQ(io::plausibility_warnings(c, dev.modes), std::vector<std::string>{}) << e.path();
    ++checked;
  }
  EXPECT_GE(checked, 10);
}

/// Every preset, with the largest variance the presets are used with and a few sizes.
TEST(Plausibility, NoneOnThePresets) {
  for (const char* preset : {"mpc_fluxonium_1d", "transmon_coupler_1d"})
    for (const char* args : {"{qubits: 2}", "{qubits: 5, periodic: true, levels: 3}",
                             "{qubits: 4, variance: 0.05, seed: 7}", "{qubits: 3, variance: 0.1, seed: 42}"}) {
      const Config c = io::parse_config(
          std::string("device: {preset: ") + preset + ", preset_args: " + args + "}\n", "p.yaml");
      EXPECT_EQ(io::plausibility_warnings(c, io::resolve_device(c).modes), std::vector<std::string>{})
          << preset << " " << args;
    }
}

}  // namespace
}  // namespace qevolve::test
