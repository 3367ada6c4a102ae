#include "cuda_check.hpp"

#include "qevolve/error.hpp"

namespace qevolve::backend::cuda::impl {
namespace {

const char* cusolver_status_name(cusolverStatus_t s) {
  switch (s) {
    case CUSOLVER_STATUS_SUCCESS: return "CUSOLVER_STATUS_SUCCESS";
    case CUSOLVER_STATUS_NOT_INITIALIZED: return "CUSOLVER_STATUS_NOT_INITIALIZED";
    case CUSOLVER_STATUS_ALLOC_FAILED: return "CUSOLVER_STATUS_ALLOC_FAILED";
    case CUSOLVER_STATUS_INVALID_VALUE: return "CUSOLVER_STATUS_INVALID_VALUE";
    case CUSOLVER_STATUS_ARCH_MISMATCH: return "CUSOLVER_STATUS_ARCH_MISMATCH";
    case CUSOLVER_STATUS_EXECUTION_FAILED: return "CUSOLVER_STATUS_EXECUTION_FAILED";
    case CUSOLVER_STATUS_INTERNAL_ERROR: return "CUSOLVER_STATUS_INTERNAL_ERROR";
    case CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED: return "CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED";
    case CUSOLVER_STATUS_NOT_SUPPORTED: return "CUSOLVER_STATUS_NOT_SUPPORTED";
    default: return nullptr;
  }
}

[[noreturn]] void fail(const std::string& call, const std::string& said) {
  throw Error("CUDA: " + call + " failed: " + said);
}

}  // namespace

void check(cudaError_t status, const std::string& call) {
  if (status == cudaSuccess) return;
  fail(call, std::string(cudaGetErrorName(status)) + " (" + cudaGetErrorString(status) + ")");
}

void check(cublasStatus_t status, const std::string& call) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  fail(call, cublasGetStatusName(status));
}

void check(cusolverStatus_t status, const std::string& call) {
  if (status == CUSOLVER_STATUS_SUCCESS) return;
  const char* name = cusolver_status_name(status);
  fail(call, name != nullptr ? std::string(name) : "cuSOLVER status " + std::to_string(static_cast<int>(status)));
}

void check_launch(const std::string& kernel) { check(cudaGetLastError(), "launch of " + kernel); }

}  // namespace qevolve::backend::cuda::impl
