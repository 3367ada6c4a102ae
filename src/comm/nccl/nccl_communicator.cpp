// The NCCL communicator: the same collectives as the MPI one, carried by NCCL between the GPUs
// of the ranks (one GPU per rank: local rank modulo the visible devices). MPI bootstraps it
// (rank 0's ncclUniqueId is broadcast through the MPI communicator) and stays the launcher.
// The GPU of a rank is comm::local_rank modulo the visible devices, as for the backend.
// Host spans are staged through one device buffer on the communicator's stream; NCCL's
// all-reduce is replaced, as in the MPI communicator, by reduce-to-0 + broadcast, so every rank
// sees the same bits. Built only with both the CUDA backend and MPI, into the CUDA plugin
// (libqevolve_cuda.so, backend/cuda_plugin.hpp); the comm layer reaches it through the loader
// (nccl_plugin.cpp).
#include <cuda_runtime.h>
#include <nccl.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "qevolve/comm.hpp"
#include "qevolve/error.hpp"

namespace qevolve::comm {
namespace {

void check_cuda(cudaError_t rc, const char* call) {
  if (rc != cudaSuccess) throw Error(std::string(call) + " failed: " + cudaGetErrorString(rc));
}
void check_nccl(ncclResult_t rc, const char* call) {
  if (rc != ncclSuccess) throw Error(std::string(call) + " failed: " + ncclGetErrorString(rc));
}

class NcclCommunicator final : public Communicator {
 public:
  NcclCommunicator(Communicator& bootstrap, int node_rank) : bootstrap_(bootstrap) {
    rank_ = bootstrap.rank();
    size_ = bootstrap.size();
    int devices = 0;
    check_cuda(cudaGetDeviceCount(&devices), "cudaGetDeviceCount");
    if (devices == 0) throw Error("NCCL communicator: no CUDA device");
    device_ = node_rank % devices;
    check_cuda(cudaSetDevice(device_), "cudaSetDevice");
    ncclUniqueId id{};
    if (rank_ == 0) check_nccl(ncclGetUniqueId(&id), "ncclGetUniqueId");
    // The id travels as doubles through the bootstrap communicator (128 bytes).
    std::vector<double> raw((sizeof id + sizeof(double) - 1) / sizeof(double), 0.0);
    std::copy_n(reinterpret_cast<const char*>(&id), sizeof id, reinterpret_cast<char*>(raw.data()));
    bootstrap.broadcast(std::span<double>(raw), 0);
    std::copy_n(reinterpret_cast<const char*>(raw.data()), sizeof id, reinterpret_cast<char*>(&id));
    check_nccl(ncclCommInitRank(&comm_, size_, id, rank_), "ncclCommInitRank");
    check_cuda(cudaStreamCreate(&stream_), "cudaStreamCreate");
  }
  ~NcclCommunicator() override {
    if (buffer_ != nullptr) cudaFree(buffer_);
    if (stream_ != nullptr) cudaStreamDestroy(stream_);
    if (comm_ != nullptr) ncclCommDestroy(comm_);
  }
  NcclCommunicator(const NcclCommunicator&) = delete;
  NcclCommunicator& operator=(const NcclCommunicator&) = delete;

  [[nodiscard]] int rank() const override { return rank_; }
  [[nodiscard]] int size() const override { return size_; }
  [[nodiscard]] std::string kind() const override { return "nccl"; }

  void allreduce_sum(std::span<double> values) override {
    if (values.empty()) return;
    count_bytes(values.size());
    double* d = stage_in(values.data(), values.size());
    check_nccl(ncclReduce(d, d, values.size(), ncclDouble, ncclSum, 0, comm_, stream_), "ncclReduce");
    check_nccl(ncclBroadcast(d, d, values.size(), ncclDouble, 0, comm_, stream_), "ncclBroadcast");
    stage_out(values.data(), values.size());
  }
  void allreduce_max(std::span<double> values) override {
    if (values.empty()) return;
    count_bytes(values.size());
    double* d = stage_in(values.data(), values.size());
    check_nccl(ncclAllReduce(d, d, values.size(), ncclDouble, ncclMax, comm_, stream_), "ncclAllReduce");
    stage_out(values.data(), values.size());
  }
  void broadcast(std::span<double> values, int root) override {
    if (values.empty()) return;
    if (rank_ == root) count_bytes(values.size());
    double* d = stage_in(values.data(), values.size());
    check_nccl(ncclBroadcast(d, d, values.size(), ncclDouble, root, comm_, stream_), "ncclBroadcast");
    stage_out(values.data(), values.size());
  }
  /// Variable counts: NCCL's all-gather needs equal counts, so every rank's part is padded to
  /// the largest (the counts themselves travel first).
  std::vector<double> allgather(std::span<const double> local) override {
    count_bytes(local.size());
    std::vector<double> counts(static_cast<std::size_t>(size_), 0.0);
    counts[static_cast<std::size_t>(rank_)] = static_cast<double>(local.size());
    allreduce_sum(std::span<double>(counts));
    const auto widest = static_cast<std::size_t>(*std::max_element(counts.begin(), counts.end()));
    std::vector<double> padded(widest, 0.0);
    std::copy(local.begin(), local.end(), padded.begin());
    const std::size_t total = widest * static_cast<std::size_t>(size_);
    reserve(total + widest);
    double* send = buffer_ + total;
    if (widest > 0) {
      check_cuda(cudaMemcpyAsync(send, padded.data(), widest * sizeof(double), cudaMemcpyHostToDevice, stream_),
                 "cudaMemcpyAsync");
      check_nccl(ncclAllGather(send, buffer_, widest, ncclDouble, comm_, stream_), "ncclAllGather");
    }
    std::vector<double> all(total);
    stage_out(all.data(), total);
    std::vector<double> out;
    for (int r = 0; r < size_; ++r) {
      const auto* part = all.data() + static_cast<std::size_t>(r) * widest;
      out.insert(out.end(), part, part + static_cast<std::size_t>(counts[static_cast<std::size_t>(r)]));
    }
    return out;
  }
  std::vector<double> gather(std::span<const double> local, int root) override {
    std::vector<double> all = allgather(local);
    if (rank_ != root) all.clear();
    return all;
  }
  void barrier() override {
    double x = 0.0;
    allreduce_sum(std::span<double>(&x, 1));
  }
  void abort(int code) override {
    ncclCommAbort(comm_);
    comm_ = nullptr;
    bootstrap_.abort(code);
  }

 private:
  void reserve(std::size_t n) {
    if (n <= capacity_) return;
    if (buffer_ != nullptr) check_cuda(cudaFree(buffer_), "cudaFree");
    buffer_ = nullptr;
    check_cuda(cudaMalloc(reinterpret_cast<void**>(&buffer_), n * sizeof(double)), "cudaMalloc");
    capacity_ = n;
  }
  double* stage_in(const double* host, std::size_t n) {
    reserve(n);
    check_cuda(cudaMemcpyAsync(buffer_, host, n * sizeof(double), cudaMemcpyHostToDevice, stream_),
               "cudaMemcpyAsync");
    return buffer_;
  }
  void stage_out(double* host, std::size_t n) {
    if (n > 0)
      check_cuda(cudaMemcpyAsync(host, buffer_, n * sizeof(double), cudaMemcpyDeviceToHost, stream_),
                 "cudaMemcpyAsync");
    check_cuda(cudaStreamSynchronize(stream_), "cudaStreamSynchronize");
  }

  Communicator& bootstrap_;
  int rank_ = 0, size_ = 1, device_ = 0;
  ncclComm_t comm_ = nullptr;
  cudaStream_t stream_ = nullptr;
  double* buffer_ = nullptr;
  std::size_t capacity_ = 0;
};

}  // namespace

namespace nccl_impl {
Communicator* make_nccl(Communicator& bootstrap, int node_rank) {
  return new NcclCommunicator(bootstrap, node_rank);
}
}  // namespace nccl_impl

}  // namespace qevolve::comm
