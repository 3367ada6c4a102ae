// Which CUDA devices the runtime sees (backend/cuda.hpp).
#include <cuda_runtime_api.h>

#include <string>

#include "impl.hpp"
#include "qevolve/error.hpp"

namespace qevolve::backend::cuda::impl {

DeviceQuery query_devices() {
  DeviceQuery q;
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    q.said = std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
    cudaGetLastError();  // clear it: a later, unrelated check must not see it
    return q;
  }
  if (count <= 0) {
    q.said = "0 devices";
    return q;
  }
  q.count = count;
  q.said = std::to_string(count) + (count == 1 ? " device" : " devices");
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess)
    q.name = prop.name;
  else
    cudaGetLastError();
  return q;
}

void use_device(int ordinal) {
  const cudaError_t e = cudaSetDevice(ordinal);
  if (e != cudaSuccess)
    throw Error("CUDA: cudaSetDevice(" + std::to_string(ordinal) + ") failed: " + cudaGetErrorName(e) + " (" +
                cudaGetErrorString(e) + ")");
}

}  // namespace qevolve::backend::cuda::impl
