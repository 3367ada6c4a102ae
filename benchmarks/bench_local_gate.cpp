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

/// The adjoint pass's gate environment (env += psi lambda^dag over every slice), D = 2^modes
/// (third argument; 10 with width 16 is the adjoint's block at N = 10): counted like a gate application (g complex MACs per amplitude).
void BM_Environment(benchmark::State& state) {
  const int num_modes = static_cast<int>(state.range(2));
  const int d = 2;
  const auto width = static_cast<std::ptrdiff_t>(state.range(0));
  const int k = static_cast<int>(state.range(1));
  std::vector<int> dims(num_modes, d);
  std::ptrdiff_t D = 1;
  for (int x : dims) D *= x;
  std::mt19937 rng(2);
  std::normal_distribution<double> nd;
  std::vector<double> pr(static_cast<std::size_t>(D * width)), pi(pr.size()), lr(pr.size()), li(pr.size());
  for (auto* v : {&pr, &pi, &lr, &li})
    for (auto& x : *v) x = nd(rng);
  const int g = d * d;
  std::vector<double> env(2 * static_cast<std::size_t>(g * g), 0.0);
  const auto geo = qevolve::backend::make_geometry(dims.data(), num_modes, k, k + 1, width);
  for (auto _ : state) {
    qevolve::backend::accumulate_environment(pr.data(), pi.data(), lr.data(), li.data(), geo, env.data());
    benchmark::DoNotOptimize(env.data());
    benchmark::ClobberMemory();
  }
  const double flops = 8.0 * g * static_cast<double>(D * width);
  state.counters["GFLOP/s"] =
      benchmark::Counter(flops, benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
}

/// One gate of the adjoint pass on a block pair: fused (backend::adjoint_gate, range(3) = 1)
/// against the three separate calls (0). Counted as three gate applications.
void BM_AdjointGate(benchmark::State& state) {
  const int num_modes = static_cast<int>(state.range(2));
  const auto width = static_cast<std::ptrdiff_t>(state.range(0));
  const int k = static_cast<int>(state.range(1));
  const bool fused = state.range(3) != 0;
  std::vector<int> dims(num_modes, 2);
  std::ptrdiff_t D = 1;
  for (int x : dims) D *= x;
  std::mt19937 rng(3);
  std::normal_distribution<double> nd;
  // The four planes in one buffer, each shifted by one more cache line (as the adjoint pass
  // allocates them), so that equal offsets in different planes do not share an L1 set.
  const auto plane = static_cast<std::size_t>(D * width) + 8;
  std::vector<double> buf(4 * plane);
  for (auto& x : buf) x = nd(rng) * 0.01;
  double* pr = buf.data();
  double* pi = pr + plane;
  double* lr = pi + plane;
  double* li = lr + plane;
  const int g = 4;
  std::vector<double> gate(2 * static_cast<std::size_t>(g * g)), env(gate.size(), 0.0);
  for (int o = 0; o < g; ++o)
    for (int j = 0; j < g; ++j) {
      const double th = 0.3 * (o + 1) * (j + 2);
      gate[static_cast<std::size_t>(o * g + j)] = std::cos(th) / g;
      gate[static_cast<std::size_t>(g * g + o * g + j)] = std::sin(th) / g;
    }
  const auto geo = qevolve::backend::make_geometry(dims.data(), num_modes, k, k + 1, width);
  for (auto _ : state) {
    if (fused) {
      qevolve::backend::adjoint_gate(pr, pi, lr, li, geo, gate.data(), gate.data(), env.data());
    } else {
      qevolve::backend::apply_gate(pr, pi, geo, gate.data());
      qevolve::backend::accumulate_environment(pr, pi, lr, li, geo, env.data());
      qevolve::backend::apply_gate(lr, li, geo, gate.data());
    }
    benchmark::DoNotOptimize(env.data());
    benchmark::ClobberMemory();
  }
  const double flops = 3 * 8.0 * g * static_cast<double>(D * width);
  state.counters["GFLOP/s"] =
      benchmark::Counter(flops, benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
}

}  // namespace

BENCHMARK(BM_AdjointGate)->ArgsProduct({{16}, {0, 2, 4, 6, 7, 8}, {10}, {0, 1}})->ArgsProduct({{64}, {0, 3, 5, 6}, {8}, {0, 1}});
BENCHMARK(BM_Environment)->ArgsProduct({{16}, {0, 4, 8}, {10}})->ArgsProduct({{4}, {0, 5, 10}, {12}});
BENCHMARK(BM_TwoModeGate<double>)->ArgsProduct({{1, 4, 8, 16}, {0, 5, 10}});
BENCHMARK(BM_TwoModeGate<float>)->ArgsProduct({{8, 16}, {0, 5, 10}});
BENCHMARK_MAIN();
