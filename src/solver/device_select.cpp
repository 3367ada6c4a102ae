#include "device_select.hpp"

#include <stdexcept>
#include <string>
#include <utility>

#include "qevolve/backend/capabilities.hpp"
#include "qevolve/backend/cuda.hpp"
#include "qevolve/backend/cuda_plugin.hpp"
#include "qevolve/compute_device.hpp"
#include "qevolve/error.hpp"
#include "qevolve/names.hpp"
#include "qevolve/scheme_traits.hpp"

namespace qevolve::solver {

ComputeDeviceChoice choose_compute_device(const EvolutionSpec& evolution, const std::string& trainable) {
  ComputeDeviceChoice c;
  const ComputeDevice asked = evolution.device;
  if (asked == ComputeDevice::cpu) return c;
  const bool required = asked == ComputeDevice::cuda;
  const auto cpu_because = [&](std::string refusal, std::string note) {
    (required ? c.refusal : c.note) = std::move(required ? refusal : note);
    return c;
  };
  if constexpr (!backend::kCudaBuilt) {
    return cpu_because("this qevolve was built without a CUDA backend", "auto: built without CUDA");
  } else {
    // `auto` without an NVIDIA driver stays on the CPU without loading the CUDA plugin (a CPU
    // run maps no CUDA library), and says so first: that is why, whatever the run; `cuda` always
    // asks the runtime, so its refusal says why.
    if (!required && !backend::cuda::driver_present()) return cpu_because({}, "auto: no CUDA device found");
    if (const std::string part = cpu_only_part(evolution, trainable); !part.empty())
      return cpu_because("the CUDA backend does not support " + part + what_runs_on(ComputeDevice::cuda),
                         "auto: the CUDA backend does not support " + part);
    const backend::cuda::DeviceQuery q = backend::cuda::query_devices();
    if (q.count == 0)
      return cpu_because("no CUDA device found (cudaGetDeviceCount said: " + q.said + ")", "auto: no CUDA device found");
    c.device = ComputeDevice::cuda;
    c.note = (required ? "" : "auto: ") + std::string("CUDA device 0") + (q.name.empty() ? "" : ": " + q.name);
    return c;
  }
}

namespace {

/// Throws unless `device` implements `kind` (backend/capabilities.hpp): the stage keeps a run
/// that needs another kind on the CPU (cpu_only_part), so failing here is a programming error.
/// Any device but cuda is the CPU here, as the dispatchers have always taken it.
void require(ComputeDevice device, backend::ExecutorKind kind, const char* where) {
  if (device != ComputeDevice::cuda) device = ComputeDevice::cpu;
  if (!backend::runs(device, backend::kind_bit(kind)))
    throw std::logic_error(std::string(where) + ": the " + enum_name(device) + " backend has no such executor");
}

}  // namespace

template <typename Real>
std::unique_ptr<backend::GateExecutor<Real>> make_gate_executor(ComputeDevice device,
                                                                const backend::GateSchedule& schedule,
                                                                Index columns, Index block_width,
                                                                int threads, int chunk_steps) {
  require(device, backend::ExecutorKind::gate, "make_gate_executor");
  if (device == ComputeDevice::cuda) {
    if constexpr (backend::kCudaBuilt) return backend::cuda::make_gate_executor<Real>(schedule, columns, chunk_steps);
    throw std::logic_error("make_gate_executor: this qevolve was built without a CUDA backend");
  }
  return backend::make_cpu_gate_executor<Real>(schedule, columns, block_width, threads);
}

std::unique_ptr<backend::AdjointExecutor> make_adjoint_executor(ComputeDevice device,
                                                               const backend::GateSchedule& schedule,
                                                               std::vector<bool> environment, Index columns,
                                                               Index block_width, int threads, int chunk_steps) {
  require(device, backend::ExecutorKind::adjoint, "make_adjoint_executor");
  if (device == ComputeDevice::cuda) {
    if constexpr (backend::kCudaBuilt)
      return backend::cuda::make_adjoint_executor(schedule, std::move(environment), columns, chunk_steps);
    throw std::logic_error("make_adjoint_executor: this qevolve was built without a CUDA backend");
  }
  return backend::make_cpu_adjoint_executor(schedule, std::move(environment), columns, block_width, threads);
}

std::unique_ptr<backend::OpenAdjointExecutor> make_open_adjoint_executor(ComputeDevice device,
                                                                       const backend::OpenAdjointSchedule& schedule,
                                                                       Index columns, Index block_width, int threads) {
  require(device, backend::ExecutorKind::open_adjoint, "make_open_adjoint_executor");
  return backend::make_cpu_open_adjoint_executor(schedule, columns, block_width, threads);
}

std::unique_ptr<backend::TermExecutor> make_term_executor(ComputeDevice device, const backend::TermSchedule& schedule,
                                                         Index columns, Index block_width, int threads) {
  require(device, backend::ExecutorKind::terms, "make_term_executor");
  return backend::make_cpu_term_executor(schedule, columns, block_width, threads);
}

std::unique_ptr<backend::ChebyshevExecutor> make_chebyshev_executor(ComputeDevice device, Index dim, Index columns,
                                                                   Index block_width, int threads, double run_flops) {
  require(device, backend::ExecutorKind::chebyshev, "make_chebyshev_executor");
  return backend::make_cpu_chebyshev_executor(dim, columns, block_width, threads, run_flops);
}

std::unique_ptr<backend::DenseExecutor> make_dense_executor(ComputeDevice device, Index dim, Index columns) {
  require(device, backend::ExecutorKind::dense, "make_dense_executor");
  if (device == ComputeDevice::cuda) {
    if constexpr (backend::kCudaBuilt) return backend::cuda::make_dense_executor(dim, columns);
    throw std::logic_error("make_dense_executor: this qevolve was built without a CUDA backend");
  }
  return backend::make_cpu_dense_executor();
}

std::unique_ptr<backend::PropagatorExecutor> make_propagator_executor(ComputeDevice device) {
  require(device, backend::ExecutorKind::propagator, "make_propagator_executor");
  return backend::make_cpu_propagator_executor();
}

std::unique_ptr<backend::ChebyshevAdjointExecutor> make_chebyshev_adjoint_executor(ComputeDevice device) {
  require(device, backend::ExecutorKind::chebyshev_adjoint, "make_chebyshev_adjoint_executor");
  return backend::make_cpu_chebyshev_adjoint_executor();
}

std::unique_ptr<backend::DenseAdjointExecutor> make_dense_adjoint_executor(ComputeDevice device) {
  require(device, backend::ExecutorKind::dense_adjoint, "make_dense_adjoint_executor");
  return backend::make_cpu_dense_adjoint_executor();
}

template std::unique_ptr<backend::GateExecutor<double>> make_gate_executor<double>(
    ComputeDevice, const backend::GateSchedule&, Index, Index, int, int);
template std::unique_ptr<backend::GateExecutor<float>> make_gate_executor<float>(
    ComputeDevice, const backend::GateSchedule&, Index, Index, int, int);

}  // namespace qevolve::solver
