// The time estimate and the progress lines (docs/cli.md "Time estimate", "Progress and
// summary"): what check and run print, the cache they share, and progress through a pipe. How
// close an estimate comes to the actual time is measured, not unit-tested (timings on a loaded
// machine are no test): docs/performance.md "Time estimates".
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "cli_util.hpp"
#include "sweep_configs.hpp"

namespace qevolve::testing {
namespace {

/// qevolve ARGS with the cache in `dir`/cache (never the user's).
CommandResult run_cached(const std::string& args, const TempDir& dir) {
  return run_command("XDG_CACHE_HOME='" + (dir / "cache").string() + "' '" + QEVOLVE_EXE + "' " + args, dir);
}

std::size_t lines(const std::string& text) {
  std::size_t n = 0;
  for (const char c : text) n += c == '\n' ? 1 : 0;
  return n;
}

TEST(CliTime, CheckProbesOnceThenReadsTheCache) {
  TempDir dir;
  const std::string cfg = dir.write("x.yaml", kSmallFluxonium).string();
  auto r = run_cached("check '" + cfg + "' --threads 1", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\ntime: about "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("evolution 300 steps x "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("-step probe) for `qevolve run` on 1 thread\n"), std::string::npos) << r.out;
  const auto cache = dir / "cache" / "qevolve" / "time-estimates.tsv";
  ASSERT_TRUE(std::filesystem::exists(cache));
  EXPECT_EQ(lines(read_file(cache)), 1u);
  r = run_cached("check '" + cfg + "' --threads 1", dir);
  EXPECT_NE(r.out.find("; from this machine's cache) for `qevolve run` on 1 thread"), std::string::npos) << r.out;
  EXPECT_EQ(lines(read_file(cache)), 1u);
  // Other threads are another kind of work; --steps is not (the cache holds per-step costs).
  r = run_cached("check '" + cfg + "' --threads 2", dir);
  EXPECT_NE(r.out.find("-step probe)"), std::string::npos) << r.out;
  r = run_cached("check '" + cfg + "' --threads 1 --set evolution.steps=600", dir);
  EXPECT_NE(r.out.find("evolution 600 steps x "), std::string::npos) << r.out;
}

TEST(CliTime, NoTimeAndAdaptive) {
  TempDir dir;
  const std::string cfg = dir.write("x.yaml", kSmallFluxonium).string();
  auto r = run_cached("check '" + cfg + "' --no-time", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("time:"), std::string::npos) << r.out;
  EXPECT_FALSE(std::filesystem::exists(dir / "cache" / "qevolve" / "time-estimates.tsv"));
  r = run_cached("check '" + cfg + "' --set evolution.solver=adaptive", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("time: no estimate for solver adaptive (it chooses its steps as it runs)\n"), std::string::npos)
      << r.out;
}

// splitting: chebyshev: a step's cost grows with dt, so the probe times the run's own first steps
// (a 4-step probe of the whole T took 25x the run's per-step time on the coupler CZ).
TEST(CliTime, ChebyshevIsTimedOnTheRunsOwnSteps) {
  TempDir dir;
  const std::string cfg = dir.write("x.yaml", kSmallFluxonium).string();
  const auto r = run_cached("check '" + cfg + "' --threads 1 --set evolution.solver=trotter --set evolution.splitting=chebyshev --set evolution.steps=400", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("400 steps x "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("; timed here on the run's first steps) for `qevolve run` on 1 thread"), std::string::npos)
      << r.out;
}

TEST(CliTime, RunPrintsACachedEstimateAndRefinesIt) {
  TempDir dir;
  const std::string cfg = dir.write("x.yaml", kSmallFluxonium).string();
  // A short run with nothing cached: no estimate (it would cost more than it tells).
  auto r = run_cached("run '" + cfg + "' --threads 1", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("time estimate"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("(estimated"), std::string::npos) << r.out;
  // check caches it; run then prints it before the work and in the summary, and stores what it
  // measured in place of the probe.
  ASSERT_EQ(run_cached("check '" + cfg + "' --threads 1", dir).exit_code, 0);
  const auto cache = dir / "cache" / "qevolve" / "time-estimates.tsv";
  const std::string probed = read_file(cache);
  // (told from 10 s on: --estimate-above 0 tells this short run's too)
  r = run_cached("run '" + cfg + "' --threads 1", dir);
  EXPECT_EQ(r.err.find("time estimate"), std::string::npos) << r.err;
  r = run_cached("run '" + cfg + "' --threads 1 --estimate-above 0", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.rfind("qevolve: time estimate: about ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("from this machine's cache)"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find(" (estimated "), std::string::npos) << r.out;
  EXPECT_EQ(lines(read_file(cache)), 1u);
  EXPECT_NE(read_file(cache), probed);
  // --quiet: neither.
  r = run_cached("run '" + cfg + "' --threads 1 --quiet --estimate-above 0", dir);
  EXPECT_EQ(r.err, "");
  // --steps is no other kind of work: the cached per-step costs serve it.
  r = run_cached("run '" + cfg + "' --threads 1 --steps 600 --estimate-above 0", dir);
  EXPECT_NE(r.err.find("evolution 600 steps x "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("from this machine's cache)"), std::string::npos) << r.err;
}

// An ensemble's estimate is per member: its run stores its sums divided by the members (it
// stored nothing before, so a probe taken on a busy machine stayed: 3.2 s told for a 0.8 s run).
TEST(CliTime, AnEnsembleRunRefinesItsPerMemberEstimate) {
  TempDir dir;
  const std::string cfg = dir.write("x.yaml", std::string(kSmallFluxonium) +
                                                  "ensemble:\n"
                                                  "  members:\n"
                                                  "    - {set: {\"device.qubits[0].el\": 0.99}}\n"
                                                  "    - {set: {\"device.qubits[0].el\": 1.01}}\n"
                                                  "    - {set: {\"device.qubits[0].el\": 1.02}}\n")
                              .string();
  ASSERT_EQ(run_cached("check '" + cfg + "' --threads 1", dir).exit_code, 0);
  const auto cache = dir / "cache" / "qevolve" / "time-estimates.tsv";
  ASSERT_EQ(lines(read_file(cache)), 1u);
  // A stale entry: 1 s a step (the columns: key, build, evolve step, once, gradient step, flops).
  std::istringstream in(read_file(cache));
  std::string key;
  double build = 0, step = 0, once = 0, gradient_step = 0, flops = 0;
  in >> key >> build >> step >> once >> gradient_step >> flops;
  std::ofstream(cache) << key << "\t0\t1\t0\t0\t" << flops << "\n";
  auto r = run_cached("run '" + cfg + "' --threads 1 --estimate-above 0", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("3 members, each: build 0 s, evolution 300 steps x 1 s"), std::string::npos) << r.err;
  std::istringstream after(read_file(cache));
  after >> key >> build >> step;
  EXPECT_GT(step, 0.0);
  EXPECT_LT(step, 0.01) << "the run's own per-member figure replaces the stale 1 s a step";
  r = run_cached("check '" + cfg + "' --threads 1", dir);
  EXPECT_NE(r.out.find("from this machine's cache)"), std::string::npos) << r.out;
}

TEST(CliTime, ProgressLinesThroughAPipe) {
  TempDir dir;
  const std::string cfg = dir.write("x.yaml", kSmallFluxonium).string();
  // stderr is a file here, not a terminal: plain lines (every 0 s instead of 10 s).
  auto r = run_cached("run '" + cfg + "' --threads 1 --steps 20000 --progress-interval 0", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.rfind("qevolve: evolving ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(" % after "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" left\n"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\r'), std::string::npos) << "a terminal bar in a file";
  // The default interval: a run this short prints no progress at all.
  r = run_cached("run '" + cfg + "' --threads 1", dir);
  EXPECT_EQ(r.err.find("evolving"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace qevolve::testing
