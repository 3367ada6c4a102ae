// The executors and the phase functor on the GPU (the same bodies as test_executors_cpu.cpp).
#include "cuda_test_backend.hpp"
#include "executor_test_body.hpp"

namespace qevolve::backend::testing {
namespace {

using CudaGateTypes = ::testing::Types<Combo<CudaBackend, double>, Combo<CudaBackend, float>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Cuda, GateExecutorTest, CudaGateTypes);
INSTANTIATE_TYPED_TEST_SUITE_P(Cuda, DenseExecutorTest, CudaBackend);
INSTANTIATE_TYPED_TEST_SUITE_P(Cuda, PhaseTest, CudaBackend);

}  // namespace
}  // namespace qevolve::backend::testing
