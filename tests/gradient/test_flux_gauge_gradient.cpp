// Gradients through the moving flux gauge of a tunable transmon (docs/models.md "Flux pulses",
// docs/gradients.md "Flux pulses"): the channels cos(phi), sin(phi) and the gauge's n read the
// flux at the sample and at the edges of its step, so every pulse parameter enters through three
// times and the device keys (flux, ej, asymmetry) through the gauge angle too. Each entry of
// the adjoint gradient against a Richardson central difference (tests/gradient/fd_check.hpp).
#include <gtest/gtest.h>

#include <string>

#include "fd_check.hpp"
#include "qevolve/plan.hpp"
#include "qevolve/config_loader.hpp"
#include "qevolve/gradient.hpp"
#include "qevolve/resolve.hpp"
#include "qevolve/simulator.hpp"

namespace qevolve::testing {
namespace {

// The rampcos's breakpoints (0.96 + 0, 5, 11, 16 ns) lie away from the step edges and the
// Gauss points (dt = 0.15 ns): the gauge reads the flux at the edges, and a breakpoint that a
// difference step moves across an edge is a kink of the objective in the delay, ramp or
// duration (their derivative is one-sided there; docs/models.md "Flux pulses").
// A strongly asymmetric tunable transmon moved by 0.3 flux quanta (gauge angle ~ 0.9 rad on the
// plateau), coupled to a fixed transmon. The piecewise-constant pulse is not 0 at t = 0 and
// t = T: the turns between the moving and the lab gauge at both ends depend on its values,
// on the static flux and on the asymmetry (Simulator::gauge_end_cotangents).
constexpr const char* kGaugeDevice = R"(
device:
  qubits:
    - {name: t0, type: transmon, ec: 0.25, ej: 14.0, asymmetry: 0.55, flux: 0.08, levels: 4,
       optimize: [flux, ej, asymmetry]}
    - {name: t1, type: transmon, ec: 0.22, ej: 12.0, levels: 3}
  couplings:
    - {qubits: [t0, t1], capacitive: 0.03}
pulses:
  - {qubit: t0, operator: flux, shape: rampcos, amplitude: 0.3, duration: 16, ramp: 5, delay: 0.96,
     optimize: [amplitude, delay, ramp, duration]}
  - {qubit: t0, operator: flux, shape: cos, amplitude: 0.05, frequency: 0.3, phase: 0.4, duration: 18,
     optimize: [amplitude, frequency, phase]}
  - {qubit: t0, operator: flux, shape: spline, values: [0.0, 0.04, -0.03, 0.0], duration: 18,
     optimize: [values]}
  - {qubit: t0, operator: flux, shape: piecewise_constant, values: [0.02, -0.01, 0.03], duration: 18,
     optimize: [values]}
  - {qubit: t1, shape: cos, amplitude: 0.03, frequency: 4.0, duration: 18}
evolution: {solver: SOLVER, order: ORDER, steps: 120 NOISE}
target:
  gates: [{gate: CZ, qubits: [t0, t1]}]
  compensation: COMPENSATION
)";

struct GaugeCase {
  const char* solver;
  int order;
  const char* noise;
  const char* compensation;
  const char* name;
};

class FluxGaugeGradient : public ::testing::TestWithParam<GaugeCase> {};

std::string config_text(const GaugeCase& c) {
  std::string text = kGaugeDevice;
  auto put = [&text](const std::string& key, const std::string& value) {
    text.replace(text.find(key), key.size(), value);
  };
  put("SOLVER", c.solver);
  put("ORDER", std::to_string(c.order));
  put("NOISE", c.noise);
  put("COMPENSATION", c.compensation);
  return text;
}

TEST_P(FluxGaugeGradient, AdjointMatchesCentralDifferences) {
  const Config config = io::parse_config(config_text(GetParam()), "flux_gauge_gradient.yaml");
  {  // the gauge moves on t0: its three flux channels read the step's edges
    Config c = config;
    (void)io::resolve(c, io::Purpose::evolve);
    const solver::Simulator sim(io::evolution_plan(c), 1);
    int moving = 0;
    for (const auto& ch : sim.drive().channels()) moving += sim.drive().gauge_moves(ch) ? 1 : 0;
    EXPECT_EQ(moving, 3);
    EXPECT_TRUE(sim.drive().gauge_turned(0.0));  // the end turns are not the identity
    EXPECT_TRUE(sim.drive().gauge_turned(sim.options().duration));
  }
  gradient::GradientProblem problem(io::gradient_plan(config), 1);
  expect_adjoint_matches_fd(problem, std::string("flux gauge ") + GetParam().name);
}

INSTANTIATE_TEST_SUITE_P(Gauge, FluxGaugeGradient,
                         ::testing::Values(GaugeCase{"trotter", 2, "", "vz", "trotter2"},
                                           GaugeCase{"magnus4", 4, "", "vz", "magnus4"},
                                           GaugeCase{"expm", 2, "", "vz", "expm"},
                                           GaugeCase{"trotter", 2, ", noise: {t0: {t1: 300.0, tphi: 500.0}}", "none",
                                                     "open_trotter2"}),
                         [](const auto& tp) { return std::string(tp.param.name); });

}  // namespace
}  // namespace qevolve::testing
