// Gradient cost against the forward run (issue 4, acceptance 3): the standard workload with
// amplitude, frequency and phase of every pulse trainable, no compensation. "forward" is
// GradientProblem::evaluate(false) (evolution + fidelity); "gradient" is evaluate(true)
// (the same plus the adjoint pass). The ratio gradient / forward is the figure to quote.
#include <benchmark/benchmark.h>

#include "qevolve/plan.hpp"
#include "qevolve/gradient.hpp"
#include "qevolve/workloads.hpp"

namespace {

qevolve::Config trainable_workload(int qubits, int steps) {
  qevolve::Config c = qevolve::commands::standard_workload(qubits, steps);
  for (auto& p : c.pulses) p.optimize = {"amplitude", "frequency", "phase"};
  return c;
}

void BM_Evaluate(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const bool with_gradient = state.range(1) != 0;
  const int threads = static_cast<int>(state.range(2));
  const int steps = 200;
  qevolve::gradient::GradientProblem problem(qevolve::io::gradient_plan(trainable_workload(n, steps)), threads);
  for (auto _ : state) {
    auto ev = problem.evaluate(with_gradient);
    benchmark::DoNotOptimize(ev.infidelity);
  }
  state.SetLabel(with_gradient ? "gradient" : "forward");
}

}  // namespace

BENCHMARK(BM_Evaluate)
    ->ArgsProduct({{3, 6, 8, 10}, {0, 1}, {1}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_MAIN();
