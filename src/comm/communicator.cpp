// The communicator conveniences (complex and Eigen views over the double primitives), the
// balanced shard, and the process's world communicator.
#include <cstdlib>

#include "qevolve/comm.hpp"
#include "qevolve/error.hpp"
#include "nccl_factory.hpp"
#include "world_factory.hpp"

namespace qevolve::comm {

Shard balanced_shard(Index n, int rank, int size) {
  if (size <= 0 || rank < 0 || rank >= size || n < 0) throw Error("balanced_shard: invalid rank or size");
  const Index base = n / size, extra = n % size;
  const Index r = rank;
  return {r * base + std::min(r, extra), base + (r < extra ? 1 : 0)};
}

namespace {
std::span<double> as_doubles(cplx* p, Index n) {
  // std::complex<double> is layout-compatible with double[2] ([complex.numbers.general]).
  return {reinterpret_cast<double*>(p), static_cast<std::size_t>(2 * n)};
}
std::span<const double> as_doubles(const cplx* p, Index n) {
  return {reinterpret_cast<const double*>(p), static_cast<std::size_t>(2 * n)};
}
}  // namespace

void Communicator::allreduce_sum(std::span<cplx> values) {
  allreduce_sum(as_doubles(values.data(), static_cast<Index>(values.size())));
}
void Communicator::allreduce_sum(RVector& values) {
  allreduce_sum(std::span<double>(values.data(), static_cast<std::size_t>(values.size())));
}
void Communicator::allreduce_sum(CMatrix& values) { allreduce_sum(as_doubles(values.data(), values.size())); }
double Communicator::allreduce_sum(double value) {
  allreduce_sum(std::span<double>(&value, 1));
  return value;
}
double Communicator::allreduce_max(double value) {
  allreduce_max(std::span<double>(&value, 1));
  return value;
}
cplx Communicator::allreduce_sum(cplx value) {
  allreduce_sum(as_doubles(&value, 1));
  return value;
}
void Communicator::broadcast(RVector& values, int root) {
  auto n = static_cast<double>(values.size());
  broadcast(std::span<double>(&n, 1), root);
  values.resize(static_cast<Index>(n));
  broadcast(std::span<double>(values.data(), static_cast<std::size_t>(values.size())), root);
}
void Communicator::broadcast(CMatrix& values, int root) {
  double shape[2] = {static_cast<double>(values.rows()), static_cast<double>(values.cols())};
  broadcast(std::span<double>(shape, 2), root);
  values.resize(static_cast<Index>(shape[0]), static_cast<Index>(shape[1]));
  broadcast(as_doubles(values.data(), values.size()), root);
}

namespace {
CMatrix columns_from(const std::vector<double>& all, Index rows) {
  const Index total = rows == 0 ? 0 : static_cast<Index>(all.size()) / (2 * rows);
  CMatrix out(rows, total);
  std::copy(all.begin(), all.end(), reinterpret_cast<double*>(out.data()));
  return out;
}
}  // namespace

CMatrix Communicator::gather_columns(const CMatrix& local, Index rows, int root) {
  if (local.cols() > 0 && local.rows() != rows) throw Error("gather_columns: row count mismatch");
  const std::vector<double> all = gather(as_doubles(local.data(), local.size()), root);
  if (rank() != root) return {};
  return columns_from(all, rows);
}
CMatrix Communicator::allgather_columns(const CMatrix& local, Index rows) {
  if (local.cols() > 0 && local.rows() != rows) throw Error("allgather_columns: row count mismatch");
  return columns_from(allgather(as_doubles(local.data(), local.size())), rows);
}

bool launched_by_mpi() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS"})
    if (std::getenv(v) != nullptr) return true;
  return false;
}

bool mpi_available() { return detail::mpi_built(); }

int local_rank(const Communicator& world) {
  for (const char* v : {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"})
    if (const char* s = std::getenv(v)) return std::atoi(s);
  return world.rank();
}

bool nccl_available() { return detail::nccl_built(); }

std::unique_ptr<Communicator> make_nccl_communicator(Communicator& bootstrap) { return detail::make_nccl(bootstrap); }

std::unique_ptr<Communicator> gpu_reductions(Communicator& world, bool gpu) {
  if (world.size() == 1 || !detail::nccl_built()) return nullptr;
  // Every rank must agree (a rank without a GPU keeps everyone on MPI).
  if (world.allreduce_sum(gpu ? 1.0 : 0.0) != static_cast<double>(world.size())) return nullptr;
  return detail::make_nccl(world);
}

Communicator& world() {
  static std::unique_ptr<Communicator> instance = [] {
    if (!launched_by_mpi()) return std::unique_ptr<Communicator>(std::make_unique<SerialCommunicator>());
    if (!detail::mpi_built())
      throw InputError(
          "started by an MPI launcher, but this qevolve was built without MPI (install libopenmpi-dev "
          "and rebuild with -DQEVOLVE_ENABLE_MPI=ON)");
    return detail::make_mpi_world();
  }();
  return *instance;
}

}  // namespace qevolve::comm
