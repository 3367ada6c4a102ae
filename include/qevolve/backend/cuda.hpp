// The CUDA backend (docs/backend.md): defined only when qevolve is built with CUDA
// (backend::kCudaBuilt, QEVOLVE_HAVE_CUDA); callers outside src/backend/cuda name these
// functions inside `if constexpr (backend::kCudaBuilt)`. They forward to the CUDA plugin,
// libqevolve_cuda.so (backend/cuda_plugin.hpp), which the first call loads: every function but
// query_devices throws qevolve::Error when it cannot be loaded. Every CUDA, cuBLAS and cuSOLVER
// call is checked: a failing call throws qevolve::Error naming the call, a failed eigensolver
// NumericalError.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "qevolve/backend/backend.hpp"
#include "qevolve/backend/local_gate.hpp"

namespace qevolve::backend::cuda {

/// What cudaGetDeviceCount reports: the number of devices (0 when the call failed) and, when
/// none is usable, what it said ("cudaErrorNoDevice: no CUDA-capable device is detected", or
/// "0 devices"); the name of device 0 otherwise. Loads the plugin; when that fails, count 0 and
/// `said` is "the CUDA plugin could not be loaded: <dlopen's message>". Never throws.
struct DeviceQuery {
  int count = 0;
  std::string said;
  std::string name;
};
[[nodiscard]] DeviceQuery query_devices();

/// Makes device `ordinal` the current device of the calling thread (cudaSetDevice, checked):
/// the executors then allocate and compute on it. A distributed run binds rank r to device
/// local_rank(r) modulo the device count (docs/distributed.md).
void use_device(int ordinal);

/// The CUDA gate executor: all columns resident on the current device (use_device) as one block of width `columns`
/// (split planes), each chunk's gate buffer copied with cudaMemcpyAsync into a device buffer of
/// `max_chunk_steps` steps, one kernel launch per gate running backend::ApplyGate (or
/// ApplyGateDynamic) over every (l, m, n). Kernels are queued on one stream; download()
/// waits for them.
template <typename Real>
[[nodiscard]] std::unique_ptr<GateExecutor<Real>> make_gate_executor(const GateSchedule& schedule,
                                                                     Index columns,
                                                                     int max_chunk_steps);

/// The CUDA dense executor for D x D Hamiltonians and `columns` columns (column-major complex
/// on the device): per step H is copied to the device, cusolverDnZheevd gives V and lambda,
/// V is refined to unitarity with two zgemm (V + V (I - V^dag V) / 2, as on the CPU),
/// PhaseColumns forms W = V diag(exp(-i scale lambda)), and the columns become W (V^dag psi)
/// (two zgemm). An eigensolver failure (info != 0) is reported at download().
[[nodiscard]] std::unique_ptr<DenseExecutor> make_dense_executor(Index dim, Index columns);

/// The CUDA adjoint executor (backend.hpp AdjointExecutor): psi and lambda resident on the
/// current device as one block each; per chunk the adjoint gates are copied over (at most
/// `max_chunk_steps` steps) and per gate, last to first, ApplyGate steps psi back,
/// EnvironmentSum adds psi lambda^dag into a device buffer (atomicAdd of per-thread partial
/// sums; gates with their `environment` flag only) and ApplyGate steps lambda back. The chunk's
/// environments are copied back and added to `env` once per apply(). The order of the
/// environment's additions differs from the CPU's: environments agree to rounding (~1e-15
/// relative), psi and lambda exactly up to the kernels' own rounding.
[[nodiscard]] std::unique_ptr<AdjointExecutor> make_adjoint_executor(const GateSchedule& schedule,
                                                                     std::vector<bool> environment,
                                                                     Index columns, int max_chunk_steps);

/// One-off runs of the kernels on host arrays (each call allocates, copies to the device,
/// launches the executors' kernel once and copies back): the functor tests on the GPU.
/// apply_gate: `size` numbers per plane; gate: 2 g^2 numbers.
template <typename Real>
void run_apply_gate(Real* re, Real* im, std::size_t size, const GateGeometry& geo, const Real* gate);
/// accumulate_environment on the device (EnvironmentSum and atomicAdd, as the adjoint executor):
/// env += the environment; `size` numbers per plane, env 2 g^2 numbers.
void run_accumulate_environment(const double* psi_re, const double* psi_im, const double* lam_re,
                                const double* lam_im, std::size_t size, const GateGeometry& geo, double* env);
/// apply_phases (backend/phase.hpp) on the device.
void run_apply_phases(const double* v, double* w, const double* lambda, double scale,
                      std::ptrdiff_t rows, std::ptrdiff_t cols);

}  // namespace qevolve::backend::cuda
