// Communicators (issue "scale-out", docs/distributed.md): the initial states of a run are split
// into balanced shards, one per rank; ranks reduce only the few numbers the objective and the
// gradient need and gather the evolved columns on rank 0 only for output. Implementations:
// serial (always), MPI (OpenMPI, built when found), NCCL (with the CUDA backend). Every
// collective counts the bytes this rank sends, so a run can report what it communicated.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "qevolve/types.hpp"

namespace qevolve::comm {

/// A contiguous range [first, first + count) of the n items (columns, density inputs) of a run.
struct Shard {
  Index first = 0;
  Index count = 0;
};

/// Balanced split of n items over `size` ranks: the first n % size ranks get one more item.
/// Uneven sizes are allowed (a rank may get zero items when n < size).
[[nodiscard]] Shard balanced_shard(Index n, int rank, int size);

class Communicator {
 public:
  virtual ~Communicator() = default;
  [[nodiscard]] virtual int rank() const = 0;
  [[nodiscard]] virtual int size() const = 0;
  /// "serial", "mpi", "nccl".
  [[nodiscard]] virtual std::string kind() const = 0;

  /// In-place element-wise sum over all ranks (every rank gets the total).
  virtual void allreduce_sum(std::span<double> values) = 0;
  /// In-place element-wise maximum over all ranks (exact: no rounding).
  virtual void allreduce_max(std::span<double> values) = 0;
  /// Rank `root`'s values replace everyone's.
  virtual void broadcast(std::span<double> values, int root) = 0;
  /// Gathers each rank's `local` doubles on `root` in rank order (counts may differ per rank;
  /// every rank passes its own). Returns the concatenation on root and an empty vector elsewhere.
  virtual std::vector<double> gather(std::span<const double> local, int root) = 0;
  /// Every rank gets the concatenation in rank order.
  virtual std::vector<double> allgather(std::span<const double> local) = 0;
  virtual void barrier() = 0;
  /// Ends every rank of a distributed run at once with exit code `code` (a failure on one rank
  /// would otherwise leave the others waiting in a collective). Serial: does nothing (the
  /// caller returns the code itself).
  virtual void abort(int code) = 0;

  /// Bytes this rank has put into collectives since construction (or the last reset): the
  /// payload, not the transport's own overhead.
  [[nodiscard]] std::uint64_t bytes_sent() const { return bytes_sent_; }
  void reset_bytes() { bytes_sent_ = 0; }

  // --- conveniences built on the primitives ----------------------------------------------
  [[nodiscard]] bool is_root() const { return rank() == 0; }
  [[nodiscard]] Shard shard(Index n) const { return balanced_shard(n, rank(), size()); }
  void allreduce_sum(std::span<cplx> values);
  void allreduce_sum(RVector& values);
  void allreduce_sum(CMatrix& values);
  [[nodiscard]] double allreduce_sum(double value);
  [[nodiscard]] double allreduce_max(double value);
  [[nodiscard]] cplx allreduce_sum(cplx value);
  void broadcast(RVector& values, int root);
  void broadcast(CMatrix& values, int root);
  /// Column shards (rows x local cols each, in rank order) -> rows x total on root, empty
  /// elsewhere. `rows` is given so a rank with zero columns still agrees on the shape.
  [[nodiscard]] CMatrix gather_columns(const CMatrix& local, Index rows, int root);
  /// The same, every rank receiving the whole matrix.
  [[nodiscard]] CMatrix allgather_columns(const CMatrix& local, Index rows);

 protected:
  void count_bytes(std::size_t doubles) { bytes_sent_ += 8u * doubles; }

 private:
  std::uint64_t bytes_sent_ = 0;
};

/// One process: collectives are identities (nothing is counted as sent).
class SerialCommunicator final : public Communicator {
 public:
  [[nodiscard]] int rank() const override { return 0; }
  [[nodiscard]] int size() const override { return 1; }
  [[nodiscard]] std::string kind() const override { return "serial"; }
  void allreduce_sum(std::span<double>) override {}
  void allreduce_max(std::span<double>) override {}
  void broadcast(std::span<double>, int) override {}
  std::vector<double> gather(std::span<const double> local, int) override {
    return {local.begin(), local.end()};
  }
  std::vector<double> allgather(std::span<const double> local) override {
    return {local.begin(), local.end()};
  }
  void barrier() override {}
  void abort(int) override {}
  using Communicator::allreduce_max;
  using Communicator::allreduce_sum;
  using Communicator::broadcast;
};

/// True when this qevolve was built with MPI.
[[nodiscard]] bool mpi_available();
/// True when the process was started by an MPI launcher (mpirun/mpiexec/srun set the
/// environment; a plain start stays serial and never initialises MPI).
[[nodiscard]] bool launched_by_mpi();

/// An Open MPI MCA parameter file; `system`: the installation's own (defaults, not a choice).
struct McaParamFile {
  std::string path;
  bool system = false;
};
/// The MCA parameter files Open MPI reads, in precedence order: OMPI_MCA_mca_base_param_files
/// (colon-separated) when set; else ~/.openmpi/mca-params.conf, then the system files
/// ($OPAL_PREFIX/etc/openmpi-mca-params.conf, /etc/openmpi/openmpi-mca-params.conf).
[[nodiscard]] std::vector<McaParamFile> mca_param_files(const std::function<const char*(const char*)>& env);

/// The MCA settings qevolve adds before MPI_Init when Open MPI started every rank on one node
/// (OMPI_COMM_WORLD_LOCAL_SIZE == OMPI_COMM_WORLD_SIZE) and the user chose no PML or MTL: none
/// in the environment (OMPI_MCA_pml, OMPI_MCA_mtl; mpirun --mca and -x set these), no
/// mpirun -am / --tune file (OMPI_MCA_mca_base_param_file_prefix, ..._envar_file_prefix), no
/// `pml` or `mtl` line in the user's parameter file. Then {"OMPI_MCA_pml", "^cm"}, or the system
/// file's `pml` exclusion list with cm added (Debian's `^ucx` gives `^ucx,cm`); empty when the
/// system file names the PMLs or MTLs to use, or already excludes cm. The cm PML only drives
/// the inter-node fabrics' MTLs (PSM, PSM2, OFI), whose probes cost ~0.2 s of every MPI_Init
/// on a machine without that hardware; on one node shared memory carries the messages. `env`
/// looks a variable up (nullptr: unset); `read_file` returns a file's text (empty when it
/// cannot be read). docs/distributed.md "Start-up on one machine".
[[nodiscard]] std::vector<std::pair<std::string, std::string>> single_node_mca_defaults(
    const std::function<const char*(const char*)>& env,
    const std::function<std::string(const std::string&)>& read_file);

/// A TCP endpoint: an address in text (IPv4, or IPv6 without brackets) and a port.
struct TcpEndpoint {
  std::string address;
  int port = 0;
  bool ipv6 = false;
};
/// The local PMIx server's endpoint, from the first of PMIX_SERVER_URI41, ..._URI4, ..._URI3,
/// ..._URI21, ..._URI2 that is set ("NSPACE.RANK;tcp4://127.0.0.1:PORT" or
/// "...;tcp6://[::1]:PORT"); nullopt when none is set or it is not a TCP URI.
[[nodiscard]] std::optional<TcpEndpoint> pmix_server_endpoint(const std::function<const char*(const char*)>& env);
/// Sets TCP_NODELAY on this process's stream sockets connected to `server` and returns how
/// many. Called after MPI_Init on the rank's connection to its PMIx server: with Nagle's
/// algorithm on, MPI_Finalize's messages waited for Linux's 40 ms delayed acknowledgement
/// (src/comm/pmix_server_socket.cpp; docs/distributed.md "Start-up on one machine").
int disable_nagle_towards(const TcpEndpoint& server);

/// This rank's index among the ranks on its node (OMPI_COMM_WORLD_LOCAL_RANK, MPI_LOCALRANKID,
/// SLURM_LOCALID), or world.rank() when the launcher sets none: one GPU per rank is the local
/// rank modulo the visible devices.
[[nodiscard]] int local_rank(const Communicator& world);

/// True when this qevolve was built with NCCL (CUDA backend and MPI).
[[nodiscard]] bool nccl_available();
/// An NCCL communicator over the ranks of `bootstrap` (MPI), one GPU per rank (local rank
/// modulo the visible devices). Error if NCCL was not built or no GPU is present.
[[nodiscard]] std::unique_ptr<Communicator> make_nccl_communicator(Communicator& bootstrap);

/// The communicator for the reductions of a run on `world`: an NCCL communicator when the run
/// is distributed (size > 1), every rank computes on a GPU (`gpu`, i.e. evolution.device:
/// cuda) and NCCL was built; otherwise nullptr (use `world` itself).
[[nodiscard]] std::unique_ptr<Communicator> gpu_reductions(Communicator& world, bool gpu);

/// The communicator of this process: MPI over all ranks when launched by mpirun (MPI is
/// initialised on first use and finalised at exit), serial otherwise. Error if launched by
/// mpirun but built without MPI.
[[nodiscard]] Communicator& world();

}  // namespace qevolve::comm
