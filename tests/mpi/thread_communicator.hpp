// A K-rank communicator of threads in one process, for tests of the distributed code paths
// without MPI (and under the sanitizers, where the mpirun tests do not run). Every collective
// posts the rank's data, waits for all ranks, and each rank combines the posted data in rank
// order itself, so all ranks get the same bits, as with the MPI communicator.
#pragma once

#include <algorithm>
#include <barrier>
#include <cstdlib>
#include <functional>
#include <thread>
#include <vector>

#include "qevolve/comm.hpp"

namespace qevolve::testing {

class ThreadGroup {
 public:
  explicit ThreadGroup(int size) : size_(size), sync_(size), posted_(static_cast<std::size_t>(size)) {}
  /// Runs body(comm) on `size` threads, one rank each, and joins them.
  void run(const std::function<void(comm::Communicator&)>& body);

 private:
  friend class ThreadCommunicator;
  int size_;
  std::barrier<> sync_;
  std::vector<std::vector<double>> posted_;
};

class ThreadCommunicator final : public comm::Communicator {
 public:
  ThreadCommunicator(ThreadGroup& group, int rank) : g_(group), rank_(rank) {}
  [[nodiscard]] int rank() const override { return rank_; }
  [[nodiscard]] int size() const override { return g_.size_; }
  [[nodiscard]] std::string kind() const override { return "threads"; }

  void allreduce_sum(std::span<double> v) override {
    combine(v, [](double a, double b) { return a + b; });
  }
  void allreduce_max(std::span<double> v) override {
    combine(v, [](double a, double b) { return std::max(a, b); });
  }
  void broadcast(std::span<double> v, int root) override {
    if (rank_ == root) count_bytes(v.size());
    post(v);
    std::copy(g_.posted_[static_cast<std::size_t>(root)].begin(), g_.posted_[static_cast<std::size_t>(root)].end(),
              v.begin());
    g_.sync_.arrive_and_wait();
  }
  std::vector<double> gather(std::span<const double> local, int root) override {
    std::vector<double> all = allgather(local);
    if (rank_ != root) all.clear();
    return all;
  }
  std::vector<double> allgather(std::span<const double> local) override {
    count_bytes(local.size());
    post(local);
    std::vector<double> all;
    for (const auto& p : g_.posted_) all.insert(all.end(), p.begin(), p.end());
    g_.sync_.arrive_and_wait();
    return all;
  }
  void barrier() override { g_.sync_.arrive_and_wait(); }
  void abort(int) override { std::abort(); }

 private:
  /// Posts this rank's data and waits until every rank has posted.
  void post(std::span<const double> v) {
    g_.posted_[static_cast<std::size_t>(rank_)].assign(v.begin(), v.end());
    g_.sync_.arrive_and_wait();
  }
  template <typename Op>
  void combine(std::span<double> v, Op op) {
    count_bytes(v.size());
    post(v);
    for (std::size_t i = 0; i < v.size(); ++i) {
      double acc = g_.posted_[0][i];
      for (std::size_t r = 1; r < g_.posted_.size(); ++r) acc = op(acc, g_.posted_[r][i]);
      v[i] = acc;
    }
    g_.sync_.arrive_and_wait();  // nobody posts again before everyone has read
  }

  ThreadGroup& g_;
  int rank_;
};

inline void ThreadGroup::run(const std::function<void(comm::Communicator&)>& body) {
  std::vector<std::thread> threads;
  for (int r = 0; r < size_; ++r)
    threads.emplace_back([this, r, &body] {
      ThreadCommunicator c(*this, r);
      body(c);
    });
  for (auto& t : threads) t.join();
}

}  // namespace qevolve::testing
