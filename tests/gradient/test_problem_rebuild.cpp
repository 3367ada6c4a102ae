// GradientProblem rebuilds its simulator when a device parameter moves (the device is rebuilt
// from the plan's resolved device on the first build's internal bases). The rebuild keeps the
// simulator's current state: its step count (set by steps: auto or optimize's certification)
// and its drive, so the order of set_steps and set_values does not matter.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "qevolve/config_loader.hpp"
#include "qevolve/gradient.hpp"
#include "qevolve/plan.hpp"
#include "qevolve/simulator.hpp"

namespace qevolve::testing {
namespace {

constexpr const char* kPair = R"(
device:
  preset: mpc_fluxonium_1d
  preset_args: {qubits: 2, levels: 3}
  qubits:
    - {name: q0, optimize: [ec]}
pulses:
  - {qubit: q0, shape: rampcos, amplitude: 0.05, frequency: 0.52, duration: 16, ramp: 4, optimize: [amplitude]}
evolution: {solver: trotter, steps: 80}
target:
  gates: [{gate: X, qubits: [q0]}]
)";

Index slot_of(const gradient::GradientProblem& p, const std::string& name) {
  const std::vector<std::string> names = p.names();
  const auto it = std::find(names.begin(), names.end(), name);
  EXPECT_NE(it, names.end()) << name;
  return static_cast<Index>(it - names.begin());
}

TEST(ProblemRebuild, ADeviceChangeKeepsTheStepCount) {
  const Config config = io::parse_config(kPair, "rebuild.yaml");
  gradient::GradientProblem steps_first(io::gradient_plan(config), 1);
  gradient::GradientProblem values_first(io::gradient_plan(config), 1);
  RVector x = steps_first.values();
  x(slot_of(steps_first, "device.qubits[q0].ec")) += 1e-3;  // the device moves: a rebuild

  steps_first.set_steps(160);
  steps_first.set_values(x);
  values_first.set_values(x);
  values_first.set_steps(160);
  EXPECT_EQ(steps_first.simulator().options().steps, 160) << "the rebuild kept the step count";
  const gradient::Evaluation a = steps_first.evaluate(true);
  const gradient::Evaluation b = values_first.evaluate(true);
  EXPECT_EQ(a.infidelity, b.infidelity) << "set_steps and set_values commute";
  ASSERT_EQ(a.gradient.size(), b.gradient.size());
  for (Index i = 0; i < a.gradient.size(); ++i) EXPECT_EQ(a.gradient(i), b.gradient(i)) << i;
}

}  // namespace
}  // namespace qevolve::testing
