// `--threads N` bounds OpenBLAS as well as qevolve's own threads (linalg::set_blas_threads):
// without it OpenBLAS keeps one spinning worker per core even for a one-thread run.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>

#include "qevolve/linalg.hpp"

namespace qevolve {
namespace {

TEST(BlasThreads, FollowTheThreadsOption) {
  EXPECT_EQ(linalg::set_blas_threads(1), 1);
  // 0 = all cores (OpenBLAS may cap it at its build-time maximum, never above the cores).
  const int all = linalg::set_blas_threads(0);
  EXPECT_GE(all, 1);
  EXPECT_LE(all, std::max(1, omp_get_num_procs()));
  if (omp_get_num_procs() >= 2) {
    EXPECT_EQ(linalg::set_blas_threads(2), 2);
  }
  linalg::set_blas_threads(0);
}

}  // namespace
}  // namespace qevolve
