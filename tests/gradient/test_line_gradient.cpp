// Gradients through control lines (docs/lines.md "Gradients"): pulse parameters seen through
// a line, and the line's own parameters (gaussian sigma, highpass tau, exponential amplitude and
// tau, fir taps), against central differences of the same run (fd_check.hpp: tolerance
// max(1e-6 |g|, 1e-9)). A fluxonium's flux pulse through a sampled, pre-distorted line with
// every filter; a tunable transmon's flux pulse through a second line with an fir; a charge
// drive with a carrier through an unsampled line. Closed: trotter 2, magnus4 (terms,
// chebyshev), expm; open: trotter 2 with noise on both qubits.
//
// No sample time lands on a kink of a sampled pulse (the ramps' ends): there f(t_k) is only
// C1 in the ramp or duration, and a central difference has an O(h) error (the adjoint is
// exact either side). The exponential's amplitude is -0.2, not a smaller one: the difference's
// h = 1e-4 max(|v|, 0.05) must keep the rounding of 1 - F (~1e-14) / h below the tolerance's
// 1e-9 floor (with -0.05, h = 5e-6, it reached 1.5e-9 in one environment).
#include <gtest/gtest.h>

#include <string>

#include "fd_check.hpp"
#include "qevolve/plan.hpp"
#include "qevolve/config_loader.hpp"
#include "qevolve/gradient.hpp"

namespace qevolve::testing {
namespace {

constexpr const char* kLineDevice = R"(
device:
  qubits:
    - {name: f0, type: fluxonium, ec: 1.0, ej: 4.0, el: 1.0, flux: 0.47, levels: 4}
    - {name: t1, type: transmon, ec: 0.25, ej: 12.0, asymmetry: 0.4, flux: 0.12, levels: 3}
  couplings:
    - {qubits: [f0, t1], capacitive: 0.03}
lines:
  - name: z0
    sample_rate: 2.4
    predistort: true
    filters:
      - {type: gaussian, sigma: 0.5, optimize: [sigma]}
      - {type: highpass, tau: 40.0, optimize: [tau]}
      - {type: exponential, amplitude: -0.2, tau: 6.0, optimize: [amplitude, tau]}
  - name: z1
    sample_rate: 2.0
    filters:
      - {type: fir, taps: [0.2, 0.7, 0.1], optimize: [taps]}
      - {type: exponential, amplitude: 0.1, tau: 3.0, optimize: [tau]}
  - name: xy
    filters:
      - {type: highpass, tau: 25.0, optimize: [tau]}
pulses:
  - {qubit: f0, operator: flux, shape: rampcos, amplitude: 0.04, duration: 14.3, ramp: 4.3, delay: 1.1,
     line: z0, optimize: [amplitude, ramp]}
  - {qubit: t1, operator: flux, shape: rampcos, amplitude: 0.1, duration: 16.3, ramp: 5.15, delay: 0.3,
     line: z1, optimize: [amplitude, duration]}
  - {qubit: f0, shape: cos, amplitude: 0.03, frequency: 0.6, phase: 0.2, duration: 18, line: xy,
     optimize: [amplitude, phase]}
evolution: {solver: SOLVER, order: ORDER, steps: 90 NOISE}
target:
  gates: [{gate: CZ, qubits: [f0, t1]}]
  compensation: COMPENSATION
)";

struct LineCase {
  const char* solver;
  int order;
  const char* noise;
  const char* compensation;
  const char* name;
};

class LineGradient : public ::testing::TestWithParam<LineCase> {};

TEST_P(LineGradient, AdjointMatchesCentralDifferences) {
  std::string text = kLineDevice;
  auto put = [&text](const std::string& key, const std::string& value) { text.replace(text.find(key), key.size(), value); };
  put("SOLVER", GetParam().solver);
  put("ORDER", std::to_string(GetParam().order));
  put("NOISE", GetParam().noise);
  put("COMPENSATION", GetParam().compensation);
  const Config config = io::parse_config(text, "line_gradient.yaml");
  gradient::GradientProblem problem(io::gradient_plan(config), 2);
  ASSERT_EQ(problem.names().size(), 6U + 9U);  // 6 pulse parameters, 9 line parameters
  expect_adjoint_matches_fd(problem, std::string("lines ") + GetParam().name);
}

INSTANTIATE_TEST_SUITE_P(
    Lines, LineGradient,
    ::testing::Values(LineCase{"trotter, splitting: terms", 2, "", "vz", "trotter2"},
                      LineCase{"magnus4, splitting: terms", 4, "", "vz", "magnus4"},
                      LineCase{"magnus4, splitting: chebyshev", 4, "", "vz", "magnus4_chebyshev"},
                      LineCase{"expm", 2, "", "vz", "expm"},
                      LineCase{"trotter, splitting: terms", 2,
                               ", noise: {f0: {t1: 300.0, tphi: 500.0}, t1: {t1: 400.0}}", "none", "open_trotter2"}),
    [](const auto& tp) { return std::string(tp.param.name); });

}  // namespace
}  // namespace qevolve::testing
