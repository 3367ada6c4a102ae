// The qevolve executable end to end: exit codes, messages, HDF5 output read back by h5py,
// atomic output under SIGKILL, the summary's control lines.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <sstream>
#include <string>
#include <thread>

#include "cli_util.hpp"
#include "line_configs.hpp"

namespace qevolve::testing {
namespace {

const std::string kSource = QEVOLVE_SOURCE_DIR;

TEST(Cli, VersionAndHelp) {
  TempDir dir;
  const auto v = run_qevolve("--version", dir);
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_EQ(v.out.rfind("qevolve ", 0), 0u) << v.out;
  const auto h = run_qevolve("--help", dir);
  EXPECT_EQ(h.exit_code, 0);
  for (const char* cmd : {"run", "spectrum", "check", "plot", "bench"})
    EXPECT_NE(h.out.find(cmd), std::string::npos) << cmd;
}

TEST(Cli, BadFlagsAreExitCode2) {
  TempDir dir;
  EXPECT_EQ(run_qevolve("run", dir).exit_code, 2);                      // missing CONFIG
  const auto unknown = run_qevolve("frobnicate x.yaml", dir);  // unknown command: named, with the list
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_EQ(unknown.err.rfind("qevolve: error: unknown command `frobnicate` (expected one of: check, ", 0), 0u)
      << unknown.err;
  const auto none = run_qevolve("", dir);
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_EQ(none.err.rfind("qevolve: error: a command is required (expected one of: check, ", 0), 0u) << none.err;
  const auto bench = run_qevolve("bench foo", dir);
  EXPECT_EQ(bench.exit_code, 2);
  EXPECT_EQ(bench.err, "qevolve: error: unknown bench command `foo` (expected one of: scaling, accuracy)\n");
  EXPECT_EQ(run_qevolve("spectrum --levels 1 x.yaml", dir).exit_code, 2);
  const auto r = run_qevolve("bench scaling --qubits 5:3", dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "qevolve: error: --qubits: empty range `5:3` (expected MIN:MAX with MIN <= MAX)\n");
}

TEST(Cli, BenchAccuracyLadder) {
  // A single fluxonium X gate over a short ladder: every variant converges towards the
  // reference, the summary and CSV are written, and a bad variant is an input error.
  TempDir dir;
  const std::string cfg = "'" + kSource + "/examples/fluxonium_x.yaml'";
  const auto r = run_qevolve("bench accuracy " + cfg +
                                 " --solvers trotter2:terms,magnus4:bonds --steps 200,400 --threads 1 --csv '" +
                                 (dir / "acc.csv").string() + "'",
                             dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("reference: magnus4:chebyshev, 1600 steps"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("time to |d(1-F)| <= tol:"), std::string::npos) << r.out;
  const std::string csv = read_file(dir / "acc.csv");
  EXPECT_EQ(csv.rfind("solver,steps,seconds,max_dU,d_infidelity\n", 0), 0u) << csv;
  int lines = 0;
  for (char ch : csv) lines += ch == '\n';
  EXPECT_EQ(lines, 5);  // header + 2 variants x 2 ladder points
  const auto no_csv = run_qevolve("bench accuracy " + cfg + " --plot a.png", dir);  // refused before any run
  EXPECT_EQ(no_csv.exit_code, 2);
  EXPECT_EQ(no_csv.err, "qevolve: error: --plot: the plot is drawn from the CSV file (expected --csv FILE as well)\n");
  EXPECT_EQ(no_csv.out, "");
  const auto bad = run_qevolve("bench accuracy " + cfg + " --solvers magnus2", dir);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.err, "qevolve: error: --solvers: unknown solver variant `magnus2` (expected expm | "
                     "trotter1|2|4[:terms|:bonds|:dense] | trotter2:chebyshev | magnus4[:terms|:bonds|:dense|:chebyshev])\n");
  const auto bad_reference = run_qevolve("bench accuracy " + cfg + " --reference abc", dir);
  EXPECT_EQ(bad_reference.exit_code, 2);
  EXPECT_EQ(bad_reference.err.rfind("qevolve: error: --reference: unknown solver variant `abc`", 0), 0u)
      << bad_reference.err;
}

// Issue 23, item 2: --threads beyond the processors this process may use is capped, with a
// warning that names both numbers; the run itself succeeds.
TEST(Cli, ThreadsBeyondTheHardwareAreCappedWithAWarning) {
  TempDir dir;
  const auto r = run_qevolve("run '" + std::string(QEVOLVE_SOURCE_DIR) + "/examples/fluxonium_x.yaml' --threads 4096 --quiet", dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.rfind("qevolve: warning: --threads 4096 is more than the ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(" processors this process may use: using "), std::string::npos) << r.err;
}

TEST(Cli, MissingConfigIsALocatedExitCode2) {
  TempDir dir;
  const auto r = run_qevolve("check '" + (dir / "nope.yaml").string() + "'", dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.rfind("qevolve: error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("nope.yaml"), std::string::npos) << r.err;
}

TEST(Cli, DeviceErrorsAreLocated) {
  TempDir dir;
  const auto cfg = dir.write("bad.yaml",
                             "device:\n"
                             "  preset: mpc_fluxonium_1d\n"
                             "  preset_args: {qubits: 2}\n"
                             "  couplings:\n"
                             "    - {qubits: [q0, q7], capacitive: 0.01}\n");
  const auto r = run_qevolve("check '" + cfg.string() + "'", dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "qevolve: error: " + cfg.string() +
                       ":5:8: device.couplings[0].qubits: unknown mode `q7` (expected a mode "
                       "name of the device: q0, q1)\n");
}

TEST(Cli, SpectrumWritesReadableHdf5) {
  TempDir dir;
  const auto h5 = dir / "spec.h5";
  const auto r = run_qevolve("spectrum '" + kSource + "/examples/mpc_chain_4q.yaml' -o '" +
                                 h5.string() + "'",
                             dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("static ZZ"), std::string::npos);
  if (!python_has_h5py()) GTEST_SKIP() << "/usr/bin/python3 with h5py not found";
  const auto py = run_python(
      "import h5py, numpy as np\n"
      "f = h5py.File('" + h5.string() + "', 'r')\n"
      "e = f['energies'][()]\n"
      "assert e.shape == (256,) and np.all(np.diff(e) >= 0)\n"
      "labels = [x.decode() if isinstance(x, bytes) else x for x in f['labels'][()]]\n"
      "assert labels[0] == '0000', labels[:3]\n"
      "for q in ['q0', 'q1', 'q2', 'q3']:\n"
      "    for k in ['f01_bare', 'f12_bare', 'f01_dressed', 'phi01', 'n01']:\n"
      "        assert np.isfinite(f['qubits'][q][k][()])\n"
      "assert f['zz'].shape == (3,)\n"
      "assert 0.4 < f['qubits/q0/f01_dressed'][()] < 0.7\n",
      dir);
  EXPECT_EQ(py.exit_code, 0) << py.err;
}

TEST(Cli, RunWritesTheInterfaceLayout) {
  TempDir dir;
  const auto h5 = dir / "run.h5";
  const auto r = run_qevolve("run '" + kSource + "/examples/mpc_chain_4q_x.yaml' --steps 200 -o '" +
                                 h5.string() + "' --threads 2",
                             dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* part : {"fidelity: F = ", "leakage:", "wall time: build", "evolve", "wrote"})
    EXPECT_NE(r.out.find(part), std::string::npos) << part << "\n" << r.out;
  if (!python_has_h5py()) GTEST_SKIP() << "/usr/bin/python3 with h5py not found";
  const auto py = run_python(
      "import h5py, numpy as np\n"
      "f = h5py.File('" + h5.string() + "', 'r')\n"
      "U = f['unitary'][()]\n"
      "assert U.dtype == np.complex128 and U.shape == (16, 16), (U.dtype, U.shape)\n"
      "P = f['propagator'][()]\n"
      "assert P.shape == (81, 16)\n"
      "Uc = f['unitary_compensated'][()]\n"
      "assert Uc.shape == (16, 16)\n"
      "assert f['compensation/angles'].shape == (8,)\n"
      "assert f['energies'].shape == (81,)\n"
      "a = f.attrs\n"
      "for k in ['fidelity', 'fidelity_uncompensated', 'leakage', 'dims', 'steps', 'solver',\n"
      "          'order', 'wall_time_s', 'qevolve_version', 'config']:\n"
      "    assert k in a, k\n"
      "assert a['steps'] == 200 and list(a['dims']) == [3, 3, 3, 3]\n"
      "d = 16\n"
      "# F recomputed from the stored unitaries with the formula of docs/fidelity.md\n"
      "X = np.array([[0, 1], [1, 0]])\n"
      "T = X\n"
      "for _ in range(3): T = np.kron(T, X)\n"
      "F = lambda u: (np.trace(u.conj().T @ u).real + abs(np.trace(T.conj().T @ u))**2) / (d * (d + 1))\n"
      "assert abs(F(U) - a['fidelity_uncompensated']) < 1e-12\n"
      "assert abs(F(Uc) - a['fidelity']) < 1e-12\n"
      "labels = [x.decode() if isinstance(x, bytes) else x for x in f['initial_states'][()]]\n"
      "assert labels[:3] == ['0000', '0001', '0010'], labels[:3]\n",
      dir);
  EXPECT_EQ(py.exit_code, 0) << py.err << py.out;
}

TEST(Cli, OpenSystemRunWritesTheSuperoperator) {
  // evolution.noise makes it a Lindblad run: /superoperator (d^2 x d^2, column stacking) and
  // the open-system fidelity of docs/fidelity.md "Channels", recomputed here from the stored channel.
  TempDir dir;
  const auto h5 = dir / "open.h5";
  const auto r = run_qevolve("run '" + kSource + "/data/lindblad_fluxonium.yaml' --steps 400 -o '" +
                                 h5.string() + "'",
                             dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* part : {"open system: Lindblad, 1 noise entry, 0 `collapse` entries, 4 inputs", "fidelity: F = ", "leakage:"})
    EXPECT_NE(r.out.find(part), std::string::npos) << part << "\n" << r.out;
  if (!python_has_h5py()) GTEST_SKIP() << "/usr/bin/python3 with h5py not found";
  const auto py = run_python(
      "import h5py, numpy as np\n"
      "f = h5py.File('" + h5.string() + "', 'r')\n"
      "S = f['superoperator'][()]\n"
      "assert S.dtype == np.complex128 and S.shape == (4, 4), (S.dtype, S.shape)\n"
      "assert 'propagator' not in f and 'unitary' not in f\n"
      "X = np.array([[0, 1], [1, 0]], dtype=complex)\n"
      "St = np.kron(X.conj(), X)\n"
      "trEI = sum(S[a + 2 * a, i + 2 * i] for a in range(2) for i in range(2)).real\n"
      "F = (trEI + np.trace(St.conj().T @ S).real) / 6\n"
      "a = f.attrs\n"
      "assert abs(F - a['fidelity']) < 1e-12, (F, a['fidelity'])\n"
      "assert abs(1 - trEI / 2 - a['leakage']) < 1e-12\n"
      "assert 0.0 < F < 1.0, F\n",
      dir);
  EXPECT_EQ(py.exit_code, 0) << py.err << py.out;
}

TEST(Cli, KilledRunLeavesNoFileUnderTheFinalName) {
  // A run with a 64 MiB propagator (D = 8192, 512 listed columns, one step; D is above the
  // limit for /energies, so no dense diagonalisation delays the write): SIGKILL as soon as the
  // temporary output file appears, i.e. while it is being written.
  TempDir dir;
  std::string yaml =
      "device:\n"
      "  preset: mpc_fluxonium_1d\n"
      "  preset_args: {qubits: 13, levels: 2}\n"
      "evolution:\n"
      "  duration: 1.0\n"
      "  steps: 1\n"
      "  initial_states:\n";
  for (int k = 0; k < 512; ++k) {
    std::string label(13, '0');
    for (int b = 0; b < 9; ++b) label[static_cast<std::size_t>(12 - b)] = ((k >> b) & 1) ? '1' : '0';
    yaml += "    - \"" + label + "\"\n";
  }
  const auto cfg = dir.write("big.yaml", yaml);
  const auto final_path = dir / "big.h5";
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const int devnull = ::open("/dev/null", O_WRONLY);
    dup2(devnull, 1);
    dup2(devnull, 2);
    execl(QEVOLVE_EXE, QEVOLVE_EXE, "run", cfg.c_str(), "-o", final_path.c_str(), "--threads", "1",
          static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  const bool killed_mid_write = signal_when_file_appears(pid, dir.path(), "big.h5.tmp-", SIGKILL, status);
  waitpid(pid, &status, 0);
  ASSERT_TRUE(killed_mid_write) << "the run ended before its temporary file was seen";
  EXPECT_TRUE(WIFSIGNALED(status));
  EXPECT_FALSE(std::filesystem::exists(final_path));
}

/// The number after `key` in a run summary (e.g. "1 - F = ", "leakage: ").
double summary_number(const std::string& out, const std::string& key) {
  const auto at = out.find(key);
  EXPECT_NE(at, std::string::npos) << out;
  return at == std::string::npos ? -1.0 : std::stod(out.substr(at + key.size()));
}

// The summary names each control line some pulse goes through, once, with its pulses, sample
// rate, filters and predistortion (docs/cli.md "Progress and summary"); a line no pulse uses
// gets no such line. After optimize the line's values are the optimum's.
TEST(Cli, SummaryNamesEachControlLineUsed) {
  TempDir dir;
  const auto cfg = dir.write("lines.yaml", kSmallFluxoniumLines);
  auto r = run_qevolve("run '" + cfg.string() + "' --threads 1", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string lines;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);)
    if (line.rfind("lines: ", 0) == 0) lines += line + "\n";
  EXPECT_EQ(lines,
            "lines: pulses[1] through zline (2.4 GS/s; gaussian 0.5 ns, highpass 1000 ns)\n"
            "lines: pulses[0], pulses[2] through xy (no sampling; exponential 1 - 0.02 e^(-t/30 ns), "
            "exponential 1 + 0.1 e^(-t/5 ns); predistorted)\n"
            "lines: pulses[3] through bare (no sampling; no filters)\n"
            "lines: pulses[4] through taps (2 GS/s; fir 3 taps)\n")
      << r.out;
  EXPECT_LT(r.out.find("lines: "), r.out.find("resolved: ")) << r.out;
  // optimize: the trained sigma as the optimiser's summary gives it (%.12g there, %.6g here).
  r = run_qevolve("optimize '" + cfg.string() + "' --threads 1 --set 'lines[0].filters[0].optimize=[sigma]'" +
                      " --set optimize.max_iterations=1",
                  dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string arrow = "lines[0].filters[0].sigma                0.5 -> ";
  const auto at = r.out.find(arrow);
  ASSERT_NE(at, std::string::npos) << r.out;
  const double sigma = std::stod(r.out.substr(at + arrow.size()));
  EXPECT_NE(sigma, 0.5);
  char want[120];
  std::snprintf(want, sizeof want, "lines: pulses[1] through zline (2.4 GS/s; gaussian %.6g ns, highpass 1000 ns)\n",
                sigma);
  EXPECT_NE(r.out.find(want), std::string::npos) << want << r.out;
}

TEST(Cli, FluxoniumCzExample) {
  // examples/cz_fluxonium_flux.yaml: a CZ by a flux pulse through |11>-|02> (its header
  // quotes these figures): 1 - F = 3.64e-4 with vz compensation, leakage 3.1e-5, converged in
  // steps (doubling them moves 1 - F by 0.03 %; the issue asks < 5 %).
  TempDir dir;
  const std::string cfg = "'" + kSource + "/examples/cz_fluxonium_flux.yaml'";
  const auto base = run_qevolve("run " + cfg + " --threads 2", dir);
  ASSERT_EQ(base.exit_code, 0) << base.err;
  const auto fine = run_qevolve("run " + cfg + " --threads 2 --steps 8000", dir);
  ASSERT_EQ(fine.exit_code, 0) << fine.err;
  const double infidelity = summary_number(base.out, "(1 - F = "), leakage = summary_number(base.out, "leakage: ");
  const double infidelity_fine = summary_number(fine.out, "(1 - F = ");
  EXPECT_LT(infidelity, 4e-4);
  EXPECT_GT(infidelity, 3e-4);  // the quoted figure, not a better one by accident
  EXPECT_LT(leakage, 5e-5);
  EXPECT_LT(std::abs(infidelity_fine - infidelity), 0.05 * infidelity);
}

}  // namespace
}  // namespace qevolve::testing
