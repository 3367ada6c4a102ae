// `qevolve converge` (docs/accuracy.md "qevolve converge") on a fluxonium X gate started at 2
// levels and 400 steps (well under a second): the steps found by the step-error estimate, the
// levels raised 2 -> 4 and found converged there (4 -> 6 moves F by less than T/2), the written
// config; exit 2 for a bad tolerance and for a first refinement that cannot fit in memory
// (nothing written), exit 3 with the best config written when a later refinement cannot fit; a
// preset's mode raised alone gets its own device.qubits entry.
#include <gtest/gtest.h>

#include <string>

#include "cli_util.hpp"

namespace qevolve::testing {
namespace {

constexpr const char* kConfig = R"(# a fluxonium X gate, too few levels and steps
device:
  qubits:
    - {name: q0, type: fluxonium, ec: 1.0, ej: 4.0, el: 1.0, flux: 0.5, levels: 2}
pulses:
  - {qubit: q0, shape: cos, amplitude: 0.0823684365012486, frequency: 0.5823664862818624,
     phase: 0.64509906, duration: 40.0}
evolution:
  solver: expm
  steps: 400   # too few
target:
  gates: [{gate: X, qubits: [q0]}]
)";

/// The value of `key: N` on the line of the written YAML that has it (-1: none).
long yaml_int(const std::string& text, const std::string& key) {
  const auto at = text.find(key + ": ");
  return at == std::string::npos ? -1 : std::stol(text.substr(at + key.size() + 2));
}

/// The least --max-memory (bytes) with which `check` accepts the config with q0 at `levels`.
long least_memory(const std::string& cfg, int levels, const TempDir& dir) {
  long lo = 1, hi = 1L << 40;
  while (hi - lo > 1) {
    const long mid = lo + (hi - lo) / 2;
    const auto r = run_qevolve("check '" + cfg + "' --no-time --set 'device.qubits[q0].levels=" +
                                   std::to_string(levels) + "' --max-memory " + std::to_string(mid),
                               dir);
    (r.exit_code == 0 ? hi : lo) = mid;
  }
  return hi;
}

TEST(CliConverge, RaisesStepsAndLevelsAndWritesTheConfig) {
  TempDir dir;
  const std::string cfg = dir.write("fx.yaml", kConfig).string();
  const auto r = run_qevolve("converge '" + cfg + "' --tolerance 1e-5 --threads 1", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("q0 levels 2 \u2192 4"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("kept (|change| >= T/2)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("q0 levels 4 \u2192 6"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("q0 converged at 4"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("wrote " + (dir / "fx.converged.yaml").string() + " (the converged config)"), std::string::npos);
  const std::string yaml = read_file(dir / "fx.converged.yaml");
  EXPECT_EQ(yaml.rfind("# written by qevolve converge: " + cfg, 0), 0u) << yaml;
  EXPECT_NE(yaml.find("# a fluxonium X gate, too few levels and steps"), std::string::npos);  // comments kept
  EXPECT_EQ(yaml_int(yaml, "levels"), 4);
  EXPECT_GT(yaml_int(yaml, "steps"), 400);
  // The written config runs as it is, and a second converge from it changes nothing.
  const auto again = run_qevolve("converge '" + (dir / "fx.converged.yaml").string() + "' --tolerance 1e-5 -o '" +
                                     (dir / "again.yaml").string() + "' --threads 1",
                                 dir);
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(yaml_int(read_file(dir / "again.yaml"), "levels"), 4);
  EXPECT_EQ(yaml_int(read_file(dir / "again.yaml"), "steps"), yaml_int(yaml, "steps"));
  // The file is converge's own: replaced without --force; a file converge did not write is not.
  EXPECT_EQ(run_qevolve("converge '" + cfg + "' --tolerance 1e-3 --quiet", dir).exit_code, 0);
  EXPECT_EQ(run_qevolve("converge '" + cfg + "' --tolerance 1e-3 -o '" + cfg + "'", dir).exit_code, 2);  // the config
  const std::string other = dir.write("other.yaml", "# someone's notes\n").string();
  const auto foreign = run_qevolve("converge '" + cfg + "' --tolerance 1e-3 -o '" + other + "'", dir);
  EXPECT_EQ(foreign.exit_code, 2) << foreign.err;
  EXPECT_NE(foreign.err.find("which qevolve converge did not write"), std::string::npos) << foreign.err;
  EXPECT_EQ(read_file(other), "# someone's notes\n");
  EXPECT_EQ(run_qevolve("converge '" + cfg + "' --tolerance 1e-3 -o '" + other + "' --force", dir).exit_code, 0);
}

// Issue 34, acceptance 3: the under-truncated asymmetric-coupler CZ (tests/data, coupler at 5
// levels: F = 0.81965) converged to 1e-4 in seconds. The reference, a brute-force run at 3200
// magnus4 steps with levels 7, 16, 7 (85 s): F = 0.823080579524; converge's answer must lie
// within the tolerance of it, with the coupler raised and the qubits left alone.
TEST(CliConverge, TheAsymmetricCouplerConvergesToItsTolerance) {
  TempDir dir;
  const std::string data = std::string(QEVOLVE_SOURCE_DIR) + "/tests/data/cz_asymmetric_coupler.yaml";
  const auto r = run_qevolve("converge '" + data + "' --tolerance 1e-4 --set evolution.solver=magnus4 --set "
                             "evolution.splitting=chebyshev -o asym.yaml --threads 2", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("c levels 5 \u2192 7"), std::string::npos) << r.out;
  const auto at = r.out.find("converged: F = ");
  ASSERT_NE(at, std::string::npos) << r.out;
  const double f = std::stod(r.out.substr(at + 15));
  EXPECT_NEAR(f, 0.823080579524, 1e-4) << r.out;
  EXPECT_NE(r.out.find("levels qa 4, c 7, qb 4"), std::string::npos) << r.out;
}

TEST(CliConverge, APresetModeGetsItsOwnLevels) {
  TempDir dir;
  const std::string cfg = dir.write("p.yaml", R"(# two fluxoniums of the preset, 2 levels each
device:
  preset: mpc_fluxonium_1d
  preset_args: {qubits: 2, levels: 2}
pulses:
  - {qubit: q0, shape: rampcos, amplitude: 0.05, frequency: 0.5829029142, duration: 100.0, ramp: 20.0}
evolution: {solver: trotter, steps: 1000, frame: rotating}
target:
  gates: [{gate: CNOT, qubits: [q0, q1]}]
  compensation: single_qubit
)").string();
  const auto r = run_qevolve("converge '" + cfg + "' --tolerance 1e-3 --threads 1", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("q1 converged at 2"), std::string::npos) << r.out;
  const std::string yaml = read_file(dir / "p.converged.yaml");
  // Only the raised mode gets an entry; the preset's own levels and the comments stay.
  EXPECT_NE(yaml.find("  qubits: [{name: q0, levels: 4}]\n"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("preset_args: {qubits: 2, levels: 2}"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("# two fluxoniums of the preset"), std::string::npos) << yaml;
  EXPECT_EQ(run_qevolve("check '" + (dir / "p.converged.yaml").string() + "' --no-time", dir).exit_code, 0);
}

TEST(CliConverge, SetKeysAreWrittenToo) {
  TempDir dir;
  const std::string cfg = dir.write("fx.yaml", kConfig).string();
  const auto r = run_qevolve("converge '" + cfg + "' --tolerance 1e-3 --set 'device.qubits[q0].levels=3' --set "
                             "pulses[0].phase=0.65 -o '" + (dir / "out.yaml").string() + "' --quiet --threads 1",
                             dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  const std::string yaml = read_file(dir / "out.yaml");
  EXPECT_NE(yaml.find("phase: 0.65"), std::string::npos) << yaml;
  EXPECT_EQ(yaml_int(yaml, "levels"), 3) << yaml;
}

TEST(CliConverge, BadToleranceIsAnInputError) {
  TempDir dir;
  const std::string cfg = dir.write("fx.yaml", kConfig).string();
  for (const char* t : {"0", "-1e-6", "0.5"}) {
    const auto r = run_qevolve("converge '" + cfg + "' --tolerance " + t, dir);
    EXPECT_EQ(r.exit_code, 2) << t;
    EXPECT_EQ(r.err, std::string("qevolve: error: --tolerance: the tolerance ") + (t[0] == '-' ? "-1e-06" : t) +
                         " is not in (0, 0.1] (expected an absolute error of F, e.g. 1e-6)\n");
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "fx.converged.yaml"));
}

TEST(CliConverge, MemoryStopsItBeforeOrDuringTheWork) {
  TempDir dir;
  const std::string cfg = dir.write("fx.yaml", kConfig).string();
  const long at2 = least_memory(cfg, 2, dir), at4 = least_memory(cfg, 4, dir), at6 = least_memory(cfg, 6, dir);
  ASSERT_LT(at2, at4);
  ASSERT_LT(at4, at6);
  // The first refinement (2 -> 4 levels) cannot fit: exit 2 before any work, at the levels.
  auto r = run_qevolve("converge '" + cfg + "' --tolerance 1e-5 --max-memory " + std::to_string(at2), dir);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err.rfind("qevolve: error: " + cfg + ":4:73: device.qubits[0].levels: converge's first refinement of mode "
                        "`q0`, q0 levels 2 \u2192 4, cannot be run: D = 4",
                        0),
            0u)
      << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(std::filesystem::exists(dir / "fx.converged.yaml"));
  // 2 -> 4 fits, 4 -> 6 does not: exit 3 after the table so far, the best config written.
  r = run_qevolve("converge '" + cfg + "' --tolerance 1e-5 --max-memory " + std::to_string(at4), dir);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.out.find("q0 levels 2 \u2192 4"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("wrote " + (dir / "fx.converged.yaml").string() + " (the best config so far)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.err.find("the next refinement, q0 levels 4 \u2192 6, cannot be run: D = 6"), std::string::npos) << r.err;
  const std::string yaml = read_file(dir / "fx.converged.yaml");
  EXPECT_NE(yaml.find("(not converged: stopped by a cap)"), std::string::npos);
  EXPECT_EQ(yaml_int(yaml, "levels"), 4);
}

}  // namespace
}  // namespace qevolve::testing
