#include "rank_device.hpp"

#include "qevolve/backend/backend.hpp"
#include "qevolve/backend/cuda.hpp"
#include "qevolve/backend/cuda_plugin.hpp"

namespace qevolve::commands {

void bind_rank_device(const comm::Communicator& world, const Config& config) {
  if (world.size() == 1 || config.evolution.device == ComputeDevice::cpu) return;
  if constexpr (backend::kCudaBuilt) {
    // Without a driver `auto` runs on the CPU: the CUDA plugin stays unloaded.
    if (config.evolution.device == ComputeDevice::auto_ && !backend::cuda::driver_present()) return;
    const backend::cuda::DeviceQuery q = backend::cuda::query_devices();
    if (q.count > 0) backend::cuda::use_device(comm::local_rank(world) % q.count);
  }
}

}  // namespace qevolve::commands
