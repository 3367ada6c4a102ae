// `qevolve sweep`: every grid point equals `qevolve run --set` with its values (to 1e-12; the
// same code path, so in practice bitwise), pulse-only and control-line sweeps build the
// simulator once, device axes rebuild it, threads do not change a bit, and every bad --vary or bad point value is an
// exit 2 naming the --vary before any evolution.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli_util.hpp"
#include "line_configs.hpp"
#include "sweep_configs.hpp"

namespace qevolve::testing {
namespace {

std::string quoted(const std::filesystem::path& p) { return "'" + p.string() + "'"; }

struct Axis {
  std::string key;
  std::vector<std::string> values;  ///< as the sweep spells them
};

/// Runs `qevolve run --set` at every point of `axes` (first slowest) and checks /sweep/* of
/// `sweep_h5` against each run's fidelity, leakage and |U|^2 to 1e-12.
void expect_sweep_equals_runs(const TempDir& dir, const std::filesystem::path& cfg, const std::vector<Axis>& axes,
                              const std::filesystem::path& sweep_h5) {
  std::vector<std::string> files;
  std::vector<std::size_t> c(axes.size(), 0);
  for (;;) {
    std::string sets;
    for (std::size_t k = 0; k < axes.size(); ++k) sets += " --set '" + axes[k].key + "=" + axes[k].values[c[k]] + "'";
    const std::string out = (dir / ("p" + std::to_string(files.size()) + ".h5")).string();
    const auto r = run_qevolve("run " + quoted(cfg) + sets + " --threads 1 -o '" + out + "'", dir);
    ASSERT_EQ(r.exit_code, 0) << sets << "\n" << r.err;
    files.push_back(out);
    std::size_t k = axes.size();
    while (k > 0 && ++c[k - 1] == axes[k - 1].values.size()) c[--k] = 0;
    if (k == 0) break;
  }
  std::string list;
  for (const auto& f : files) list += "'" + f + "',";
  std::string shape;
  for (const auto& a : axes) shape += std::to_string(a.values.size()) + ",";
  const auto py = run_python(
      "import h5py, numpy as np\n"
      "s = h5py.File('" + sweep_h5.string() + "', 'r')\n"
      "shape = (" + shape + ")\n"
      "F = s['sweep/fidelity'][()]; L = s['sweep/leakage'][()]; P = s['sweep/populations'][()]\n"
      "Fu = s['sweep/fidelity_uncompensated'][()]\n"
      "assert F.shape == shape and L.shape == shape and P.shape == shape + (2, 2), (F.shape, P.shape)\n"
      "for i, name in enumerate([" + list + "]):\n"
      "    r = h5py.File(name, 'r')\n"
      "    at = np.unravel_index(i, shape)\n"
      "    assert abs(F[at] - r.attrs['fidelity']) <= 1e-12, (i, F[at], r.attrs['fidelity'])\n"
      "    assert abs(Fu[at] - r.attrs['fidelity_uncompensated']) <= 1e-12, i\n"
      "    assert abs(L[at] - r.attrs['leakage']) <= 1e-12, i\n"
      "    assert np.max(np.abs(P[at] - np.abs(r['unitary'][()])**2)) <= 1e-12, i\n"
      "print('max |F_sweep - F_run| =', max(abs(F[np.unravel_index(i, shape)] - h5py.File(n, 'r').attrs['fidelity']) for i, n in enumerate([" + list + "])))\n",
      dir);
  EXPECT_EQ(py.exit_code, 0) << py.err << py.out;
  std::printf("[ sweep ] %s", py.out.c_str());
}

TEST(CliSweep, PulseAxesEqualRunSetAtEveryPointFromOneSimulator) {
  if (!python_has_h5py()) GTEST_SKIP() << "/usr/bin/python3 with h5py not found";
  TempDir dir;
  const auto cfg = dir.write("small.yaml", kSmallFluxonium);
  const auto h5 = dir / "sweep.h5";
  const auto r = run_qevolve("sweep " + quoted(cfg) + " --vary pulses[0].amplitude=0.07:0.09:3" +
                                 " --vary pulses[0].frequency=0.57,0.59 --threads 1 -o " + quoted(h5),
                             dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("grid: 3 x 2 = 6 points"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rank 0 built 1 device(s), 1 simulator(s), 1 objective(s), updated pulses 5 time(s)"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("best: F = "), std::string::npos) << r.out;
  expect_sweep_equals_runs(dir, cfg, {{"pulses[0].amplitude", {"0.070000000000000007", "0.080000000000000002", "0.089999999999999997"}},
                                      {"pulses[0].frequency", {"0.57", "0.59"}}},
                           h5);
  const auto py = run_python(
      "import h5py, numpy as np\n"
      "s = h5py.File('" + h5.string() + "', 'r')\n"
      "a0 = s['sweep/axes/0']; a1 = s['sweep/axes/1']\n"
      "assert a0.attrs['key'] == 'pulses[0].amplitude' and a1.attrs['key'] == 'pulses[0].frequency'\n"
      "assert np.allclose(a0[()], [0.07, 0.08, 0.09], rtol=0, atol=1e-17) and a0[0] == 0.07 and a0[2] == 0.09\n"
      "assert list(a1[()]) == [0.57, 0.59]\n"
      "assert [x.decode() if isinstance(x, bytes) else x for x in s['sweep/labels'][()]] == ['0', '1']\n"
      "for k in ['dims', 'qevolve_version', 'config', 'points']: assert k in s.attrs, k\n"
      "assert s.attrs['points'] == 6\n",
      dir);
  EXPECT_EQ(py.exit_code, 0) << py.err << py.out;
}

TEST(CliSweep, DeviceAxisRebuildsAndEqualsRunSet) {
  if (!python_has_h5py()) GTEST_SKIP() << "/usr/bin/python3 with h5py not found";
  TempDir dir;
  const auto cfg = dir.write("small.yaml", kSmallFluxonium);
  const auto h5 = dir / "sweep.h5";
  const auto r = run_qevolve("sweep " + quoted(cfg) + " --vary device.qubits[q0].el=0.95,1.05" +
                                 " --vary pulses[0].amplitude=0.075,0.085 --threads 1 -o " + quoted(h5),
                             dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("rank 0 built 2 device(s), 2 simulator(s), 2 objective(s), updated pulses 2 time(s)"), std::string::npos)
      << r.out;
  expect_sweep_equals_runs(dir, cfg, {{"device.qubits[q0].el", {"0.95", "1.05"}}, {"pulses[0].amplitude", {"0.075", "0.085"}}},
                           h5);
}

// A matrix_file target is read when a thread's simulator is built, not at every point
// (CachedSimulator): a pulse sweep makes one objective, and its figures are those of the named gate.
TEST(CliSweep, AMatrixFileTargetIsReadOncePerSimulator) {
  if (!python_has_h5py()) GTEST_SKIP() << "/usr/bin/python3 with h5py not found";
  TempDir dir;
  const auto py = run_python(
      "import h5py, numpy as np\n"
      "with h5py.File('x.h5', 'w') as f: f['unitary'] = np.array([[0, 1], [1, 0]], dtype=complex)\n",
      dir);
  ASSERT_EQ(py.exit_code, 0) << py.err << py.out;
  std::string file_config = kSmallFluxonium;
  const std::string named = "[{gate: X, qubits: [q0]}]";
  file_config.replace(file_config.find(named), named.size(), "[{matrix_file: x.h5, qubits: [q0]}]");
  const auto by_name = dir.write("named.yaml", kSmallFluxonium);
  const auto by_file = dir.write("file.yaml", file_config);
  const std::string vary = " --vary pulses[0].amplitude=0.07:0.09:4 --threads 1 -o ";
  const auto a = run_qevolve("sweep " + quoted(by_name) + vary + quoted(dir / "named.h5"), dir);
  const auto b = run_qevolve("sweep " + quoted(by_file) + vary + quoted(dir / "file.h5"), dir);
  ASSERT_EQ(b.exit_code, 0) << b.err;
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_NE(b.out.find("rank 0 built 1 device(s), 1 simulator(s), 1 objective(s), updated pulses 3 time(s)"),
            std::string::npos)
      << b.out;
  const auto same = run_python(
      "import h5py, numpy as np\n"
      "a = h5py.File('named.h5', 'r')['sweep']; b = h5py.File('file.h5', 'r')['sweep']\n"
      "names = [k for k in a if isinstance(a[k], h5py.Dataset) and a[k].dtype.kind in 'fc']\n"
      "assert 'fidelity' in names and 'populations' in names, names\n"
      "for k in names: assert np.array_equal(a[k][()], b[k][()], equal_nan=True), k\n",
      dir);
  EXPECT_EQ(same.exit_code, 0) << same.err << same.out;
}

// Control-line keys are swept like pulse keys (docs/cli.md "sweep"): by index or by name, each
// point's lines rebuilt with its pulses (Simulator::set_drive) on one simulator, every point
// different and equal to `run --set` at its values; a line value invalid at one point is an
// input error naming the --vary before any work.
TEST(CliSweep, LineAxesEqualRunSetAtEveryPoint) {
  if (!python_has_h5py()) GTEST_SKIP() << "/usr/bin/python3 with h5py not found";
  TempDir dir;
  const auto cfg = dir.write("lines.yaml", kSmallFluxoniumLines);
  const auto h5 = dir / "sweep.h5";
  const std::vector<Axis> axes = {{"lines[zline].filters[1].tau", {"20", "1000"}},
                                  {"lines[0].filters[0].sigma", {"0.5", "1.5"}},
                                  {"lines[xy].predistort", {"true", "false"}}};
  std::string vary;
  for (const Axis& a : axes) vary += " --vary '" + a.key + "=" + a.values[0] + "," + a.values[1] + "'";
  const auto r = run_qevolve("sweep " + quoted(cfg) + vary + " --threads 1 -o " + quoted(h5), dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("grid: 2 x 2 x 2 = 8 points"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rank 0 built 1 device(s), 1 simulator(s), 1 objective(s), updated pulses 7 time(s)"), std::string::npos)
      << r.out;
  expect_sweep_equals_runs(dir, cfg, axes, h5);
  const auto py = run_python(
      "import h5py, numpy as np\n"
      "F = h5py.File('" + h5.string() + "', 'r')['sweep/fidelity'][()].ravel()\n"
      "assert len(set(F.tolist())) == 8, F  # every line value changes the result\n"
      "assert np.min(np.abs(np.diff(np.sort(F)))) > 1e-9, F\n",
      dir);
  EXPECT_EQ(py.exit_code, 0) << py.err << py.out;
  const auto bad = run_qevolve("sweep " + quoted(cfg) + " --vary 'lines[0].filters[1].tau=100,-1' -o " + quoted(h5), dir);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.err.rfind("qevolve: error: --vary lines[0].filters[1].tau=100,-1 (value -1): lines[0].filters[1].tau: ",
                          0),
            0u)
      << bad.err;
  EXPECT_EQ(bad.out, "");
}

TEST(CliSweep, ThreadsChangeNoBit) {
  if (!python_has_h5py()) GTEST_SKIP() << "/usr/bin/python3 with h5py not found";
  TempDir dir;
  const auto cfg = dir.write("small.yaml", kSmallFluxonium);
  const std::string axes = " --vary evolution.steps=200,300 --vary pulses[0].amplitude=0.07:0.09:5 --quiet";
  ASSERT_EQ(run_qevolve("sweep " + quoted(cfg) + axes + " --threads 1 -o " + quoted(dir / "a.h5"), dir).exit_code, 0);
  ASSERT_EQ(run_qevolve("sweep " + quoted(cfg) + axes + " --threads 3 -o " + quoted(dir / "b.h5"), dir).exit_code, 0);
  const auto py = run_python(
      "import h5py, numpy as np\n"
      "a = h5py.File('" + (dir / "a.h5").string() + "', 'r'); b = h5py.File('" + (dir / "b.h5").string() + "', 'r')\n"
      "for k in ['fidelity', 'fidelity_uncompensated', 'leakage', 'populations']:\n"
      "    assert np.array_equal(a['sweep/' + k][()], b['sweep/' + k][()]), k\n",
      dir);
  EXPECT_EQ(py.exit_code, 0) << py.err << py.out;
}

// sweep --steps N: every point as `--set evolution.steps=N` (bitwise), recorded in /overrides
// as run's flag is; an axis over evolution.steps still sets each point's own steps.
TEST(CliSweep, StepsFlagIsTheSetOfEveryPoint) {
  if (!python_has_h5py()) GTEST_SKIP() << "/usr/bin/python3 with h5py not found";
  TempDir dir;
  const auto cfg = dir.write("small.yaml", kSmallFluxonium);
  const std::string axis = " --vary pulses[0].amplitude=0.07,0.09 --threads 1 --quiet -o ";
  ASSERT_EQ(run_qevolve("sweep " + quoted(cfg) + axis + quoted(dir / "flag.h5") + " --steps 150", dir).exit_code, 0);
  ASSERT_EQ(run_qevolve("sweep " + quoted(cfg) + axis + quoted(dir / "set.h5") + " --set evolution.steps=150", dir)
                .exit_code, 0);
  ASSERT_EQ(run_qevolve("sweep " + quoted(cfg) + axis + quoted(dir / "base.h5"), dir).exit_code, 0);
  const auto both = run_qevolve("sweep " + quoted(cfg) + " --vary evolution.steps=200,300 --steps 150 --threads 1 "
                                "--quiet -o " + quoted(dir / "axis.h5"), dir);
  ASSERT_EQ(both.exit_code, 0) << both.err;
  ASSERT_EQ(run_qevolve("sweep " + quoted(cfg) + " --vary evolution.steps=200,300 --threads 1 --quiet -o " +
                            quoted(dir / "axis_only.h5"), dir).exit_code, 0);
  const auto py = run_python(
      "import h5py, numpy as np\n"
      "f = lambda n: h5py.File('" + dir.path().string() + "/' + n + '.h5', 'r')\n"
      "a, b, c = f('flag'), f('set'), f('base')\n"
      "for k in ['fidelity', 'leakage', 'populations']:\n"
      "    assert np.array_equal(a['sweep/' + k][()], b['sweep/' + k][()]), k\n"
      "assert not np.array_equal(a['sweep/fidelity'][()], c['sweep/fidelity'][()])\n"
      "labels = [x.decode() if isinstance(x, bytes) else x for x in a.attrs['overrides']]\n"
      "assert labels == ['--steps 150'], labels\n"
      "assert np.array_equal(f('axis')['sweep/fidelity'][()], f('axis_only')['sweep/fidelity'][()])\n",
      dir);
  EXPECT_EQ(py.exit_code, 0) << py.err << py.out;
}

// sweep --plot: refused before any work without an output file; with one, the picture is drawn
// from it (and --quiet leaves stdout empty, as run's).
TEST(CliSweep, PlotNeedsAnOutputAndDrawsTheMap) {
  TempDir dir;
  const auto cfg = dir.write("small.yaml", kSmallFluxonium);
  const std::string axes = " --vary pulses[0].amplitude=0.07:0.09:3 --vary pulses[0].frequency=0.57,0.58";
  const auto no_output = run_qevolve("sweep " + quoted(cfg) + axes + " --plot " + quoted(dir / "m.png"), dir);
  EXPECT_EQ(no_output.exit_code, 2);
  EXPECT_EQ(no_output.err,
            "qevolve: error: --plot: the picture is drawn from the HDF5 output (expected -o OUT.h5 (or output.file) as "
            "well)\n");
  EXPECT_EQ(no_output.out, "");
  if (!python_has_h5py()) GTEST_SKIP() << "/usr/bin/python3 with h5py not found";
  const auto r = run_qevolve("sweep " + quoted(cfg) + axes + " -o " + quoted(dir / "m.h5") + " --plot " +
                                 quoted(dir / "m.png") + " --quiet",
                             dir);
  if (r.exit_code == 1 && r.err.find("matplotlib") != std::string::npos) GTEST_SKIP() << r.err;
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_GT(std::filesystem::file_size(dir / "m.png"), 1000u);
}

TEST(CliSweep, WithoutATargetPopulationsAndLeakageOnly) {
  if (!python_has_h5py()) GTEST_SKIP() << "/usr/bin/python3 with h5py not found";
  TempDir dir;
  const auto cfg = dir.write("small.yaml", kSmallFluxoniumNoTarget);
  const auto h5 = dir / "s.h5";
  const auto r = run_qevolve("sweep " + quoted(cfg) + " --vary pulses[0].amplitude=0,0.08 -o " + quoted(h5), dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("best: no fidelity (the config has no target)"), std::string::npos) << r.out;
  const auto py = run_python(
      "import h5py, numpy as np\n"
      "s = h5py.File('" + h5.string() + "', 'r')\n"
      "assert np.all(np.isnan(s['sweep/fidelity'][()]))\n"
      "P = s['sweep/populations'][()]\n"
      "# amplitude 0: nothing moves, |U|^2 = identity exactly up to rounding\n"
      "assert np.max(np.abs(P[0] - np.eye(2))) < 1e-12, P[0]\n"
      "L = s['sweep/leakage'][()]\n"
      "assert abs(L[1] - (1 - P[1].sum() / 2)) < 1e-12, L\n",
      dir);
  EXPECT_EQ(py.exit_code, 0) << py.err << py.out;
}

TEST(CliSweep, OpenSystemPointsEqualRunSetAndConserveTrace) {
  if (!python_has_h5py()) GTEST_SKIP() << "/usr/bin/python3 with h5py not found";
  TempDir dir;
  const std::string cfg = std::string(QEVOLVE_SOURCE_DIR) + "/examples/fluxonium_x_lindblad.yaml";
  const auto h5 = dir / "open.h5";
  const auto r = run_qevolve("sweep '" + cfg + "' --vary evolution.noise.q0.t1=5000,20000 --vary pulses[0].angle=3.0,3.2 -o " +
                                 quoted(h5),
                             dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto one = run_qevolve("run '" + cfg + "' --set evolution.noise.q0.t1=5000 --set pulses[0].angle=3.2 --threads 1 -o " +
                                   quoted(dir / "run.h5"),
                               dir);
  ASSERT_EQ(one.exit_code, 0) << one.err;
  const auto py = run_python(
      "import h5py, numpy as np\n"
      "s = h5py.File('" + h5.string() + "', 'r'); r = h5py.File('" + (dir / "run.h5").string() + "', 'r')\n"
      "assert abs(s['sweep/fidelity'][0, 1] - r.attrs['fidelity']) <= 1e-12\n"
      "assert abs(s['sweep/leakage'][0, 1] - r.attrs['leakage']) <= 1e-12\n"
      "S = r['superoperator'][()]; n = 2\n"
      "P = np.array([[S[a + n * a, i + n * i].real for i in range(n)] for a in range(n)])\n"
      "assert np.max(np.abs(s['sweep/populations'][0, 1] - P)) <= 1e-12\n"
      "# every channel keeps the trace of |i><i| (no leakage to speak of: 1 - sum ~ leakage)\n"
      "Q = s['sweep/populations'][()]\n"
      "assert np.max(np.abs(Q.sum(axis=-2) - (1 - s['sweep/leakage'][()])[..., None])) < 1e-6\n",
      dir);
  EXPECT_EQ(py.exit_code, 0) << py.err << py.out;
}

struct BadVary {
  const char* args;
  const char* message;  ///< the start of the message after "qevolve: error: "
};

const BadVary kBadVary[] = {
    {"--vary pulses[0].amplitude", "--vary pulses[0].amplitude: `pulses[0].amplitude` has no `=`"},
    {"--vary pulses[0].amplitude=0.1:0.2", "--vary pulses[0].amplitude=0.1:0.2: pulses[0].amplitude: `0.1:0.2`: a range has three parts"},
    {"--vary pulses[0].amplitude=0.1:x:3", "--vary pulses[0].amplitude=0.1:x:3: pulses[0].amplitude: `0.1:x:3`: STOP is not a finite number"},
    {"--vary pulses[0].amplitude=0.1:0.2:0", "--vary pulses[0].amplitude=0.1:0.2:0: pulses[0].amplitude: `0.1:0.2:0`: COUNT is not an integer"},
    {"--vary pulses[0].amplitude=0.1:0.2:2.5", "--vary pulses[0].amplitude=0.1:0.2:2.5: pulses[0].amplitude: `0.1:0.2:2.5`: COUNT is not an integer"},
    {"--vary pulses[0].amplitude=0.1,,0.2", "--vary pulses[0].amplitude=0.1,,0.2: pulses[0].amplitude: `0.1,,0.2`: value 2 is empty"},
    {"--vary output.file=a.h5,b.h5", "--vary output.file=a.h5,b.h5: output.file: `output.file` changes no result of a sweep "
                                     "(expected a key under device, pulses, lines, evolution or target)\n"},
    {"--vary pulses[2].amplitude=0.1,0.2", "--vary pulses[2].amplitude=0.1,0.2 (value 0.1): pulses[2]: there is 1 pulse"},
    {"--vary pulses[0].duration=40,-5", "--vary pulses[0].duration=40,-5 (value -5): pulses[0].duration: "},
    {"--vary evolution.steps=100:200:4", "--vary evolution.steps=100:200:4 (value 133.33333333333334): evolution.steps: "},
    {"--vary pulses[0].amplitude=1:2:1000 --vary pulses[0].phase=1:2:1001",
     "--vary: the grid has 1001000 points (expected at most 1000000 points)"},
    {"--vary 'device.qubits[q0].role=qubit,coupler'",
     "--vary device.qubits[q0].role=qubit,coupler: device.qubits[q0].role: `device.qubits[q0].role` changes the "
     "computational subspace, which is the same at every point (expected one role per sweep: set it with --set)"},
    {"--vary 'evolution.initial_states=all'", "--vary evolution.initial_states=all (value all): evolution.initial_states: a sweep stores"},
};

TEST(CliSweep, BadVaryIsExit2BeforeAnyWork) {
  TempDir dir;
  const auto cfg = dir.write("small.yaml", kSmallFluxonium);
  for (const BadVary& b : kBadVary) {
    const auto out = dir / "never.h5";
    const auto r = run_qevolve("sweep " + quoted(cfg) + " " + b.args + " -o " + quoted(out), dir);
    EXPECT_EQ(r.exit_code, 2) << b.args << "\n" << r.err;
    EXPECT_EQ(r.err.rfind(std::string("qevolve: error: ") + b.message, 0), 0u) << b.args << "\n" << r.err;
    EXPECT_EQ(r.out, "") << b.args;
    EXPECT_FALSE(std::filesystem::exists(out)) << b.args;
  }
  const auto none = run_qevolve("sweep " + quoted(cfg), dir);
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("--vary is required"), std::string::npos) << none.err;
}

// run's step-size warning, once, for the grid's point with the largest phase per step (on
// stderr, with --quiet too); none when every point resolves its phases.
TEST(CliSweep, StepSizeWarningNamesTheWorstPoint) {
  TempDir dir;
  const auto cfg = dir.write("small.yaml", kSmallFluxonium);
  const auto coarse = run_qevolve("sweep " + quoted(cfg) + " --vary evolution.steps=300,20,40 --quiet", dir);
  ASSERT_EQ(coarse.exit_code, 0) << coarse.err;
  const auto one = run_qevolve("run " + quoted(cfg) + " --set evolution.steps=20 --quiet", dir);
  ASSERT_EQ(one.exit_code, 0) << one.err;
  // run's line with the point named before the closing parenthesis
  const std::string marker = " ns) exceeds";
  ASSERT_NE(one.err.find(marker), std::string::npos) << one.err;
  std::string expected = one.err;
  expected.insert(expected.find(marker) + 3, ", at the sweep's point evolution.steps = 20");
  EXPECT_EQ(coarse.err, expected);
  const auto fine = run_qevolve("sweep " + quoted(cfg) + " --vary evolution.steps=300,400 --quiet", dir);
  ASSERT_EQ(fine.exit_code, 0) << fine.err;
  EXPECT_EQ(fine.err, "");
}

TEST(CliSweep, SaysItRecordsNoTrace) {
  TempDir dir;
  const auto cfg = dir.write("small.yaml", kSmallFluxonium);
  const auto r = run_qevolve("sweep " + quoted(cfg) + " --set 'output.trace={every: 10}' --vary pulses[0].phase=0,1 --quiet", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "qevolve: warning: sweep records no output.trace (/sweep/* holds each point's final figures); "
                   "`qevolve run` with one point's values as --set records its trace\n");
}

TEST(CliSweep, ProgressLinesThroughAPipeAndQuiet) {
  TempDir dir;
  const auto cfg = dir.write("small.yaml", kSmallFluxonium);
  // the hidden --progress-interval 0 prints a line after every point (the default waits 2 s,
  // which would make the test depend on the machine's speed); stderr is a file here
  const std::string axes = " --vary pulses[0].amplitude=0.07:0.09:5 --threads 1 --progress-interval 0";
  const auto r = run_qevolve("sweep " + quoted(cfg) + axes, dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("sweep: 1/5 points, "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("sweep: 5/5 points, "), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\r'), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("no output file"), std::string::npos) << r.out;
  const auto q = run_qevolve("sweep " + quoted(cfg) + axes + " --quiet", dir);
  ASSERT_EQ(q.exit_code, 0) << q.err;
  EXPECT_EQ(q.err, "");
}

}  // namespace
}  // namespace qevolve::testing
