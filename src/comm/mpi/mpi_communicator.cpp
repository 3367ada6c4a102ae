// The MPI communicator (OpenMPI, Debian libopenmpi-dev): MPI_COMM_WORLD, initialised on first
// use with MPI_THREAD_FUNNELED (only the main thread communicates; OpenMP threads compute) and
// finalised at process exit. Every call's return code is checked.
#include <mpi.h>

#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include "../world_factory.hpp"
#include "qevolve/error.hpp"

namespace qevolve::comm {
namespace {

void check(int rc, const char* call) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  throw Error(std::string(call) + " failed: " + std::string(text, static_cast<std::size_t>(len)));
}

int to_int(std::size_t n, const char* what) {
  if (n > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw Error(std::string(what) + ": message of " + std::to_string(n) + " doubles exceeds MPI's int counts");
  return static_cast<int>(n);
}

/// Before MPI_Init: leave Open MPI's cm PML out when every rank is on this node and the user
/// chose no PML or MTL (comm::single_node_mca_defaults; docs/distributed.md).
void apply_single_node_defaults() {
  const auto env = [](const char* name) -> const char* { return std::getenv(name); };
  const auto read_file = [](const std::string& path) {
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  };
  for (const auto& [name, value] : single_node_mca_defaults(env, read_file)) setenv(name.c_str(), value.c_str(), 0);
}

/// After MPI_Init: TCP_NODELAY on the connection to the local PMIx server, which saves ~40 ms
/// of every MPI_Finalize (comm::disable_nagle_towards).
void make_pmix_connection_prompt() {
  const auto env = [](const char* name) -> const char* { return std::getenv(name); };
  if (const auto server = pmix_server_endpoint(env)) disable_nagle_towards(*server);
}

class MpiCommunicator final : public Communicator {
 public:
  MpiCommunicator() {
    int initialised = 0;
    check(MPI_Initialized(&initialised), "MPI_Initialized");
    if (!initialised) {
      apply_single_node_defaults();
      int provided = 0;
      check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
      make_pmix_connection_prompt();
      // Finalise at exit, after every other static user of the communicator is gone.
      std::atexit([] {
        int finalised = 0;
        MPI_Finalized(&finalised);
        if (!finalised) MPI_Finalize();
      });
    }
    check(MPI_Comm_rank(MPI_COMM_WORLD, &rank_), "MPI_Comm_rank");
    check(MPI_Comm_size(MPI_COMM_WORLD, &size_), "MPI_Comm_size");
  }

  [[nodiscard]] int rank() const override { return rank_; }
  [[nodiscard]] int size() const override { return size_; }
  [[nodiscard]] std::string kind() const override { return "mpi"; }

  /// Reduce on rank 0, then broadcast: MPI_Allreduce may round differently on different ranks
  /// (recursive doubling sums in rank-dependent order), and ranks that branch on a reduced
  /// value (the compensation solver does) must all see the same bits.
  void allreduce_sum(std::span<double> values) override {
    if (size_ == 1 || values.empty()) return;
    const int n = to_int(values.size(), "MPI_Reduce");
    count_bytes(values.size());
    if (rank_ == 0)
      check(MPI_Reduce(MPI_IN_PLACE, values.data(), n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD), "MPI_Reduce");
    else
      check(MPI_Reduce(values.data(), nullptr, n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD), "MPI_Reduce");
    check(MPI_Bcast(values.data(), n, MPI_DOUBLE, 0, MPI_COMM_WORLD), "MPI_Bcast");
  }

  void allreduce_max(std::span<double> values) override {
    if (size_ == 1 || values.empty()) return;
    count_bytes(values.size());
    check(MPI_Allreduce(MPI_IN_PLACE, values.data(), to_int(values.size(), "MPI_Allreduce"), MPI_DOUBLE, MPI_MAX,
                        MPI_COMM_WORLD),
          "MPI_Allreduce");
  }

  void broadcast(std::span<double> values, int root) override {
    if (size_ == 1 || values.empty()) return;
    if (rank_ == root) count_bytes(values.size());
    check(MPI_Bcast(values.data(), to_int(values.size(), "MPI_Bcast"), MPI_DOUBLE, root, MPI_COMM_WORLD),
          "MPI_Bcast");
  }

  std::vector<double> gather(std::span<const double> local, int root) override {
    if (size_ == 1) return {local.begin(), local.end()};
    if (rank_ != root) count_bytes(local.size());
    const std::vector<int> counts = exchange_counts(local.size(), root, false);
    std::vector<double> all;
    std::vector<int> offsets;
    if (rank_ == root) allocate(counts, all, offsets);
    check(MPI_Gatherv(local.data(), to_int(local.size(), "MPI_Gatherv"), MPI_DOUBLE, all.data(),
                      counts.data(), offsets.data(), MPI_DOUBLE, root, MPI_COMM_WORLD),
          "MPI_Gatherv");
    return all;
  }

  std::vector<double> allgather(std::span<const double> local) override {
    if (size_ == 1) return {local.begin(), local.end()};
    count_bytes(local.size());
    const std::vector<int> counts = exchange_counts(local.size(), 0, true);
    std::vector<double> all;
    std::vector<int> offsets;
    allocate(counts, all, offsets);
    check(MPI_Allgatherv(local.data(), to_int(local.size(), "MPI_Allgatherv"), MPI_DOUBLE, all.data(),
                         counts.data(), offsets.data(), MPI_DOUBLE, MPI_COMM_WORLD),
          "MPI_Allgatherv");
    return all;
  }

  void barrier() override { check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier"); }
  void abort(int code) override { MPI_Abort(MPI_COMM_WORLD, code); }

 private:
  /// Every rank's element count, on root (or on all ranks).
  std::vector<int> exchange_counts(std::size_t n, int root, bool all) {
    int mine = to_int(n, "gather");
    std::vector<int> counts(static_cast<std::size_t>(size_));
    if (all)
      check(MPI_Allgather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD), "MPI_Allgather");
    else
      check(MPI_Gather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, root, MPI_COMM_WORLD), "MPI_Gather");
    return counts;
  }
  static void allocate(const std::vector<int>& counts, std::vector<double>& all, std::vector<int>& offsets) {
    std::size_t total = 0;
    offsets.resize(counts.size());
    for (std::size_t r = 0; r < counts.size(); ++r) {
      offsets[r] = to_int(total, "gather");
      total += static_cast<std::size_t>(counts[r]);
    }
    all.resize(total);
  }

  int rank_ = 0, size_ = 1;
};

}  // namespace

namespace detail {
bool mpi_built() { return true; }
std::unique_ptr<Communicator> make_mpi_world() { return std::make_unique<MpiCommunicator>(); }
}  // namespace detail

}  // namespace qevolve::comm
