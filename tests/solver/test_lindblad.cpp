// Open systems (docs/solvers.md "Open systems"): the local dissipator against the
// Lindblad formula, free T1 decay and Ramsey dephasing against their closed forms, the
// noiseless channel against the closed-system unitary, convergence of the split step at its
// order against the dense Liouvillian, and thread independence.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include "../../src/solver/lindblad.hpp"
#include "qevolve/plan.hpp"
#include "qevolve/resolve.hpp"
#include "qevolve/config_loader.hpp"
#include "qevolve/device.hpp"
#include "qevolve/fidelity.hpp"
#include "qevolve/linalg.hpp"
#include "qevolve/simulator.hpp"
#include "solver_fixtures.hpp"

namespace qevolve::solver {
namespace {

double max_abs(const CMatrix& m) { return m.cwiseAbs().maxCoeff(); }

NoiseSpec noise_entry(const std::string& qubit, std::optional<double> t1, std::optional<double> tphi) {
  NoiseSpec n;
  n.qubit = qubit;
  n.t1 = t1;
  n.tphi = tphi;
  return n;
}

CMatrix random_matrix(Index d, std::mt19937_64& rng) {
  std::normal_distribution<double> g;
  CMatrix m(d, d);
  for (Index i = 0; i < d; ++i)
    for (Index j = 0; j < d; ++j) m(i, j) = cplx(g(rng), g(rng));
  return m;
}

CVector vec(const CMatrix& m) { return Eigen::Map<const CVector>(m.data(), m.size()); }

TEST(Lindblad, GeneratorIsTheLindbladFormulaInColumnStacking) {
  // vec(c rho c^dag - 1/2 {c^dag c, rho}) = G vec(rho), the right side written out directly.
  std::mt19937_64 rng(7);
  for (Index d : {2, 3, 5}) {
    const CMatrix c = random_matrix(d, rng), rho = random_matrix(d, rng);
    const CMatrix cdc = c.adjoint() * c;
    const CMatrix direct = c * rho * c.adjoint() - 0.5 * (cdc * rho + rho * cdc);
    EXPECT_LT((lindblad_generator(c) * vec(rho) - vec(direct)).cwiseAbs().maxCoeff(), 1e-12) << "d = " << d;
  }
}

TEST(Lindblad, CollapseOperatorsOfPhysicsMd) {
  NoiseSpec n;
  n.t1 = 400.0;
  n.tphi = 900.0;
  const auto ops = collapse_operators(n, 3);
  ASSERT_EQ(ops.size(), 2u);
  EXPECT_NEAR(std::abs(ops[0](0, 1)), std::sqrt(1.0 / 400.0), 1e-15);
  EXPECT_NEAR(std::abs(ops[0](1, 2)), std::sqrt(2.0 / 400.0), 1e-15);
  EXPECT_NEAR(std::abs(ops[1](2, 2)), 2.0 * std::sqrt(2.0 / 900.0), 1e-15);
  EXPECT_EQ(ops[1](0, 0), cplx(0.0, 0.0));
}

/// One undriven fluxonium qubit (2 levels) with noise, evolved for `T` ns, rotating frame.
Config idle_qubit(Solver solver, int order, std::optional<double> t1, std::optional<double> tphi, double T) {
  Config c = testing::single_fluxonium_x(solver, 50);
  c.pulses.clear();
  c.device.qubits[0].levels = 2;
  c.evolution.order = order;
  c.evolution.duration = T;
  c.evolution.frame = Frame::rotating;
  c.evolution.noise.push_back(noise_entry("q0", t1, tphi));
  return c;
}

/// The InputError text the resolution stage raises for `c` ("no error" if it passes).
std::string build_error(const Config& c) {
  try {
    (void)io::resolve(c, io::Purpose::evolve);
  } catch (const InputError& e) {
    return std::string(e.what());
  }
  return "no error";
}

TEST(Lindblad, FreeDecayAndRamseyMatchTheirClosedForms) {
  // Amplitude damping and pure dephasing of an idle qubit: p1(T) = exp(-T/T1) and, in the
  // rotating frame, rho01(T) = exp(-T/(2 T1) - T/Tphi) rho01(0). The dissipators commute with
  // the free Hamiltonian, so every splitting is exact up to rounding: tolerance 1e-9 (the
  // acceptance figure), observed ~1e-15.
  const double T = 1234.5, t1 = 5000.0, tphi = 8000.0;
  struct Case {
    std::optional<double> t1, tphi;
  };
  for (const Case& k : {Case{t1, {}}, Case{{}, tphi}, Case{t1, tphi}}) {
    for (auto [solver, order] : {std::pair{Solver::trotter, 1}, std::pair{Solver::trotter, 2},
                                 std::pair{Solver::trotter, 4}, std::pair{Solver::expm, 2},
                                 std::pair{Solver::adaptive, 2}}) {
      Config c = idle_qubit(solver, order, k.t1, k.tphi, T);
      c.evolution.rtol = 1e-13;  // adaptive: ~4500 rad of free precession in the lab frame
      c.evolution.atol = 1e-15;
      Simulator sim(io::evolution_plan(c), 1);
      const CMatrix S = sim.evolve_channel().superoperator;  // 4 x 4: (a + 2b, i + 2j)
      const double g1 = k.t1 ? 1.0 / *k.t1 : 0.0, gphi = k.tphi ? 1.0 / *k.tphi : 0.0;
      const double p1 = std::exp(-T * g1);
      const double coherence = std::exp(-T * (0.5 * g1 + gphi));
      const std::string what = "solver " + std::to_string(static_cast<int>(solver)) + " order " + std::to_string(order);
      EXPECT_NEAR(S(3, 3).real(), p1, 1e-9) << what;             // <1|E(|1><1|)|1>
      EXPECT_NEAR(S(0, 3).real(), 1.0 - p1, 1e-9) << what;       // <0|E(|1><1|)|0>
      EXPECT_NEAR(S(0, 0).real(), 1.0, 1e-9) << what;            // |0><0| stays
      EXPECT_NEAR(std::abs(S(1, 1) - coherence), 0.0, 1e-9) << what;  // <1|E(|1><0|)|0>
      EXPECT_NEAR(std::abs(S(2, 2) - coherence), 0.0, 1e-9) << what;  // <0|E(|0><1|)|1>
    }
  }
}

TEST(Lindblad, WithoutNoiseTheChannelIsTheClosedUnitary) {
  // A rate of 1e-300 / ns: the dissipator exponentials are the identity to the last bit, so the
  // open path must reproduce U rho U^dag of the closed path (same splitting, same steps) and
  // the open fidelity formula the closed one, to 1e-12 (rounding of ~1e4 gate applications).
  linalg::set_blas_threads(1);  // small dense products: one BLAS thread (ctest runs in parallel)
  Config closed = testing::driven_chain(2, 3);
  closed.evolution.steps = 300;
  closed.target = TargetSpec{};
  for (auto [solver, order] : {std::pair{Solver::trotter, 1}, std::pair{Solver::trotter, 2},
                               std::pair{Solver::trotter, 4}, std::pair{Solver::expm, 2}}) {
    closed.evolution.solver = solver;
    closed.evolution.order = order;
    Config open = closed;
    open.evolution.noise.push_back(noise_entry("q0", 1e300, {}));
    open.evolution.noise.push_back(noise_entry("q1", {}, 1e300));
    Simulator cs(io::evolution_plan(closed), 1), os(io::evolution_plan(open), 1);
    const CMatrix cols = cs.evolve().columns;
    const auto comp = cs.device().computational_indices();
    const auto d = static_cast<Index>(comp.size());
    CMatrix U(d, d);
    for (Index i = 0; i < d; ++i) U.row(i) = cols.row(comp[static_cast<std::size_t>(i)]);
    const CMatrix S = os.evolve_channel().superoperator;
    double worst = 0.0;
    for (Index j = 0; j < d; ++j)
      for (Index i = 0; i < d; ++i)
        for (Index b = 0; b < d; ++b)
          for (Index a = 0; a < d; ++a)
            worst = std::max(worst, std::abs(S(a + d * b, i + d * j) - U(a, i) * std::conj(U(b, j))));
    EXPECT_LT(worst, 1e-12) << "order " << order;
    const CMatrix target = fidelity::standard_gate("CNOT");
    EXPECT_NEAR(fidelity::channel_fidelity(S, target), testing::gate_fidelity(U, target), 1e-12);
    EXPECT_NEAR(fidelity::channel_leakage(S), fidelity::leakage(U), 1e-12);
  }
}

CMatrix channel(Config c, Solver solver, int order, int steps, int threads = 1) {
  c.evolution.solver = solver;
  c.evolution.order = order;
  c.evolution.steps = steps;
  Simulator sim(io::evolution_plan(c), threads);
  return sim.evolve_channel().superoperator;
}

/// A driven 2-qubit chain, 3 levels per qubit, with strong noise (T1 200/250 ns, Tphi 300 ns
/// on a 20 ns drive), so that the dissipators do not commute with the drive.
Config noisy_chain() {
  Config c = testing::driven_chain(2, 3);
  c.evolution.noise.push_back(noise_entry("q0", 200.0, 300.0));
  c.evolution.noise.push_back(noise_entry("q1", 250.0, 300.0));
  return c;
}

TEST(Lindblad, SplitOrdersConvergeToTheDenseLiouvillianAtTheirRate) {
  // Acceptance: the difference from `expm` (the dense Liouvillian exponential of the same
  // midpoint step) shrinks by 2, 4, 16 within 20 % on halving dt.
  linalg::set_blas_threads(1);  // 81 x 81 exponentials: one BLAS thread (ctest runs in parallel)
  const Config base = noisy_chain();
  const int ladder[3][2] = {{400, 800}, {200, 400}, {400, 800}};
  const int orders[3] = {1, 2, 4};
  std::map<int, CMatrix> dense;  // the expm channel per step count, computed once
  auto reference = [&](int steps) -> const CMatrix& {
    auto it = dense.find(steps);
    if (it == dense.end()) it = dense.emplace(steps, channel(base, Solver::expm, 2, steps)).first;
    return it->second;
  };
  for (int k = 0; k < 3; ++k) {
    double diff[2];
    for (int h = 0; h < 2; ++h)
      diff[h] = max_abs(channel(base, Solver::trotter, orders[k], ladder[k][h]) - reference(ladder[k][h]));
    const double ratio = diff[0] / diff[1], expected = std::pow(2.0, orders[k]);
    std::printf("open order %d: |S - S_expm| = %.3e (%d steps), %.3e (%d steps), ratio %.3f\n", orders[k],
                diff[0], ladder[k][0], diff[1], ladder[k][1], ratio);
    EXPECT_NEAR(ratio, expected, 0.2 * expected) << "order " << orders[k];
  }
}

TEST(Lindblad, ChannelIsTracePreservingOnTheFullSpaceAndThreadIndependent) {
  // Every input |i><i| keeps unit trace on the full space (the computational block may leak),
  // and the threaded result is bitwise the one-thread result.
  const Config c = noisy_chain();
  Simulator one(io::evolution_plan(c), 1), two(io::evolution_plan(c), 2);
  const Index D = one.device().dim();
  CMatrix vecs = CMatrix::Zero(D * D, 3);
  for (Index k = 0; k < 3; ++k) vecs(k * 4 + D * (k * 4), k) = 1.0;  // |4k><4k|
  const CMatrix out = one.evolve_density(vecs);
  for (Index k = 0; k < 3; ++k) {
    cplx trace = 0.0;
    for (Index i = 0; i < D; ++i) trace += out(i + D * i, k);
    EXPECT_NEAR(std::abs(trace - 1.0), 0.0, 1e-12);
  }
  EXPECT_EQ(max_abs(one.evolve_channel().superoperator - two.evolve_channel().superoperator), 0.0);
}

TEST(Lindblad, DrivenFluxoniumMatchesQutipMesolve) {
  // data/lindblad_reference.csv: QuTiP mesolve (vern9, rtol 1e-12; its own error ~4e-13) on
  // data/lindblad_fluxonium.yaml, written by scripts/gen_lindblad_reference.py. qevolve's step
  // is the midpoint rule, O(dt^2) in time whatever the splitting order, so the continuum limit
  // is taken by one Richardson step (4 S(2n) - S(n)) / 3 from 4000 and 8000 steps (order-4
  // splitting); the remaining O(dt^4) error is far below the acceptance tolerance 1e-6.
  const std::string dir = std::string(QEVOLVE_SOURCE_DIR) + "/data/";
  const Config base = io::load_config(dir + "lindblad_fluxonium.yaml");
  CMatrix ref = CMatrix::Zero(4, 4);
  std::ifstream in(dir + "lindblad_reference.csv");
  ASSERT_TRUE(in.good());
  std::string line;
  int rows = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line[0] == 'a') continue;
    std::replace(line.begin(), line.end(), ',', ' ');
    std::istringstream f(line);
    int a = 0, b = 0, i = 0, j = 0;
    double re = 0.0, im = 0.0;
    f >> a >> b >> i >> j >> re >> im;
    ref(a + 2 * b, i + 2 * j) = cplx(re, im);
    ++rows;
  }
  ASSERT_EQ(rows, 16);
  const CMatrix coarse = channel(base, Solver::trotter, 4, 4000);
  const CMatrix fine = channel(base, Solver::trotter, 4, 8000);
  const CMatrix extrapolated = (4.0 * fine - coarse) / 3.0;
  const double err_fine = max_abs(fine - ref), err = max_abs(extrapolated - ref);
  std::printf("vs QuTiP mesolve: max |S - S_qutip| = %.3e (8000 steps), %.3e (Richardson)\n", err_fine, err);
  EXPECT_LT(err, 1e-6);
  // The adaptive reference (Dormand-Prince 5(4) on the Lindblad generator, no time
  // discretisation error beyond its tolerance) matches mesolve directly.
  Config adaptive = base;
  adaptive.evolution.solver = Solver::adaptive;
  adaptive.evolution.rtol = 1e-10;
  adaptive.evolution.atol = 1e-12;
  Simulator asim(io::evolution_plan(adaptive), 2);
  const double err_adaptive = max_abs(asim.evolve_channel().superoperator - ref);
  std::printf("vs QuTiP mesolve: adaptive rtol 1e-10: %.3e\n", err_adaptive);
  EXPECT_LT(err_adaptive, 1e-6);
  // The noise is visible at that level: the closed channel differs by far more.
  Config closed = base;
  closed.evolution.noise.clear();
  closed.evolution.noise.push_back(noise_entry("q0", 1e300, {}));
  EXPECT_GT(max_abs(channel(closed, Solver::trotter, 4, 4000) - ref), 1e-3);
}

TEST(Lindblad, NoiseVariantsReuseTheCache) {
  // A batch of noise variants: set_noise rebuilds the dissipators only (counts, not timing),
  // and the result equals a simulator built for the new rates.
  const Config c = noisy_chain();
  Simulator sim(io::evolution_plan(c), 1);
  const CacheStats before = sim.stats();
  Config other = c;
  other.evolution.noise[0].t1 = 150.0;
  other.evolution.noise[1].tphi = 700.0;
  sim.set_noise(other.evolution.noise);
  const CacheStats after = sim.stats();
  EXPECT_EQ(after.static_factor_builds, before.static_factor_builds);
  EXPECT_EQ(after.drive_eigendecompositions, before.drive_eigendecompositions);
  EXPECT_EQ(after.dissipator_builds, before.dissipator_builds + 1);
  Simulator fresh(io::evolution_plan(other), 1);
  EXPECT_EQ(max_abs(sim.evolve_channel().superoperator - fresh.evolve_channel().superoperator), 0.0);
  Config bad = c;
  bad.evolution.noise[0].qubit = "q1";
  EXPECT_THROW(sim.set_noise(bad.evolution.noise), std::invalid_argument);
}

CollapseSpec collapse_entry(const std::string& qubit, const std::string& op, double rate,
                           std::vector<std::vector<double>> matrix = {}) {
  CollapseSpec c;
  c.qubit = qubit;
  c.op = op;
  c.rate = rate;
  c.matrix = std::move(matrix);
  c.path = "evolution.collapse[0]";
  return c;
}

TEST(Lindblad, GeneralCollapseOperatorsReproduceT1AndTphiAndAddUp) {
  // `collapse` entries: lowering at rate 1/T1 is the t1 noise, number at rate 2/Tphi the tphi
  // noise, and a matrix equal to the lowering operator the same again; operators of the same
  // mode are summed into one generator, so the order of the entries does not matter.
  Config noise = testing::driven_chain(2, 3);
  noise.evolution.steps = 100;
  noise.evolution.noise.push_back(noise_entry("q0", 200.0, 300.0));
  Config general = testing::driven_chain(2, 3);
  general.evolution.steps = 100;
  general.evolution.collapse.push_back(collapse_entry("q0", "number", 2.0 / 300.0));
  general.evolution.collapse.push_back(collapse_entry("q0", "matrix", 1.0 / 200.0,
                                                      {{0, 1, 0}, {0, 0, std::sqrt(2.0)}, {0, 0, 0}}));
  Config lowering = general;
  lowering.evolution.collapse[1] = collapse_entry("q0", "lowering", 1.0 / 200.0);
  const CMatrix a = channel(noise, Solver::trotter, 2, 100), b = channel(general, Solver::trotter, 2, 100),
                c = channel(lowering, Solver::trotter, 2, 100);
  EXPECT_LT(max_abs(a - b), 1e-13);
  EXPECT_LT(max_abs(a - c), 1e-13);
  // A phi collapse operator changes the channel, and the dense reference agrees with the split
  // step at its order (ratio ~4 on halving dt, order 2).
  Config phi = lowering;
  phi.evolution.collapse.push_back(collapse_entry("q1", "phi", 1e-3));
  EXPECT_GT(max_abs(channel(phi, Solver::trotter, 2, 100) - c), 1e-4);
  const double d1 = max_abs(channel(phi, Solver::trotter, 2, 200) - channel(phi, Solver::expm, 2, 200));
  const double d2 = max_abs(channel(phi, Solver::trotter, 2, 400) - channel(phi, Solver::expm, 2, 400));
  EXPECT_NEAR(d1 / d2, 4.0, 0.8);
  // Located errors: an operator the mode lacks, a matrix of the wrong size.
  Config bad = testing::driven_chain(2, 3);
  bad.evolution.collapse.push_back(collapse_entry("q0", "x", 1e-3));
  EXPECT_EQ(build_error(bad), "chain.yaml:1:1: evolution.collapse[0].operator: mode `q0` has no operator `x` (expected "
                           "lowering | number | matrix, or an operator of the mode's model)");
  bad.evolution.collapse[0] = collapse_entry("q0", "matrix", 1e-3, {{0, 1}, {0, 0}});
  EXPECT_EQ(build_error(bad), "chain.yaml:1:1: evolution.collapse[0].matrix: mode `q0` keeps 3 levels but the matrix is "
                           "2 x 2 (expected a 3 x 3 matrix)");
}

TEST(Lindblad, DenseLiouvillianIsLimitedToSmallSystems) {
  Config c = testing::driven_chain(4, 3);  // D = 81 > 32
  c.evolution.solver = Solver::expm;
  c.evolution.noise.push_back(noise_entry("q0", 1000.0, {}));
  try {
    (void)io::resolve(c, io::Purpose::evolve);
    FAIL() << "expected an input error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "chain.yaml:1:1: evolution.solver: the dense Liouvillian of an open system with D = 81 would "
              "be 6561 x 6561 (limit 1024) (expected solver: trotter for D > 32)");
  }
}

TEST(Lindblad, MissingOpenSystemFeaturesAreLocatedInputErrors) {
  // The config is valid (`qevolve check` accepts the docs/config.md example with noise); building
  // the simulator says which open-system feature is not there yet.
  Config c = noisy_chain();
  c.evolution.precision = Precision::single;
  EXPECT_EQ(build_error(c), "chain.yaml:1:1: evolution.precision: precision: single is for closed systems, but "
                         "`evolution.noise` is given (expected precision: double for an open system)");
  c = noisy_chain();
  c.evolution.noise.push_back(noise_entry("q7", 100.0, {}));
  EXPECT_EQ(build_error(c), "chain.yaml:1:1: evolution.noise.q7: unknown mode `q7` (expected a mode name of the device: q0, q1)");
  c = noisy_chain();
  c.device.preset->levels = 9;
  EXPECT_EQ(build_error(c), "chain.yaml:1:1: evolution.noise.q0: mode `q0` keeps 9 levels; its dissipator would act on "
                         "81 (column, row) levels, more than the local kernels take (64) (expected at most 8 "
                         "levels on a mode with noise)");
}

// Validation once (docs/architecture.md "Errors"): the stage above refuses the input with its
// located message; an engine given it anyway (a programmatic Config that skipped the stage)
// stops at its precondition, a programming error, with no input rule of its own.
TEST(Lindblad, TheEngineAssertsWhatTheStageRefuses) {
  Config c = noisy_chain();
  c.evolution.noise.push_back(noise_entry("q7", 100.0, {}));
  try {
    Simulator sim(io::evolution_plan(c), 1);
    FAIL() << "accepted an unknown mode";
  } catch (const std::logic_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "make_dissipators: evolution.noise.q7: an unknown mode (the resolution stage refuses it)");
  }
  EXPECT_NO_THROW(precondition(true, "here", "key", "what"));
  EXPECT_THROW(precondition(false, "here", "key", "what"), std::logic_error);
}

/// obj = Re sum conj(W) x_N over the vectorised final states of the computational inputs.
double linear_objective(const Config& c, const CMatrix& W, int threads = 1) {
  Simulator sim(io::evolution_plan(c), threads);
  const Index D = sim.device().dim();
  const auto comp = sim.device().computational_indices();
  CMatrix x0 = CMatrix::Zero(D * D, static_cast<Index>(comp.size()));
  for (std::size_t k = 0; k < comp.size(); ++k) x0(comp[k] + D * comp[(k + 1) % comp.size()], static_cast<Index>(k)) = 1.0;
  return (W.conjugate().cwiseProduct(sim.evolve_density(x0))).sum().real();
}

TEST(LindbladAdjoint, MatchesFiniteDifferencesForT1TphiAndAmplitude) {
  // The checkpointed adjoint against central differences (Richardson-extrapolated, h and h/2)
  // of the same discretised evolution: d/dT1, d/dTphi through the dissipator Frechet
  // derivatives, d/dA of a pulse amplitude through the per-step drive cotangents. Agreement to
  // 1e-6 relative (the acceptance); orders 1, 2, 4 and an uneven checkpoint interval.
  for (int order : {1, 2, 4}) {
    Config c = noisy_chain();
    c.evolution.order = order;
    c.evolution.steps = 60;
    c.pulses[0].amplitude_auto = false;
    c.pulses[0].amplitude = 0.021;
    c.pulses[0].angle.reset();
    Simulator sim(io::evolution_plan(c), 2);
    const Index D = sim.device().dim();
    const auto comp = sim.device().computational_indices();
    const auto n = static_cast<Index>(comp.size());
    CMatrix x0 = CMatrix::Zero(D * D, n);
    for (Index k = 0; k < n; ++k) x0(comp[static_cast<std::size_t>(k)] + D * comp[static_cast<std::size_t>((k + 1) % n)], k) = 1.0;
    std::mt19937_64 rng(11);
    std::normal_distribution<double> g;
    CMatrix W(D * D, n);
    for (Index i = 0; i < W.size(); ++i) W.data()[i] = cplx(g(rng), g(rng));
    const std::vector<DissipatorTangent> noise = {sim.dissipator_rate_tangent(0, true),
                                                  sim.dissipator_rate_tangent(1, false)};
    double dA = 0.0;
    auto on_step = [&](int, double t, const std::vector<double>& dc) {
      std::vector<double> coeff;
      sim.drive().drive_coefficients(t, coeff);
      dA += dc[0] * coeff[0] / 0.021;  // channel 0 is pulse 0 on q0, c = A f(t)
    };
    for (int interval : {0, 7}) {
      dA = 0.0;
      const OpenAdjointResult r = sim.adjoint_density(x0, 0.5 * W, {}, noise, on_step, interval);
      auto fd = [&](auto set, double x, double h) {
        auto at = [&](double v) {
          Config p = c;
          set(p, v);
          return linear_objective(p, W);
        };
        const double d1 = (at(x + h) - at(x - h)) / (2 * h), d2 = (at(x + h / 2) - at(x - h / 2)) / h;
        return (4 * d2 - d1) / 3;
      };
      const double fd_t1 = fd([](Config& p, double v) { p.evolution.noise[0].t1 = v; }, 200.0, 1.0);
      const double fd_tphi = fd([](Config& p, double v) { p.evolution.noise[1].tphi = v; }, 300.0, 1.0);
      const double fd_a = fd([](Config& p, double v) { p.pulses[0].amplitude = v; }, 0.021, 1e-4);
      std::printf("order %d, interval %d: dT1 %.10e (fd %.10e), dTphi %.10e (fd %.10e), dA %.10e (fd %.10e); %d states kept\n",
                  order, r.checkpoint_interval, r.noise[0], fd_t1, r.noise[1], fd_tphi, dA, fd_a, r.stored_states);
      EXPECT_NEAR(r.noise[0], fd_t1, 1e-6 * std::abs(fd_t1) + 1e-12);
      EXPECT_NEAR(r.noise[1], fd_tphi, 1e-6 * std::abs(fd_tphi) + 1e-12);
      EXPECT_NEAR(dA, fd_a, 1e-6 * std::abs(fd_a) + 1e-9);
    }
  }
}

}  // namespace
}  // namespace qevolve::solver
