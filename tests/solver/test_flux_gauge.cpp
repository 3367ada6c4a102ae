// The moving flux gauge of a tunable transmon (docs/models.md "Flux pulses"): qevolve's
// computational block at a few kept levels against the converged block R of
// data/flux_convergence.csv (scripts/gen_flux_reference.py --convergence: the lab,
// symmetric-gauge SQUID from its two junctions in the full charge basis, the same midpoint
// steps). A tunable transmon alone and a tunable coupler between two fixed transmons, flux
// excursions 0.1 to 0.4 flux quanta at asymmetries 0.1, 0.3 and 0.6, and a pulse that is not 0 at
// either end (the turns between the moving and the lab gauge).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "qevolve/plan.hpp"
#include "qevolve/config_loader.hpp"
#include "qevolve/resolve.hpp"
#include "qevolve/simulator.hpp"

namespace qevolve::testing {
namespace {

using solver::Simulator;

/// Every block of data/flux_convergence.csv by case name.
std::map<std::string, CMatrix> converged_blocks() {
  std::ifstream in(std::string(QEVOLVE_SOURCE_DIR) + "/data/flux_convergence.csv");
  EXPECT_TRUE(in.good());
  std::map<std::string, std::map<std::pair<int, int>, cplx>> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line.rfind("case,", 0) == 0) continue;
    std::replace(line.begin(), line.end(), ',', ' ');
    std::istringstream f(line);
    std::string name;
    int i = 0, j = 0;
    double re = 0.0, im = 0.0;
    f >> name >> i >> j >> re >> im;
    rows[name][{i, j}] = cplx(re, im);
  }
  std::map<std::string, CMatrix> out;
  for (const auto& [name, entries] : rows) {
    const int d = static_cast<int>(std::lround(std::sqrt(static_cast<double>(entries.size()))));
    CMatrix R(d, d);
    for (const auto& [ij, v] : entries) R(ij.first, ij.second) = v;
    out[name] = R;
  }
  return out;
}

/// (Tr(M M^dag) + |Tr M|^2) / (d (d + 1)), M = R^dag B.
double fidelity(const CMatrix& R, const CMatrix& B) {
  const CMatrix M = R.adjoint() * B;
  const double d = static_cast<double>(R.rows());
  return ((M * M.adjoint()).trace().real() + std::norm(M.trace())) / (d * (d + 1.0));
}

std::string fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

/// The YAML of a case of scripts/gen_flux_reference.py convergence_cases() at `levels`.
std::string case_yaml(const std::string& name, int levels) {
  const bool coupler = name.rfind("coupler", 0) == 0, ends = name.rfind("ends", 0) == 0;
  const double a = std::stod(name.substr(name.find("_a") + 2));
  const std::string flux_pulse =
      ends ? "{qubit: t, operator: flux, shape: spline, values: [0.15, 0.3, 0.2, 0.25], duration: 25}"
           : "{qubit: t, operator: flux, shape: rampcos, amplitude: " + name.substr(name.find("_x") + 2) +
                 ", ramp: 10, plateau: 20}";
  const std::string tunable = "{name: t, type: transmon, ec: 0.2, ej: " + std::string(coupler ? "60.0" : "20.0") +
                              ", asymmetry: " + fmt(a) + ", flux: 0.0, levels: " + std::to_string(levels) +
                              (coupler ? ", role: coupler}" : "}");
  std::string yaml = "device:\n  qubits:\n";
  if (coupler) {
    yaml += "    - {name: q0, type: transmon, ec: 0.2, ej: 16.0, levels: 3}\n    - " + tunable +
            "\n    - {name: q1, type: transmon, ec: 0.2, ej: 13.0, levels: 3}\n"
            "  couplings:\n    - {qubits: [q0, t], capacitive: 0.04}\n    - {qubits: [t, q1], capacitive: 0.04}\n"
            "    - {qubits: [q0, q1], capacitive: 0.004}\n";
  } else {
    yaml += "    - " + tunable + "\n";
  }
  yaml += "pulses:\n  - " + flux_pulse + "\nevolution: {solver: expm, steps: " + std::string(ends ? "500" : "800") + "}\n";
  return yaml;
}

/// qevolve's computational block of a case at `levels` of the tunable mode.
CMatrix block(const std::string& name, int levels) {
  const Config c = io::parse_config(case_yaml(name, levels), name + ".yaml");
  (void)io::resolve(c, io::Purpose::evolve);
  const Simulator sim(io::evolution_plan(c), 1);
  const CMatrix cols = sim.evolve().columns;
  const std::vector<Index> comp = sim.device().computational_indices();
  CMatrix B(cols.cols(), cols.cols());
  for (Index i = 0; i < B.rows(); ++i) B.row(i) = cols.row(comp[static_cast<std::size_t>(i)]);
  return B;
}

TEST(FluxGauge, LevelsConvergeToTheChargeBasisReference) {
  // |dF| = |F(R, B) - F(R, R)| (R leaks: F(R, R) < 1) and max |B - R|. Five kept levels hold
  // excursions that keep EJ_eff above ~0.6 EJ (the gauge removes the phase shift; what is left
  // is the change of EJ_eff, which the static basis represents less well the larger it is);
  // eight hold every case to |dF| < 2e-3. max |B - R| at 12 levels is the midpoint rule's
  // O(dt^2) difference between the two gauges (up to 1e-2 for the coupler at a = 0.6, 0.4 flux
  // quanta, 800 steps; it falls 4x per halved step), |dF| at 12 levels likewise (<= 4e-5).
  const auto blocks = converged_blocks();
  ASSERT_EQ(blocks.size(), 19U);
  std::printf("%18s | |dF| and max|dU_comp| at 5, 8, 12 levels of the tunable mode\n", "case");
  for (const auto& [name, R] : blocks) {
    double dF[3], dU[3];
    const int levels[3] = {5, 8, 12};
    for (int k = 0; k < 3; ++k) {
      const CMatrix B = block(name, levels[k]);
      dF[k] = std::abs(fidelity(R, B) - fidelity(R, R));
      dU[k] = (B - R).cwiseAbs().maxCoeff();
    }
    std::printf("%18s | %.1e %.1e %.1e | %.1e %.1e %.1e\n", name.c_str(), dF[0], dF[1], dF[2], dU[0], dU[1], dU[2]);
    EXPECT_LT(dF[1], 2e-3) << name;
    EXPECT_LT(dF[2], 1e-4) << name;
    EXPECT_LT(dU[2], 2e-2) << name;
    const bool small = name.find("_x0.1") != std::string::npos || name.find("_x0.2") != std::string::npos ||
                       name == "single_a0.6_x0.3";
    if (small) {
      EXPECT_LT(dF[0], 2e-3) << name;
    }
  }
}

TEST(FluxGauge, TracedStatesAreInTheLabGauge) {
  // A pulse that is not 0 at either end: the scheme's state is turned at t = 0 and T and at each
  // traced boundary; the boundaries 0 and N show the input and the output columns themselves.
  const Config c = io::parse_config(case_yaml("ends_a0.3", 6), "ends.yaml");
  (void)io::resolve(c, io::Purpose::evolve);
  const Simulator sim(io::evolution_plan(c), 1);
  ASSERT_TRUE(sim.drive().gauge_turned(0.0));
  ASSERT_TRUE(sim.drive().gauge_turned(sim.options().duration));
  const int N = sim.options().steps;
  const CMatrix psi0 = sim.states().initial_columns();
  std::map<int, CMatrix> seen;
  solver::StepObserver observe;
  observe.steps = {0, N / 2, N};
  observe.state = [&seen](int step, const CMatrix& state) { seen[step] = state; };
  const CMatrix out = sim.evolve_product(psi0, {}, observe);
  ASSERT_EQ(seen.size(), 3U);
  EXPECT_LT((seen[0] - psi0).cwiseAbs().maxCoeff(), 1e-14);
  EXPECT_LT((seen[N] - out).cwiseAbs().maxCoeff(), 1e-14);
  EXPECT_LT((out - sim.evolve_product(psi0)).cwiseAbs().maxCoeff(), 1e-14);
}

TEST(FluxGauge, LastStepEndsAtTExactly) {
  // 302 * (25 / 302) = 25 + 4e-15: the last step's upper edge computed as (s + 1) dt lay past T,
  // where the pulse reads 0, so the last step moved the gauge to 0 while the turn back at T used
  // the pulse's end value (0.25 flux quanta): the output jumped by 0.48 against 300 or 301 steps.
  // Now the last step ends at T exactly and the propagators differ by the steps' O(dt^2) only;
  // the traced state at the last boundary (turned back at step * dt) had the same fault.
  const auto columns = [](int steps) {
    Config c = io::parse_config(case_yaml("ends_a0.3", 6), "ends.yaml");
    c.evolution.steps = steps;
    (void)io::resolve(c, io::Purpose::evolve);
    const Simulator sim(io::evolution_plan(c), 1);
    EXPECT_EQ(sim.drive().step_edges(sim.options().duration).second, sim.options().duration);
    EXPECT_EQ(sim.drive().step_edges(0.0).first, 0.0);
    // A traced state at the last boundary is turned back at T too: it is the output.
    const CMatrix psi0 = sim.states().initial_columns();
    CMatrix last;
    solver::StepObserver observe;
    observe.steps = {steps};
    observe.state = [&last](int, const CMatrix& state) { last = state; };
    const CMatrix out = sim.evolve_product(psi0, {}, observe);
    EXPECT_LT((last - out).cwiseAbs().maxCoeff(), 1e-14) << steps << " steps";
    return out;
  };
  ASSERT_GT(302 * (25.0 / 302), 25.0);
  ASSERT_EQ(300 * (25.0 / 300), 25.0);
  const CMatrix U300 = columns(300), U302 = columns(302);
  const double diff = (U302 - U300).cwiseAbs().maxCoeff();
  std::printf("max |U(302 steps) - U(300 steps)| = %.2e\n", diff);
  EXPECT_LT(diff, 1e-4);
}

}  // namespace
}  // namespace qevolve::testing
