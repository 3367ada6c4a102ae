// The local-gate functors on the GPU (the same bodies as test_local_gate_cpu.cpp).
#include "cuda_test_backend.hpp"
#include "local_gate_test_body.hpp"

namespace qevolve::backend::testing {
namespace {

using CudaTypes = ::testing::Types<Combo<CudaBackend, double>, Combo<CudaBackend, float>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Cuda, LocalGateTest, CudaTypes);

}  // namespace
}  // namespace qevolve::backend::testing
