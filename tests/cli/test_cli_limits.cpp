// Resource limits and hostile input (docs/cli.md "Memory", "Signals"; docs/output.md "Output
// paths"): sizes that overflow or cannot fit are input errors before any allocation, output paths
// are checked before the work, and SIGINT / SIGTERM leave no temporary file. The refusals
// themselves (2^64 states, 70 resonators, basis_size 100000, a matrix_file declaring 2^20 x 2^20,
// every bad output path) are rows of the bad-input corpus (corpus_cases.hpp, classes `size`
// and `output`); here, what a row cannot say.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <regex>
#include <string>
#include <thread>

#include "cli_util.hpp"
#include "corpus_cases.hpp"

namespace qevolve::testing {
namespace {

const std::string kSource = QEVOLVE_SOURCE_DIR;

std::string quoted(const std::filesystem::path& p) {
  const std::string s = p.string();  // named: GCC 12 warns (-Wstringop-overflow) on "'" + string&&
  return "'" + s + "'";
}

bool has(const std::string& text, const std::string& needle) { return text.find(needle) != std::string::npos; }

/// No `*.tmp-*` (Hdf5Writer) or `*.tmp` (optimised YAML) file left in `dir`.
bool no_temporaries(const TempDir& dir) {
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) {
    const std::string name = e.path().filename().string();
    if (has(name, ".tmp")) return false;
  }
  return true;
}

using corpus_detail::kSmall;  // one transmon, one pulse: the corpus rows' valid base

/// 64 two-level fluxonium qubits: D = 2^64 wraps to 0 in 64-bit integers.
constexpr const char* kChain64 =
    "device:\n"
    "  preset: mpc_fluxonium_1d\n"
    "  preset_args: {qubits: 64, levels: 2}\n"
    "pulses:\n"
    "  - {qubit: q0, shape: cos, amplitude: 0.01, duration: 20}\n";

TEST(Limits, CheckPrintsTheEstimateAndMaxMemoryRefuses) {
  TempDir dir;
  const auto cfg = dir.write("small.yaml", kSmall);
  const auto ok = run_qevolve("check " + quoted(cfg), dir);
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_TRUE(has(ok.out, "small.yaml: ok (1 mode: 1 qubit, D = 3, d = 2, 0 couplings, 1 pulse)")) << ok.out;
  EXPECT_TRUE(has(ok.out, "memory: ~")) << ok.out;
  EXPECT_TRUE(has(ok.out, " estimated (D = 3, 2 columns, trotter)")) << ok.out;
  for (const char* cmd : {"check", "run", "check1k"}) {
    const bool lower = std::string(cmd) == "check1k";  // 1024k = 1M
    const auto r = run_qevolve(std::string(lower ? "check" : cmd) + (lower ? " --max-memory 1024k " : " --max-memory 1M ") +
                                   quoted(cfg),
                               dir);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_TRUE(has(r.err, "1 MiB available (--max-memory)")) << r.err;
  }
  const auto bad = run_qevolve("run --max-memory 12Q " + quoted(cfg), dir);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.err, "qevolve: error: --max-memory: `12Q` is not a memory size "
                     "(expected a positive size such as 8G, 500M or 2GiB)\n");
}

// The control lines' outputs (docs/lines.md "Cost"): a 10 ps bias tee over 900 ns needs
// 180004 panels of 16 values, four copies while computed: 87.9 MiB, counted before any work.
TEST(Limits, ControlLinesAreCounted) {
  TempDir dir;
  const std::string cfg = dir.write("lines.yaml",
                                    "device:\n  qubits:\n    - {name: q0, type: duffing, frequency: 5.0, anharmonicity: -0.2, levels: 3}\n"
                                    "lines:\n  - {name: z, filters: [{type: highpass, tau: 0.01}]}\n"
                                    "pulses:\n  - {qubit: q0, operator: number, shape: rampcos, amplitude: 0.01, duration: 900, "
                                    "ramp: 10, line: z}\n"
                                    "evolution: {solver: expm, steps: 100}\n")
                              .string();
  const auto r = run_qevolve("check --no-time --max-memory 60M '" + cfg + "'", dir);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "lines: D = 3 states, 2 columns: the control lines' outputs need 87.9 MiB")) << r.err;
}

TEST(Limits, RlimitIsTheAvailableMemory) {
  TempDir dir;
  const auto cfg = dir.write("chain.yaml", kChain64);
  // 2 GiB of address space: the limit named is RLIMIT_AS (or a smaller cgroup limit).
  const auto r = run_command("ulimit -v 2097152; '" + std::string(QEVOLVE_EXE) + "' check " + quoted(cfg), dir);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "2 GiB available (RLIMIT_AS)") || has(r.err, "(cgroup")) << r.err;
}

// ---- Output paths -------------------------------------------------------------------------

TEST(Limits, OutputFileKeyIsLocated) {
  TempDir dir;
  const auto cfg = dir.write("out.yaml", std::string(kSmall) + "output:\n  file: .inf\n");
  const auto r = run_qevolve("run " + quoted(cfg), dir);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "out.yaml:8:3: output.file: `.inf` is a YAML special float")) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / ".inf"));
  // spectrum writes output.file too: checked before the diagonalisation.
  const auto dev = dir.write("dev.yaml", "device:\n  preset: mpc_fluxonium_1d\n  preset_args: {qubits: 2}\n"
                                         "output: {file: '" + (dir / "absent" / "s.h5").string() + "'}\n");
  const auto s = run_qevolve("spectrum " + quoted(dev), dir);
  EXPECT_EQ(s.exit_code, 2) << s.err;
  EXPECT_TRUE(has(s.err, "dev.yaml:4:10: output.file: the folder `" + (dir / "absent").string() + "` does not exist"))
      << s.err;
  EXPECT_FALSE(has(s.out, "dressed")) << s.out;
}

TEST(Limits, UnwritableOutputFolder) {
  TempDir dir;
  // A folder that refuses every new file whoever asks, root included (access() says yes to
  // root there; the check creates and removes a probe file): found before the work.
  const auto cfg = dir.write("proc.yaml", std::string(kSmall) + "output: {file: /proc/x.h5}\n");
  for (const char* cmd : {"check", "run"}) {
    const auto r = run_qevolve(std::string(cmd) + " " + quoted(cfg), dir);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_TRUE(has(r.err, "proc.yaml:7:10: output.file: the folder `/proc` is not writable")) << r.err;
    EXPECT_EQ(r.out, "") << cmd;  // nothing was evolved
  }
  // A folder without write permission (not as root: permissions do not stop root).
  const auto ro = dir / "ro";
  std::filesystem::create_directory(ro);
  std::filesystem::permissions(ro, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
  if (::access(ro.c_str(), W_OK) == 0) return;  // root
  const auto cfg2 = dir.write("ro.yaml", std::string(kSmall) + "output: {file: '" + (ro / "x.h5").string() + "'}\n");
  const auto r2 = run_qevolve("run " + quoted(cfg2), dir);
  EXPECT_EQ(r2.exit_code, 2) << r2.err;
  EXPECT_TRUE(has(r2.err, "output.file: the folder `" + ro.string() + "` is not writable")) << r2.err;
}

// ---- Signals -------------------------------------------------------------------------------

/// A run with a 64 MiB output (D = 8192, 512 listed columns, one step), so the temporary file
/// exists for a while.
std::string big_run_yaml() {
  std::string yaml =
      "device:\n"
      "  preset: mpc_fluxonium_1d\n"
      "  preset_args: {qubits: 13, levels: 2}\n"
      "evolution:\n"
      "  duration: 0.1\n"  // 0.42 rad per step: no step-size warning
      "  steps: 1\n"
      "  initial_states:\n";
  for (int k = 0; k < 512; ++k) {
    std::string label(13, '0');
    for (int b = 0; b < 9; ++b) label[static_cast<std::size_t>(12 - b)] = ((k >> b) & 1) ? '1' : '0';
    yaml += "    - \"" + label + "\"\n";
  }
  return yaml;
}

/// Starts `qevolve run CFG -o OUT` with stderr to ERR; returns its pid.
pid_t start_run(const std::filesystem::path& cfg, const std::filesystem::path& out, const std::filesystem::path& err) {
  const pid_t pid = fork();
  if (pid == 0) {
    const int devnull = ::open("/dev/null", O_WRONLY);
    const int errfd = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(devnull, 1);
    dup2(errfd, 2);
    execl(QEVOLVE_EXE, QEVOLVE_EXE, "run", cfg.c_str(), "-o", out.c_str(), "--threads", "1",
          static_cast<char*>(nullptr));
    _exit(127);
  }
  return pid;
}

class Interrupt : public ::testing::TestWithParam<int> {};

TEST_P(Interrupt, DuringTheWriteRemovesTheTemporaryFile) {
  const int sig = GetParam();
  TempDir dir;
  const auto cfg = dir.write("big.yaml", big_run_yaml());
  const auto err = dir / "err.txt";
  const pid_t pid = start_run(cfg, dir / "big.h5", err);
  ASSERT_GT(pid, 0);
  int status = 0;
  const bool sent = signal_when_file_appears(pid, dir.path(), "big.h5.tmp-", sig, status);
  if (!sent) GTEST_SKIP() << "the run finished before its temporary file was seen";
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 128 + sig);
  EXPECT_EQ(read_file(err), sig == SIGINT ? "qevolve: interrupted (SIGINT)\n" : "qevolve: interrupted (SIGTERM)\n");
  EXPECT_TRUE(no_temporaries(dir));
  EXPECT_FALSE(std::filesystem::exists(dir / "big.h5"));
}

INSTANTIATE_TEST_SUITE_P(Signals, Interrupt, ::testing::Values(SIGINT, SIGTERM),
                         [](const auto& p) { return std::string(p.param == SIGINT ? "SIGINT" : "SIGTERM"); });

TEST(Limits, InterruptedEvolutionExits143) {
  TempDir dir;
  // Many steps: the run is still evolving when the signal comes.
  const auto long_cfg = dir.write("long.yaml",
                                  "device:\n  preset: mpc_fluxonium_1d\n  preset_args: {qubits: 8, levels: 3}\n"
                                  "pulses:\n  - {qubit: q0, shape: cos, amplitude: 0.01, duration: 20}\n"
                                  "evolution: {steps: 100000000}\n");
  const auto err = dir / "err.txt";
  const pid_t pid = start_run(long_cfg, dir / "long.h5", err);
  ASSERT_GT(pid, 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  kill(pid, SIGTERM);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 143);
  EXPECT_TRUE(has(read_file(err), "qevolve: interrupted (SIGTERM)\n")) << read_file(err);
  EXPECT_TRUE(no_temporaries(dir));
}

TEST(Limits, InterruptedOptimizeKeepsAValidCheckpoint) {
  // SIGTERM while optimize writes its checkpoint (or, if that is never caught, just after one
  // is on disk): exit 143, no temporary file, and --resume continues from the checkpoint.
  TempDir dir;
  const std::string cfg =
      "device:\n"
      "  preset: mpc_fluxonium_1d\n"
      "  preset_args: {qubits: 2, levels: 3}\n"
      "pulses:\n"
      "  - {qubit: q0, operator: phi, shape: rampcos, amplitude: 0.05, frequency: 0.58,\n"
      "     duration: 50.0, ramp: 10.0, optimize: [amplitude, frequency, phase]}\n"
      "evolution: {steps: 200}\n"
      "target: {gates: [{gate: X, qubits: [q0]}]}\n"
      "optimize: {method: lbfgs, max_iterations: 100000, target_infidelity: 1.0e-30, checkpoint: ckpt.h5}\n";
  const auto path = dir.write("opt.yaml", cfg);
  const auto err = dir / "err.txt";
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    if (chdir(dir.path().c_str()) != 0) _exit(126);
    const int devnull = ::open("/dev/null", O_WRONLY);
    const int errfd = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(devnull, 1);
    dup2(errfd, 2);
    execl(QEVOLVE_EXE, QEVOLVE_EXE, "optimize", path.c_str(), "-o", "out.h5", "--threads", "1",
          static_cast<char*>(nullptr));
    _exit(127);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  bool checkpoint = false;
  while (std::chrono::steady_clock::now() < deadline) {
    bool temp = false;
    for (const auto& e : std::filesystem::directory_iterator(dir.path()))
      temp = temp || e.path().filename().string().rfind("ckpt.h5.tmp-", 0) == 0;
    checkpoint = checkpoint || std::filesystem::exists(dir / "ckpt.h5");
    if (temp && checkpoint) break;  // a second checkpoint is being written
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  ASSERT_TRUE(checkpoint) << read_file(err);
  kill(pid, SIGTERM);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 143);
  EXPECT_TRUE(has(read_file(err), "qevolve: interrupted (SIGTERM)\n")) << read_file(err);
  EXPECT_TRUE(no_temporaries(dir));
  const auto resumed = dir.write("resume.yaml", std::regex_replace(cfg, std::regex("max_iterations: 100000"),
                                                                    "max_iterations: 1"));
  const auto r = run_command("cd '" + dir.path().string() + "' && '" + QEVOLVE_EXE + "' optimize '" +
                                 resumed.string() + "' -o out.h5 --resume ckpt.h5 --quiet",
                             dir);
  // The replayed history already holds the one iteration allowed: the resume stops at once.
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir / "out.h5"));
}

// ---- A failed write -----------------------------------------------------------------------

TEST(Limits, FailedWriteExitsCleanly) {
  // A file-size limit of 1 MiB under a 64 MiB output: the write fails with EFBIG (SIGXFSZ is
  // ignored), the message says so, exit 1, no crash at exit, no temporary file.
  TempDir dir;
  const auto cfg = dir.write("big.yaml", big_run_yaml());
  const auto r = run_command("ulimit -f 1024; '" + std::string(QEVOLVE_EXE) + "' run " + quoted(cfg) + " -o " +
                                 quoted(dir / "big.h5") + " --threads 1",
                             dir);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(has(r.err, "qevolve: error: cannot write dataset '/propagator' to " + (dir / "big.h5").string()))
      << r.err;
  EXPECT_TRUE(has(r.err, "File too large")) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;  // one line
  EXPECT_TRUE(no_temporaries(dir));
  EXPECT_FALSE(std::filesystem::exists(dir / "big.h5"));
}

}  // namespace
}  // namespace qevolve::testing
