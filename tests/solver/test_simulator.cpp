// The cached simulator: Trotter convergence against expm, unitarity, bases and frames, cache
// reuse, precision, and located input errors.
#include <gtest/gtest.h>

#include <cmath>
#include <algorithm>
#include <cstdio>

#include "qevolve/plan.hpp"
#include "qevolve/resolve.hpp"
#include "qevolve/simulator.hpp"
#include "../../src/solver/adaptive.hpp"
#include "solver_fixtures.hpp"

namespace qevolve::solver {
namespace {

CMatrix evolve_all(Config c) {
  c.evolution.initial_states.kind = InitialStates::Kind::all;
  Simulator sim(io::evolution_plan(c), 2);
  return sim.evolve().columns;
}

double max_abs(const CMatrix& m) { return m.cwiseAbs().maxCoeff(); }

TEST(Simulator, TrotterOrdersConvergeToExpmAtTheirRate) {
  // docs/solvers.md "Time stepping": `order` is the order of the splitting error, i.e. of the difference from expm
  // at equal steps. 3-qubit chain, 3 levels (D = 27), all columns. Acceptance: the ratio of the
  // differences on halving dt is within 20% of 2, 4, 16.
  Config base = testing::driven_chain(3, 3);
  const int ladder[3][2] = {{4000, 8000}, {1000, 2000}, {250, 500}};
  const int orders[3] = {1, 2, 4};
  double worst_unitarity = 0.0;
  for (int k = 0; k < 3; ++k) {
    double diff[2];
    for (int h = 0; h < 2; ++h) {
      Config c = base;
      c.evolution.steps = ladder[k][h];
      c.evolution.solver = Solver::expm;
      const CMatrix ref = evolve_all(c);
      c.evolution.solver = Solver::trotter;
      c.evolution.splitting = Splitting::terms;
      c.evolution.order = orders[k];
      const CMatrix U = evolve_all(c);
      diff[h] = max_abs(U - ref);
      // Unitary on the full space to 1e-12.
      const double du = max_abs(U.adjoint() * U - CMatrix::Identity(27, 27));
      const double dr = max_abs(ref.adjoint() * ref - CMatrix::Identity(27, 27));
      EXPECT_LT(du, 1e-12);
      EXPECT_LT(dr, 1e-12);
      worst_unitarity = std::max({worst_unitarity, du, dr});
    }
    const double ratio = diff[0] / diff[1];
    const double expected = std::pow(2.0, orders[k]);
    std::printf("order %d: |U - U_expm| = %.3e (%d steps), %.3e (%d steps), ratio %.3f\n",
                orders[k], diff[0], ladder[k][0], diff[1], ladder[k][1], ratio);
    EXPECT_NEAR(ratio, expected, 0.2 * expected) << "order " << orders[k];
  }
  std::printf("max |U^dag U - I| over all propagators: %.3e\n", worst_unitarity);
}

TEST(Simulator, ProductAndDressedResultsAreConsistent) {
  // U_dressed = S^dag U_product S on the full space, S the bare -> dressed transform.
  Config c = testing::driven_chain(2, 3);
  c.evolution.steps = 300;
  c.evolution.initial_states.kind = InitialStates::Kind::all;
  Simulator product(io::evolution_plan(c), 2);
  const CMatrix Up = product.evolve().columns;
  c.evolution.basis = Basis::dressed;
  Simulator dressed(io::evolution_plan(c), 2);
  const CMatrix Ud = dressed.evolve().columns;
  const CMatrix& S = dressed.dressed()->transform;
  EXPECT_LT(max_abs(Ud - S.adjoint() * Up * S), 1e-10);
  // And in the rotating frame the same relation holds with each basis's own energies.
  c.evolution.frame = Frame::rotating;
  Simulator dressed_rot(io::evolution_plan(c), 2);
  const CMatrix Udr = dressed_rot.evolve().columns;
  const double T = dressed_rot.options().duration;
  CMatrix phase = CMatrix::Zero(9, 9);
  for (Index i = 0; i < 9; ++i)
    phase(i, i) = std::polar(1.0, kTwoPi * dressed_rot.dressed()->energy_of_bare(i) * T);
  EXPECT_LT(max_abs(Udr - phase * Ud), 1e-10);
}

TEST(Simulator, RotatingFrameUndoesTheFreeEvolution) {
  // No pulses, no couplings: the lab-frame propagator is exp(-i 2 pi E T); the rotating frame
  // removes it exactly.
  Config c;
  c.source_file = "free.yaml";
  ModeEntry q;
  q.name = "q0";
  q.type = ModeType::duffing;
  q.levels = 4;
  q.frequency = 5.0;
  q.anharmonicity = -0.2;
  q.path = "device.qubits[0]";
  c.device.qubits.push_back(q);
  c.evolution.duration = 13.7;
  c.evolution.steps = 10;
  c.evolution.frame = Frame::rotating;
  c.evolution.initial_states.kind = InitialStates::Kind::all;
  for (Solver s : {Solver::trotter, Solver::expm, Solver::adaptive}) {
    c.evolution.solver = s;
    Simulator sim(io::evolution_plan(c), 1);
    const double dev = max_abs(sim.evolve().columns - CMatrix::Identity(4, 4));
    // Fixed-step solvers are exact here (diagonal H): rounding of phases up to 2 pi * 15 GHz *
    // 13.7 ns ~ 1300 rad, i.e. ~1e-13. The adaptive solver's global error is ~rtol per unit of
    // accumulated phase: 1e-10 * 1300 ~ 1e-7.
    EXPECT_LT(dev, s == Solver::adaptive ? 1e-6 : 1e-12) << static_cast<int>(s);
  }
}

// The adaptive solver's work bound (docs/solvers.md "`adaptive` — convergence studies"): a fast Rabi oscillation
// (50 GHz, 10 ns: ~3000 rad) with a bound of 100 step attempts stops with a NumericalError that
// names the time reached; with the default bound the same job integrates to the analytic
// cos(2 pi 50 t) to rtol-level accuracy.
TEST(Simulator, AdaptiveStopsAtItsMaximumOfSteps) {
  AdaptiveJob job;
  job.dims = {2};
  CMatrix sx(2, 2);
  sx << 0.0, 1.0, 1.0, 0.0;
  job.terms.push_back({{0}, sx, cplx(0.0, -2.0 * kPi * 50.0), -1});
  job.coefficients = [](double, std::vector<double>&) {};
  job.duration = 10.0;
  job.max_steps = 100;
  CMatrix psi = CMatrix::Identity(2, 2);
  try {
    (void)integrate_adaptive(job, psi, {});
    ADD_FAILURE() << "no NumericalError";
  } catch (const NumericalError& e) {
    EXPECT_NE(std::string(e.what()).find("adaptive solver: gave up after 100 steps at t = "), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(kAdaptiveMaxSteps, 1000000);
  job.max_steps = kAdaptiveMaxSteps;
  psi = CMatrix::Identity(2, 2);
  (void)integrate_adaptive(job, psi, {});
  EXPECT_NEAR(psi(0, 0).real(), std::cos(2.0 * kPi * 50.0 * 10.0), 1e-6);
}

TEST(Simulator, CacheIsReusedForNewPulseParameters) {
  Config c = testing::driven_chain(3, 2);
  Simulator sim(io::evolution_plan(c), 2);
  const CacheStats before = sim.stats();
  EXPECT_EQ(before.static_factor_builds, 1);
  EXPECT_EQ(before.drive_eigendecompositions, 3);
  const CMatrix a = sim.evolve().columns;
  std::vector<pulse::Pulse> pulses = sim.drive().pulses();
  for (auto& p : pulses) p.set({pulse::Param::amplitude, 0}, p.amplitude() * 0.9);
  sim.replace_pulses(std::move(pulses));
  const CMatrix b = sim.evolve().columns;
  const CacheStats after = sim.stats();
  EXPECT_EQ(after.static_factor_builds, before.static_factor_builds);
  EXPECT_EQ(after.drive_eigendecompositions, before.drive_eigendecompositions);
  EXPECT_EQ(after.evaluations, 2);
  EXPECT_GT(max_abs(a - b), 1e-3);  // the new parameters were used
  sim.set_steps(700);                // a new dt rebuilds only the static factors
  EXPECT_EQ(sim.stats().static_factor_builds, 2);
  EXPECT_EQ(sim.stats().drive_eigendecompositions, 3);
}

TEST(Simulator, ResultsDoNotDependOnThreads) {
  Config c = testing::driven_chain(4, 2);
  c.evolution.initial_states.kind = InitialStates::Kind::all;
  Simulator one(io::evolution_plan(c), 1);
  Simulator two(io::evolution_plan(c), 2);
  EXPECT_EQ(max_abs(one.evolve().columns - two.evolve().columns), 0.0);
}

TEST(Simulator, SinglePrecisionReportsItsDeviation) {
  Config c = testing::driven_chain(3, 2);
  const CMatrix ref = Simulator(io::evolution_plan(c), 2).evolve().columns;
  c.evolution.precision = Precision::single;
  Simulator sim(io::evolution_plan(c), 2);
  const EvolveResult r = sim.evolve();
  // complex64 over 500 steps of unitary gates: rounding ~6e-8 per operation accumulates to
  // ~1e-5; the reported deviation is the first block's measured difference to double.
  EXPECT_LT(max_abs(r.columns - ref), 1e-4);
  EXPECT_GT(r.single_precision_deviation, 0.0);
  EXPECT_LT(r.single_precision_deviation, 1e-4);
  std::printf("single precision: max |dU| = %.3e, reported %.3e\n", max_abs(r.columns - ref),
              r.single_precision_deviation);
}

TEST(Simulator, InitialStateLabels) {
  Config c = testing::driven_chain(3, 3);
  c.evolution.initial_states.kind = InitialStates::Kind::list;
  c.evolution.initial_states.labels = {"012", "200"};
  Simulator sim(io::evolution_plan(c), 1);
  EXPECT_EQ(sim.states().initial_indices(), (std::vector<Index>{5, 18}));
  EXPECT_EQ(sim.states().initial_labels(), (std::vector<std::string>{"012", "200"}));
  EXPECT_FALSE(sim.states().initial_states_are_computational());
  const CMatrix all = evolve_all(c);
  const CMatrix two = sim.evolve().columns;
  EXPECT_LT(max_abs(two.col(0) - all.col(5)), 1e-13);
  EXPECT_LT(max_abs(two.col(1) - all.col(18)), 1e-13);
}

std::string error_of(const Config& c) {
  try {
    (void)io::resolve(c, io::Purpose::evolve);  // input errors are the resolution stage's
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Simulator, LocatedInputErrors) {
  Config c = testing::driven_chain(2, 2);
  c.where["pulses[1].qubit"] = {"chain.yaml", 12, 12};
  c.pulses[1].qubit = "q9";
  EXPECT_EQ(error_of(c), "chain.yaml:12:12: pulses[1].qubit: unknown mode `q9` (expected a mode "
                         "name of the device: q0, q1)");
  c = testing::driven_chain(2, 2);
  c.where["evolution.duration"] = {"chain.yaml", 20, 13};
  c.evolution.duration = 10.0;
  EXPECT_EQ(error_of(c),
            "chain.yaml:20:13: evolution.duration: duration 10.000000 ns is shorter than the "
            "latest pulse end 20.000000 ns (expected duration >= 20.000000)");
  c = testing::driven_chain(2, 2);
  c.evolution.initial_states.kind = InitialStates::Kind::list;
  c.evolution.initial_states.labels = {"02"};
  EXPECT_EQ(error_of(c), "chain.yaml:1:1: evolution.initial_states[0]: level 2 of mode `q1` is not "
                         "kept (levels 2) (expected a digit below the mode's levels)");
}

TEST(Simulator, PulseSamplesAreWhatTheSolverEvaluates) {
  // /pulses (docs/output.md "Pulse samples"): trotter samples each pulse at the step midpoints,
  // and the drive coefficients of every gate step are exactly those samples (bit for bit: the
  // same Pulse::value at the same time); magnus4 at the two Gauss points of every step.
  Config c = testing::driven_chain(2, 2);
  c.evolution.steps = 90;
  c.pulses[1].delay = 3.0;  // the second pulse starts later: zeros before it
  Simulator sim(io::evolution_plan(c), 1);
  const PulseSamples ps = sim.drive().pulse_samples();
  ASSERT_EQ(ps.time.size(), 90u);
  ASSERT_EQ(ps.values.size(), 2u);
  EXPECT_EQ(ps.names, (std::vector<std::string>{"pulses[0]", "pulses[1]"}));
  const auto coefficients = sim.drive().substep_coefficients();
  std::vector<double> coeff;
  for (int u = 0; u < 90; ++u) {
    EXPECT_NEAR(ps.time[static_cast<std::size_t>(u)], (u + 0.5) * sim.options().dt(), 1e-15 * sim.options().duration);
    coefficients(u, coeff);
    for (std::size_t j = 0; j < sim.drive().channels().size(); ++j) {
      const DriveChannel& ch = sim.drive().channels()[j];
      EXPECT_EQ(coeff[j], ps.values[static_cast<std::size_t>(ch.pulse)][static_cast<std::size_t>(u)] * ch.factor);
    }
  }
  EXPECT_EQ(ps.values[1][0], 0.0);  // t = 0.5 dt is before the delayed pulse
  c.evolution.solver = Solver::magnus4;
  Simulator magnus(io::evolution_plan(c), 1);
  const PulseSamples pm = magnus.drive().pulse_samples();
  ASSERT_EQ(pm.time.size(), 180u);
  const double h = std::sqrt(3.0) / 6.0;
  for (int s = 0; s < 90; ++s) {
    EXPECT_NEAR(pm.time[2 * static_cast<std::size_t>(s)], (s + 0.5 - h) * magnus.options().dt(), 1e-13);
    EXPECT_NEAR(pm.time[2 * static_cast<std::size_t>(s) + 1], (s + 0.5 + h) * magnus.options().dt(), 1e-13);
    for (std::size_t p = 0; p < 2; ++p)
      for (std::size_t i = 0; i < 2; ++i) {
        const double t = pm.time[2 * static_cast<std::size_t>(s) + i];
        EXPECT_EQ(pm.values[p][2 * static_cast<std::size_t>(s) + i], magnus.drive().pulses()[p].value(t));
      }
  }
}

}  // namespace
}  // namespace qevolve::solver
