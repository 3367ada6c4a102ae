// splitting: chebyshev (docs/solvers.md "`splitting: chebyshev`"): the Chebyshev series of
// exp(-i tau H) against the eigen-decomposition exponential, its adjoint against the exact
// inverse and a finite difference of the exact exponential, and the scheme against splitting:
// dense, which exponentiates the same generator of every gate step exactly.
//
// Tolerances: the series is cut at a tail of 1e-14 per exponential; with rounding in ~R + 20
// products of norm <= 1 a single exponential agrees with the dense one to ~1e-13, and a run of S
// gate steps to ~S x 1e-13 at most (4e-11 for 400 gate steps, bounded by 1e-10 below).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "../../src/solver/chebyshev.hpp"
#include "qevolve/plan.hpp"
#include "qevolve/config_loader.hpp"
#include "qevolve/linalg.hpp"
#include "qevolve/resolve.hpp"
#include "qevolve/simulator.hpp"
#include "solver_fixtures.hpp"

namespace qevolve::solver {
namespace {

CMatrix random_hermitian(Index n, double scale, std::mt19937& rng) {
  std::normal_distribution<double> g;
  CMatrix A(n, n);
  for (Index i = 0; i < n; ++i)
    for (Index j = 0; j < n; ++j) A(i, j) = cplx(g(rng), g(rng));
  return scale * 0.5 * (A + A.adjoint());
}

CMatrix random_block(Index n, Index m, std::mt19937& rng) {
  std::normal_distribution<double> g;
  CMatrix X(n, m);
  for (Index i = 0; i < n; ++i)
    for (Index j = 0; j < m; ++j) X(i, j) = cplx(g(rng), g(rng));
  for (Index j = 0; j < m; ++j) X.col(j).normalize();
  return X;
}

std::pair<double, double> spectrum(const CMatrix& H) {
  RVector w;
  CMatrix V;
  linalg::hermitian_eigen(H, w, V);
  return {w.minCoeff(), w.maxCoeff()};
}

TEST(Chebyshev, BesselOrdersMatchReferenceValues) {
  // 30-digit values (mpmath.besselj): to rounding, 5e-16 absolute (a few units in the last
  // place of numbers below 1: the normalisation sums some 60 terms; with and without FMA).
  struct Ref {
    double x;
    int k;
    double J;
  };
  for (const Ref& r : {Ref{47.5, 0, -0.10608271415889353748}, Ref{47.5, 11, 0.089499491494900979755},
                       Ref{47.5, 47, 0.13925052375531605173}, Ref{47.5, 70, 3.486579015408776012e-8},
                       Ref{3.3, 0, -0.34429626039888459819}, Ref{3.3, 25, 1.588139539894799584e-20}})
    EXPECT_NEAR(bessel_j_orders(r.x, 90)[static_cast<std::size_t>(r.k)], r.J, 5e-16) << r.x << ", " << r.k;
  // Every order against the standard library, whose own error reaches 3e-15 at x = 47.5
  // (its asymptotic branch; the values above show ours at rounding there).
  for (double x : {1e-3, 0.5, 3.3, 10.0, 47.5}) {
    const auto J = bessel_j_orders(x, 90);
    for (int k = 0; k <= 90; ++k)
      EXPECT_NEAR(J[static_cast<std::size_t>(k)], std::cyl_bessel_j(static_cast<double>(k), x), 5e-15)
          << "x = " << x << ", k = " << k;
  }
  EXPECT_EQ(bessel_j_orders(0.0, 3), (std::vector<double>{1.0, 0.0, 0.0, 0.0}));
}

TEST(Chebyshev, SparseColumnsStepMatchesTheDenseProduct) {
  // backend::sparse_columns_step: y = scale (A x - shift x) - p for a complex and a real sparse
  // A, every column count whose chunks (8, 4, 2, 1) and tails the kernel distinguishes.
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const Index n = 13;
  for (bool real : {false, true}) {
    CMatrix A = CMatrix::Zero(n, n);
    for (Index i = 0; i < n; ++i)
      for (Index j = 0; j < n; ++j)
        if ((i * 7 + j * 3) % 5 < 2) A(i, j) = cplx(u(rng), real ? 0.0 : u(rng));
    Generator G;
    G.assign(A);
    if (real) G.sparse.im.clear();
    for (Index m : {1, 2, 3, 4, 5, 8, 9, 15, 17}) {
      const CMatrix x = random_block(n, m, rng), p = random_block(n, m, rng);
      PlanarBlock px, pp, py;
      px.assign(x);
      pp.assign(p);
      py.resize(n, m);
      for (bool with_prev : {false, true}) {
        backend::sparse_columns_step(G.sparse, px.re.data(), px.im.data(), with_prev ? pp.re.data() : nullptr,
                                     with_prev ? pp.im.data() : nullptr, m, 1.7, 0.3, py.re.data(), py.im.data());
        CMatrix y;
        py.to(y);
        const CMatrix expect = 1.7 * (A * x - 0.3 * x) - (with_prev ? p : CMatrix::Zero(n, m));
        EXPECT_LT((y - expect).cwiseAbs().maxCoeff(), 1e-14) << "m = " << m << ", real " << real;
      }
    }
  }
}

TEST(Chebyshev, SeriesMatchesTheExactExponential) {
  // tau r from 0.05 to ~100 (a step spanning 16 periods of the widest transition), with the
  // exact spectral interval and with a 30 % wider one (the Weyl bound is not tight).
  std::mt19937 rng(7);
  const CMatrix H = random_hermitian(24, 1.0, rng);
  const auto [lo, hi] = spectrum(H);
  const CMatrix X = random_block(24, 3, rng);
  ChebyshevWork work;
  for (double tau : {0.005, 0.1, 1.0, 10.0}) {
    const CMatrix exact = linalg::expm_hermitian(H, tau) * X;
    for (double widen : {0.0, 0.3 * (hi - lo)}) {
      const ChebyshevSeries s = chebyshev_exponential(tau, lo - widen, hi + widen);
      CMatrix Y = X;
      apply_chebyshev(s, H, Y, work);
      EXPECT_LT((Y - exact).cwiseAbs().maxCoeff(), 2e-13) << "tau = " << tau << ", terms " << s.a.size();
    }
  }
  // A multiple of the identity: one term, the phase.
  const ChebyshevSeries one = chebyshev_exponential(2.0, 1.5, 1.5);
  CMatrix Y = X;
  apply_chebyshev(one, 1.5 * CMatrix::Identity(24, 24), Y, work);
  EXPECT_LT((Y - std::polar(1.0, -3.0) * X).cwiseAbs().maxCoeff(), 1e-15);
}

TEST(Chebyshev, AdjointStepsBackAndDifferentiatesTheExponential) {
  std::mt19937 rng(11);
  const Index n = 16;
  const CMatrix H = random_hermitian(n, 2.0, rng);
  const CMatrix E = random_hermitian(n, 1.0, rng);
  const auto [lo, hi] = spectrum(H);
  const double tau = 1.7;
  const ChebyshevSeries s = chebyshev_exponential(tau, lo - 1.0, hi + 1.0);
  const CMatrix psi0 = random_block(n, 2, rng);
  const CMatrix lam1 = random_block(n, 2, rng);
  CMatrix psi = linalg::expm_hermitian(H, tau) * psi0;  // the state after the step
  CMatrix lam = lam1;
  Generator G;
  G.assign(H);
  Entries every;  // M at every entry
  for (Index i = 0; i < n; ++i)
    for (Index j = 0; j < n; ++j) {
      every.row.push_back(i);
      every.col.push_back(j);
    }
  const auto executor = backend::make_cpu_chebyshev_adjoint_executor();
  executor->upload(psi, lam);
  const std::vector<cplx> m = chebyshev_adjoint(s, G, *executor, every);
  executor->download(psi, lam);
  EXPECT_LT((psi - psi0).cwiseAbs().maxCoeff(), 1e-13);
  EXPECT_LT((lam - linalg::expm_hermitian(H, tau).adjoint() * lam1).cwiseAbs().maxCoeff(), 1e-13);
  // <lambda| d exp(-i tau H)[E] |psi0> by central differences of the exact exponential
  // (h = 1e-5: truncation ~h^2 |tau E|^3 ~ 1e-9, rounding ~1e-16 / h ~ 1e-11).
  const double h = 1e-5;
  const CMatrix dG = (linalg::expm_hermitian(H + h * E, tau) - linalg::expm_hermitian(H - h * E, tau)) / (2 * h);
  const cplx fd = (lam1.adjoint() * dG * psi0).trace();
  cplx adj = 0.0;
  for (std::size_t k = 0; k < m.size(); ++k) adj += E(every.row[k], every.col[k]) * m[k];
  EXPECT_LT(std::abs(adj - fd), 1e-8 * std::abs(fd)) << adj << " vs " << fd;
}

Config with_splitting(Config c, Solver solver, Splitting splitting, int steps) {
  c.evolution.solver = solver;
  c.evolution.order = solver == Solver::magnus4 ? 4 : 2;
  c.evolution.splitting = splitting;
  c.evolution.steps = steps;
  return c;
}

CMatrix evolve(const Config& c) {
  Simulator sim(io::evolution_plan(c), 1);
  return sim.evolve().columns;
}

TEST(Chebyshev, SchemeEqualsTheDenseExponentials) {
  // The flux-pulsed transmon-coupler CZ (D = 128, the coupler's cos/sin phi channels) and a
  // driven 3-qubit chain (all 27 columns): splitting chebyshev against dense for magnus4, and
  // trotter chebyshev against expm (both the midpoint rule).
  const Config cz = io::load_config(std::string(QEVOLVE_SOURCE_DIR) + "/examples/cz_transmon_coupler.yaml");
  Config chain = testing::driven_chain(3, 3);
  chain.evolution.initial_states.kind = InitialStates::Kind::all;
  // The CZ at 60 steps: each exponential spans R ~ 45 (some 70 terms), the chain at 200 steps
  // only a few.
  for (const auto& [base, steps] : {std::pair<const Config*, int>{&cz, 60}, {&chain, 200}}) {
    const CMatrix dense = evolve(with_splitting(*base, Solver::magnus4, Splitting::dense, steps));
    const CMatrix cheb = evolve(with_splitting(*base, Solver::magnus4, Splitting::chebyshev, steps));
    EXPECT_LT((cheb - dense).cwiseAbs().maxCoeff(), 1e-10) << steps;
    const CMatrix mid = evolve(with_splitting(*base, Solver::expm, Splitting::terms, steps));
    const CMatrix cheb2 = evolve(with_splitting(*base, Solver::trotter, Splitting::chebyshev, steps));
    EXPECT_LT((cheb2 - mid).cwiseAbs().maxCoeff(), 1e-10) << steps;
  }
}

TEST(Chebyshev, MisuseIsALocatedInputError) {
  const std::string device = "device:\n  qubits:\n    - {name: q0, type: fluxonium, ec: 1, ej: 4, el: 1, flux: 0.5, levels: 3}\n"
                             "pulses:\n  - {qubit: q0, shape: cos, amplitude: 0.05, frequency: 0.58, duration: 20}\n";
  auto message = [&](const std::string& evolution) {
    try {
      (void)io::resolve(io::parse_config(device + evolution, "c.yaml"), io::Purpose::evolve);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(message("evolution: {solver: expm, splitting: chebyshev, steps: 10}\n")
                .find("evolution.splitting: `splitting: chebyshev` applies the exponentials of solver trotter or "
                      "magnus4, but the solver is `expm`"),
            std::string::npos);
  EXPECT_NE(message("evolution: {solver: trotter, splitting: chebyshev, steps: 10, noise: {q0: {t1: 1000}}}\n")
                .find("`splitting: chebyshev` is for closed systems only"),
            std::string::npos);
  EXPECT_NE(message("evolution: {solver: magnus4, splitting: chebyshev, steps: 10, precision: single}\n")
                .find("evolution.precision: precision: single is supported by the split solvers"),
            std::string::npos);
  EXPECT_EQ(message("evolution: {solver: magnus4, splitting: chebyshev, steps: 10}\n"), "accepted");
}

}  // namespace
}  // namespace qevolve::solver
