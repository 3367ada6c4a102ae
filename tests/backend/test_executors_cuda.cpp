// The executors and the phase functor on the GPU (the same bodies as test_executors_cpu.cpp).
#include "adjoint_executor_test_body.hpp"
#include "cuda_test_backend.hpp"
#include "executor_test_body.hpp"

namespace qevolve::backend::testing {
namespace {

using CudaGateTypes = ::testing::Types<Combo<CudaBackend, double>, Combo<CudaBackend, float>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Cuda, GateExecutorTest, CudaGateTypes);
INSTANTIATE_TYPED_TEST_SUITE_P(Cuda, DenseExecutorTest, CudaBackend);
INSTANTIATE_TYPED_TEST_SUITE_P(Cuda, PhaseTest, CudaBackend);
INSTANTIATE_TYPED_TEST_SUITE_P(Cuda, AdjointExecutorTest, CudaBackend);

// The environment kernel (EnvironmentSum + atomicAdd) against the CPU's accumulate_environment.
TEST(CudaEnvironment, MatchesTheCpuKernel) {
  if (const std::string why = cuda_unavailable(); !why.empty()) GTEST_SKIP() << why;
  std::mt19937 rng(5);
  std::normal_distribution<double> nd;
  const std::vector<int> dims{3, 2, 4, 2};
  const Index width = 7, size = 48 * width;
  for (const auto& [a, b] : std::vector<GateModes>{{0, 2}, {1, 3}, {2, -1}}) {
    const GateGeometry geo = make_geometry(dims.data(), 4, a, b, width);
    std::vector<double> pr(size), pi(size), lr(size), li(size);
    for (auto* v : {&pr, &pi, &lr, &li})
      for (double& x : *v) x = nd(rng);
    const auto gg = static_cast<std::size_t>(2 * geo.size() * geo.size());
    std::vector<double> cpu(gg, 0.5), gpu(gg, 0.5);  // both add to what env holds
    accumulate_environment(pr.data(), pi.data(), lr.data(), li.data(), geo, cpu.data());
    cuda::run_accumulate_environment(pr.data(), pi.data(), lr.data(), li.data(), static_cast<std::size_t>(size), geo,
                                     gpu.data());
    for (std::size_t i = 0; i < gg; ++i) EXPECT_NEAR(gpu[i], cpu[i], 1e-12 * (1.0 + std::abs(cpu[i]))) << i;
  }
}

}  // namespace
}  // namespace qevolve::backend::testing
