// Micro-benchmarks of the Trotter path on the standard workload: a whole evolution (build
// excluded) for N qubits, and the per-step gate computation alone.
#include <benchmark/benchmark.h>

#include "qevolve/plan.hpp"
#include "qevolve/resolve.hpp"
#include "qevolve/simulator.hpp"
#include "qevolve/workloads.hpp"

namespace {

void BM_StandardWorkloadEvolve(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const int threads = static_cast<int>(state.range(1));
  const int steps = 50;
  const qevolve::Config config = qevolve::commands::standard_workload(n, steps);
  qevolve::solver::Simulator sim(qevolve::io::evolution_plan(config), threads);
  for (auto _ : state) {
    auto r = sim.evolve();
    benchmark::DoNotOptimize(r.columns.data());
  }
  const double flops = sim.work().flops_per_column_step * steps * static_cast<double>(sim.states().initial_indices().size());
  state.counters["GFLOP/s"] = benchmark::Counter(flops, benchmark::Counter::kIsIterationInvariantRate,
                                                 benchmark::Counter::kIs1000);
  state.counters["gates/step"] = sim.work().gates_per_step;
}

}  // namespace

BENCHMARK(BM_StandardWorkloadEvolve)
    ->ArgsProduct({{4, 6, 8, 10}, {1, 2}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_MAIN();
