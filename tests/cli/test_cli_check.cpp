// `qevolve check` runs the whole resolution stage (include/qevolve/resolve.hpp): every config
// that `run` (or `optimize`) rejects as input, `check` rejects with the same located message and
// exit code 2, before any evolution. The errors that need the merged device or more than one
// section (class `stage`), and every other config of the bad-input corpus, are compared for
// `check` and `run` in test_cli_corpus.cpp; here, `optimize` and a device alone.
#include <gtest/gtest.h>

#include <string>

#include "cli_util.hpp"

namespace qevolve::testing {
namespace {

constexpr const char* kFluxonium =
    "device:\n"
    "  qubits:\n"
    "    - {name: q0, type: fluxonium, ec: 1.0, ej: 4.0, el: 1.0, flux: 0.5, levels: 3}\n";

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

// The control lines are counted (docs/cli.md "Commands"): examples/cz_with_line.yaml has one.
TEST(CheckCounts, Lines) {
  TempDir dir;
  const CommandResult check =
      run_qevolve("check '" + std::string(QEVOLVE_SOURCE_DIR) + "/examples/cz_with_line.yaml' --no-time", dir);
  EXPECT_EQ(check.exit_code, 0) << check.err;
  EXPECT_NE(check.out.find(", 3 couplings, 1 pulse, 1 line)\n"), std::string::npos) << check.out;
}

}  // namespace
}  // namespace qevolve::testing
