// `qevolve check` runs the whole resolution stage (include/qevolve/resolve.hpp): every config
// that `run` (or `optimize`) rejects as input, `check` rejects with the same located message and
// exit code 2, before any evolution. The cases are the errors that need the merged device or
// more than one section -- the ones the loader alone cannot see.
#include <gtest/gtest.h>

#include <string>

#include "cli_util.hpp"

namespace qevolve::testing {
namespace {

struct StageCase {
  const char* name;
  const char* yaml;
  const char* needle;  ///< part of the message both commands must print
};

constexpr const char* kTransmon =
    "device:\n"
    "  qubits:\n"
    "    - {name: t0, type: transmon, ec: 0.2, ej: 15.0, levels: 3}\n";
constexpr const char* kFluxonium =
    "device:\n"
    "  qubits:\n"
    "    - {name: q0, type: fluxonium, ec: 1.0, ej: 4.0, el: 1.0, flux: 0.5, levels: 3}\n";

const StageCase kCases[] = {
    {"PhiDriveOnATransmon", "pulses:\n  - {qubit: t0, operator: phi, shape: cos, amplitude: 0.01, duration: 20}\n",
     "pulses[0].operator: mode `t0` has no drive operator `phi` (expected n)"},
    {"FluxPulseOnAFixedFrequencyTransmon",
     "pulses:\n  - {qubit: t0, operator: flux, shape: cos, amplitude: 0.1, duration: 20}\n",
     "pulses[0].operator: mode `t0` is a fixed-frequency transmon (no `asymmetry`): it takes no flux pulse"
     " (expected n)"},
    {"NumberPulseOnATransmon",
     "pulses:\n  - {qubit: t0, operator: number, shape: cos, amplitude: 0.1, duration: 20}\n",
     "pulses[0].operator: mode `t0` is a transmon: `operator: number` drives a resonator or duffing mode"},
    {"PulseOnAnUnknownMode", "pulses:\n  - {qubit: q9, shape: cos, amplitude: 0.01, duration: 20}\n",
     "pulses[0].qubit: unknown mode `q9`"},
    {"DurationShorterThanThePulse",
     "pulses:\n  - {qubit: t0, shape: cos, amplitude: 0.01, duration: 20}\nevolution: {duration: 10}\n",
     "evolution.duration: duration 10.000000 ns is shorter than the latest pulse end"},
    {"InitialStateLevelNotKept",
     "pulses:\n  - {qubit: t0, shape: cos, amplitude: 0.01, duration: 20}\n"
     "evolution: {initial_states: ['5']}\n",
     "level 5 of mode `t0` is not kept (levels 3)"},
    {"NoiseOnAMissingMode",
     "pulses:\n  - {qubit: t0, shape: cos, amplitude: 0.01, duration: 20}\n"
     "evolution: {noise: {q7: {t1: 1000}}}\n",
     "evolution.noise.q7: unknown mode `q7`"},
    {"SinglePrecisionWithNoise",
     "pulses:\n  - {qubit: t0, shape: cos, amplitude: 0.01, duration: 20}\n"
     "evolution: {precision: single, noise: {t0: {t1: 1000}}}\n",
     "precision: single is for closed systems"},
    {"TargetOnAMissingQubit",
     "pulses:\n  - {qubit: t0, shape: cos, amplitude: 0.01, duration: 20}\n"
     "target: {gates: [{gate: X, qubits: [q3]}]}\n",
     "target.gates[0].qubits: `q3` is not a qubit of the device"},
    {"MissingMatrixFile",
     "pulses:\n  - {qubit: t0, shape: cos, amplitude: 0.01, duration: 20}\n"
     "target: {gates: [{matrix_file: absent.h5, qubits: [t0]}]}\n",
     "target.gates[0].matrix_file: cannot read the gate matrix"},
    {"GradientWithAdaptiveSolver",
     "pulses:\n  - {qubit: t0, shape: cos, amplitude: 0.01, duration: 20, optimize: [amplitude]}\n"
     "evolution: {solver: adaptive}\ntarget: {gates: [{gate: X, qubits: [t0]}]}\n",
     "evolution.solver: solver `adaptive` gives no gradient"},
};

class CheckLikeRun : public ::testing::TestWithParam<StageCase> {};

TEST_P(CheckLikeRun, SameLocatedErrorAndExitCode) {
  const StageCase& c = GetParam();
  TempDir dir;
  const auto config = dir.write("bad.yaml", std::string(kTransmon) + c.yaml);
  const CommandResult check = run_qevolve("check '" + config.string() + "'", dir);
  const CommandResult run = run_qevolve("run '" + config.string() + "' --threads 1", dir);
  EXPECT_EQ(check.exit_code, 2) << check.err;
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(check.err.find(c.needle), std::string::npos) << check.err;
  EXPECT_EQ(check.err, run.err);
  EXPECT_NE(check.err.find("bad.yaml:"), std::string::npos) << "not located: " << check.err;
}

INSTANTIATE_TEST_SUITE_P(Stage, CheckLikeRun, ::testing::ValuesIn(kCases),
                         [](const auto& param_info) { return std::string(param_info.param.name); });

TEST(CheckLikeOptimize, NothingTrainable) {
  TempDir dir;
  const auto config = dir.write(
      "bad.yaml", std::string(kFluxonium) +
                      "pulses:\n  - {qubit: q0, shape: cos, amplitude: 0.01, duration: 20}\n"
                      "target: {gates: [{gate: X, qubits: [q0]}]}\noptimize: {max_iterations: 3}\n");
  const CommandResult check = run_qevolve("check '" + config.string() + "'", dir);
  const CommandResult opt = run_qevolve("optimize '" + config.string() + "' --threads 1", dir);
  EXPECT_EQ(check.exit_code, 2) << check.err;
  EXPECT_EQ(opt.exit_code, 2) << opt.err;
  EXPECT_NE(check.err.find("nothing is trainable"), std::string::npos) << check.err;
  EXPECT_EQ(check.err, opt.err);
}

TEST(CheckDeviceOnly, IsForSpectrum) {
  TempDir dir;
  const auto config = dir.write("dev.yaml", kFluxonium);
  const CommandResult check = run_qevolve("check '" + config.string() + "'", dir);
  EXPECT_EQ(check.exit_code, 0) << check.err;
  EXPECT_NE(check.out.find("a device alone: for `qevolve spectrum`"), std::string::npos) << check.out;
}

}  // namespace
}  // namespace qevolve::testing
