// Internal: what the MPI build adds (src/comm/mpi/) or the serial build stubs out
// (src/comm/mpi/no_mpi.cpp, compiled only without MPI).
#pragma once

#include <memory>

#include "qevolve/comm.hpp"

namespace qevolve::comm::detail {
[[nodiscard]] bool mpi_built();
/// MPI_COMM_WORLD (MPI initialised here; finalised at process exit).
[[nodiscard]] std::unique_ptr<Communicator> make_mpi_world();
}  // namespace qevolve::comm::detail
