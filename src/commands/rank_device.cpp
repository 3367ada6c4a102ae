#include "rank_device.hpp"

#include "qevolve/backend/backend.hpp"
#include "qevolve/backend/cuda.hpp"

namespace qevolve::commands {

void bind_rank_device(const comm::Communicator& world, const Config& config) {
  if (world.size() == 1 || config.evolution.device == ComputeDevice::cpu) return;
  if constexpr (backend::kCudaBuilt) {
    const backend::cuda::DeviceQuery q = backend::cuda::query_devices();
    if (q.count > 0) backend::cuda::use_device(comm::local_rank(world) % q.count);
  }
}

}  // namespace qevolve::commands
