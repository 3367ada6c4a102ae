// One GPU per rank (docs/distributed.md): a distributed run that may compute on CUDA binds each
// rank to device local_rank modulo the visible devices before the simulator is built.
#pragma once

#include "qevolve/comm.hpp"
#include "qevolve/config.hpp"

namespace qevolve::commands {

/// Does nothing for one process, for `device: cpu`, without the CUDA backend or without a
/// device (the selection then reports what it found).
void bind_rank_device(const comm::Communicator& world, const Config& config);

}  // namespace qevolve::commands
