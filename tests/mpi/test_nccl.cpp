// The NCCL communicator on a GPU (one rank, bootstrapped by the serial communicator). Built
// with NCCL only; skips with a visible message where no CUDA device exists (every machine of
// this project's CI): the code is compiled, not run, there.
#include <gtest/gtest.h>

#include "qevolve/backend/cuda.hpp"
#include "qevolve/comm.hpp"

namespace qevolve::testing {
namespace {

TEST(Nccl, CollectivesOnOneGpu) {
  const backend::cuda::DeviceQuery q = backend::cuda::query_devices();  // loads the CUDA plugin
  if (q.count == 0)
    GTEST_SKIP() << "no CUDA device (" << q.said << "): the NCCL communicator is compiled but not exercised here";
  comm::SerialCommunicator boot;
  const auto c = comm::make_nccl_communicator(boot);
  EXPECT_EQ(c->kind(), "nccl");
  EXPECT_EQ(c->size(), 1);
  EXPECT_EQ(c->allreduce_sum(2.5), 2.5);
  EXPECT_EQ(c->allreduce_max(-3.0), -3.0);
  const CMatrix m = CMatrix::Random(5, 3);
  EXPECT_EQ(c->allgather_columns(m, 5), m);
  EXPECT_EQ(c->gather_columns(m, 5, 0), m);
  RVector v = RVector::LinSpaced(4, 0.0, 3.0);
  c->broadcast(v, 0);
  EXPECT_EQ(v(3), 3.0);
  EXPECT_GT(c->bytes_sent(), 0u);
}

}  // namespace
}  // namespace qevolve::testing
