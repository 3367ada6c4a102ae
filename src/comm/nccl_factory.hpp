// Internal: the NCCL communicator (src/comm/nccl/), or its absence.
#pragma once

#include <memory>

#include "qevolve/comm.hpp"

namespace qevolve::comm::detail {
[[nodiscard]] bool nccl_built();
/// A communicator over the same ranks as `bootstrap` (an MPI communicator), one GPU per rank.
[[nodiscard]] std::unique_ptr<Communicator> make_nccl(Communicator& bootstrap);
}  // namespace qevolve::comm::detail
