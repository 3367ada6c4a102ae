// output.trace's mode marginals (TraceRecorder): /trace/mode_populations is the sum of
// /trace/populations over every basis state with mode m in level l. The recorder sums the
// rows in two partial sums (over the leading modes' index a and the others' b, i = a B + b),
// so the check uses a device where both parts hold modes, against the direct sum.
#include <gtest/gtest.h>

#include "cli/cli_util.hpp"
#include "qevolve/plan.hpp"
#include "qevolve/config_loader.hpp"
#include "qevolve/gradient.hpp"
#include "qevolve/resolve.hpp"

namespace qevolve::testing {
namespace {

TEST(Trace, ModeMarginalsSumThePopulations) {
  TempDir dir;
  // Three 3-level fluxoniums (D = 27): the recorder's split puts two modes before b, one after.
  const std::string yaml =
      "device:\n  preset: mpc_fluxonium_1d\n  preset_args: {qubits: 3, levels: 3}\n"
      "pulses:\n  - {qubit: q0, shape: cos, amplitude: 0.03, frequency: 0.58, duration: 20}\n"
      "  - {qubit: q2, shape: cos, amplitude: 0.02, frequency: 0.61, duration: 20}\n"
      "evolution: {solver: trotter, steps: 60, initial_states: all}\n"
      "output:\n  trace: {every: 7}\n";
  for (const std::string basis : {"product", "dressed"}) {
    std::string text = yaml;
    text.replace(text.find("initial_states: all}"), 20, "initial_states: all, basis: " + basis + "}");
    Config config = io::load_config(dir.write("c.yaml", text).string());
    (void)io::resolve(config, io::Purpose::evolve);
    const solver::Simulator sim(io::evolution_plan(config), 2);
    comm::SerialCommunicator one;
    gradient::PipelineHooks hooks;
    hooks.trace = true;
    const solver::Trace t = *gradient::evaluate(sim, std::nullopt, one, one, hooks).trace;
    ASSERT_TRUE(t.has_populations);
    const Index T = static_cast<Index>(t.time.size()), D = t.dim, n = t.columns, L = t.levels;
    ASSERT_EQ(D, 27);
    ASSERT_EQ(n, 27);
    double worst = 0.0, moved = 0.0;
    for (Index s = 0; s < T; ++s)
      for (Index m = 0; m < t.modes; ++m)
        for (Index l = 0; l < L; ++l)
          for (Index k = 0; k < n; ++k) {
            double direct = 0.0;
            for (Index i = 0; i < D; ++i)
              if (sim.device().levels_of(i)[static_cast<std::size_t>(m)] == l)
                direct += t.populations[static_cast<std::size_t>((s * D + i) * n + k)];
            const double got = t.mode_populations[static_cast<std::size_t>(((s * t.modes + m) * L + l) * n + k)];
            worst = std::max(worst, std::abs(got - direct));
            if (l > 0 && k == 0) moved = std::max(moved, got);
          }
    // Sums of 9 numbers in [0, 1] in another order: a few ulps of 1.
    EXPECT_LT(worst, 1e-14) << basis;
    EXPECT_GT(moved, 1e-3) << basis << ": the drives should move |000> (else the check is trivial)";
  }
}

}  // namespace
}  // namespace qevolve::testing
