// The truncation check (qevolve/truncation.hpp): per mode, the largest population of its top
// level over every column and step boundary, in the product basis the solver evolves in. Checked
// against a dense brute force (exp(-i 2 pi dt H(t_mid)) per step, every boundary), and every
// scheme's value against its own states seen at every boundary by a plain observer.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "cli/cli_util.hpp"
#include "qevolve/plan.hpp"
#include "qevolve/config_loader.hpp"
#include "qevolve/gradient.hpp"
#include "qevolve/linalg.hpp"
#include "qevolve/resolve.hpp"
#include "qevolve/truncation.hpp"

namespace qevolve::testing {
namespace {

// Three transmons (3, 4 and 3 levels, D = 36) driven hard: every top level fills to 1e-3 - 1e-1.
const std::string kDevice =
    "device:\n  qubits:\n"
    "    - {name: qa, type: transmon, ec: 0.25, ej: 12.0, levels: 3}\n"
    "    - {name: qb, type: transmon, ec: 0.22, ej: 11.0, levels: 4}\n"
    "    - {name: qc, type: transmon, ec: 0.24, ej: 13.0, levels: 3}\n"
    "  couplings:\n    - {qubits: [qa, qb], capacitive: 0.01}\n    - {qubits: [qb, qc], capacitive: 0.012}\n"
    "pulses:\n  - {qubit: qa, shape: cos, amplitude: 0.1, frequency: auto, duration: 20}\n"
    "  - {qubit: qb, shape: cos, amplitude: 0.15, frequency: auto, duration: 20}\n"
    "  - {qubit: qc, shape: cos, amplitude: 0.12, frequency: auto, duration: 20}\n";

struct Built {
  Config config;
  std::unique_ptr<solver::Simulator> sim;
};

Built build(TempDir& dir, const std::string& evolution, const std::string& extra = {}) {
  Built b;
  b.config = io::load_config(dir.write("t.yaml", kDevice + "evolution: " + evolution + "\n" + extra).string());
  (void)io::resolve(b.config, io::Purpose::evolve);
  b.sim = std::make_unique<solver::Simulator>(io::evolution_plan(b.config), 2);
  return b;
}

std::vector<double> checked(const solver::Simulator& sim) {
  comm::SerialCommunicator one;
  gradient::PipelineHooks hooks;
  hooks.truncation = true;
  return gradient::evaluate(sim, std::nullopt, one, one, hooks).top_level_population;
}

/// Per mode: max over columns of the population of the mode's top level in `state` (closed:
/// columns; open: the diagonal of each input |k><k|).
void raise_direct(const solver::Simulator& sim, const CMatrix& state, bool open, std::vector<double>& top) {
  const device::Device& dev = sim.device();
  const Index D = dev.dim(), n = static_cast<Index>(sim.states().initial_indices().size());
  for (Index q = 0; q < state.cols(); ++q) {
    if (open && q % n != q / n) continue;
    for (int m = 0; m < dev.num_modes(); ++m) {
      double p = 0.0;
      for (Index i = 0; i < D; ++i)
        if (dev.levels_of(i)[static_cast<std::size_t>(m)] == dev.dims()[static_cast<std::size_t>(m)] - 1)
          p += open ? state(i * (D + 1), q).real() : std::norm(state(i, q));
      top[static_cast<std::size_t>(m)] = std::max(top[static_cast<std::size_t>(m)], p);
    }
  }
}

/// The scheme's own states at every boundary, through a plain (state-only) observer.
std::vector<double> seen_at_every_step(const solver::Simulator& sim) {
  std::vector<double> top(static_cast<std::size_t>(sim.device().num_modes()), 0.0);
  solver::StepObserver o;
  for (int s = 0; s <= sim.options().steps; ++s) o.steps.push_back(s);
  const bool open = sim.options().open;
  o.state = [&](int /*step*/, const CMatrix& x) { raise_direct(sim, x, open, top); };
  if (open)
    (void)sim.evolve_density(sim.states().initial_density(), {}, o);
  else
    (void)sim.evolve_product(sim.states().initial_columns(), {}, o);
  return top;
}

TEST(Truncation, MatchesADenseBruteForceAtEveryStep) {
  TempDir dir;
  const Built b = build(dir, "{solver: expm, steps: 300}");
  const solver::Simulator& sim = *b.sim;
  std::vector<double> expected(3, 0.0);
  CMatrix psi = sim.states().initial_columns();
  const double dt = sim.options().dt();
  for (int s = 0; s <= sim.options().steps; ++s) {
    raise_direct(sim, psi, false, expected);
    if (s == sim.options().steps) break;
    psi = linalg::expm_hermitian(dense_hamiltonian(sim, (s + 0.5) * dt), kTwoPi * dt) * psi;
  }
  const std::vector<double> got = checked(sim);
  ASSERT_EQ(got.size(), 3u);
  for (std::size_t m = 0; m < 3; ++m) {
    EXPECT_GT(expected[m], 1e-3) << m << ": the drives should fill every top level";
    EXPECT_NEAR(got[m], expected[m], 1e-10 * expected[m]) << m;
  }
}

TEST(Truncation, EverySchemeSeesEveryStep) {
  // The check's per-block path (local gates, chebyshev) against the same scheme's states at
  // every boundary. A local-gate pass fuses the Strang boundary gate into the next step and the
  // check sees the state before it (qevolve/truncation.hpp): within a few per cent there (terms:
  // one coupling's half step; bonds: the first colour's bonds with their modes' own terms).
  struct Case {
    std::string evolution;
    double tolerance;
  };
  for (const Case& c : {Case{"{solver: trotter, steps: 300}", 0.05},
                        Case{"{solver: trotter, steps: 300, splitting: bonds}", 0.25},
                        Case{"{solver: trotter, steps: 300, precision: single}", 0.05},
                        Case{"{solver: magnus4, steps: 300, splitting: chebyshev}", 1e-10},
                        Case{"{solver: trotter, steps: 300, splitting: dense}", 1e-10},
                        Case{"{solver: expm, steps: 300, initial_states: all}", 1e-10}}) {
    TempDir dir;
    const Built b = build(dir, c.evolution);
    std::vector<double> expected = seen_at_every_step(*b.sim);
    if (c.evolution.find("initial_states: all") != std::string::npos) {
      // Columns that start in a top level are left out: none of the others reaches 1.
      for (double p : checked(*b.sim)) EXPECT_LT(p, 0.5) << c.evolution;
      continue;
    }
    const std::vector<double> got = checked(*b.sim);
    for (std::size_t m = 0; m < 3; ++m)
      EXPECT_NEAR(got[m], expected[m], c.tolerance * expected[m]) << c.evolution << " mode " << m;
  }
}

TEST(Truncation, AdaptiveChecksTheEnd) {
  TempDir dir;
  const Built b = build(dir, "{solver: adaptive, steps: 50, rtol: 1e-6, atol: 1e-8}");
  EXPECT_EQ(solver::truncation_steps(*b.sim), (std::vector<int>{0, 50}));
  const std::vector<double> got = checked(*b.sim);
  ASSERT_EQ(got.size(), 3u);
  std::vector<double> end(3, 0.0);
  raise_direct(*b.sim, b.sim->evolve_product(b.sim->states().initial_columns()), false, end);
  for (std::size_t m = 0; m < 3; ++m) EXPECT_NEAR(got[m], end[m], 1e-9) << m;
}

TEST(Truncation, OpenSystemsReadTheDiagonal) {
  // Lindblad (trotter): the per-block path inside the executor against the state at every step.
  TempDir dir;
  const Built b = build(dir, "{solver: trotter, steps: 200, noise: {qa: {t1: 2000.0, tphi: 3000.0}}}");
  const std::vector<double> expected = seen_at_every_step(*b.sim);
  const std::vector<double> got = checked(*b.sim);
  ASSERT_EQ(got.size(), 3u);
  for (std::size_t m = 0; m < 3; ++m) {
    EXPECT_GT(expected[m], 1e-3) << m;
    EXPECT_NEAR(got[m], expected[m], 1e-10) << m;
  }
}

TEST(Truncation, TwoLevelQubitsAreNotChecked) {
  TempDir dir;
  Config config = io::load_config(
      dir.write("q.yaml",
                "device:\n  preset: mpc_fluxonium_1d\n  preset_args: {qubits: 2, levels: 2}\n"
                "pulses:\n  - {qubit: q0, shape: cos, amplitude: auto, angle: 3.141592653589793, "
                "frequency: auto, duration: 50}\nevolution: {steps: 200}\n")
          .string());
  (void)io::resolve(config, io::Purpose::evolve);
  const solver::Simulator sim(io::evolution_plan(config), 1);
  for (double p : checked(sim)) EXPECT_TRUE(std::isnan(p));
}

}  // namespace
}  // namespace qevolve::testing
