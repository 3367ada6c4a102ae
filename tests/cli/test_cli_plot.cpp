// `qevolve plot` end to end (docs/cli.md "Plots"): images of a run and an optimisation file,
// the input errors (missing, not HDF5, not qevolve's, nothing to draw, -o on the input, a file
// the script refuses), the messages for a missing interpreter or module, and `bench --plot`
// with a file name the old shell command line broke on; a CZ's phases and conditional phase, a
// chevron's population (--population, --from and their errors) and leakage at rounding level,
// read back from the image's Description; a run with a control line drawn before and after it.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <tuple>
#include <utility>

#include "cli_util.hpp"
#include "line_configs.hpp"
#include "qevolve/hdf5_file.hpp"

namespace qevolve::testing {
namespace {

const std::string kSource = QEVOLVE_SOURCE_DIR;

/// `path` as one single-quoted shell word (a ' inside becomes '\'').
std::string shell_word(const std::filesystem::path& path) {
  std::string out = "'";
  for (char ch : path.string()) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

bool python_can_plot() {
  const std::string cmd =
      std::string("'") + QEVOLVE_PYTHON + "' -c 'import matplotlib, h5py, numpy' >/dev/null 2>&1";
  return std::system(cmd.c_str()) == 0;
}

/// True when `path` starts with the PNG signature and holds more than a trivial image.
bool is_png(const std::filesystem::path& path) {
  const std::string bytes = read_file(path);
  return bytes.size() > 10000 && bytes.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0;
}

/// A small file written by qevolve's writer: the version attribute (unless `foreign`) and
/// `/energies` (unless `empty`: then only `/propagator`, which plot does not draw).
std::filesystem::path small_file(const TempDir& dir, const std::string& name, bool foreign,
                                 bool empty) {
  const auto path = dir / name;
  io::Hdf5Writer w(path.string());
  if (!foreign) w.attribute("qevolve_version", std::string("test"));
  if (empty)
    w.write("/propagator", CMatrix(CMatrix::Identity(2, 2)));
  else
    w.write("/energies", std::vector<double>{-1.0, 0.5, 1.75});
  w.commit();
  return path;
}

TEST(CliPlot, RunAndOptimizeFilesGiveImages) {
  if (!python_can_plot())
    GTEST_SKIP() << QEVOLVE_PYTHON << " lacks matplotlib, h5py or numpy: no image drawn";
  TempDir dir;
  const auto run_h5 = dir / "x.h5";
  auto r = run_qevolve("run " + shell_word(kSource + "/examples/fluxonium_x.yaml") +
                           " --quiet -o " + shell_word(run_h5),
                       dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_qevolve("plot " + shell_word(run_h5), dir);
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_EQ(r.out, "wrote " + (dir / "x.png").string() + " (unitary, energies, pulses)\n");
  EXPECT_TRUE(is_png(dir / "x.png"));

  // An optimisation file, drawn into a name with a space and a quote.
  const auto opt_h5 = dir / "opt.h5";
  r = run_qevolve("optimize " + shell_word(kSource + "/examples/fluxonium_x_optimize.yaml") +
                      " --quiet -o " + shell_word(opt_h5),
                  dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto image = dir / "it's the history.png";
  r = run_qevolve("plot " + shell_word(opt_h5) + " -o " + shell_word(image), dir);
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_EQ(r.out, "wrote " + image.string() + " (history, unitary, energies, pulses)\n");
  EXPECT_TRUE(is_png(image));
  EXPECT_FALSE(std::filesystem::exists(dir / "opt.png"));
  r = run_qevolve("plot --quiet " + shell_word(opt_h5), dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(is_png(dir / "opt.png"));

  // The optimiser's checkpoint (no qevolve_version, `kind` instead) and an open-system run.
  const auto ckpt = dir / "ck.h5";
  const auto cfg = dir.write("ck.yaml", read_file(kSource + "/examples/fluxonium_x_optimize.yaml") +
                                            "  checkpoint: " + ckpt.string() + "\n");
  r = run_qevolve("optimize " + shell_word(cfg) + " --quiet", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_qevolve("plot " + shell_word(ckpt), dir);
  EXPECT_EQ(r.out, "wrote " + (dir / "ck.png").string() + " (history)\n") << r.err;
  EXPECT_TRUE(is_png(dir / "ck.png"));
  const auto open_h5 = dir / "open.h5";
  r = run_qevolve("run " + shell_word(kSource + "/examples/fluxonium_x_lindblad.yaml") +
                      " --quiet -o " + shell_word(open_h5),
                  dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_qevolve("plot " + shell_word(open_h5), dir);
  EXPECT_EQ(r.out, "wrote " + (dir / "open.png").string() + " (channel, energies, pulses)\n") << r.err;
  EXPECT_TRUE(is_png(dir / "open.png"));
}

TEST(CliPlot, FilesItCannotDrawAreInputErrors) {
  TempDir dir;
  const auto expect_input_error = [&](const std::string& args, const std::string& message) {
    const auto r = run_qevolve("plot " + args, dir);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_EQ(r.err, "qevolve: error: " + message + "\n") << args;
    EXPECT_EQ(r.out, "") << args;
  };
  const auto missing = dir / "missing.h5";
  expect_input_error(shell_word(missing),
                     missing.string() + ": cannot open HDF5 file: No such file or directory");
  const auto yaml = kSource + "/examples/fluxonium_x.yaml";
  expect_input_error(shell_word(yaml), yaml + ": not an HDF5 file");
  const auto foreign = small_file(dir, "foreign.h5", true, false);
  expect_input_error(shell_word(foreign),
                     foreign.string() +
                         ": not a file written by qevolve (no `qevolve_version` attribute on /) "
                         "(expected the output of qevolve run, optimize, sweep or spectrum)");
  const auto empty = small_file(dir, "empty.h5", false, true);
  expect_input_error(shell_word(empty),
                     empty.string() +
                         ": nothing to draw (expected one of /sweep/fidelity, /history/infidelity, "
                         "/ensemble/fidelity, "
                         "/trace/time with /trace/populations or /trace/mode_populations, "
                         "/pulses/values, /unitary, /superoperator, /energies, /zz)");
  const auto levels = small_file(dir, "levels.h5", false, false);
  expect_input_error(shell_word(levels) + " -o " + shell_word(levels),
                     "-o: `" + levels.string() +
                         "` is the input file, which the image would overwrite (expected "
                         "an image file name such as " +
                         (dir / "levels.png").string() + ")");
  for (const char* name : {"missing.png", "foreign.png", "empty.png"})
    EXPECT_FALSE(std::filesystem::exists(dir / name)) << name;
  EXPECT_FALSE(std::filesystem::exists(kSource + "/examples/fluxonium_x.png"));
}

TEST(CliPlot, DatasetsTheScriptRefusesAreInputErrors) {
  if (!python_can_plot())
    GTEST_SKIP() << QEVOLVE_PYTHON << " lacks matplotlib, h5py or numpy: the script cannot run";
  TempDir dir;
  const auto path = dir / "pulses.h5";
  {
    io::Hdf5Writer w(path.string());
    w.attribute("qevolve_version", std::string("test"));
    w.write("/pulses/time", std::vector<double>{0.5, 1.5, 2.5, 3.5, 4.5});
    w.write("/pulses/values", RMatrix(RMatrix::Zero(1, 7)));  // 7 samples against 5 times
    w.commit();
  }
  const auto r = run_qevolve("plot " + shell_word(path), dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "qevolve: error: " + path.string() +
                       ": /pulses/values has shape [1, 7], expected [any, 5]\n");
  EXPECT_FALSE(std::filesystem::exists(dir / "pulses.png"));
  const auto unwritable = dir / "no_such_folder" / "x.png";
  const auto levels = small_file(dir, "levels.h5", false, false);
  const auto w = run_qevolve("plot " + shell_word(levels) + " -o " + shell_word(unwritable), dir);
  EXPECT_EQ(w.exit_code, 2);
  // Refused before the script runs (io::check_flag_output, docs/output.md "Replacing a file").
  EXPECT_EQ(w.err, "qevolve: error: -o: the folder `" + (dir / "no_such_folder").string() +
                       "` does not exist (expected a new or writable file such as out.h5 in an "
                       "existing, writable folder)\n");
}

TEST(CliPlot, MissingInterpreterOrModuleIsNamed) {
  TempDir dir;
  const auto levels = small_file(dir, "levels.h5", false, false);
  auto r = run_command("QEVOLVE_PYTHON=/nonexistent/python3 '" + std::string(QEVOLVE_EXE) +
                           "' plot " + shell_word(levels),
                       dir);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(
      r.err.rfind(
          "qevolve: error: cannot run /nonexistent/python3: No such file or directory (scripts/"
          "install-deps.sh installs python3, python3-matplotlib",
          0),
      0u)
      << r.err;
  // An interpreter without matplotlib: what Python prints when the import fails.
  const auto fake =
      dir.write("python3",
                "#!/bin/sh\necho 'Traceback (most recent call last):' >&2\n"
                "echo \"ModuleNotFoundError: No module named 'matplotlib'\" >&2\nexit 1\n");
  std::filesystem::permissions(fake, std::filesystem::perms::owner_all);
  r = run_command("QEVOLVE_PYTHON=" + shell_word(fake) + " '" + std::string(QEVOLVE_EXE) +
                      "' plot " + shell_word(levels),
                  dir);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(
      r.err.rfind(
          "qevolve: error: " + fake.string() +
              " has no module matplotlib (qevolve_plot.py needs it; install the Debian package "
              "python3-matplotlib: scripts/install-deps.sh",
          0),
      0u)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "levels.png"));
}

TEST(CliPlot, BenchPlotTakesAnyFileName) {
  if (!python_can_plot())
    GTEST_SKIP() << QEVOLVE_PYTHON << " lacks matplotlib, h5py or numpy: no image drawn";
  TempDir dir;
  const auto csv = dir / "it's a table.csv", png = dir / "it's a plot.png";
  const auto r = run_qevolve(
      "bench accuracy " + shell_word(kSource + "/examples/fluxonium_x.yaml") +
          " --solvers trotter2 --steps 100,200 --reference-factor 2 --repeat 1 --threads 1 --csv " +
          shell_word(csv) + " --plot " + shell_word(png),
      dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("wrote " + png.string() + "\n"), std::string::npos) << r.out;
  EXPECT_TRUE(is_png(png));
}

/// A Python check in `dir` (the commands' files are there): the picture's Description
/// (qevolve_plot.py writes its titles and legend entries there) is `description('x.png')`.
CommandResult check_in(const TempDir& dir, const std::string& code) {
  return run_python("import math, os, h5py, numpy as np\n"
                    "from PIL import Image\n"
                    "os.chdir(" + shell_word(dir.path()) + ")\n"
                    "def description(png):\n"
                    "    return Image.open(png).info['Description']\n"
                    "def signed(text):\n"
                    "    return text.replace('-', '\u2212')\n" + code,
                    dir);
}

// The run plot of a CZ: beside |U|^2 the phases of U after vz compensation, and the conditional
// phase the file's attribute holds, with its formula in the labels of /initial_states; an X gate
// without compensation has the phase panel but no conditional phase.
TEST(CliPlot, CzRunDrawsThePhasesAndTheConditionalPhase) {
  if (!python_can_plot())
    GTEST_SKIP() << QEVOLVE_PYTHON << " lacks matplotlib, h5py or numpy: no image drawn";
  TempDir dir;
  const auto cz = dir / "cz.h5", x = dir / "x.h5";
  auto r = run_qevolve("run " + shell_word(kSource + "/examples/cz_transmon_coupler.yaml") +
                           " --steps 200 --quiet -o " + shell_word(cz),
                       dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_qevolve("plot " + shell_word(cz), dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "wrote " + (dir / "cz.png").string() + " (unitary, energies, pulses)\n");
  r = run_qevolve("run " + shell_word(kSource + "/examples/fluxonium_x.yaml") + " --quiet -o " + shell_word(x), dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_qevolve("plot " + shell_word(x), dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto py = check_in(dir, R"(
f = h5py.File('cz.h5', 'r')
cp = float(f.attrs['conditional_phase'])
assert abs(abs(cp) - math.pi) < 0.05, cp  # a CZ
s = [x.decode() for x in f['/initial_states'][()]]
want = (f'conditional phase \u03c6({s[3]}) \u2212 \u03c6({s[2]}) \u2212 \u03c6({s[1]}) + \u03c6({s[0]}) = '
        + signed(f'{cp / math.pi:.4f}\u03c0 = {math.degrees(cp):.2f}\u00b0'))
d = description('cz.png')
assert want in d, (want, d)
assert 'phase arg U after compensation (vz)' in d, d
assert '|U|\u00b2 of the computational block (before compensation)' in d, d
d = description('x.png')
assert 'phase arg U (compensation none)' in d and 'conditional phase' not in d, d
)");
  EXPECT_EQ(py.exit_code, 0) << py.out << py.err;
}

// A run with a control line (the CZ's flux pulse on `zline`): the pulses row draws what the
// mode sees and, dashed, the pulse before its line, both named in the legend (the image's
// Description); the scale holds both, down to the bias tee's undershoot at the pulse's end.
TEST(CliPlot, ControlLineRunDrawsThePulseBeforeAndAfterItsLine) {
  if (!python_can_plot())
    GTEST_SKIP() << QEVOLVE_PYTHON << " lacks matplotlib, h5py or numpy: no image drawn";
  TempDir dir;
  const auto cfg = dir.write("zline.yaml", zline_cz_config());
  const auto h5 = dir / "zline.h5";
  auto r = run_qevolve("run " + shell_word(cfg) + " --steps 200 --quiet -o " + shell_word(h5), dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_qevolve("plot " + shell_word(h5), dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "wrote " + (dir / "zline.png").string() + " (unitary, energies, pulses)\n");
  const auto py = check_in(dir, R"(
import sys
sys.path.insert(0, ')" + kSource + R"(/scripts')
import matplotlib.pyplot as plt, qevolve_plot
d = description('zline.png')
assert 'after the line (what the mode sees)' in d and 'before the line' in d, d
f = h5py.File('zline.h5', 'r')
v, ideal = f['/pulses/values'][0], f['/pulses/ideal'][0]
assert v[-1] < -1e-3 and ideal.max() > v.max(), (v[-1], ideal.max(), v.max())  # undershoot, droop
_, pulses = qevolve_plot.collect_panels(f, None)
fig = plt.figure()
pulses[0](fig, fig.add_gridspec(1, 1)[0])
lo, hi = fig.axes[0].get_ylim()
assert lo <= v.min() and hi >= ideal.max() and lo > -0.2 * hi, (lo, hi)
)");
  EXPECT_EQ(py.exit_code, 0) << py.out << py.err;
}

// A run of an ensemble (docs/ensembles.md): the ensemble panel, 1 - F against the one key that
// varies, the objective (the weighted mean) as its line; no /unitary, so no unitary panel.
TEST(CliPlot, EnsembleRunDrawsTheMembersAgainstTheKey) {
  if (!python_can_plot())
    GTEST_SKIP() << QEVOLVE_PYTHON << " lacks matplotlib, h5py or numpy: no image drawn";
  TempDir dir;
  const auto cfg = dir.write(
      "ens.yaml", read_file(kSource + "/examples/fluxonium_x.yaml") +
                      "\nensemble:\n  vary:\n    - {key: \"device.qubits[0].el\", "
                      "distribution: normal, mean: 1.0, std: 0.002, points: 3}\n");
  auto r = run_qevolve(
      "run " + shell_word(cfg) + " --steps 400 --quiet -o " + shell_word(dir / "ens.h5"), dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_qevolve("plot " + shell_word(dir / "ens.h5"), dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "wrote " + (dir / "ens.png").string() + " (ensemble, energies, pulses)\n");
  const auto py = check_in(dir, R"(
f = h5py.File('ens.h5', 'r')
fid, w = f['/ensemble/fidelity'][()], f['/ensemble/weights'][()]
assert fid.size == 3 and '/unitary' not in f, list(f)
assert abs(float(np.dot(w, fid)) - float(f.attrs['fidelity'])) < 1e-12
worst = int(f['/ensemble/fidelity'].attrs['worst'])
d = description('ens.png')
assert 'ensemble: 1 \u2212 F of the pulse against device.qubits[0].el' in d, d
assert f'objective (mean): 1 \u2212 F = {1 - float(f.attrs["fidelity"]):.3g}' in d, d
assert f'worst member (#{worst}): 1 \u2212 F = {1 - fid[worst]:.3g}' in d, d
assert '|U|' not in d, d
)");
  EXPECT_EQ(py.exit_code, 0) << py.out << py.err;
}

// A chevron of fluxonium_x drawn as the population of |1> starting in |0> (--population 1,
// --from by default the first state; `|0>` and --from 1 the other way round); a sweep of the
// two-level fluxonium, whose leakage is rounding noise, draws none of it: the legend (one axis)
// and the title (two axes) say so.
TEST(CliPlot, SweepPopulationAndLeakageAtRoundingLevel) {
  if (!python_can_plot())
    GTEST_SKIP() << QEVOLVE_PYTHON << " lacks matplotlib, h5py or numpy: no image drawn";
  TempDir dir;
  const std::string x = shell_word(kSource + "/examples/fluxonium_x.yaml");
  const auto in_dir = [&](const std::string& name) { return shell_word(dir / name); };
  auto r = run_qevolve("sweep " + x + " --steps 300 --vary pulses[0].amplitude=0.066:0.099:4 "
                       "--vary pulses[0].frequency=0.562:0.602:3 --quiet -o " + in_dir("chevron.h5"), dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_qevolve("plot " + in_dir("chevron.h5") + " --population 1", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "wrote " + (dir / "chevron.png").string() + " (sweep)\n");
  r = run_qevolve("plot " + in_dir("chevron.h5") + " --population '|0>' --from 1 -o " + in_dir("back.png"), dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string two_levels = " --set 'device.qubits[0].levels=2' --steps 300 --quiet";
  r = run_qevolve("sweep " + x + two_levels + " --vary pulses[0].amplitude=0.066:0.099:3 -o " + in_dir("line.h5"),
                  dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_qevolve("sweep " + x + two_levels + " --vary pulses[0].amplitude=0.066:0.099:3 "
                  "--vary pulses[0].frequency=0.562:0.602:2 -o " + in_dir("map.h5"), dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* name : {"line.h5", "map.h5"}) {
    r = run_qevolve("plot " + in_dir(name), dir);
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  const auto py = check_in(dir, R"(
d = description('chevron.png')
assert 'sweep: population of |1\u27e9 starting in |0\u27e9' in d, d
assert 'sweep: population of |0\u27e9 starting in |1\u27e9' in description('back.png')
assert 'population' not in description('line.png')
for name in ('line', 'map'):
    leak = h5py.File(name + '.h5', 'r')['/sweep/leakage'][()]
    assert np.all(np.abs(leak) < 1e-12), leak  # a two-level qubit: rounding only
assert 'leakage < 1e-12 at every point (rounding): not drawn' in description('line.png')
assert 'sweep: leakage\n< 1e-12 at every point (rounding): not drawn' in description('map.png')
)");
  EXPECT_EQ(py.exit_code, 0) << py.out << py.err;
}

// Bad --population / --from values: exit 2, one line naming the flag, no image.
TEST(CliPlot, PopulationFlagErrors) {
  if (!python_can_plot())
    GTEST_SKIP() << QEVOLVE_PYTHON << " lacks matplotlib, h5py or numpy: the states are checked by the script";
  TempDir dir;
  const std::string x = shell_word(kSource + "/examples/fluxonium_x.yaml");
  const auto sweep = dir / "s.h5", run = dir / "run.h5", bad = dir / "bad.png";
  auto r = run_qevolve("sweep " + x + " --steps 100 --vary pulses[0].amplitude=0.07,0.08 --quiet -o " +
                           shell_word(sweep), dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_qevolve("run " + x + " --steps 100 --quiet -o " + shell_word(run), dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string s = sweep.string();
  const std::tuple<std::filesystem::path, std::string, std::string> cases[] = {
      {sweep, "--population 2", "--population: `2` is not a computational state of " + s + " (expected one of 0, 1)"},
      {sweep, "--population 1 --from 01", "--from: `01` is not a computational state of " + s + " (expected one of 0, 1)"},
      {sweep, "--population ''", "--population: the state is empty (expected one of 0, 1)"},
      {sweep, "--from 0", "--from requires --population (see `qevolve plot --help`)"},
      {run, "--population 1", "--population: " + run.string() +
                                  " is not a sweep: it holds no /sweep/populations (expected the output of qevolve sweep)"}};
  for (const auto& [file, flags, message] : cases) {
    r = run_qevolve("plot " + shell_word(file) + " " + flags + " -o " + shell_word(bad), dir);
    EXPECT_EQ(r.exit_code, 2) << flags;
    EXPECT_EQ(r.err, "qevolve: error: " + message + "\n") << flags;
    EXPECT_EQ(r.out, "") << flags;
    EXPECT_FALSE(std::filesystem::exists(bad)) << flags;
  }
}

/// The width in pixels of a PNG (its IHDR chunk, big-endian at byte 16).
unsigned png_width(const std::filesystem::path& path) {
  const std::string b = read_file(path);
  if (b.size() < 24) return 0;
  unsigned w = 0;
  for (int i = 16; i < 20; ++i) w = (w << 8) | static_cast<unsigned char>(b[static_cast<std::size_t>(i)]);
  return w;
}

// bench scaling --plot: time and GFLOP/s panels; the strong-scaling panel only when the table
// has a 1-rank, 1-thread row beside another thread count (it was drawn empty before).
TEST(CliPlot, BenchScalingDrawsTheSpeedupPanelOnlyWithSpeedups) {
  if (!python_can_plot())
    GTEST_SKIP() << QEVOLVE_PYTHON << " lacks matplotlib, h5py or numpy: no image drawn";
  TempDir dir;
  const auto one = dir / "one.png", two = dir / "two.png";
  for (const auto& [threads, png] : {std::pair{"1", one}, std::pair{"1,2", two}}) {
    const auto r = run_qevolve("bench scaling --qubits 2:3 --steps 20 --threads " + std::string(threads) +
                                   " --csv " + shell_word(dir / "t.csv") + " --plot " + shell_word(png),
                               dir);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    ASSERT_TRUE(is_png(png)) << threads;
  }
  // 110 dpi: 10 x 4.2 in for two panels, 15 x 4.2 in for three.
  EXPECT_EQ(png_width(one), 1100u);
  EXPECT_EQ(png_width(two), 1650u);
}

}  // namespace
}  // namespace qevolve::testing
