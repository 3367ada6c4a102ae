// The distributed fidelity (src/fidelity/distributed.cpp) on K in-process ranks
// (thread_communicator.hpp) against the single-process evaluate_fidelity: the same F, leakage
// and canonical angles (docs/reference.md "Distributed runs": F to 1e-12, angles to 1e-8) on every rank, for none, vz and
// single_qubit, with uneven shards and ranks without columns. Runs in the sanitizer build too.
#include <gtest/gtest.h>

#include <random>

#include "fidelity/fidelity_test_util.hpp"
#include "qevolve/fidelity.hpp"
#include "thread_communicator.hpp"

namespace qevolve::testing {
namespace {

using fidelity::testing::kron_all;
using fidelity::testing::random_unitary;
using fidelity::testing::powm;

TEST(DistributedFidelity, EqualsOneProcessOnEveryRank) {
  std::mt19937_64 rng(7);
  for (int n : {2, 3}) {
    const Index d = Index{1} << n;
    const CMatrix target = random_unitary(d, rng);
    std::vector<CMatrix> pre, post;
    for (int q = 0; q < n; ++q) {
      pre.push_back(random_unitary(2, rng));
      post.push_back(random_unitary(2, rng));
    }
    // A slightly leaky, imperfect gate behind random single-qubit layers.
    const CMatrix u = 0.999 * kron_all(post) * target * powm(random_unitary(d, rng), 0.05) * kron_all(pre);
    for (Compensation kind : {Compensation::none, Compensation::vz, Compensation::single_qubit}) {
      const fidelity::FidelityResult serial = fidelity::evaluate_fidelity(u, target, kind);
      for (int ranks : {1, 2, 3, 4, 8}) {
        std::vector<fidelity::FidelityResult> got(static_cast<std::size_t>(ranks));
        ThreadGroup group(ranks);
        group.run([&](comm::Communicator& c) {
          const comm::Shard s = c.shard(d);
          got[static_cast<std::size_t>(c.rank())] =
              fidelity::evaluate_fidelity(CMatrix(u.middleCols(s.first, s.count)), s.first, target, kind, c);
        });
        for (const auto& r : got) {
          const std::string where = "n=" + std::to_string(n) + " kind=" + std::to_string(static_cast<int>(kind)) +
                                    " ranks=" + std::to_string(ranks);
          EXPECT_NEAR(r.fidelity, serial.fidelity, 1e-12) << where;
          EXPECT_NEAR(r.fidelity_uncompensated, serial.fidelity_uncompensated, 1e-12) << where;
          EXPECT_NEAR(r.leakage, serial.leakage, 1e-12) << where;
          ASSERT_EQ(r.angles.size(), serial.angles.size()) << where;
          if (r.angles.size() > 0) {
            EXPECT_LT((r.angles - serial.angles).cwiseAbs().maxCoeff(), 1e-8) << where;
          }
          // Every rank holds the same bits (the solver branched identically everywhere).
          EXPECT_EQ(r.fidelity, got.front().fidelity) << where;
          if (r.angles.size() > 0) {
            EXPECT_EQ(r.angles, got.front().angles) << where;
          }
        }
      }
    }
  }
}

TEST(DistributedFidelity, NanOnOneRankFailsOnEveryRank) {
  const Index d = 4;
  CMatrix u = CMatrix::Identity(d, d);
  u(3, 3) = cplx(std::numeric_limits<double>::quiet_NaN(), 0.0);
  ThreadGroup group(2);
  std::vector<int> threw(2, 0);
  group.run([&](comm::Communicator& c) {
    const comm::Shard s = c.shard(d);
    try {
      (void)fidelity::evaluate_fidelity(CMatrix(u.middleCols(s.first, s.count)), s.first, CMatrix::Identity(d, d),
                                        Compensation::vz, c);
    } catch (const NumericalError&) {
      threw[static_cast<std::size_t>(c.rank())] = 1;
    }
  });
  EXPECT_EQ(threw, (std::vector<int>{1, 1}));  // no rank left waiting in a reduction
}

}  // namespace
}  // namespace qevolve::testing
