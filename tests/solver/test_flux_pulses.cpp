// Flux pulses (docs/models.md "Flux pulses", docs/device.md "Drive operators"): qevolve's propagators
// against the independent numpy/scipy rebuild of scripts/gen_flux_reference.py
// (data/flux_reference.csv), the split solvers against expm, the coefficient laws against
// their closed forms and finite differences, `operator: number` against its exact phase, the
// locality of the flux terms, and the convergence of the static basis in `levels`.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "qevolve/plan.hpp"
#include "qevolve/config_loader.hpp"
#include "qevolve/device.hpp"
#include "qevolve/error.hpp"
#include "qevolve/flux_drive.hpp"
#include "qevolve/resolve.hpp"
#include "qevolve/simulator.hpp"

namespace qevolve::testing {
namespace {

using solver::Simulator;

double max_abs(const CMatrix& m) { return m.cwiseAbs().maxCoeff(); }

std::string data_dir() { return std::string(QEVOLVE_SOURCE_DIR) + "/data/"; }

/// The rows of data/flux_reference.csv for one case, as a D x D matrix.
CMatrix golden(const std::string& name, Index D) {
  std::ifstream in(data_dir() + "flux_reference.csv");
  EXPECT_TRUE(in.good());
  CMatrix U = CMatrix::Zero(D, D);
  std::string line;
  Index rows = 0;
  while (std::getline(in, line)) {
    if (line.rfind(name + ",", 0) != 0) continue;
    std::replace(line.begin(), line.end(), ',', ' ');
    std::istringstream f(line);
    std::string tag;
    Index i = 0, j = 0;
    double re = 0.0, im = 0.0;
    f >> tag >> i >> j >> re >> im;
    U(i, j) = cplx(re, im);
    ++rows;
  }
  EXPECT_EQ(rows, D * D) << name;
  return U;
}

Config load(const std::string& file) {
  Config c = io::load_config(data_dir() + file);
  (void)io::resolve(c, io::Purpose::evolve);
  return c;
}

CMatrix propagator(Config c, Solver solver, int order, int steps) {
  c.evolution.solver = solver;
  c.evolution.order = order;
  c.evolution.steps = steps;
  const Simulator sim(io::evolution_plan(c), 1);
  return sim.evolve().columns;
}

TEST(FluxPulses, FluxoniumMatchesTheIndependentReference) {
  // Reference: phase-grid fluxonium, H = diag(E) + 2 pi EL f(t) phi, dense midpoint expm; its
  // own grid dependence is 6e-10 (scripts/gen_flux_reference.py), qevolve's converged basis
  // differs from it by as much, so 1e-8 is the acceptance tolerance with margin.
  const Config c = load("flux_fluxonium.yaml");
  const CMatrix U = propagator(c, Solver::expm, 2, 600);
  const double err = max_abs(U - golden("fluxonium", U.rows()));
  std::printf("fluxonium flux pulses vs numpy reference: max |dU| = %.2e\n", err);
  EXPECT_LT(err, 1e-8);
  EXPECT_GT(max_abs(U - CMatrix(U.diagonal().asDiagonal())), 1e-3);  // the pulses do something
}

TEST(FluxPulses, TunableTransmonPairMatchesTheIndependentReference) {
  // Reference: two charge-basis transmons, the SQUID from its two junctions (not the law's
  // formulas), gauge-shifted to the static model, projected on the kept static eigenvectors.
  const Config c = load("flux_transmon_pair.yaml");
  const CMatrix U = propagator(c, Solver::expm, 2, 500);
  const double err = max_abs(U - golden("transmon_pair", U.rows()));
  std::printf("transmon pair flux pulses vs numpy reference: max |dU| = %.2e\n", err);
  EXPECT_LT(err, 1e-8);
  EXPECT_GT(max_abs(U - CMatrix(U.diagonal().asDiagonal())), 1e-3);
}

TEST(FluxPulses, SplitSolversConvergeToExpm) {
  // Trotter (order 2, 4) and magnus4 use the flux terms as local one-mode factors: their
  // difference to expm at equal steps falls with the splitting order.
  for (const char* file : {"flux_fluxonium.yaml", "flux_transmon_pair.yaml"}) {
    const Config c = load(file);
    // Lab frame, levels up to ~15 GHz: the splitting needs ~0.005 ns steps to be asymptotic.
    const int n = 8 * c.evolution.steps;
    const CMatrix ref = propagator(c, Solver::expm, 2, n);
    const double t2 = max_abs(propagator(c, Solver::trotter, 2, n) - ref);
    const double t2h = max_abs(propagator(c, Solver::trotter, 2, 2 * n) - propagator(c, Solver::expm, 2, 2 * n));
    const double t4 = max_abs(propagator(c, Solver::trotter, 4, n) - ref);
    std::printf("%s: trotter2 - expm %.2e (%d steps), %.2e (%d); trotter4 - expm %.2e\n", file, t2, n, t2h, 2 * n, t4);
    EXPECT_NEAR(t2 / t2h, 4.0, 0.3);
    EXPECT_LT(t4, t2);
    // magnus4 against the continuum limit (expm, Richardson from n and 2n steps).
    const CMatrix fine = propagator(c, Solver::expm, 2, 4 * n);
    const CMatrix limit = (4.0 * fine - propagator(c, Solver::expm, 2, 2 * n)) / 3.0;
    const double m4 = max_abs(propagator(c, Solver::magnus4, 4, n) - limit);
    const double m4h = max_abs(propagator(c, Solver::magnus4, 4, 2 * n) - limit);
    std::printf("%s: magnus4 - continuum %.2e (%d steps), %.2e (%d)\n", file, m4, n, m4h, 2 * n);
    EXPECT_LT(m4h, m4 / 8.0);
  }
}

TEST(FluxPulses, FluxTermsAreLocalOneModeFactors) {
  // A 3-mode chain (D = 64): a flux pulse on the middle mode adds one-mode channels only, and
  // the Trotter step's work grows by at most one-mode gates (8 D d flops each), never by a
  // D x D matrix (8 D^2).
  std::string yaml = R"(
device:
  qubits:
    - {name: a, type: transmon, ec: 0.2, ej: 18.0, levels: 4}
    - {name: b, type: transmon, ec: 0.2, ej: 20.0, asymmetry: 0.3, flux: 0.1, levels: 4}
    - {name: c, type: transmon, ec: 0.2, ej: 16.0, levels: 4}
  couplings:
    - {qubits: [a, b], capacitive: 0.01}
    - {qubits: [b, c], capacitive: 0.01}
pulses:
  - {qubit: a, operator: n, shape: cos, amplitude: 0.01, frequency: 5.0, duration: 20}
FLUX
evolution: {solver: trotter, order: 2, steps: 100}
)";
  auto build = [&](const std::string& flux) {
    std::string text = yaml;
    text.replace(text.find("FLUX"), 4, flux);
    const Config c = io::parse_config(text, "chain.yaml");
    (void)io::resolve(c, io::Purpose::evolve);
    return std::make_unique<Simulator>(io::evolution_plan(c), 1);
  };
  const auto plain = build("");
  const auto flux = build("  - {qubit: b, operator: flux, shape: cos, amplitude: 0.1, duration: 20}");
  ASSERT_EQ(flux->drive().channels().size(), 4U);  // n on a; cos(phi), sin(phi) and the gauge's n on b
  for (std::size_t j = 1; j < 4; ++j) EXPECT_EQ(flux->drive().channels()[j].mode, 1);
  EXPECT_EQ(flux->stats().drive_eigendecompositions, 4);
  const double D = 64.0, d = 4.0;
  const double extra = flux->work().flops_per_column_step - plain->work().flops_per_column_step;
  std::printf("trotter2 work per column step: %.0f without, %.0f with the flux pulse (D = 64)\n",
              plain->work().flops_per_column_step, flux->work().flops_per_column_step);
  EXPECT_LE(extra, 6 * 8.0 * D * d);  // the 3 channels, each split into two half steps
}

/// The offset x with the gauge held at the static one (offset 0 at both edges of the step).
device::FluxSample static_gauge(double x) { return {x, 0.0, 0.0, 0.5, 1.0}; }

TEST(FluxPulses, SymmetricSquidIsTheCosineOfHalfTheFlux) {
  // a = 0: the pulsed junction term is -EJ cos(pi (flux + x)) cos(phi), i.e. -EJ |cos(phi_e/2)|
  // cos(phi) while cos(phi_e/2) > 0, continued analytically beyond phi_e = pi; no gauge term.
  device::ModeParams p;
  p.type = ModeType::transmon;
  p.ej = 20.0;
  p.flux = 0.1;
  p.has_asymmetry = true;
  p.asymmetry = 0.0;
  for (double x : {-0.3, 0.05, 0.2, 0.4, 0.45}) {
    const double pulsed = -p.ej * std::cos(kPi * (p.flux + x)) + p.ej * std::cos(kPi * p.flux);
    EXPECT_NEAR(device::law_value(device::DriveLaw::squid_cos, p, device::steady(x)), pulsed, 1e-12) << x;
    EXPECT_EQ(device::law_value(device::DriveLaw::squid_sin, p, device::steady(x)), 0.0) << x;
    EXPECT_EQ(device::law_value(device::DriveLaw::squid_n, p, {x, 0.0, x, 0.5, 0.1}), 0.0) << x;
    EXPECT_EQ(device::gauge_angle(p, x), 0.0);
  }
  // a != 0: smooth through phi_e = pi (x = 0.4 here), where arctan(a tan(phi_e/2)) jumps.
  p.asymmetry = 0.3;
  for (auto law : {device::DriveLaw::squid_cos, device::DriveLaw::squid_sin}) {
    const double below = device::law_value(law, p, static_gauge(0.4 - 1e-9));
    const double above = device::law_value(law, p, static_gauge(0.4 + 1e-9));
    EXPECT_NEAR(below, above, 1e-6);
  }
  // With the gauge held static: EJ_eff(phi_e) cos(phi - delta) - EJ_eff(phi_s) cos(phi),
  // expanded with the arctan form where it holds (|phi_e| < pi).
  const double x = 0.17, xe = kTwoPi * (p.flux + x), xs = kTwoPi * p.flux, a = p.asymmetry;
  const auto ej_eff = [&](double u) { return p.ej * std::sqrt(std::pow(std::cos(u / 2), 2) + a * a * std::pow(std::sin(u / 2), 2)); };
  const double delta = std::atan(a * std::tan(xe / 2)) - std::atan(a * std::tan(xs / 2));
  EXPECT_NEAR(device::law_value(device::DriveLaw::squid_cos, p, static_gauge(x)),
              -(ej_eff(xe) * std::cos(delta) - ej_eff(xs)), 1e-12);
  EXPECT_NEAR(device::law_value(device::DriveLaw::squid_sin, p, static_gauge(x)), -ej_eff(xe) * std::sin(delta), 1e-12);
  // The moving gauge at a constant offset turns the phase out: the junction term is
  // -EJ_eff(phi_e) cos(phi), no sine, no n term; the gauge angle is delta.
  EXPECT_NEAR(device::law_value(device::DriveLaw::squid_cos, p, device::steady(x)), -(ej_eff(xe) - ej_eff(xs)), 1e-12);
  EXPECT_NEAR(device::law_value(device::DriveLaw::squid_sin, p, device::steady(x)), 0.0, 1e-12);
  EXPECT_EQ(device::law_value(device::DriveLaw::squid_n, p, device::steady(x)), 0.0);
  EXPECT_NEAR(device::gauge_angle(p, x), delta, 1e-12);
  // In a step from offset lo to hi the gauge moves by delta(hi) - delta(lo): c_n = -that / (2 pi dt).
  const double lo = 0.1, hi = 0.12, dt = 0.05;
  EXPECT_NEAR(device::law_value(device::DriveLaw::squid_n, p, {0.11, lo, hi, 0.5, dt}),
              -(device::gauge_angle(p, hi) - device::gauge_angle(p, lo)) / (kTwoPi * dt), 1e-12);
}

TEST(FluxPulses, LawDerivativesMatchFiniteDifferences) {
  device::ModeParams p;
  p.type = ModeType::transmon;
  p.ej = 20.0;
  p.flux = 0.13;
  p.el = 0.9;
  p.has_asymmetry = true;
  p.asymmetry = 0.35;
  // A sample inside a step (the moving gauge reads the offset at the step's edges too).
  const device::FluxSample at{0.21, 0.19, 0.235, 0.3, 0.05};
  const double h = 1e-5;
  for (auto law : {device::DriveLaw::squid_cos, device::DriveLaw::squid_sin, device::DriveLaw::squid_n,
                   device::DriveLaw::inductive}) {
    const auto value = [&](const device::ModeParams& q, const device::FluxSample& f) { return device::law_value(law, q, f); };
    const device::LawSlopes slopes = device::law_slopes(law, p, at);
    for (int which = 0; which < 3; ++which) {
      device::FluxSample up = at, down = at;
      double* u = which == 0 ? &up.x : which == 1 ? &up.lo : &up.hi;
      double* d = which == 0 ? &down.x : which == 1 ? &down.lo : &down.hi;
      *u += h;
      *d -= h;
      const double fd = (value(p, up) - value(p, down)) / (2 * h);
      const double slope = which == 0 ? slopes.x : which == 1 ? slopes.lo : slopes.hi;
      EXPECT_NEAR(slope, fd, 1e-7 * std::max(1.0, std::abs(fd))) << static_cast<int>(law) << " " << which;
    }
    const device::FluxSample& x = at;
    for (const char* key : {"ej", "flux", "asymmetry", "el"}) {
      device::ModeParams up = p, down = p;
      double* field = std::string(key) == "ej" ? &up.ej : std::string(key) == "flux" ? &up.flux
                      : std::string(key) == "el" ? &up.el : &up.asymmetry;
      *field += h;
      double* field_down = std::string(key) == "ej" ? &down.ej : std::string(key) == "flux" ? &down.flux
                           : std::string(key) == "el" ? &down.el : &down.asymmetry;
      *field_down -= h;
      const double fdk = (value(up, x) - value(down, x)) / (2 * h);
      EXPECT_NEAR(device::law_partial(law, p, x, key), fdk, 1e-7 * std::max(1.0, std::abs(fdk)))
          << static_cast<int>(law) << " " << key;
    }
  }
}

TEST(FluxPulses, NumberPulseShiftsTheOscillatorPhaseExactly) {
  // f(t) a^dag a commutes with a duffing H0: U = exp(-i 2 pi (E_k T + k int f)) on |k>; the
  // midpoint sum of a full cos envelope is its integral A L / 2 exactly.
  const Config c = io::parse_config(R"(
device:
  qubits:
    - {name: r, type: duffing, frequency: 5.0, anharmonicity: -0.2, levels: 4}
pulses:
  - {qubit: r, operator: number, shape: cos, amplitude: 0.05, duration: 20}
evolution: {solver: trotter, order: 2, steps: 200, initial_states: all}
)", "number.yaml");
  (void)io::resolve(c, io::Purpose::evolve);
  const Simulator sim(io::evolution_plan(c), 1);
  const CMatrix U = sim.evolve().columns;
  const auto& E = sim.device().modes()[0].energies;
  for (Index k = 0; k < 4; ++k) {
    const double phase = kTwoPi * (E(k) * 20.0 + static_cast<double>(k) * 0.05 * 20.0 / 2.0);
    EXPECT_NEAR(std::abs(U(k, k) - std::polar(1.0, -phase)), 0.0, 1e-11) << k;
  }
}

TEST(FluxPulses, FluxoniumLevelsConvergeForARepresentativeExcursion) {
  // docs/models.md "Flux pulses": the static eigenbasis must hold the excursion. A fluxonium at
  // half flux pulsed by 0.1 flux quanta (its f01 moves from 0.58 to ~2 GHz): the computational
  // block of U changes by < 1e-8 from levels L to L + 2 once L suffices.
  auto block = [](int levels) {
    Config c = io::parse_config(R"(
device:
  qubits:
    - {name: q0, type: fluxonium, ec: 1.0, ej: 4.0, el: 1.0, flux: 0.5, levels: 2}
pulses:
  - {qubit: q0, operator: flux, shape: rampcos, amplitude: 0.1, ramp: 5, plateau: 10}
evolution: {solver: expm, steps: 400}
)", "levels.yaml");
    c.device.qubits[0].levels = levels;
    (void)io::resolve(c, io::Purpose::evolve);
    const Simulator sim(io::evolution_plan(c), 1);
    return CMatrix(sim.evolve().columns.topRows(2));
  };
  double previous = 1.0;
  for (int L = 4; L <= 14; L += 2) {
    const double change = max_abs(block(L + 2) - block(L));
    std::printf("levels %d -> %d: max |dU_comp| = %.2e\n", L, L + 2, change);
    previous = change;
  }
  EXPECT_LT(previous, 1e-8);
}

TEST(FluxPulses, MisuseIsALocatedInputError) {
  // The resolution stage (and so `qevolve check`) refuses what a flux or number pulse cannot
  // be, at the offending key (tests/cli/test_cli_check.cpp covers the operator itself).
  const std::string device = R"(
device:
  qubits:
    - {name: t0, type: transmon, ec: 0.2, ej: 15.0, asymmetry: 0.2, levels: 3}
    - {name: t1, type: transmon, ec: 0.2, ej: 15.0, levels: 3}
    - {name: r, type: resonator, frequency: 7.0, levels: 3}
pulses:
)";
  const std::pair<const char*, const char*> cases[] = {
      {"  - {qubit: t0, operator: flux, shape: cos, amplitude: auto, angle: 3.14, duration: 20}\n",
       "bad.yaml:8:45: pulses[0].amplitude: `amplitude: auto` is for drives of a rotation angle, not `operator: flux`"},
      {"  - {qubit: t0, operator: flux, shape: cos, amplitude: 0.1, frequency: auto, duration: 20}\n",
       "bad.yaml:8:61: pulses[0].frequency: `frequency: auto` is for qubit drives, not `operator: flux`"},
      {"  - {qubit: t0, operator: flux, shape: cos, amplitude: 0.1, duration: 20, crosstalk: {t1: 0.1}}\n",
       "pulses[0].crosstalk.t1: mode `t1` has no operator `flux` for crosstalk (expected a fluxonium or a transmon with `asymmetry`)"},
      {"  - {qubit: r, operator: number, shape: cos, amplitude: 0.1, duration: 20, crosstalk: {t1: 0.1}}\n",
       "pulses[0].crosstalk.t1: mode `t1` has no operator `number` for crosstalk (expected a resonator or duffing mode)"},
      {"  - {qubit: r, operator: flux, shape: cos, amplitude: 0.1, duration: 20}\n",
       "pulses[0].operator: mode `r` is a resonator: it has no flux to pulse (expected x | y | number)"},
  };
  for (const auto& [pulse, message] : cases) {
    try {
      const Config c = io::parse_config(device + pulse, "bad.yaml");
      (void)io::resolve(c, io::Purpose::evolve);
      ADD_FAILURE() << "accepted: " << pulse;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace qevolve::testing
