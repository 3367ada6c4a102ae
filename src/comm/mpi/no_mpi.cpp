// Built instead of mpi_communicator.cpp when MPI is not available (QEVOLVE_ENABLE_MPI=OFF or
// not found): world() stays serial and a run started by mpirun is refused with a clear error.
#include "../world_factory.hpp"
#include "qevolve/error.hpp"

namespace qevolve::comm::detail {
bool mpi_built() { return false; }
std::unique_ptr<Communicator> make_mpi_world() { throw Error("this qevolve was built without MPI"); }
}  // namespace qevolve::comm::detail
