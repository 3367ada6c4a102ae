// d(1 - F)/d(theta) of GradientProblem against central finite differences of the same run
// (issue 4, acceptance 1; docs/gradients.md): every parameter type (pulse amplitude,
// frequency, phase, delay, duration, ramp, sigma, c, DRAG lambda, piecewise-constant and spline
// values; device EC, EJ, EL, flux; coupling J_C, J_L; compensation angles) on a 3-qubit chain
// with 3 levels, for trotter orders 1, 2, 4, expm and magnus4 (terms, dense, chebyshev), with vz compensation re-optimised at
// every evaluation (envelope theorem), in the product and in the dressed basis with the
// rotating frame.
//
// Open systems (issue 5): the same parameter types plus T1 and Tphi on a 2-qubit chain with 3
// levels and noise on both qubits, through the checkpointed Lindblad adjoint, for trotter
// orders 1, 2, 4 (terms) and 2 (bonds), compensation none (the open channel has no
// compensation yet), product basis, lab frame.
//
// Couplers: the transmon_coupler_1d pair (coupler held in 0, d = 4) with pulses on a qubit and
// on the coupler, trainable coupler and qubit parameters and a qubit-coupler coupling, closed
// (trotter 2, magnus4) and open (trotter 2, noise on the coupler too). Its carriers are at 5-6.5
// GHz, 10x those of the chain: with the same relative h the O(h^4) truncation of the
// extrapolated difference (~(2 pi f T)^5 h^4) would reach 1e-3 of a frequency derivative, so it
// takes h = 1e-5 max(|v|, 0.05) (noise of re-diagonalising: ~1e-14 / 3e-4 for EJ = 30 GHz).
//
// Tolerance: docs/reference.md "Gradients", max(1e-6 |g|, 1e-9). The finite difference is Richardson-extrapolated
// from central differences with h and 2h, h = 1e-4 max(|v|, 0.05): truncation O(h^4), and the
// noise of re-diagonalising (device parameters, ~1e-14) or re-optimising the compensation
// angles is divided by h >= 5e-6 only, so both stay below ~1e-9.
//
// Flux pulses (issue 20): every flux-pulse parameter and the static flux of a fluxonium and a
// tunable transmon, trotter 2, magnus4 and expm (kFluxDevice below).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "fd_check.hpp"
#include "qevolve/plan.hpp"
#include "qevolve/config_loader.hpp"
#include "qevolve/gradient.hpp"

namespace qevolve::testing {
namespace {

constexpr const char* kChain = R"(
device:
  preset: mpc_fluxonium_1d
  preset_args: {qubits: 3, levels: 3}
  qubits:
    - {name: q0, optimize: [ec, ej, el, flux]}
    - {name: q1, optimize: [el]}
  couplings:
    - {qubits: [q0, q1], capacitive: 0.02, inductive: -0.002, optimize: [capacitive, inductive]}
pulses:
  - {qubit: q0, shape: rampcos, amplitude: 0.05, frequency: 0.52, phase: 0.3, duration: 16,
     ramp: 4, delay: 2, optimize: [amplitude, frequency, phase, delay, ramp, duration]}
  - {qubit: q1, shape: drag, base: gaussian, amplitude: 0.04, frequency: 0.6, phase: -0.4,
     duration: 18, sigma: 4, lambda: 0.3, optimize: [amplitude, sigma, lambda]}
  - {qubit: q2, shape: piecewise_constant, values: [0.01, -0.02, 0.03, 0.015], frequency: 0.67,
     duration: 20, optimize: [values]}
  - {qubit: q2, shape: spline, values: [0.0, 0.02, -0.01, 0.0], frequency: 0.7, phase: 1.0,
     duration: 20, optimize: [values]}
  - {qubit: q1, shape: tanh, amplitude: 0.02, frequency: 0.55, duration: 20, sigma: 3, c: 2,
     optimize: [sigma, c]}
evolution: {solver: SOLVER, order: ORDER, steps: 80, basis: BASIS, frame: FRAME}
target:
  gates: [{gate: X, qubits: [q0]}]
  compensation: COMPENSATION
  compensation_trainable: TRAINABLE
)";

struct Case {
  const char* solver;
  int order;
  const char* basis;
  const char* frame;
  const char* compensation;
  bool trainable;
  const char* name;
};

std::string config_text(const Case& c) {
  std::string s = kChain;
  auto put = [&s](const std::string& key, const std::string& value) {
    s.replace(s.find(key), key.size(), value);
  };
  put("SOLVER", c.solver);
  put("ORDER", std::to_string(c.order));
  put("BASIS", c.basis);
  put("FRAME", c.frame);
  put("COMPENSATION", c.compensation);
  put("TRAINABLE", c.trainable ? "true" : "false");
  return s;
}

class Gradient : public ::testing::TestWithParam<Case> {};

TEST_P(Gradient, AdjointMatchesCentralDifferences) {
  const Config config = io::parse_config(config_text(GetParam()), "gradient.yaml");
  gradient::GradientProblem problem(io::gradient_plan(config), 1);
  expect_adjoint_matches_fd(problem, GetParam().name);
}

constexpr const char* kOpenChain = R"(
device:
  preset: mpc_fluxonium_1d
  preset_args: {qubits: 2, levels: 3}
  qubits:
    - {name: q0, optimize: [ec, ej, el, flux]}
  couplings:
    - {qubits: [q0, q1], capacitive: 0.02, inductive: -0.002, optimize: [capacitive, inductive]}
pulses:
  - {qubit: q0, shape: rampcos, amplitude: 0.05, frequency: 0.52, phase: 0.3, duration: 16,
     ramp: 4, delay: 2, optimize: [amplitude, frequency, phase, delay, ramp, duration]}
  - {qubit: q1, shape: drag, base: gaussian, amplitude: 0.04, frequency: 0.6, phase: -0.4,
     duration: 18, sigma: 4, lambda: 0.3, optimize: [amplitude, sigma, lambda]}
  - {qubit: q1, shape: piecewise_constant, values: [0.01, -0.02, 0.03, 0.015], frequency: 0.67,
     duration: 20, optimize: [values]}
  - {qubit: q0, shape: spline, values: [0.0, 0.02, -0.01, 0.0], frequency: 0.7, phase: 1.0,
     duration: 20, optimize: [values]}
  - {qubit: q1, shape: tanh, amplitude: 0.02, frequency: 0.55, duration: 20, sigma: 3, c: 2,
     optimize: [sigma, c]}
evolution: {solver: SOLVER, order: ORDER, steps: 80,
            noise: {q0: {t1: 300.0, tphi: 500.0, optimize: [t1, tphi]}, q1: {t1: 400.0, optimize: [t1]}}}
target:
  gates: [{gate: X, qubits: [q0]}]
  compensation: COMPENSATION
)";

class OpenGradient : public ::testing::TestWithParam<Case> {};

TEST_P(OpenGradient, AdjointMatchesCentralDifferences) {
  std::string text = kOpenChain;
  auto put = [&text](const std::string& key, const std::string& value) { text.replace(text.find(key), key.size(), value); };
  put("SOLVER", GetParam().solver);
  put("ORDER", std::to_string(GetParam().order));
  put("COMPENSATION", GetParam().compensation);
  const Config config = io::parse_config(text, "open_gradient.yaml");
  gradient::GradientProblem problem(io::gradient_plan(config), 2);
  ASSERT_EQ(problem.evaluate(false).superoperator.rows(), 16);
  expect_adjoint_matches_fd(problem, std::string("open ") + GetParam().name);
}

// Couplers (docs/device.md "Qubits and couplers"): the transmon_coupler_1d pair, whose coupler
// is held in 0 (d = 4, two qubits' compensation angles), with trainable pulses on a qubit and on
// the coupler, the coupler's EC and EJ, a qubit's EJ and a qubit-coupler coupling; closed
// (trotter 2, magnus4) and open (noise on a qubit and on the coupler: the channel block is
// d^2 = 16 inputs).
constexpr const char* kCouplerPair = R"(
device:
  preset: transmon_coupler_1d
  preset_args: {qubits: 2, levels: 3, coupler_levels: 3}
  qubits:
    - {name: c0, optimize: [ec, ej]}
    - {name: q1, optimize: [ej]}
  couplings:
    - {qubits: [q0, c0], capacitive: 0.122, optimize: [capacitive]}
pulses:
  - {qubit: q0, shape: cos, amplitude: 0.02, frequency: 5.1, phase: 0.2, duration: 20,
     optimize: [amplitude, frequency, phase]}
  - {qubit: c0, shape: gaussian, amplitude: 0.03, frequency: 6.5, duration: 20, sigma: 4,
     optimize: [amplitude, frequency, sigma]}
evolution: {solver: SOLVER, order: ORDER, steps: 100NOISE}
target:
  gates: [{gate: CZ, qubits: [q0, q1]}]
  compensation: COMPENSATION
)";

class CouplerGradient : public ::testing::TestWithParam<Case> {};

TEST_P(CouplerGradient, AdjointMatchesCentralDifferences) {
  std::string text = kCouplerPair;
  auto put = [&text](const std::string& key, const std::string& value) { text.replace(text.find(key), key.size(), value); };
  const bool open = std::string(GetParam().basis) == "open";
  put("SOLVER", GetParam().solver);
  put("ORDER", std::to_string(GetParam().order));
  put("NOISE", open ? ", noise: {q0: {t1: 300.0}, c0: {t1: 200.0, tphi: 400.0}}" : "");
  put("COMPENSATION", GetParam().compensation);
  const Config config = io::parse_config(text, "coupler_gradient.yaml");
  gradient::GradientProblem problem(io::gradient_plan(config), 2);
  const gradient::Evaluation ev = problem.evaluate(false);
  if (open)
    EXPECT_EQ(ev.superoperator.rows(), 16);  // d^2: the coupler stays in 0
  else
    EXPECT_EQ(ev.unitary.rows(), 4);
  expect_adjoint_matches_fd(problem, std::string("coupler ") + GetParam().name, 1e-5);
}

INSTANTIATE_TEST_SUITE_P(
    Couplers, CouplerGradient,
    ::testing::Values(Case{"trotter, splitting: terms", 2, "product", "lab", "vz", false, "trotter2_vz"},
                      Case{"magnus4, splitting: terms", 4, "product", "lab", "vz", false, "magnus4_vz"},
                      Case{"trotter, splitting: terms", 2, "open", "lab", "none", false, "open_trotter2"}),
    [](const auto& tp) { return std::string(tp.param.name); });

// splitting: chebyshev on the coupler pair: its 5-6.5 GHz carriers need h = 1e-5 max(|v|, 0.05)
// (above), where the finite difference divides the forward pass's rounding (~1e-14 in 1 - F for
// the series' ~30 products per exponential) by h ~ 2e-6: a noise floor of ~5e-9, above the 1e-9
// the check allows. The series is therefore checked against splitting: dense, whose adjoint
// differentiates the same discretisation exactly and passes the finite-difference check above
// (magnus4 dense: the Solvers suite): they agree to 1e-8 relative (the series is cut at 1e-14
// per exponential). The chain and flux suites check chebyshev against finite differences.
TEST(CouplerGradient, ChebyshevEqualsTheDenseAdjoint) {
  auto gradient_of = [](const char* solver) {
    std::string text = kCouplerPair;
    auto put = [&text](const std::string& key, const std::string& value) { text.replace(text.find(key), key.size(), value); };
    put("SOLVER", solver);
    put("ORDER", "4");
    put("NOISE", "");
    put("COMPENSATION", "vz");
    gradient::GradientProblem problem(io::gradient_plan(io::parse_config(text, "coupler_gradient.yaml")), 1);
    return problem.evaluate(true);
  };
  const gradient::Evaluation cheb = gradient_of("magnus4, splitting: chebyshev");
  const gradient::Evaluation dense = gradient_of("magnus4, splitting: dense");
  EXPECT_NEAR(cheb.infidelity, dense.infidelity, 1e-12);
  ASSERT_EQ(cheb.gradient.size(), dense.gradient.size());
  double worst = 0.0;
  for (Index i = 0; i < dense.gradient.size(); ++i) {
    EXPECT_NEAR(cheb.gradient(i), dense.gradient(i), 1e-8 * std::max(std::abs(dense.gradient(i)), 1e-3)) << i;
    worst = std::max(worst, std::abs(cheb.gradient(i) - dense.gradient(i)) / std::max(std::abs(dense.gradient(i)), 1e-3));
  }
  std::printf("[ gradient ] coupler magnus4 chebyshev vs dense: %lld parameters, worst relative difference %.2e\n",
              static_cast<long long>(dense.gradient.size()), worst);
}

// Flux pulses (docs/gradients.md "Flux pulses"): a fluxonium and a tunable transmon, each with
// flux pulses (baseband and modulated; a piecewise-constant one with crosstalk onto the other
// mode, so the transmon's law sees the sum of two sources), and a duffing mode with an
// `operator: number` spline. Every pulse parameter kind, and the static flux (plus EL, EJ and
// the asymmetry, which the laws read) trainable; the chain rule runs through EJ_eff and p0.
constexpr const char* kFluxDevice = R"(
device:
  qubits:
    - {name: f0, type: fluxonium, ec: 1.0, ej: 4.0, el: 1.0, flux: 0.47, levels: 4, optimize: [flux, el]}
    - {name: t1, type: transmon, ec: 0.25, ej: 12.0, asymmetry: 0.4, flux: 0.12, levels: 3,
       optimize: [flux, ej, asymmetry]}
    - {name: r2, type: duffing, frequency: 4.1, anharmonicity: -0.25, levels: 3}
  couplings:
    - {qubits: [f0, t1], capacitive: 0.03}
    - {qubits: [t1, r2], capacitive: 0.02}
pulses:
  - {qubit: f0, operator: flux, shape: rampcos, amplitude: 0.04, duration: 16, ramp: 4, delay: 1,
     optimize: [amplitude, delay, ramp, duration]}
  - {qubit: t1, operator: flux, shape: cos, amplitude: 0.15, frequency: 0.3, phase: 0.4, duration: 18,
     optimize: [amplitude, frequency, phase]}
  - {qubit: f0, operator: flux, shape: piecewise_constant, values: [0.01, -0.02, 0.015], duration: 18,
     crosstalk: {t1: 0.5}, optimize: [values]}
  - {qubit: r2, operator: number, shape: spline, values: [0.0, 0.05, -0.03, 0.0], duration: 18,
     optimize: [values]}
  - {qubit: f0, shape: cos, amplitude: 0.03, frequency: 0.6, duration: 18}
evolution: {solver: SOLVER, order: ORDER, steps: 90}
target:
  gates: [{gate: CZ, qubits: [f0, t1]}]
  compensation: vz
)";

class FluxGradient : public ::testing::TestWithParam<Case> {};

TEST_P(FluxGradient, AdjointMatchesCentralDifferences) {
  std::string text = kFluxDevice;
  auto put = [&text](const std::string& key, const std::string& value) {
    text.replace(text.find(key), key.size(), value);
  };
  put("SOLVER", GetParam().solver);
  put("ORDER", std::to_string(GetParam().order));
  const Config config = io::parse_config(text, "flux_gradient.yaml");
  gradient::GradientProblem problem(io::gradient_plan(config), 1);
  expect_adjoint_matches_fd(problem, std::string("flux ") + GetParam().name);
}

INSTANTIATE_TEST_SUITE_P(
    Flux, FluxGradient,
    ::testing::Values(Case{"trotter, splitting: terms", 2, "product", "lab", "vz", false, "trotter2"},
                      Case{"magnus4, splitting: terms", 4, "product", "lab", "vz", false, "magnus4"},
                      Case{"expm", 2, "product", "lab", "vz", false, "expm"},
                      Case{"magnus4, splitting: chebyshev", 4, "product", "lab", "vz", false, "magnus4_chebyshev"}),
    [](const auto& tp) { return std::string(tp.param.name); });

INSTANTIATE_TEST_SUITE_P(
    Lindblad, OpenGradient,
    ::testing::Values(Case{"trotter, splitting: terms", 1, "product", "lab", "none", false, "trotter1"},
                      Case{"trotter, splitting: terms", 2, "product", "lab", "none", false, "trotter2"},
                      Case{"trotter, splitting: terms", 4, "product", "lab", "none", false, "trotter4"},
                      Case{"trotter, splitting: bonds", 2, "product", "lab", "none", false, "trotter2_bonds"},
                      Case{"trotter, splitting: terms", 2, "product", "lab", "vz", false, "trotter2_vz"},
                      Case{"trotter, splitting: terms", 2, "product", "lab", "single_qubit", false,
                           "trotter2_single_qubit"}),
    [](const auto& tp) { return std::string(tp.param.name); });

INSTANTIATE_TEST_SUITE_P(
    Solvers, Gradient,
    ::testing::Values(Case{"trotter, splitting: terms", 1, "product", "lab", "vz", false, "trotter1"},
                      Case{"trotter, splitting: terms", 2, "product", "lab", "vz", false, "trotter2"},
                      Case{"trotter, splitting: terms", 4, "product", "lab", "vz", false, "trotter4"},
                      Case{"expm", 2, "product", "lab", "vz", false, "expm"},
                      Case{"magnus4, splitting: terms", 4, "product", "lab", "vz", false, "magnus4"},
                      Case{"magnus4, splitting: dense", 4, "product", "lab", "vz", false,
                           "magnus4_dense"},
                      Case{"magnus4, splitting: chebyshev", 4, "product", "lab", "vz", false,
                           "magnus4_chebyshev"},
                      Case{"trotter, splitting: bonds", 2, "product", "lab", "vz", false, "trotter2_bonds"},
                      Case{"magnus4, splitting: bonds", 4, "product", "lab", "vz", false, "magnus4_bonds"},
                      Case{"trotter, splitting: terms", 2, "dressed", "rotating", "vz", false, "trotter2_dressed_rotating"},
                      Case{"expm", 2, "product", "rotating", "none", false, "expm_rotating_none"},
                      Case{"trotter, splitting: terms", 2, "product", "lab", "single_qubit", true,
                           "trotter2_trainable_single_qubit"}),
    [](const auto& tp) { return std::string(tp.param.name); });

}  // namespace
}  // namespace qevolve::testing
