// Built instead of nccl_communicator.cpp without the CUDA backend or without MPI (NCCL is
// bootstrapped through MPI): asking for NCCL says why it is absent.
#include "../nccl_factory.hpp"
#include "qevolve/error.hpp"

namespace qevolve::comm::detail {
bool nccl_built() { return false; }
std::unique_ptr<Communicator> make_nccl(Communicator&) {
  throw Error("this qevolve was built without NCCL (it needs the CUDA backend and MPI)");
}
}  // namespace qevolve::comm::detail
