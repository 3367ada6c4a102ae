// Plausibility warnings through the executable (docs/config.md "Plausibility warnings"): the same
// located line from `check`, `run`, `optimize`, `spectrum` and `sweep` (run, optimize and sweep
// also with --quiet, check and spectrum not), located at a --set or --vary that placed the value,
// and not one warning from `check` on any shipped example.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "cli_util.hpp"

namespace qevolve::testing {
namespace {

/// A fluxonium at `flux` driven at its f01 (0.582 GHz at half a flux quantum); 0.1 ns steps.
std::string fluxonium(const std::string& flux, const std::string& more = "") {
  return "device:\n"
         "  qubits:\n"
         "    - {name: q0, type: fluxonium, ec: 1.0, ej: 4.0, el: 1.0, flux: " + flux + ", levels: 3}\n"
         "pulses:\n"
         "  - {qubit: q0, shape: cos, amplitude: 0.08, frequency: 0.5823664862818624, duration: 40}\n"
         "evolution: {solver: expm, steps: 400}\n"
         "target: {gates: [{gate: X, qubits: [q0]}]}\n" + more;
}

const std::string kFlux =
    "device.qubits[0].flux: 3.14159 flux quanta is beyond +/-1 (the spectrum repeats every flux quantum) (did you "
    "mean 0.5 = 3.14159 / (2 pi)? `flux` is in flux quanta, not radians)";

TEST(PlausibilityCli, EveryCommandWarnsAtTheKey) {
  TempDir dir;
  const std::string cfg = "'" + dir.write("pi.yaml", fluxonium("3.14159")).string() + "'";
  const std::string line = "qevolve: warning: " + (dir / "pi.yaml").string() + ":3:62: " + kFlux + "\n";
  for (const std::string& command : {"check " + cfg, "spectrum " + cfg, "run " + cfg + " --threads 1 --quiet"}) {
    const CommandResult r = run_qevolve(command, dir);
    EXPECT_EQ(r.exit_code, 0) << command << "\n" << r.err;
    EXPECT_EQ(r.err, line) << command;
  }
  // check and spectrum: --quiet silences warnings; run: errors and warnings only.
  EXPECT_EQ(run_qevolve("check " + cfg + " --quiet", dir).err, "");
  EXPECT_EQ(run_qevolve("spectrum " + cfg + " --quiet", dir).err, "");
  const std::string opt = "'" + dir.write("opt.yaml", fluxonium("3.14159", "optimize: {max_iterations: 1}\n")).string() + "'";
  const CommandResult o = run_qevolve("optimize " + opt + " --set pulses[0].optimize=[amplitude] --threads 1 --quiet", dir);
  EXPECT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(o.err, "qevolve: warning: " + (dir / "opt.yaml").string() + ":3:62: " + kFlux + "\n");
}

TEST(PlausibilityCli, LocatedAtTheSetOrVaryThatPlacedIt) {
  TempDir dir;
  const std::string cfg = "'" + dir.write("ok.yaml", fluxonium("0.5")).string() + "'";
  EXPECT_EQ(run_qevolve("check " + cfg, dir).err, "");
  const CommandResult set = run_qevolve("run " + cfg + " --set device.qubits[0].flux=3.14159 --threads 1 --quiet", dir);
  EXPECT_EQ(set.exit_code, 0) << set.err;
  EXPECT_EQ(set.err, "qevolve: warning: --set device.qubits[0].flux=3.14159: " + kFlux + "\n");
  // A sweep names the first point with a warning (before the evaluation; with --quiet too).
  const CommandResult sweep =
      run_qevolve("sweep " + cfg + " --vary pulses[0].frequency=0.5823664862818624,3.65911655 --threads 1 --quiet", dir);
  EXPECT_EQ(sweep.exit_code, 0) << sweep.err;
  EXPECT_EQ(sweep.err,
            "qevolve: warning: --vary pulses[0].frequency=0.5823664862818624,3.65911655 (value 3.65911655): "
            "pulses[0].frequency: 3.65912 GHz drives no transition, but is 2 pi x 0.582366 GHz, near the 0-1 "
            "transition of mode `q0` (0.581849 GHz) (did you mean 0.582366? pulse frequencies are in GHz, not "
            "rad/ns) (at the sweep's point pulses[0].frequency = 3.65911655)\n"
            "qevolve: warning: 2.3 rad per step on mode `q0` (3.65912 GHz x dt = 0.1 ns, at the sweep's point "
            "pulses[0].frequency = 3.65911655) exceeds 0.5 rad: the step error may be large; use evolution.steps "
            ">= 1840\n"
            "qevolve: warning: mode `q0` reaches a population of 0.0316 in its top level (level 2 of levels: 3) "
            "during the evolution, at the sweep's point pulses[0].frequency = 3.65911655, above 0.01: its "
            "truncation may change the result; try levels: 5 on `q0` and compare\n");
}

/// `qevolve check` on every shipped example: valid, and not one warning.
TEST(PlausibilityCli, NoneOnTheShippedExamples) {
  TempDir dir;
  int checked = 0;
  for (const auto& e : std::filesystem::directory_iterator(std::string(QEVOLVE_SOURCE_DIR) + "/examples")) {
    if (e.path().extension() != ".yaml") continue;
    const CommandResult r = run_qevolve("check '" + e.path().string() + "'", dir);
    EXPECT_EQ(r.exit_code, 0) << e.path() << "\n" << r.err;
    EXPECT_EQ(r.err, "") << e.path();
    ++checked;
  }
  EXPECT_GE(checked, 10);
}

// A line whose output has not settled at the evolution's end (docs/lines.md "Tails"): after a
// 20 ns square pulse of 0.08 through a 200 ns bias-tee the output undershoots by 0.08 (1 -
// e^(-0.1)) = 0.0076 and decays as e^(-t/200): 400 ns later 0.0076 e^(-2) = 0.013 of the peak
// (a warning), 1400 ns later 0.0076 e^(-7) = 8.7e-5 of it (none).
TEST(PlausibilityCli, ALineThatHasNotSettledAtTheEnd) {
  TempDir dir;
  const std::string text =
      "device:\n  qubits:\n    - {name: q0, type: duffing, frequency: 5.0, anharmonicity: -0.2, levels: 3}\n"
      "lines:\n  - {name: z, filters: [{type: highpass, tau: 200.0}]}\n"
      "pulses:\n  - {qubit: q0, operator: number, shape: piecewise_constant, values: [0.08], duration: 20, line: z}\n"
      "evolution: {solver: expm, steps: 100}\n";
  const std::string cfg = "'" + dir.write("tail.yaml", text).string() + "'";
  const CommandResult r = run_qevolve("run " + cfg + " --set evolution.duration=420 --steps 500 --threads 1 --quiet", dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err,
            "qevolve: warning: pulses[0]: the output of its line `z` is 0.00103 away from the pulse at the evolution's "
            "end (0.0129 of the pulse's peak 0.08): the line's tail is cut off; extend evolution.duration to let it "
            "settle\n");
  const CommandResult settled =
      run_qevolve("run " + cfg + " --set evolution.duration=1420 --steps 2000 --threads 1 --quiet", dir);
  EXPECT_EQ(settled.exit_code, 0) << settled.err;
  EXPECT_EQ(settled.err, "");
}

// What a line does that the numbers do not say (docs/lines.md "Warnings"): held samples whose
// edges fall inside the steps (a first-order step error; none once steps is a multiple of the
// samples over T), a carrier above the line's Nyquist frequency, a line that removes the pulse.
TEST(PlausibilityCli, LineWarnings) {
  TempDir dir;
  const std::string device =
      "device:\n  qubits:\n    - {name: q0, type: duffing, frequency: 5.0, anharmonicity: -0.2, levels: 3}\n";
  const std::string hold = "'" + dir.write("hold.yaml", device +
                                                             "lines:\n  - {name: z, sample_rate: 1.0}\n"
                                                             "pulses:\n  - {qubit: q0, operator: number, shape: rampcos, "
                                                             "amplitude: 0.01, duration: 20, ramp: 5, line: z}\n"
                                                             "evolution: {solver: expm, steps: 30}\n")
                                               .string() + "'";
  const std::string held =
      "pulses[0]: its line `z` holds each sample for 1 ns and smooths less than a step: the steps (dt = 0.6667 ns) do "
      "not end where the samples do, so the step error is first order in dt; use evolution.steps = 40 (a multiple of "
      "the 20 samples over T), or a gaussian filter";
  auto r = run_qevolve("run " + hold + " --threads 1 --quiet", dir);
  EXPECT_NE(r.err.find(held), std::string::npos) << r.err;
  r = run_qevolve("run " + hold + " --set evolution.steps=40 --threads 1 --quiet", dir);
  EXPECT_EQ(r.err.find("holds each sample"), std::string::npos) << r.err;
  const std::string rf = "'" + dir.write("rf.yaml", device +
                                                         "lines:\n  - {name: xy, sample_rate: 2.4}\n"
                                                         "  - {name: g, filters: [{type: gaussian, sigma: 0.5}]}\n"
                                                         "pulses:\n"
                                                         "  - {qubit: q0, shape: cos, amplitude: 0.01, frequency: 5.0, duration: 20, line: xy}\n"
                                                         "  - {qubit: q0, shape: cos, amplitude: 0.01, frequency: 5.0, duration: 20, line: g}\n"
                                                         "evolution: {solver: expm, steps: 480}\n")
                                           .string() + "'";
  r = run_qevolve("run " + rf + " --threads 1 --quiet", dir);
  EXPECT_NE(r.err.find("pulses[0]: its carrier (5 GHz) is above the Nyquist frequency of its line `xy` (1.2 GHz = "
                       "sample_rate / 2): the line samples the pulse itself, carrier included, and aliases it"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("pulses[1]: its line `g` passes at most 1.51e-07 of the pulse's peak"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace qevolve::testing
