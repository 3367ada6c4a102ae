// The threading policy's team (qevolve/backend/parallel.hpp): Team::in_order, the merge of
// per-thread sums that the adjoint executors and the gate contraction use, so that a gradient
// has the same bits on every run at a given thread count.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <thread>
#include <vector>

#include "qevolve/backend/parallel.hpp"

namespace qevolve::backend::testing {
namespace {

TEST(Team, InOrderRunsEveryThreadOnceInThreadOrder) {
  std::vector<int> order;
  int size = 0;
  run_team(4, true, [&](Team& team) {
    team.in_order([&] { order.push_back(team.thread()); });
    if (team.thread() == 0) size = team.size();
  });
  ASSERT_GE(size, 1);
  std::vector<int> expected(static_cast<std::size_t>(size));
  for (int t = 0; t < size; ++t) expected[static_cast<std::size_t>(t)] = t;
  EXPECT_EQ(order, expected);
}

// Per-thread sums over for_static shares, merged by in_order: the total is the serial sum of the
// shares' sums in thread order, bit for bit, on every one of 50 runs. A merge in arrival order
// (Team::critical, what the adjoint executors used) fails here: the threads arrive in reverse.
TEST(Team, InOrderMergeOfStaticSharesGivesTheSameBitsEveryRun) {
  const std::size_t n = 4099;
  std::vector<int> owner(n, -1);  // each index's thread: contiguous shares in thread order
  run_team(4, true, [&](Team& team) {
    team.for_static(0, static_cast<Index>(n), [&](Index i) { owner[static_cast<std::size_t>(i)] = team.thread(); });
  });
  // Each share sums to one of 1e16, 1, -1e16, 1 (by thread): in thread order the total is 1, in
  // reverse order 0 (1 + 1e16 rounds to 1e16).
  const double values[] = {1e16, 1.0, -1e16, 1.0};
  std::vector<double> x(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_GE(owner[i], 0);
    if (i == 0 || owner[i] != owner[i - 1]) {
      ASSERT_TRUE(i == 0 || owner[i] > owner[i - 1]) << "static shares are contiguous, in thread order";
      x[i] = values[owner[i] % 4];
    }
  }
  double expected = 0.0;  // the shares' sums added serially in thread order
  for (std::size_t i = 0; i < n; ++i) expected += x[i];
  for (int run = 0; run < 50; ++run) {
    double total = 0.0;
    run_team(4, true, [&](Team& team) {
      double mine = 0.0;
      team.for_static(0, static_cast<Index>(n), [&](Index i) { mine += x[static_cast<std::size_t>(i)]; });
      // The threads arrive in reverse order (the last first): a merge in arrival order would
      // add the shares in another order than the expected one.
      std::this_thread::sleep_for(std::chrono::milliseconds(2 * (team.size() - 1 - team.thread())));
      team.in_order([&] { total += mine; });
    });
    ASSERT_EQ(std::memcmp(&total, &expected, sizeof total), 0) << "run " << run << ": " << total << " vs " << expected;
  }
}

}  // namespace
}  // namespace qevolve::backend::testing
