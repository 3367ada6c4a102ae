// The solver's adjoint pass (Simulator::adjoint) against central finite differences of the
// same discretised evolution, for every closed-system solver: drive-coefficient cotangents
// (through pulse parameters) and Hamiltonian tangents of static terms and drive operators.
// The objective is f = Re Tr(A^dag psi_N) for a fixed random A (cotangent lambda_N = A / 2),
// which is smooth, so the central difference error is O(h^2) ~ 1e-10 relative for h = 1e-5;
// the tolerance 1e-6 relative (+1e-9 absolute) is the gradient tolerance of docs/reference.md "Gradients".
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "qevolve/plan.hpp"
#include "qevolve/resolve.hpp"
#include "qevolve/device.hpp"
#include "qevolve/pulse.hpp"
#include "qevolve/simulator.hpp"
#include "solver_fixtures.hpp"

namespace qevolve::testing {
namespace {

struct SolverCase {
  Solver solver;
  int order;
  const char* name;
  Splitting splitting = Splitting::terms;
};

class Adjoint : public ::testing::TestWithParam<SolverCase> {
 protected:
  Config config() const {
    Config c = driven_chain(3, 3, 20.0);
    c.evolution.solver = GetParam().solver;
    c.evolution.order = GetParam().order;
    c.evolution.splitting = GetParam().splitting;
    c.evolution.steps = 120;
    // Detune and dephase the pulses a little so that no derivative vanishes by symmetry.
    for (std::size_t p = 0; p < c.pulses.size(); ++p) c.pulses[p].phase += 0.3 * static_cast<double>(p);
    return c;
  }
  static CMatrix random_matrix(Index rows, Index cols, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> g;
    CMatrix A(rows, cols);
    for (Index i = 0; i < A.size(); ++i) A.data()[i] = cplx(g(rng), g(rng));
    return A;
  }
  static double objective(const solver::Simulator& sim, const CMatrix& A) {
    const CMatrix psiN = sim.evolve_product(sim.states().initial_columns());
    return A.conjugate().cwiseProduct(psiN).sum().real();
  }
};

void expect_close(double adjoint, double fd, const std::string& what) {
  EXPECT_NEAR(adjoint, fd, std::max(1e-6 * std::abs(fd), 1e-9)) << what;
}

TEST_P(Adjoint, PulseParametersMatchFiniteDifferences) {
  const Config c = config();
  solver::Simulator sim(io::evolution_plan(c), 1);
  const CMatrix A = random_matrix(sim.device().dim(), static_cast<Index>(sim.states().initial_indices().size()), 7);
  const CMatrix psiN = sim.evolve_product(sim.states().initial_columns());

  const std::vector<pulse::ParamRef> refs = {{pulse::Param::amplitude, 0},
                                             {pulse::Param::frequency, 0},
                                             {pulse::Param::phase, 0},
                                             {pulse::Param::duration, 0}};
  // grad[p][r]: derivative with respect to refs[r] of pulse p.
  std::vector<std::vector<double>> grad(sim.drive().pulses().size(), std::vector<double>(refs.size(), 0.0));
  std::vector<double> df(refs.size());
  int calls = 0, last = -1;
  double last_t = 1e300;
  bool descending = true;
  const auto r = sim.adjoint(psiN, A / 2.0, {}, [&](int s, double t, const std::vector<double>& dc) {
    ++calls;
    if (last >= 0 && s != last && s != last - 1) descending = false;
    if (!(t < last_t) || t < s * sim.options().dt() || t > (s + 1) * sim.options().dt()) descending = false;
    last = s;
    last_t = t;
    for (const auto& ch : sim.drive().channels()) {
      sim.drive().pulses()[static_cast<std::size_t>(ch.pulse)].derivatives(t, refs, df);
      for (std::size_t k = 0; k < refs.size(); ++k)
        grad[static_cast<std::size_t>(ch.pulse)][k] += dc[static_cast<std::size_t>(&ch - sim.drive().channels().data())] * ch.factor * df[k];
    }
  });
  // One call per drive sample: the midpoint, or magnus4's two Gauss points.
  EXPECT_EQ(calls, c.evolution.steps * (c.evolution.solver == Solver::magnus4 ? 2 : 1));
  EXPECT_TRUE(descending);
  EXPECT_EQ(last, 0);
  // Exact reverse stepping reconstructs the initial columns.
  EXPECT_LT((r.psi0 - sim.states().initial_columns()).cwiseAbs().maxCoeff(), 1e-11);

  for (std::size_t p = 0; p < sim.drive().pulses().size(); ++p)
    for (std::size_t k = 0; k < refs.size(); ++k) {
      if (refs[k].kind == pulse::Param::duration) continue;  // ends after T would change T
      const double v = sim.drive().pulses()[p].get(refs[k]);
      const double h = 1e-5 * std::max(1.0, std::abs(v));
      const auto at = [&](double value) {
        std::vector<pulse::Pulse> pulses = sim.drive().pulses();
        pulses[p].set(refs[k], value);
        sim.replace_pulses(std::move(pulses));
        return objective(sim, A);
      };
      const double fp = at(v + h);
      const double fm = at(v - h);
      at(v);
      expect_close(grad[p][k], (fp - fm) / (2 * h),
                   "pulse " + std::to_string(p) + " " + refs[k].name());
    }
}

TEST_P(Adjoint, HamiltonianTangentsMatchFiniteDifferences) {
  const Config c = config();
  const device::Device base = io::build_device(c);
  solver::Simulator sim(io::evolution_plan(c, base), 1);
  const CMatrix A = random_matrix(base.dim(), static_cast<Index>(sim.states().initial_indices().size()), 11);
  const CMatrix psiN = sim.evolve_product(sim.states().initial_columns());
  const auto terms = base.static_terms();

  // Tangent 0: every coupling strength scaled (d/de of J (1 + e)).
  // Tangent 1: mode 1's energies scaled about their mean (a one-mode static term).
  // Tangent 2: the drive operator of channel 0 scaled (dO = O).
  std::vector<solver::HamiltonianTangent> tangents(3);
  for (auto& t : tangents) {
    t.static_terms.resize(terms.size());
    t.channels.resize(sim.drive().channels().size());
  }
  for (std::size_t i = 0; i < terms.size(); ++i)
    if (terms[i].modes.size() == 2) tangents[0].static_terms[i] = terms[i].matrix;
  const RVector& E1 = base.modes()[1].energies;
  const RVector dE1 = E1.array() - E1.mean();
  tangents[1].static_terms[1] = dE1.cast<cplx>().asDiagonal();
  const auto& ch0 = sim.drive().channels()[0];
  tangents[2].channels[0] = *base.modes()[static_cast<std::size_t>(ch0.mode)].op(ch0.op);

  const auto r = sim.adjoint(psiN, A / 2.0, tangents, {});
  ASSERT_EQ(r.tangents.size(), 3U);

  auto perturbed = [&](int which, double e) {
    std::vector<device::Mode> modes = base.modes();
    std::vector<device::Coupling> couplings = base.couplings();
    if (which == 0)
      for (auto& cp : couplings) {
        cp.capacitive *= 1 + e;
        cp.inductive *= 1 + e;
      }
    if (which == 1) modes[1].energies += e * dE1;
    solver::Simulator s(io::evolution_plan(c, device::Device(modes, couplings)), 1);
    std::vector<pulse::Pulse> pulses = sim.drive().pulses();
    if (which == 2) {  // O_0 -> (1 + e) O_0 is the same as scaling pulse 0 (no crosstalk)
      auto& p0 = pulses[static_cast<std::size_t>(ch0.pulse)];
      p0.set({pulse::Param::amplitude, 0}, p0.amplitude() * (1 + e));
    }
    s.replace_pulses(std::move(pulses));
    return objective(s, A);
  };
  const double h = 1e-5;
  for (int t = 0; t < 3; ++t)
    expect_close(r.tangents[static_cast<std::size_t>(t)], (perturbed(t, h) - perturbed(t, -h)) / (2 * h),
                 "tangent " + std::to_string(t));
}

INSTANTIATE_TEST_SUITE_P(Solvers, Adjoint,
                         ::testing::Values(SolverCase{Solver::trotter, 1, "trotter1"},
                                           SolverCase{Solver::trotter, 2, "trotter2"},
                                           SolverCase{Solver::trotter, 4, "trotter4"},
                                           SolverCase{Solver::expm, 2, "expm"},
                                           SolverCase{Solver::magnus4, 4, "magnus4"},
                                           SolverCase{Solver::magnus4, 4, "magnus4_dense",
                                                      Splitting::dense},
                                           SolverCase{Solver::trotter, 2, "trotter2_bonds", Splitting::bonds},
                                           SolverCase{Solver::trotter, 4, "trotter4_bonds", Splitting::bonds},
                                           SolverCase{Solver::magnus4, 4, "magnus4_bonds", Splitting::bonds},
                                           SolverCase{Solver::trotter, 2, "trotter_chebyshev", Splitting::chebyshev},
                                           SolverCase{Solver::magnus4, 4, "magnus4_chebyshev",
                                                      Splitting::chebyshev}),
                         [](const auto& tp) { return std::string(tp.param.name); });

}  // namespace
}  // namespace qevolve::testing
