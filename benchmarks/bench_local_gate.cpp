// Micro-benchmarks of the local-gate kernels: one g x g gate on modes (k, k+1) of a block of
// `width` columns of a chain of 2-level modes (the Trotter hot loop), the adjoint pass's gate
// environment, and the fused adjoint sweep. Counters: GFLOP/s with 8 flops per complex
// multiply-add (g complex MACs per amplitude for each gate-sized operation).
#include <benchmark/benchmark.h>

#include <cmath>
#include <random>
#include <vector>

#include "qevolve/backend/local_gate.hpp"

namespace {

using qevolve::backend::GateGeometry;

/// The block geometry of a gate on modes (k, k+1) of `num_modes` 2-level modes, and D.
struct Block {
  GateGeometry geo;
  std::ptrdiff_t D = 1;
  Block(int num_modes, int k, std::ptrdiff_t width) {
    const std::vector<int> dims(static_cast<std::size_t>(num_modes), 2);
    for (int x : dims) D *= x;
    geo = qevolve::backend::make_geometry(dims.data(), num_modes, k, k + 1, width);
  }
};

/// A unitary-ish g x g gate, split re/im (a rotation: keeps amplitudes bounded over iterations).
template <typename Real>
std::vector<Real> rotation_gate(int g) {
  std::vector<Real> gate(2 * static_cast<std::size_t>(g * g));
  for (int o = 0; o < g; ++o)
    for (int j = 0; j < g; ++j) {
      const double th = 0.3 * (o + 1) * (j + 2);
      gate[static_cast<std::size_t>(o * g + j)] = static_cast<Real>(std::cos(th) / g);
      gate[static_cast<std::size_t>(g * g + o * g + j)] = static_cast<Real>(std::sin(th) / g);
    }
  return gate;
}

/// `planes` planes of `size` numbers in one buffer, each shifted by one more cache line (as the
/// adjoint pass allocates them), filled with small random numbers.
template <typename Real>
std::vector<Real> random_planes(int planes, std::size_t size, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> nd;
  std::vector<Real> buf(static_cast<std::size_t>(planes) * (size + 8));
  for (auto& x : buf) x = static_cast<Real>(nd(rng) * 0.01);
  return buf;
}

/// `passes` gate-sized operations of a 4 x 4 gate on every amplitude per iteration.
void set_rate(benchmark::State& state, int passes, const Block& block, std::ptrdiff_t width) {
  const double flops = passes * 8.0 * 4 * static_cast<double>(block.D * width);
  state.counters["GFLOP/s"] =
      benchmark::Counter(flops, benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
}

/// Arguments: width, k (D = 2^12).
template <typename Real>
void BM_TwoModeGate(benchmark::State& state) {
  const auto width = static_cast<std::ptrdiff_t>(state.range(0));
  const Block block(12, static_cast<int>(state.range(1)), width);
  auto buf = random_planes<Real>(2, static_cast<std::size_t>(block.D * width), 1);
  Real* re = buf.data();
  Real* im = re + block.D * width + 8;
  const auto gate = rotation_gate<Real>(4);
  for (auto _ : state) {
    qevolve::backend::apply_gate(re, im, block.geo, gate.data());
    benchmark::DoNotOptimize(re);
    benchmark::ClobberMemory();
  }
  set_rate(state, 1, block, width);
}

/// The adjoint pass's gate environment (env += psi lambda^dag over every slice). Arguments:
/// width, k, number of modes (10 with width 16 is the adjoint's block at N = 10).
void BM_Environment(benchmark::State& state) {
  const auto width = static_cast<std::ptrdiff_t>(state.range(0));
  const Block block(static_cast<int>(state.range(2)), static_cast<int>(state.range(1)), width);
  const auto plane = static_cast<std::size_t>(block.D * width) + 8;
  auto buf = random_planes<double>(4, plane - 8, 2);
  const double* p = buf.data();
  std::vector<double> env(32, 0.0);
  for (auto _ : state) {
    qevolve::backend::accumulate_environment(p, p + plane, p + 2 * plane, p + 3 * plane, block.geo,
                                             env.data());
    benchmark::DoNotOptimize(env.data());
    benchmark::ClobberMemory();
  }
  set_rate(state, 1, block, width);
}

/// One gate of the adjoint pass on a block pair: fused (backend::adjoint_gate, fourth argument
/// 1) against the three separate calls (0). Counted as three gate applications. Arguments:
/// width, k, number of modes, fused.
void BM_AdjointGate(benchmark::State& state) {
  const auto width = static_cast<std::ptrdiff_t>(state.range(0));
  const Block block(static_cast<int>(state.range(2)), static_cast<int>(state.range(1)), width);
  const bool fused = state.range(3) != 0;
  const auto plane = static_cast<std::size_t>(block.D * width) + 8;
  auto buf = random_planes<double>(4, plane - 8, 3);
  double* pr = buf.data();
  double* pi = pr + plane;
  double* lr = pi + plane;
  double* li = lr + plane;
  const auto gate = rotation_gate<double>(4);
  std::vector<double> env(gate.size(), 0.0);
  for (auto _ : state) {
    if (fused) {
      qevolve::backend::adjoint_gate(pr, pi, lr, li, block.geo, gate.data(), gate.data(), env.data());
    } else {
      qevolve::backend::apply_gate(pr, pi, block.geo, gate.data());
      qevolve::backend::accumulate_environment(pr, pi, lr, li, block.geo, env.data());
      qevolve::backend::apply_gate(lr, li, block.geo, gate.data());
    }
    benchmark::DoNotOptimize(env.data());
    benchmark::ClobberMemory();
  }
  set_rate(state, 3, block, width);
}

}  // namespace

BENCHMARK(BM_AdjointGate)
    ->ArgsProduct({{16}, {0, 2, 4, 6, 7, 8}, {10}, {0, 1}})
    ->ArgsProduct({{64}, {0, 3, 5, 6}, {8}, {0, 1}});
BENCHMARK(BM_Environment)->ArgsProduct({{16}, {0, 4, 8}, {10}})->ArgsProduct({{4}, {0, 5, 10}, {12}});
BENCHMARK(BM_TwoModeGate<double>)->ArgsProduct({{1, 4, 8, 16}, {0, 5, 10}});
BENCHMARK(BM_TwoModeGate<float>)->ArgsProduct({{8, 16}, {0, 5, 10}});
BENCHMARK_MAIN();
