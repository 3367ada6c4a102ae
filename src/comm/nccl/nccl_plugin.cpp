// Built instead of no_nccl.cpp when NCCL was found with the CUDA backend and MPI: the NCCL
// communicator itself (nccl_communicator.cpp) lives in the CUDA plugin, libqevolve_cuda.so
// (backend/cuda_plugin.hpp), loaded on first use, so the comm layer links no CUDA library.
#include <memory>
#include <string>

#include "../nccl_factory.hpp"
#include "qevolve/backend/cuda_plugin.hpp"
#include "qevolve/error.hpp"

namespace qevolve::comm::detail {

bool nccl_built() { return true; }

std::unique_ptr<Communicator> make_nccl(Communicator& bootstrap) {
  std::string why;
  const backend::cuda::CudaPlugin* p = backend::cuda::plugin(&why);
  if (p == nullptr) throw Error("NCCL communicator: the CUDA plugin could not be loaded: " + why);
  if (p->make_nccl == nullptr) throw Error("NCCL communicator: the CUDA plugin was built without NCCL");
  return std::unique_ptr<Communicator>(p->make_nccl(bootstrap, local_rank(bootstrap)));
}

}  // namespace qevolve::comm::detail
