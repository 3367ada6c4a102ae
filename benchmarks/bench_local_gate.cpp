// Micro-benchmarks of the local-gate kernel (the Trotter hot loop): one g x g gate on modes
// (k, k+1) of a block of `width` columns, D = 2^12. Counters: GFLOP/s with 8 flops per complex
// multiply-add (g complex MACs per amplitude).
#include <benchmark/benchmark.h>

#include <cmath>
#include <random>
#include <vector>

#include "qevolve/backend/local_gate.hpp"

namespace {

template <typename Real>
void BM_TwoModeGate(benchmark::State& state) {
  const int num_modes = 12;
  const int d = 2;
  const auto width = static_cast<std::ptrdiff_t>(state.range(0));
  const int k = static_cast<int>(state.range(1));
  std::vector<int> dims(num_modes, d);
  std::ptrdiff_t D = 1;
  for (int x : dims) D *= x;
  std::mt19937 rng(1);
  std::normal_distribution<double> nd;
  std::vector<Real> re(static_cast<std::size_t>(D * width)), im(re.size());
  for (auto& x : re) x = static_cast<Real>(nd(rng) * 0.01);
  for (auto& x : im) x = static_cast<Real>(nd(rng) * 0.01);
  const int g = d * d;
  // A unitary-ish gate: a rotation (keeps amplitudes bounded over iterations).
  std::vector<Real> gate(2 * static_cast<std::size_t>(g * g), Real(0));
  for (int o = 0; o < g; ++o)
    for (int j = 0; j < g; ++j) {
      const double th = 0.3 * (o + 1) * (j + 2);
      gate[static_cast<std::size_t>(o * g + j)] = static_cast<Real>(std::cos(th) / g);
      gate[static_cast<std::size_t>(g * g + o * g + j)] = static_cast<Real>(std::sin(th) / g);
    }
  const auto geo = qevolve::backend::make_geometry(dims.data(), num_modes, k, k + 1, width);
  for (auto _ : state) {
    qevolve::backend::apply_gate(re.data(), im.data(), geo, gate.data());
    benchmark::DoNotOptimize(re.data());
    benchmark::ClobberMemory();
  }
  const double flops = 8.0 * g * static_cast<double>(D * width);
  state.counters["GFLOP/s"] =
      benchmark::Counter(flops, benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
}

}  // namespace

BENCHMARK(BM_TwoModeGate<double>)->ArgsProduct({{1, 4, 8, 16}, {0, 5, 10}});
BENCHMARK(BM_TwoModeGate<float>)->ArgsProduct({{8, 16}, {0, 5, 10}});
BENCHMARK_MAIN();
