// The CUDA kernels: grid-stride loops that evaluate the backend's host/device functors
// (backend/local_gate.hpp: ApplyGate, EnvironmentSum; backend/phase.hpp) once per index — the
// same code the CPU tests run.
#include <algorithm>
#include <string>

#include "cuda_check.hpp"
#include "kernels.hpp"
#include "qevolve/backend/phase.hpp"

namespace qevolve::backend::cuda::impl {
namespace {

constexpr int kThreadsPerBlock = 256;
constexpr std::ptrdiff_t kMaxBlocks = 1 << 20;  // the grid-stride loop covers the rest

unsigned blocks_for(std::ptrdiff_t total) {
  return static_cast<unsigned>(
      std::min<std::ptrdiff_t>((total + kThreadsPerBlock - 1) / kThreadsPerBlock, kMaxBlocks));
}

__device__ std::ptrdiff_t first_index() {
  return static_cast<std::ptrdiff_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ std::ptrdiff_t grid_stride() { return static_cast<std::ptrdiff_t>(blockDim.x) * gridDim.x; }

/// f(l, m, n) for every slice index; n (the contiguous run) varies fastest across threads, so
/// neighbouring threads touch neighbouring addresses.
template <typename F>
__global__ void for_each_slice(F f, std::ptrdiff_t middle, std::ptrdiff_t inner, std::ptrdiff_t total) {
  for (std::ptrdiff_t idx = first_index(); idx < total; idx += grid_stride()) {
    const std::ptrdiff_t lm = idx / inner;
    f(lm / middle, lm % middle, idx - lm * inner);
  }
}

/// f(i, k) for every element of a column-major rows x cols matrix.
template <typename F>
__global__ void for_each_element(F f, std::ptrdiff_t rows, std::ptrdiff_t total) {
  for (std::ptrdiff_t idx = first_index(); idx < total; idx += grid_stride()) f(idx % rows, idx / rows);
}

/// Thread idx = pair * per_pair + first: the environment entry `pair` (b g + a) summed over the
/// slices first, first + per_pair, ... and added atomically (sm_60+ double atomicAdd).
__global__ void environment_sums(EnvironmentSum f, int g, std::ptrdiff_t per_pair, double* env) {
  const std::ptrdiff_t total = static_cast<std::ptrdiff_t>(g) * g * per_pair;
  for (std::ptrdiff_t idx = first_index(); idx < total; idx += grid_stride()) {
    const auto pair = static_cast<int>(idx / per_pair);
    double re = 0, im = 0;
    f(pair / g, pair % g, idx % per_pair, per_pair, re, im);
    atomicAdd(env + pair, re);
    atomicAdd(env + g * g + pair, im);
  }
}

__global__ void record_info(const int* info, int* status, int step) {
  if (*info != 0 && status[0] < 0) {
    status[0] = step;
    status[1] = *info;
  }
}

template <typename F>
void launch_slices(const F& f, const GateGeometry& geo, cudaStream_t stream) {
  const std::ptrdiff_t total = geo.outer * geo.middle * geo.inner;
  if (total == 0) return;
  for_each_slice<<<blocks_for(total), kThreadsPerBlock, 0, stream>>>(f, geo.middle, geo.inner, total);
  check_launch("for_each_slice (ApplyGate, g = " + std::to_string(geo.size()) + ")");
}

}  // namespace

template <typename Real>
void launch_apply_gate(Real* re, Real* im, const GateGeometry& geo, const Real* gate,
                       cudaStream_t stream) {
  dispatch_gate_size(
      geo.size(),
      [&](auto g) { launch_slices(ApplyGate<Real, decltype(g)::value>{re, im, gate, geo}, geo, stream); },
      [&] { launch_slices(ApplyGateDynamic<Real>{re, im, gate, geo}, geo, stream); });
}

void launch_accumulate_environment(const double* psi_re, const double* psi_im, const double* lam_re,
                                   const double* lam_im, const GateGeometry& geo, double* env,
                                   cudaStream_t stream) {
  const EnvironmentSum f{psi_re, psi_im, lam_re, lam_im, geo};
  const std::ptrdiff_t slices = f.slices();
  if (slices == 0) return;
  const int g = geo.size();
  // About 64 Ki threads in all, at least one slice each: enough to fill a GPU, few atomics.
  constexpr std::ptrdiff_t kThreads = std::ptrdiff_t{1} << 16;
  const std::ptrdiff_t per_pair = std::max<std::ptrdiff_t>(1, std::min<std::ptrdiff_t>(slices, kThreads / (g * g)));
  const std::ptrdiff_t total = static_cast<std::ptrdiff_t>(g) * g * per_pair;
  environment_sums<<<blocks_for(total), kThreadsPerBlock, 0, stream>>>(f, g, per_pair, env);
  check_launch("environment_sums (g = " + std::to_string(g) + ")");
}

void launch_apply_phases(const double* v, double* w, const double* lambda, double scale,
                         std::ptrdiff_t rows, std::ptrdiff_t cols, cudaStream_t stream) {
  const std::ptrdiff_t total = rows * cols;
  if (total == 0) return;
  for_each_element<<<blocks_for(total), kThreadsPerBlock, 0, stream>>>(
      PhaseColumns<double>{v, w, lambda, scale, rows}, rows, total);
  check_launch("for_each_element (PhaseColumns)");
}

void launch_record_info(const int* info, int* status, int step, cudaStream_t stream) {
  record_info<<<1, 1, 0, stream>>>(info, status, step);
  check_launch("record_info");
}

template void launch_apply_gate<double>(double*, double*, const GateGeometry&, const double*, cudaStream_t);
template void launch_apply_gate<float>(float*, float*, const GateGeometry&, const float*, cudaStream_t);

}  // namespace qevolve::backend::cuda::impl
