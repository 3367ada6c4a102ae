// No command replaces a result another command wrote unless asked (docs/output.md "Replacing a
// file"): every ordered pair of the HDF5-writing commands (run, optimize, sweep, spectrum) on one
// file name, the same command again, --force, output.file, checkpoints, pictures and tables, a
// file qevolve did not write, and the `command` attribute each writer records.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "cli_util.hpp"
#include "sweep_configs.hpp"

namespace qevolve::testing {
namespace {

/// kSmallFluxonium with one trainable amplitude: run, optimize, sweep and spectrum all accept it.
std::string trainable_config() {
  std::string text = kSmallFluxonium;
  const std::string pulse_end = "duration: 40}";
  text.replace(text.find(pulse_end), pulse_end.size(), "duration: 40, optimize: [amplitude]}");
  return text + "optimize: {max_iterations: 1}\n";
}

/// The flags that make each command write `out`.
std::string command_line(const std::string& command, const std::string& config, const std::string& out) {
  std::string line = command + " '" + config + "' -o '" + out + "' --quiet";
  if (command == "sweep") line += " --vary pulses[0].amplitude=0.07,0.08";
  if (command == "optimize") line += " --threads 1";
  return line;
}

const char* const kWriters[] = {"run", "optimize", "sweep", "spectrum"};

TEST(CliReplace, NoCommandReplacesAnotherCommandsResult) {
  TempDir dir;
  const std::string cfg = dir.write("x.yaml", trainable_config()).string();
  for (const char* first : kWriters) {
    for (const char* second : kWriters) {
      const std::string out = (dir / (std::string(first) + "_then_" + second + ".h5")).string();
      auto r = run_qevolve(command_line(first, cfg, out), dir);
      ASSERT_EQ(r.exit_code, 0) << first << ": " << r.err;
      const std::string before = read_file(out);
      r = run_qevolve(command_line(second, cfg, out), dir);
      if (std::string(first) == second) {  // the same command replaces its own earlier result
        EXPECT_EQ(r.exit_code, 0) << first << " twice: " << r.err;
        continue;
      }
      EXPECT_EQ(r.exit_code, 2) << first << " then " << second;
      const std::string stem = out.substr(0, out.size() - 3);
      EXPECT_EQ(r.err, "qevolve: error: -o: `" + out + "` holds the result of `qevolve " + first +
                           "`; this command would replace it (expected another file name such as " + stem + "." +
                           second + ".h5, or --force to replace it)\n")
          << first << " then " << second;
      EXPECT_EQ(read_file(out), before) << first << " then " << second << ": the file was touched";
      r = run_qevolve(command_line(second, cfg, out) + " --force", dir);
      EXPECT_EQ(r.exit_code, 0) << first << " then " << second << " --force: " << r.err;
    }
  }
}

TEST(CliReplace, EachWriterRecordsItsCommand) {
  if (!python_has_h5py()) GTEST_SKIP() << "h5py not available for " << QEVOLVE_PYTHON;
  TempDir dir;
  const std::string cfg = dir.write("x.yaml", trainable_config()).string();
  for (const char* command : kWriters) {
    const std::string out = (dir / (std::string(command) + ".h5")).string();
    ASSERT_EQ(run_qevolve(command_line(command, cfg, out), dir).exit_code, 0) << command;
    const auto r = run_python("import h5py\nwith h5py.File('" + out + "') as f:\n    assert f.attrs['command'] == '" +
                                  command + "', f.attrs['command']\n",
                              dir);
    EXPECT_EQ(r.exit_code, 0) << command << ": " << r.err;
  }
}

TEST(CliReplace, OutputFileIsLocatedAndNamesTheFlagToUse) {
  TempDir dir;
  const std::string cfg =
      dir.write("x.yaml", std::string(kSmallFluxonium) + "output: {file: '" + (dir / "x.h5").string() + "'}\n")
          .string();
  ASSERT_EQ(run_qevolve("run '" + cfg + "' --quiet", dir).exit_code, 0);
  const auto r = run_qevolve("spectrum '" + cfg + "'", dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "qevolve: error: " + cfg + ":10:10: output.file: `" + (dir / "x.h5").string() +
                       "` holds the result of `qevolve run`; this command would replace it (expected -o " +
                       (dir / "x.spectrum.h5").string() + ", or --force to replace it)\n");
  EXPECT_EQ(run_qevolve("spectrum '" + cfg + "' -o '" + (dir / "x.spectrum.h5").string() + "'", dir).exit_code, 0);
  EXPECT_EQ(run_qevolve("run '" + cfg + "' --quiet", dir).exit_code, 0);  // run again over its own file
}

TEST(CliReplace, AFileQevolveDidNotWriteIsKept) {
  TempDir dir;
  const std::string cfg = dir.write("x.yaml", kSmallFluxonium).string();
  const std::string notes = dir.write("notes.h5", "my measurement notes\n").string();
  const auto r = run_qevolve("run '" + cfg + "' -o '" + notes + "'", dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("-o: `" + notes + "` exists and was not written by qevolve; this command would replace it"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(read_file(notes), "my measurement notes\n");
  EXPECT_EQ(run_qevolve("run '" + cfg + "' -o '" + notes + "' --force --quiet", dir).exit_code, 0);
}

TEST(CliReplace, CheckpointsReplaceOnlyCheckpoints) {
  TempDir dir;
  const std::string run_result = (dir / "result.h5").string();
  std::string text = trainable_config();
  text.replace(text.find("max_iterations: 1}"), 18, "max_iterations: 1, checkpoint: '" + run_result + "'}");
  const std::string cfg = dir.write("x.yaml", text).string();
  ASSERT_EQ(run_qevolve("run '" + cfg + "' -o '" + run_result + "' --quiet", dir).exit_code, 0);
  auto r = run_qevolve("optimize '" + cfg + "' -o '" + (dir / "opt.h5").string() + "' --quiet", dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("optimize.checkpoint: `" + run_result + "` holds the result of `qevolve run`"),
            std::string::npos)
      << r.err;
  // A checkpoint of its own is replaced (and resumed from) as before.
  const std::string ckpt = (dir / "ck.h5").string();
  text.replace(text.find(run_result), run_result.size(), ckpt);
  const std::string cfg2 = dir.write("y.yaml", text).string();
  ASSERT_EQ(run_qevolve("optimize '" + cfg2 + "' -o '" + (dir / "a.h5").string() + "' --quiet", dir).exit_code, 0);
  EXPECT_EQ(run_qevolve("optimize '" + cfg2 + "' -o '" + (dir / "b.h5").string() + "' --quiet", dir).exit_code, 0);
  // ... but -o never replaces a checkpoint.
  r = run_qevolve("run '" + cfg2 + "' -o '" + ckpt + "' --quiet", dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("-o: `" + ckpt + "` is an `optimize` checkpoint; this command would replace it"),
            std::string::npos)
      << r.err;
}

TEST(CliReplace, PicturesAndTablesReplacePicturesNotResults) {
  TempDir dir;
  const std::string cfg = dir.write("x.yaml", kSmallFluxonium).string();
  const std::string result = (dir / "x.h5").string(), other = (dir / "y.h5").string();
  ASSERT_EQ(run_qevolve("run '" + cfg + "' -o '" + result + "' --quiet", dir).exit_code, 0);
  ASSERT_EQ(run_qevolve("run '" + cfg + "' -o '" + other + "' --quiet", dir).exit_code, 0);
  // plot -o over another result file.
  auto r = run_qevolve("plot '" + other + "' -o '" + result + "'", dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("-o: `" + result + "` holds the result of `qevolve run`; this command would replace it "
                       "(expected another file name, or --force to replace it)"),
            std::string::npos)
      << r.err;
  // A picture replaces an earlier picture.
  const std::string png = (dir / "p.png").string();
  ASSERT_EQ(run_qevolve("plot '" + result + "' -o '" + png + "'", dir).exit_code, 0);
  EXPECT_EQ(run_qevolve("plot '" + other + "' -o '" + png + "'", dir).exit_code, 0);
  // Tables of the benchmarks.
  r = run_qevolve("bench accuracy '" + cfg + "' --solvers trotter2:terms --steps 100 --csv '" + result + "'", dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--csv: `" + result + "` holds the result of `qevolve run`"), std::string::npos) << r.err;
  r = run_qevolve("bench scaling --qubits 2:2 --steps 10 --csv '" + result + "'", dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--csv: `" + result + "` holds the result of `qevolve run`"), std::string::npos) << r.err;
  // sweep --plot over a result.
  r = run_qevolve("sweep '" + cfg + "' --vary pulses[0].amplitude=0.07,0.08 -o '" + (dir / "s.h5").string() +
                      "' --plot '" + result + "'",
                  dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--plot: `" + result + "` holds the result of `qevolve run`"), std::string::npos) << r.err;
}

TEST(CliReplace, TheOptimisedConfigReplacesNeitherItsInputNorAForeignFile) {
  TempDir dir;
  const std::string cfg = dir.write("z.optimized.yaml", trainable_config()).string();
  const std::string before = read_file(cfg);
  // -o z.h5 names the optimised config z.optimized.yaml: the input itself (refused even with --force).
  auto r = run_qevolve("optimize '" + cfg + "' -o '" + (dir / "z.h5").string() + "' --quiet --force", dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("-o: the optimised config `" + (dir / "z.optimized.yaml").string() +
                       "` would replace the config being optimised"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(read_file(cfg), before);
  // A file of the user's under that name is kept unless --force.
  const std::string notes = dir.write("b.optimized.yaml", "# my notes\n").string();
  r = run_qevolve("optimize '" + cfg + "' -o '" + (dir / "b.h5").string() + "' --quiet", dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("which qevolve optimize did not write (expected another output name, or --force"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(read_file(notes), "# my notes\n");
  // An earlier optimisation's is replaced (as the .h5 beside it).
  ASSERT_EQ(run_qevolve("optimize '" + cfg + "' -o '" + (dir / "c.h5").string() + "' --quiet", dir).exit_code, 0);
  EXPECT_EQ(run_qevolve("optimize '" + cfg + "' -o '" + (dir / "c.h5").string() + "' --quiet", dir).exit_code, 0);
  EXPECT_EQ(run_qevolve("optimize '" + cfg + "' -o '" + (dir / "b.h5").string() + "' --quiet --force", dir).exit_code, 0);
}

TEST(CliReplace, APictureReplacesOnlyPicturesAndTables) {
  TempDir dir;
  const std::string cfg = dir.write("x.yaml", kSmallFluxonium).string();
  const std::string result = (dir / "x.h5").string();
  ASSERT_EQ(run_qevolve("run '" + cfg + "' -o '" + result + "' --quiet", dir).exit_code, 0);
  const std::string config_copy = dir.write("victim.yaml", kSmallFluxonium).string();
  auto r = run_qevolve("plot '" + result + "' -o '" + config_copy + "'", dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("-o: `" + config_copy + "` exists and was not written by qevolve"), std::string::npos) << r.err;
  EXPECT_EQ(read_file(config_copy), kSmallFluxonium);
  EXPECT_EQ(run_qevolve("plot '" + result + "' -o '" + config_copy + "' --force", dir).exit_code, 0);
  const std::string table = dir.write("old.csv", "a,b\n").string();  // an earlier table: replaced
  EXPECT_EQ(run_qevolve("bench accuracy '" + cfg + "' --solvers trotter2:terms --steps 100 --csv '" + table + "'", dir)
                .exit_code,
            0);
}

TEST(CliReplace, TheSweepLocatesOutputFile) {
  TempDir dir;
  const std::string cfg =
      dir.write("x.yaml", std::string(kSmallFluxonium) + "output: {file: '" + (dir / "x.h5").string() + "'}\n")
          .string();
  ASSERT_EQ(run_qevolve("run '" + cfg + "' --quiet", dir).exit_code, 0);
  const auto r = run_qevolve("sweep '" + cfg + "' --vary pulses[0].amplitude=0.07,0.08", dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.rfind("qevolve: error: " + cfg + ":10:10: output.file: ", 0), 0u) << r.err;
}

}  // namespace
}  // namespace qevolve::testing
