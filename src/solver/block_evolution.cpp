#include "block_evolution.hpp"

#include <unistd.h>

#include <algorithm>
#include <type_traits>
#include <vector>

#include "device_select.hpp"
#include "qevolve/backend/local_gate.hpp"
#include "qevolve/backend/parallel.hpp"
#include "qevolve/linalg.hpp"

namespace qevolve::solver {

namespace {

/// This core's L2 cache in bytes (glibc's sysconf; 512 KiB when it does not say).
Index l2_bytes() {
  static const Index bytes = [] {
    const long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    return l2 > 0 ? static_cast<Index>(l2) : Index{512 * 1024};
  }();
  return bytes;
}

}  // namespace

Index choose_block_width(Index D, Index n, int threads) {
  // Aim for a block state (two planes of doubles) of half of this core's L2, with at least
  // two blocks per thread when there are enough columns; at least one 8-column vector when
  // such a block still fits in L2 (measured, N = 12 on a 1 MiB L2: 4 columns 56.5 s, 8 columns
  // 40.2 s: narrower blocks leave the kernels' contiguous runs shorter than a vector).
  const Index l2 = l2_bytes();
  Index w = std::max<Index>(1, l2 / 2 / (16 * D));
  w = std::max(w, std::min<Index>(8, l2 / (16 * D)));
  w = std::min<Index>(w, 64);
  const Index per_thread = (n + 2 * threads - 1) / (2 * threads);
  if (per_thread >= 4) w = std::min(w, per_thread);
  return std::max<Index>(1, std::min(w, n));
}

int step_chunk(std::size_t bytes_per_step, int steps) {
  constexpr std::size_t kBytes = 2u << 20, kMaxSteps = 256;
  const std::size_t fit = std::clamp<std::size_t>(kBytes / std::max<std::size_t>(1, bytes_per_step), 1, kMaxSteps);
  return static_cast<int>(std::min<std::size_t>(fit, static_cast<std::size_t>(std::max(1, steps))));
}

backend::GateSchedule gate_schedule(const BlockEvolution& job) {
  const TrotterGates& gates = *job.gates;
  backend::GateSchedule s;
  s.dims = job.device->dims();
  for (int k = 0; k < gates.num_gates(); ++k) {
    const auto& m = gates.modes(k);
    backend::GateSchedule::Gate g{m[0], m.size() == 2 ? m[1] : -1, gates.offset(k), {}};
    if (job.structured) {
      g.blocks = gates.blocks(k);
      g.factor_position = gates.gate(k).factor_position;
      g.factor_kind = gates.gate(k).factor_kind;
      g.factor_offset = gates.factor_offset(k);
    }
    s.gates.push_back(std::move(g));
  }
  s.step_size = gates.step_size();
  s.boundary = gates.boundary_gates();
  s.steps = job.steps;
  if (s.boundary > 0 && job.observer) s.breaks = job.breaks ? *job.breaks : job.observe_at;
  return s;
}

Index block_width(const BlockEvolution& job, Index n) {
  return job.block_width > 0 ? std::min(job.block_width, n)
                             : choose_block_width(job.device->dim(), n, std::max(1, job.threads));
}

BlockLayout make_block_layout(const BlockEvolution& job, Index n) {
  return backend::make_block_layout(gate_schedule(job), n, block_width(job, n));
}

namespace {

/// a <- a b for g x g gates stored as split re/im row-major blocks (re then im). Not
/// linalg::small_matmul: the kernels' split layout, in float and double, on the hot path of the
/// bonds splitting (one product per boundary gate and step).
template <typename Real>
void multiply_into(Real* a, const Real* b, int g) {
  Real tmp[2 * backend::kMaxGateSize * backend::kMaxGateSize];
  const int gg = g * g;
  for (int i = 0; i < g; ++i)
    for (int j = 0; j < g; ++j) {
      Real r = 0, im = 0;
      for (int k = 0; k < g; ++k) {
        const Real ar = a[i * g + k], ai = a[gg + i * g + k];
        const Real br = b[k * g + j], bi = b[gg + k * g + j];
        r += ar * br - ai * bi;
        im += ar * bi + ai * br;
      }
      tmp[i * g + j] = r;
      tmp[gg + i * g + j] = im;
    }
  std::copy(tmp, tmp + 2 * gg, a);
}

}  // namespace

namespace {

/// Hands the job's block observer of precision Real to the executor; false where the job has
/// none or the executor cannot call one.
template <typename Real>
bool install_block_observer(const BlockEvolution& job, backend::GateExecutor<Real>& executor) {
  backend::BlockObserver<Real> o;
  if constexpr (std::is_same_v<Real, double>)
    o.call = job.block_observer;
  else
    o.call = job.block_observer_single;
  if (!o.call) return false;
  for (int s : job.observe_at)
    if (s > 0) o.at.push_back(s);
  return executor.observe_blocks(std::move(o));
}

}  // namespace

template <typename Real>
void evolve_blocks(const BlockEvolution& job, CMatrix& state,
                   const std::function<void(double)>& progress) {
  const TrotterGates& gates = *job.gates;
  const Index D = job.device->dim();
  const Index n = state.cols();
  if (n == 0 || job.steps == 0) return;
  const int threads = std::max(1, job.threads);
  const int num_gates = gates.num_gates();

  // Chunks of steps whose gates are computed together (step_chunk: <= ~2 MiB, <= 256 steps).
  const std::size_t per_step = gates.step_size();
  const int chunk = step_chunk(per_step * sizeof(Real), job.steps);
  std::vector<Real> buffer(per_step * static_cast<std::size_t>(chunk));
  const auto executor = make_gate_executor<Real>(job.compute_device, gate_schedule(job), n,
                                                 block_width(job, n), threads, chunk);
  // splitting: bonds: the last layer of step s - 1 is multiplied into the first layer of step
  // s (same bonds, exact), so each step applies num_gates - boundary gates and the very last
  // step also its last layer. `carry` keeps the previous chunk's last step.
  const int boundary = gates.boundary_gates();
  const int applied = num_gates - boundary;
  std::vector<Real> carry(boundary > 0 ? per_step : 0);

  // Flops of one step on all columns: a chunk runs on a team when backend::worth_threads says
  // so (the CPU executor applies the same rule to its blocks).
  double step_flops = 0.0;
  for (int k = 0; k < applied; ++k) step_flops += 8.0 * static_cast<double>(D * n) * gates.work(k);
  if (backend::worth_threads(threads, step_flops * std::min(chunk, job.steps))) linalg::park_blas_workers();
  // output.trace: boundary 0 from the matrix; the others inside the executor per block where
  // it can (no extra pass over the state), else at the end of a chunk from the matrix.
  ObservePoints points(job.observer, job.observe_at);
  if (points.due(0)) points.call(0, state);
  if (job.observer && install_block_observer(job, *executor)) points = ObservePoints({}, {});
  executor->upload(state);
  // A step right after an observed boundary takes nothing from its predecessor (which applied
  // its last layer itself: GateSchedule::breaks).
  const std::vector<int>& breaks = job.breaks ? *job.breaks : job.observe_at;
  auto fresh = [&job, &breaks](int s) {
    return job.observer && std::binary_search(breaks.begin(), breaks.end(), s);
  };
  for (int s0 = 0, s1 = 0; s0 < job.steps; s0 = s1) {
    s1 = points.clip(s0, std::min(job.steps, s0 + chunk));
    const bool parallel = backend::worth_threads(threads, step_flops * (s1 - s0));
    backend::run_team(threads, parallel, [&](backend::Team& team) {
      std::vector<double> coeff;
      team.for_static(s0, s1, [&](Index si) {
        const auto s = static_cast<int>(si);
        job.coefficients(s, coeff);
        gates.compute(coeff, buffer.data() + per_step * static_cast<std::size_t>(s - s0));
      });
      if (boundary > 0) {
        team.for_static(std::max(s0, 1), s1, [&](Index si) {
          const auto s = static_cast<int>(si);
          if (fresh(s)) return;
          Real* cur = buffer.data() + per_step * static_cast<std::size_t>(s - s0);
          const Real* prev = s == s0 ? carry.data() : cur - per_step;
          for (int k = 0; k < boundary; ++k) {
            multiply_into(cur + gates.offset(k), prev + gates.offset(applied + k), gates.size(k));
            // A factored gate's static part S (G = D S) takes the previous gate as well.
            if (gates.gate(k).factor_position >= 0)
              multiply_into(cur + gates.factor_offset(k), prev + gates.offset(applied + k), gates.size(k));
          }
        });
      }
    });
    executor->apply(buffer.data(), s0, s1);
    if (boundary > 0)
      std::copy_n(buffer.data() + per_step * static_cast<std::size_t>(s1 - 1 - s0), per_step, carry.data());
    if (progress) progress(static_cast<double>(s1) / job.steps);
    if (s1 < job.steps && points.due(s1)) {
      executor->download(state);
      points.call(s1, state);
      executor->upload(state);
    }
  }
  executor->download(state);
  if (points.due(job.steps)) points.call(job.steps, state);
}

template void evolve_blocks<double>(const BlockEvolution&, CMatrix&,
                                    const std::function<void(double)>&);
template void evolve_blocks<float>(const BlockEvolution&, CMatrix&,
                                   const std::function<void(double)>&);

}  // namespace qevolve::solver
