// `qevolve optimize` and `qevolve run` with trainable parameters, end to end (issue 4):
// the X-gate example reaches its target, /gradient and /history are written, the optimised
// YAML runs to the same fidelity, and a resumed run reaches exactly the final parameters of an
// uninterrupted one.
#include <gtest/gtest.h>

#include <iterator>
#include <regex>
#include <string>

#include "cli_util.hpp"

namespace qevolve::testing {
namespace {

const std::string kSource = QEVOLVE_SOURCE_DIR;

/// 1 - F printed in the `fidelity:` line.
double infidelity_of(const std::string& out) {
  std::smatch m;
  const std::regex re(R"(fidelity: F = [0-9.]+( \S+ \S+ \(steps\))? \(1 - F = ([0-9.e+-]+)\))");
  if (!std::regex_search(out, m, re)) return -1.0;
  return std::stod(m[2]);
}

TEST(CliOptimize, XGateReachesTargetAndWritesOutputs) {
  TempDir dir;
  const auto h5 = dir / "x.h5";
  const auto r = run_qevolve("optimize '" + kSource + "/examples/fluxonium_x_optimize.yaml' -o '" +
                                 h5.string() + "'",
                             dir);
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const double f = infidelity_of(r.out);
  EXPECT_GT(f, 0.0);
  EXPECT_LT(f, 1e-5) << r.out;
  EXPECT_NE(r.out.find("stop: target reached: 1 - F = "), std::string::npos) << r.out;
  // One progress line per iteration on stderr, though stderr is a pipe here, not a terminal.
  const std::regex iteration_line("iter +[0-9]+  1-F ");
  const auto lines = std::distance(std::sregex_iterator(r.err.begin(), r.err.end(), iteration_line),
                                   std::sregex_iterator());
  EXPECT_GE(lines, 2) << r.err;
  const auto yaml = dir / "x.optimized.yaml";
  ASSERT_TRUE(std::filesystem::exists(yaml));
  const auto again = run_qevolve("run '" + yaml.string() + "'", dir);
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(infidelity_of(again.out), f);  // same printed digits: the YAML round-trips exactly
  if (!python_has_h5py()) GTEST_SKIP() << "/usr/bin/python3 with h5py not found";
  const auto py = run_python(
      "import h5py\n"
      "f = h5py.File('" + h5.string() + "', 'r')\n"
      "names = [x.decode() if isinstance(x, bytes) else x for x in f['gradient_names'][()]]\n"
      "assert names == ['pulses[0].amplitude', 'pulses[0].frequency', 'pulses[0].phase'], names\n"
      "assert f['gradient'].shape == (3,)\n"
      "h = f['history']\n"
      "n = h['iteration'].shape[0]\n"
      "assert n >= 2 and all(h[k].shape == (n,) for k in ['infidelity', 'gradient_norm', 'wall_time_s'])\n"
      "assert h['infidelity'][-1] < 1e-5 < h['infidelity'][0]\n"
      "assert n == " + std::to_string(lines) + ", n\n",
      dir);
  EXPECT_EQ(py.exit_code, 0) << py.err << py.out;
}

// An `amplitude: auto` that is trained: the summary says the value is the optimised one, not
// the auto value; /resolved holds the optimised amplitude (the one the write-back YAML has).
TEST(CliOptimize, TrainedAutoAmplitudeIsLabelledOptimised) {
  TempDir dir;
  const auto r = run_qevolve("optimize '" + kSource + "/examples/fluxonium_x_optimize.yaml' --set "
                             "pulses[0].amplitude=auto --set pulses[0].angle=3.14159 --set "
                             "optimize.max_iterations=2 --threads 1 -o '" + (dir / "o.h5").string() + "'", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::regex line(R"(resolved: pulses\[0\]\.amplitude = ([0-9.e+-]+) GHz \(auto, then optimised\)\n)");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m, line)) << r.out;
  const auto run = run_qevolve("run '" + kSource + "/examples/fluxonium_x_optimize.yaml' --set "
                               "pulses[0].amplitude=auto --set pulses[0].angle=3.14159 --threads 1", dir);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::smatch a;
  ASSERT_TRUE(std::regex_search(run.out, a, std::regex(R"(resolved: pulses\[0\]\.amplitude = ([0-9.e+-]+) GHz \(auto\)\n)")))
      << run.out;
  EXPECT_NE(m[1].str(), a[1].str());  // trained away from the auto value
  const std::string yaml = read_file(dir / "o.optimized.yaml");
  EXPECT_NE(yaml.find("amplitude: " + m[1].str().substr(0, 8)), std::string::npos) << yaml;
}

// The optimiser's bounds are the config's ranges: Adam with a huge step drives T1 to the
// config's 1e15 ns and no further, and the written YAML loads again (it held 1e16 and was
// refused before: the bound was (1e-9, inf)).
TEST(CliOptimize, TrainedValuesStayInTheConfigsRanges) {
  TempDir dir;
  const auto r = run_qevolve("optimize '" + kSource + "/examples/fluxonium_x_lindblad.yaml' --set 'pulses[0].optimize=[]' "
                             "--set 'optimize={method: adam, learning_rate: 1.0e13, max_iterations: 5}' --threads 1 -o '" +
                                 (dir / "t1.h5").string() + "'",
                             dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("evolution.noise.q0.t1                    20000 -> 1e+15\n"), std::string::npos) << r.out;
  const auto again = run_qevolve("check '" + (dir / "t1.optimized.yaml").string() + "'", dir);
  EXPECT_EQ(again.exit_code, 0) << again.err;
}

// optimize.leakage_weight: the objective (1 - F) + w leakage is what is minimised, printed per
// iteration and stored in /history/objective next to /history/infidelity and /history/leakage.
TEST(CliOptimize, LeakageWeightIsTheObjectiveAndQuietSilencesProgress) {
  TempDir dir;
  const auto cfg = dir.write("leak.yaml",
                             "device:\n"
                             "  qubits: [{name: q0, type: transmon, ec: 0.12, ej: 12.0, levels: 3}]\n"
                             "pulses:\n"
                             "  - {qubit: q0, shape: gaussian, amplitude: 0.06, frequency: 3.27, duration: 8, sigma: 2,\n"
                             "     optimize: [amplitude, frequency]}\n"
                             "evolution: {solver: trotter, steps: 200, frame: rotating}\n"
                             "target: {gates: [{gate: X, qubits: [q0]}], compensation: vz}\n"
                             "optimize: {max_iterations: 3, leakage_weight: 2.5, checkpoint: '" +
                                 (dir / "ck.h5").string() + "'}\n");
  auto r = run_qevolve("optimize '" + cfg.string() + "' -o '" + (dir / "leak.h5").string() + "'", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_NE(r.err.find("iter    0  1-F "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("  objective "), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("stop: max_iterations: 3 iterations done"), std::string::npos) << r.out;
  r = run_qevolve("optimize '" + cfg.string() + "' -o '" + (dir / "quiet.h5").string() + "' --quiet", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("iter "), std::string::npos) << r.err;
  if (!python_has_h5py()) GTEST_SKIP() << "/usr/bin/python3 with h5py not found";
  const auto py = run_python(
      "import h5py, numpy as np\n"
      "h = h5py.File('" + (dir / "leak.h5").string() + "', 'r')\n"
      "g = h['history']\n"
      "assert h.attrs['leakage_weight'] == 2.5\n"
      "assert np.allclose(g['objective'][()], g['infidelity'][()] + 2.5 * g['leakage'][()], rtol=1e-14, atol=0)\n"
      "assert g['leakage'][0] > 1e-3, g['leakage'][()]\n"
      "assert g['objective'][-1] < g['objective'][0]\n"
      "c = h5py.File('" + (dir / "ck.h5").string() + "', 'r')\n"
      "assert c.attrs['objective'] == '(1 - F) + 2.5 leakage', c.attrs['objective']\n"
      "assert np.array_equal(np.ravel(c['history/infidelity']), np.ravel(g['objective']))\n",
      dir);
  EXPECT_EQ(py.exit_code, 0) << py.err << py.out;
}

TEST(CliOptimize, ResumeReachesTheUninterruptedResult) {
  TempDir dir;
  // The CNOT example (examples/cnot_cr_pair.yaml), shortened to 1000 steps and 6 iterations;
  // resume is the subject, not the step error (1000 steps are far from converged: the
  // certification would continue at 8000 steps), so the estimate is off.
  const std::string cfg =
      "device:\n"
      "  preset: mpc_fluxonium_1d\n"
      "  preset_args: {qubits: 2, levels: 5}\n"
      "pulses:\n"
      "  - {qubit: q0, operator: phi, shape: rampcos, amplitude: 0.05, frequency: 0.5829029142,\n"
      "     phase: 0.0, duration: 200.0, ramp: 20.0, optimize: [amplitude, frequency, phase]}\n"
      "evolution: {solver: trotter, order: 2, steps: 1000, frame: rotating, error_estimate: false}\n"
      "target:\n"
      "  gates: [{gate: CNOT, qubits: [q0, q1]}]\n"
      "  compensation: single_qubit\n"
      "optimize: {method: lbfgs, max_iterations: 6, target_infidelity: 1.0e-5, checkpoint: cnot_ckpt.h5}\n";
  const auto full = dir.write("full.yaml", cfg);
  const auto part = dir.write("part.yaml", std::regex_replace(cfg, std::regex("max_iterations: 6"),
                                                              "max_iterations: 2"));
  // Uninterrupted run.
  auto r = run_command("cd '" + dir.path().string() + "' && '" + QEVOLVE_EXE + "' optimize '" +
                           full.string() + "' -o a.h5",
                       dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::filesystem::rename(dir / "cnot_ckpt.h5", dir / "a_ckpt.h5");
  // Interrupted after 2 iterations, then resumed with the full budget.
  r = run_command("cd '" + dir.path().string() + "' && '" + QEVOLVE_EXE + "' optimize '" +
                      part.string() + "' -o b.h5",
                  dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_command("cd '" + dir.path().string() + "' && '" + QEVOLVE_EXE + "' optimize '" +
                      full.string() + "' -o c.h5 --resume cnot_ckpt.h5",
                  dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string a = read_file(dir / "a.optimized.yaml"), c = read_file(dir / "c.optimized.yaml");
  // Same parameters to the last of 17 digits (the first line names the source file).
  EXPECT_EQ(a.substr(a.find('\n')), c.substr(c.find('\n')));
  // A checkpoint of another configuration is refused.
  const auto other = dir.write("other.yaml", std::regex_replace(cfg, std::regex("amplitude: 0.05"),
                                                                "amplitude: 0.06"));
  r = run_command("cd '" + dir.path().string() + "' && '" + QEVOLVE_EXE + "' optimize '" +
                      other.string() + "' -o d.h5 --resume a_ckpt.h5",
                  dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("checkpoint does not match this configuration"), std::string::npos) << r.err;
  // A missing checkpoint is an input error naming the file.
  r = run_command("cd '" + dir.path().string() + "' && '" + QEVOLVE_EXE + "' optimize '" +
                      full.string() + "' --resume nope.h5",
                  dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("nope.h5"), std::string::npos) << r.err;
}

TEST(CliOptimize, RunWritesGradientAndRefusesAdaptive) {
  TempDir dir;
  std::string cfg = read_file(kSource + "/examples/fluxonium_x_optimize.yaml");
  const auto ok = dir.write("x.yaml", cfg);
  auto r = run_qevolve("run '" + ok.string() + "' --steps 300", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("gradient: 3 parameters"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("| gradient "), std::string::npos) << r.out;
  const auto bad = dir.write("a.yaml", std::regex_replace(cfg, std::regex("solver: magnus4\n  splitting: dense"), "solver: adaptive"));
  r = run_qevolve("run '" + bad.string() + "'", dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("evolution.solver: solver `adaptive` gives no gradient"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace qevolve::testing
