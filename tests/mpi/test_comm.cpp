// The shard arithmetic and the serial communicator (the MPI one is exercised by
// test_mpi_identity through real mpirun runs).
#include <gtest/gtest.h>

#include "qevolve/comm.hpp"
#include "qevolve/error.hpp"

namespace qevolve::testing {
namespace {

TEST(BalancedShard, CoversEveryItemOnceAndDiffersByAtMostOne) {
  for (Index n : {0, 1, 4, 7, 8, 64, 4097})
    for (int size : {1, 2, 3, 4, 8}) {
      Index next = 0, lo = n, hi = 0;
      for (int r = 0; r < size; ++r) {
        const comm::Shard s = comm::balanced_shard(n, r, size);
        EXPECT_EQ(s.first, next) << n << " " << size << " " << r;
        next += s.count;
        lo = std::min(lo, s.count);
        hi = std::max(hi, s.count);
      }
      EXPECT_EQ(next, n);
      EXPECT_LE(hi - lo, 1);
    }
  // The first n % size ranks take the extra item: 7 over 3 is 3, 2, 2.
  EXPECT_EQ(comm::balanced_shard(7, 0, 3).count, 3);
  EXPECT_EQ(comm::balanced_shard(7, 2, 3).first, 5);
  EXPECT_THROW((void)comm::balanced_shard(4, 3, 3), Error);
}

TEST(SerialCommunicator, CollectivesAreIdentitiesAndCountNothing) {
  comm::SerialCommunicator c;
  EXPECT_EQ(c.size(), 1);
  EXPECT_TRUE(c.is_root());
  EXPECT_EQ(c.allreduce_sum(2.5), 2.5);
  EXPECT_EQ(c.allreduce_max(-1.0), -1.0);
  CMatrix m = CMatrix::Random(3, 2);
  const CMatrix m0 = m;
  c.allreduce_sum(m);
  EXPECT_EQ(m, m0);
  EXPECT_EQ(c.gather_columns(m, 3, 0), m0);
  EXPECT_EQ(c.allgather_columns(m, 3), m0);
  RVector v(2);
  v << 1.0, 2.0;
  c.broadcast(v, 0);
  EXPECT_EQ(v(1), 2.0);
  EXPECT_EQ(c.bytes_sent(), 0u);
  const comm::Shard all = c.shard(5);
  EXPECT_EQ(all.first, 0);
  EXPECT_EQ(all.count, 5);
}

TEST(NcclCommunicator, AbsentBuildSaysWhy) {
  if (comm::nccl_available()) GTEST_SKIP() << "built with NCCL: see test_nccl";
  comm::SerialCommunicator boot;
  try {
    (void)comm::make_nccl_communicator(boot);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "this qevolve was built without NCCL (it needs the CUDA backend and MPI)");
  }
  // A serial run never asks for NCCL, even when it computes on a GPU.
  EXPECT_EQ(comm::gpu_reductions(boot, true), nullptr);
}

}  // namespace
}  // namespace qevolve::testing
