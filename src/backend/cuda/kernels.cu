// The CUDA kernels: grid-stride loops that evaluate the backend's host/device functors
// (backend/local_gate.hpp, backend/phase.hpp) once per index — the same code the CPU runs.
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
