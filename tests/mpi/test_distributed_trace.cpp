// output.trace over K in-process ranks (thread_communicator.hpp): every rank records its shard
// of the columns (closed) or of the inputs |i><j| (open) and the sum over the ranks
// (TraceRecorder::finish) equals the one-process trace, bit for bit (each entry is written by
// one rank, the others add zeros), on every rank, with uneven shards and ranks without columns.
#include <gtest/gtest.h>

#include <fstream>

#include "cli/cli_util.hpp"
#include "qevolve/plan.hpp"
#include "qevolve/config_loader.hpp"
#include "qevolve/gradient.hpp"
#include "qevolve/resolve.hpp"
#include "thread_communicator.hpp"

namespace qevolve::testing {
namespace {

solver::Trace trace_on(const solver::Simulator& sim, comm::Communicator& c) {
  gradient::PipelineHooks hooks;
  hooks.trace = true;
  gradient::Evaluation ev = gradient::evaluate(sim, std::nullopt, c, c, hooks);
  return std::move(*ev.trace);
}

void expect_same(const solver::Trace& a, const solver::Trace& b, const std::string& where) {
  EXPECT_EQ(a.time, b.time) << where;
  EXPECT_EQ(a.populations, b.populations) << where;
  EXPECT_EQ(a.mode_populations, b.mode_populations) << where;
  EXPECT_EQ(a.trace, b.trace) << where;
}

TEST(DistributedTrace, EqualsOneProcessOnEveryRank) {
  TempDir dir;
  const std::string device =
      "device:\n  preset: mpc_fluxonium_1d\n  preset_args: {qubits: 2, levels: 3}\n"
      "pulses:\n  - {qubit: q0, shape: cos, amplitude: 0.03, frequency: 0.58, duration: 20}\n";
  const std::string closed = device + "evolution: {solver: trotter, steps: 60, initial_states: computational}\n";
  const std::string open = device + "evolution:\n  solver: trotter\n  steps: 60\n  noise: {q0: {t1: 500.0}}\n";
  for (const std::string& text : {closed, open}) {
    const auto path = dir.write("c.yaml", text + "output:\n  trace: {every: 7}\n");
    Config config = io::load_config(path.string());
    (void)io::resolve(config, io::Purpose::evolve);
    const solver::Simulator sim(io::evolution_plan(config), 1);
    comm::SerialCommunicator one;
    const solver::Trace serial = trace_on(sim, one);
    ASSERT_EQ(serial.time.size(), 10u);  // 0, 7, ..., 56 and 60
    for (int ranks : {2, 3, 5}) {
      std::vector<solver::Trace> got(static_cast<std::size_t>(ranks));
      ThreadGroup group(ranks);
      group.run([&](comm::Communicator& c) { got[static_cast<std::size_t>(c.rank())] = trace_on(sim, c); });
      for (int r = 0; r < ranks; ++r)
        expect_same(got[static_cast<std::size_t>(r)], serial,
                    (sim.options().open ? "open" : "closed") + std::string(", ranks ") + std::to_string(ranks) +
                        ", rank " + std::to_string(r));
    }
  }
}

}  // namespace
}  // namespace qevolve::testing
