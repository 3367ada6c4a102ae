// `--set KEY=VALUE` and a config read from standard input (`-`) on every command: the override
// reaches the result (compared with the same value written in the file), problems are exit 2
// with a message naming the --set argument, and stdin messages name <stdin>.
#include <gtest/gtest.h>

#include <string>

#include "cli_util.hpp"
#include "sweep_configs.hpp"

namespace qevolve::testing {
namespace {

const std::string kSource = QEVOLVE_SOURCE_DIR;

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  text.replace(text.find(from), from.size(), to);
  return text;
}

std::string quoted(const std::filesystem::path& p) { return "'" + p.string() + "'"; }

TEST(CliSet, RunWithSetEqualsTheValueWrittenInTheFile) {
  TempDir dir;
  const auto base = dir.write("base.yaml", kSmallFluxonium);
  const auto edited = dir.write("edited.yaml", replaced(replaced(kSmallFluxonium, "amplitude: 0.08", "amplitude: 0.0812"),
                                                        "steps: 300", "steps: 250"));
  const auto a = run_qevolve("run " + quoted(base) + " --set pulses[0].amplitude=0.0812 --set evolution.steps=250 -o " +
                                 quoted(dir / "a.h5"),
                             dir);
  ASSERT_EQ(a.exit_code, 0) << a.err;
  const auto b = run_qevolve("run " + quoted(edited) + " -o " + quoted(dir / "b.h5"), dir);
  ASSERT_EQ(b.exit_code, 0) << b.err;
  if (!python_has_h5py()) GTEST_SKIP() << "/usr/bin/python3 with h5py not found";
  const auto py = run_python(
      "import h5py, numpy as np\n"
      "a = h5py.File('" + (dir / "a.h5").string() + "', 'r'); b = h5py.File('" + (dir / "b.h5").string() + "', 'r')\n"
      "assert np.array_equal(a['unitary'][()], b['unitary'][()])\n"
      "for k in ['fidelity', 'fidelity_uncompensated', 'leakage', 'steps']: assert a.attrs[k] == b.attrs[k], k\n"
      "ov = [x.decode() if isinstance(x, bytes) else x for x in a.attrs['overrides']]\n"
      "assert ov == ['--set pulses[0].amplitude=0.0812', '--set evolution.steps=250'], ov\n"
      "assert 'overrides' not in b.attrs\n"
      "import yaml\n"
      "c = yaml.safe_load(a.attrs['config'])\n"
      "assert c['pulses'][0]['amplitude'] == 0.0812 and c['evolution']['steps'] == 250, c\n",
      dir);
  EXPECT_EQ(py.exit_code, 0) << py.err << py.out;
}

TEST(CliSet, ModesByNameListsAndNewKeys) {
  TempDir dir;
  const auto base = dir.write("base.yaml", kSmallFluxonium);
  // a mode by name, a flow list replacing the target, a key absent from the file (output.file)
  const auto r = run_qevolve("run " + quoted(base) + " --set device.qubits[q0].el=1.05" +
                                 " --set 'target.gates=[{gate: Y, qubits: [q0]}]' --set output.file=" +
                                 quoted(dir / "new.h5"),
                             dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("wrote " + (dir / "new.h5").string()), std::string::npos) << r.out;
  const auto c = run_qevolve("check " + quoted(base) + " --set 'evolution.noise={q0: {t1: 20000}}'", dir);
  EXPECT_EQ(c.exit_code, 0) << c.err;
  const auto s = run_qevolve("spectrum " + quoted(base) + " --set device.qubits[0].flux=0.45", dir);
  EXPECT_EQ(s.exit_code, 0) << s.err;
}

TEST(CliSet, OptimizeTakesSet) {
  TempDir dir;
  const auto base = dir.write("base.yaml", replaced(kSmallFluxonium, "duration: 40}", "duration: 40, optimize: [amplitude]}"));
  const auto r = run_qevolve("optimize " + quoted(base) + " --set optimize.max_iterations=2 --quiet -o " +
                                 quoted(dir / "o.h5"),
                             dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string yaml = read_file(dir / "o.optimized.yaml");
  EXPECT_NE(yaml.find("max_iterations: 2"), std::string::npos) << yaml;
}

struct BadSet {
  const char* set;
  const char* message;  ///< the whole message after "qevolve: error: "
};

const BadSet kBad[] = {
    {"pulses[3].amplitude=1",
     "--set pulses[3].amplitude=1: pulses[3]: there is 1 pulse (expected an index below 1; [1] appends a whole entry)"},
    {"device.qubits[q9].el=1", "--set device.qubits[q9].el=1: device.qubits[q9]: no entry named `q9` (expected one of: q0)"},
    {"pulses[0].amplitud=0.1", "--set pulses[0].amplitud=0.1: pulses[0].amplitud: unknown key `amplitud`, did you mean `amplitude`?"},
    {"evolution.steps=many", "--set evolution.steps=many: evolution.steps: "},
    {"pulses[0].amplitude.x=1", "--set pulses[0].amplitude.x=1: pulses[0].amplitude: is the value `0.08`, not a mapping: it has no key `x`"},
    {"nothing", "--set nothing: `nothing` has no `=`"},
    {"pulses[0]..amplitude=1", "--set pulses[0]..amplitude=1: `pulses[0]..amplitude` is not a key path"},
    {"evolution.steps=", "--set evolution.steps=: evolution.steps: no value after `=`"},
    {"evolution.steps=[1, ", "--set evolution.steps=[1, : YAML syntax error: "},
    {"evolution.steps={a: [1}",
     "--set evolution.steps={a: [1}: YAML syntax error: illegal flow end (at character 7 of the value)"},
};

TEST(CliSet, BadKeysAndValuesNameTheSetOnEveryCommand) {
  TempDir dir;
  const auto base = dir.write("base.yaml", kSmallFluxonium);
  for (const char* command : {"check", "run", "optimize", "spectrum", "sweep --vary pulses[0].phase=0,1"})
    for (const BadSet& b : kBad) {
      const auto r = run_qevolve(std::string(command) + " " + quoted(base) + " --set '" + b.set + "'", dir);
      EXPECT_EQ(r.exit_code, 2) << command << " " << b.set << "\n" << r.err;
      EXPECT_EQ(r.err.rfind(std::string("qevolve: error: ") + b.message, 0), 0u)
          << command << " --set " << b.set << "\n" << r.err;
      EXPECT_EQ(r.out, "") << command;
    }
}

TEST(CliSet, ResolutionStageErrorsNameTheSetToo) {
  TempDir dir;
  const auto base = dir.write("base.yaml", kSmallFluxonium);
  const auto r = run_qevolve("run " + quoted(base) + " --set pulses[0].qubit=q7", dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.rfind("qevolve: error: --set pulses[0].qubit=q7: pulses[0].qubit: unknown mode `q7`", 0), 0u) << r.err;
  // a key the file still shows, wrong only with a --set in the same list entry: the file's
  // location, with the --set named after the problem
  const auto entry = run_qevolve("check " + quoted(base) + " --set pulses[0].shape=rampcos", dir);
  EXPECT_EQ(entry.exit_code, 2);
  EXPECT_NE(entry.err.find(".yaml:5:5: pulses[0]: a `rampcos` pulse needs two of duration, plateau, ramp, but only "
                           "`duration` given (with --set pulses[0].shape=rampcos) (expected"),
            std::string::npos)
      << entry.err;
  // a null value is the key without a value, as in a file (it once read as "the config is empty")
  for (const char* set : {"evolution.steps=null", "evolution.steps=~", "target=null"}) {
    const auto n = run_qevolve("run " + quoted(base) + " --set '" + set + "'", dir);
    EXPECT_EQ(n.exit_code, 2) << set;
    const std::string key = std::string(set).substr(0, std::string(set).find('='));
    EXPECT_EQ(n.err.rfind("qevolve: error: --set " + std::string(set) + ": " + key + ": no value given", 0), 0u)
        << n.err;
  }
  // a problem elsewhere in the file keeps its file location when a --set is given
  const auto bad = dir.write("bad.yaml", replaced(kSmallFluxonium, "steps: 300", "steps: -3"));
  for (const char* command : {"check", "run", "sweep --vary pulses[0].phase=0,1"}) {
    const auto b = run_qevolve(std::string(command) + " " + quoted(bad) + " --set pulses[0].phase=0.1", dir);
    EXPECT_EQ(b.exit_code, 2);
    EXPECT_EQ(b.err, "qevolve: error: " + bad.string() +
                         ":6:34: evolution.steps: `-3` is out of range (expected an integer in [1, 2147483647])\n")
        << command;
  }
}

TEST(CliStdin, EveryCommandReadsADash) {
  TempDir dir;
  const auto base = dir.write("base.yaml", kSmallFluxonium);
  const std::string in = " < " + quoted(base);
  const auto c = run_qevolve("check -" + in, dir);
  EXPECT_EQ(c.exit_code, 0) << c.err;
  EXPECT_EQ(c.out.rfind("<stdin>: ok (1 mode", 0), 0u) << c.out;
  const auto a = run_qevolve("run - -o " + quoted(dir / "a.h5") + in, dir);
  ASSERT_EQ(a.exit_code, 0) << a.err;
  const auto b = run_qevolve("run " + quoted(base) + " -o " + quoted(dir / "b.h5"), dir);
  ASSERT_EQ(b.exit_code, 0) << b.err;
  EXPECT_EQ(run_qevolve("spectrum -" + in, dir).exit_code, 0);
  EXPECT_EQ(run_qevolve("sweep - --vary pulses[0].phase=0,1" + in, dir).exit_code, 0);
  // through a pipe too (not a regular file: only `-` reads it)
  EXPECT_EQ(run_command("cat " + quoted(base) + " | '" + QEVOLVE_EXE + "' check -", dir).exit_code, 0);
  const auto dev = run_qevolve("check /dev/stdin" + in, dir);
  EXPECT_EQ(dev.exit_code, 0) << "/dev/stdin redirected from a file is a regular file: " << dev.err;
  const auto pipe = run_command("cat " + quoted(base) + " | '" + QEVOLVE_EXE + "' check /dev/stdin", dir);
  EXPECT_EQ(pipe.exit_code, 2);
  EXPECT_NE(pipe.err.find("not a regular file"), std::string::npos) << pipe.err;
  if (!python_has_h5py()) GTEST_SKIP() << "/usr/bin/python3 with h5py not found";
  const auto py = run_python(
      "import h5py, numpy as np\n"
      "a = h5py.File('" + (dir / "a.h5").string() + "', 'r'); b = h5py.File('" + (dir / "b.h5").string() + "', 'r')\n"
      "assert np.array_equal(a['unitary'][()], b['unitary'][()])\n"
      "assert a.attrs['config'] == b.attrs['config']\n",
      dir);
  EXPECT_EQ(py.exit_code, 0) << py.err << py.out;
}

TEST(CliStdin, MessagesNameStdin) {
  TempDir dir;
  const auto bad = dir.write("bad.yaml", replaced(kSmallFluxonium, "ec: 1.0", "ec: -1.0"));
  const auto r = run_qevolve("check - < " + quoted(bad), dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.rfind("qevolve: error: <stdin>:3:39: device.qubits[0].ec: `-1.0` is out of range", 0), 0u) << r.err;
  const auto empty = run_qevolve("run - < /dev/null", dir);
  EXPECT_EQ(empty.exit_code, 2);
  EXPECT_EQ(empty.err.rfind("qevolve: error: <stdin>: the config is empty", 0), 0u) << empty.err;
}

}  // namespace
}  // namespace qevolve::testing
