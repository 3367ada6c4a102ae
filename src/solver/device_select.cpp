#include "device_select.hpp"

#include <stdexcept>
#include <string>
#include <utility>

#include "qevolve/backend/capabilities.hpp"
#include "qevolve/backend/cuda.hpp"
#include "qevolve/backend/cuda_plugin.hpp"

namespace qevolve::solver {
namespace {

constexpr const char* kKey = "evolution.device";
constexpr const char* kOtherDevices = "device: cpu | auto";

}  // namespace

void select_compute_device(const Config& config, Options& o) {
  const ComputeDevice asked = config.evolution.device;
  o.device = ComputeDevice::cpu;
  o.device_note.clear();
  if (asked == ComputeDevice::cpu) return;
  const bool required = asked == ComputeDevice::cuda;
  if constexpr (!backend::kCudaBuilt) {
    if (required) unvalidated(kKey, "this qevolve was built without a CUDA backend", kOtherDevices);
    o.device_note = "auto: built without CUDA";
    return;
  } else {
    if (const std::string part = backend::cpu_only_part(config); !part.empty()) {
      if (required)
        unvalidated(kKey,
                    "the CUDA backend does not support " + part +
                        backend::kCudaRuns,
                    kOtherDevices);
      o.device_note = "auto: the CUDA backend does not support " + part;
      return;
    }
    // `auto` without an NVIDIA driver stays on the CPU without loading the CUDA plugin (a CPU
    // run maps no CUDA library); `cuda` always asks the runtime, so its error says why.
    if (!required && !backend::cuda::driver_present()) {
      o.device_note = "auto: no CUDA device found";
      return;
    }
    const backend::cuda::DeviceQuery q = backend::cuda::query_devices();
    if (q.count == 0) {
      if (required) unvalidated(kKey, "no CUDA device found (cudaGetDeviceCount said: " + q.said + ")", kOtherDevices);
      o.device_note = "auto: no CUDA device found";
      return;
    }
    o.device = ComputeDevice::cuda;
    o.device_note = (required ? "" : "auto: ") + std::string("CUDA device 0") + (q.name.empty() ? "" : ": " + q.name);
  }
}

template <typename Real>
std::unique_ptr<backend::GateExecutor<Real>> make_gate_executor(ComputeDevice device,
                                                                const backend::GateSchedule& schedule,
                                                                Index columns, Index block_width,
                                                                int threads, int chunk_steps) {
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
  if (device == ComputeDevice::cuda) {
    if constexpr (backend::kCudaBuilt)
      return backend::cuda::make_adjoint_executor(schedule, std::move(environment), columns, chunk_steps);
    throw std::logic_error("make_adjoint_executor: this qevolve was built without a CUDA backend");
  }
  return backend::make_cpu_adjoint_executor(schedule, std::move(environment), columns, block_width, threads);
}

std::unique_ptr<backend::DenseExecutor> make_dense_executor(ComputeDevice device, Index dim, Index columns) {
  if (device == ComputeDevice::cuda) {
    if constexpr (backend::kCudaBuilt) return backend::cuda::make_dense_executor(dim, columns);
    throw std::logic_error("make_dense_executor: this qevolve was built without a CUDA backend");
  }
  return backend::make_cpu_dense_executor();
}

template std::unique_ptr<backend::GateExecutor<double>> make_gate_executor<double>(
    ComputeDevice, const backend::GateSchedule&, Index, Index, int, int);
template std::unique_ptr<backend::GateExecutor<float>> make_gate_executor<float>(
    ComputeDevice, const backend::GateSchedule&, Index, Index, int, int);

}  // namespace qevolve::solver
