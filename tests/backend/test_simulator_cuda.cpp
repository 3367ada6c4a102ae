// `device: cuda` against `device: cpu` through the whole simulator: the same propagator for
// every solver the CUDA backend runs (skips without a device).
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "cuda_test_backend.hpp"
#include "qevolve/plan.hpp"
#include "qevolve/resolve.hpp"
#include "qevolve/device.hpp"
#include "qevolve/gradient.hpp"
#include "qevolve/simulator.hpp"
#include "solver/solver_fixtures.hpp"

namespace qevolve::testing {
namespace {

CMatrix propagator(Config c, ComputeDevice device) {
  c.evolution.device = device;
  const solver::Simulator sim(io::evolution_plan(c), 2);
  EXPECT_EQ(sim.options().device, device);
  return sim.evolve().columns;
}

void expect_same_on_both(const Config& c, double tolerance, const std::string& what) {
  const CMatrix cpu = propagator(c, ComputeDevice::cpu);
  const CMatrix gpu = propagator(c, ComputeDevice::cuda);
  EXPECT_LT((cpu - gpu).cwiseAbs().maxCoeff(), tolerance) << what;
}

class SimulatorCuda : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const std::string why = backend::testing::cuda_unavailable(); !why.empty()) GTEST_SKIP() << why;
  }
  static Config chain(Solver solver, int steps) {
    Config c = driven_chain(3, 3);
    c.evolution.solver = solver;
    c.evolution.steps = steps;
    c.evolution.initial_states.kind = InitialStates::Kind::all;
    return c;
  }
};

TEST_F(SimulatorCuda, TrotterTermsAndBonds) {
  for (int order : {1, 2, 4}) {
    Config c = chain(Solver::trotter, 300);
    c.evolution.order = order;
    expect_same_on_both(c, 1e-11, "trotter terms, order " + std::to_string(order));
    c.evolution.splitting = Splitting::bonds;
    expect_same_on_both(c, 1e-11, "trotter bonds, order " + std::to_string(order));
  }
}

TEST_F(SimulatorCuda, Magnus4AllSplittings) {
  for (Splitting s : {Splitting::terms, Splitting::bonds, Splitting::dense}) {
    Config c = chain(Solver::magnus4, 100);
    c.evolution.splitting = s;
    expect_same_on_both(c, 1e-10, "magnus4, splitting " + std::to_string(static_cast<int>(s)));
  }
}

TEST_F(SimulatorCuda, Expm) { expect_same_on_both(chain(Solver::expm, 200), 1e-10, "expm"); }

TEST_F(SimulatorCuda, SinglePrecision) {
  Config c = chain(Solver::trotter, 300);
  c.evolution.precision = Precision::single;
  expect_same_on_both(c, 1e-4, "trotter, precision single");
}

TEST_F(SimulatorCuda, SingleFluxoniumXGate) {
  // the X gate of docs/reference.md: 10 levels, one-mode gates only.
  expect_same_on_both(single_fluxonium_x(Solver::trotter, 1000), 1e-11, "fluxonium X, trotter");
  expect_same_on_both(single_fluxonium_x(Solver::expm, 500), 1e-10, "fluxonium X, expm");
}

TEST_F(SimulatorCuda, LindbladForward) {
  // The open step on the doubled register runs on the CUDA gate executor (docs/backend.md).
  for (Splitting s : {Splitting::terms, Splitting::bonds}) {
    Config c = driven_chain(2, 3);
    c.evolution.steps = 200;
    c.evolution.splitting = s;
    NoiseSpec n;
    n.qubit = "q0";
    n.t1 = 3000.0;
    n.tphi = 5000.0;
    c.evolution.noise.push_back(n);
    auto channel = [&](ComputeDevice device) {
      c.evolution.device = device;
      const solver::Simulator sim(io::evolution_plan(c), 2);
      EXPECT_EQ(sim.options().device, device);
      return sim.evolve_channel().superoperator;
    };
    EXPECT_LT((channel(ComputeDevice::cpu) - channel(ComputeDevice::cuda)).cwiseAbs().maxCoeff(), 1e-11)
        << "Lindblad, splitting " << static_cast<int>(s);
  }
}

TEST_F(SimulatorCuda, ClosedGradient) {
  // The closed adjoint on the CUDA adjoint executor against the CPU one: the same gradient of
  // 1 - F (pulse parameters, vz re-optimised), trotter terms and bonds, magnus4.
  for (const auto& [solver, splitting] : {std::pair{Solver::trotter, Splitting::terms},
                                          std::pair{Solver::trotter, Splitting::bonds},
                                          std::pair{Solver::magnus4, Splitting::terms}}) {
    Config c = driven_chain(3, 3);
    c.evolution.solver = solver;
    c.evolution.splitting = splitting;
    c.evolution.steps = 200;
    c.pulses[0].optimize = {"amplitude", "frequency", "phase"};
    c.pulses[2].optimize = {"duration"};
    GateSpec x;
    x.gate = "X";
    x.qubits = {"q0"};
    c.target = TargetSpec{};
    c.target->gates = {x};
    c.target->compensation = Compensation::vz;
    auto gradient = [&](ComputeDevice device) {
      c.evolution.device = device;
      gradient::GradientProblem problem(io::gradient_plan(c), 2);
      return problem.evaluate(true).gradient;
    };
    const RVector cpu = gradient(ComputeDevice::cpu), gpu = gradient(ComputeDevice::cuda);
    EXPECT_LT((cpu - gpu).cwiseAbs().maxCoeff(), 1e-10 * (1.0 + cpu.cwiseAbs().maxCoeff()))
        << "solver " << static_cast<int>(solver) << ", splitting " << static_cast<int>(splitting);
  }
}

}  // namespace
}  // namespace qevolve::testing
