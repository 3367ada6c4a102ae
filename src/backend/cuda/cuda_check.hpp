// Checked CUDA, cuBLAS and cuSOLVER calls: a failure becomes qevolve::Error naming the call
// and what the library said.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cusolverDn.h>

#include <string>

namespace qevolve::backend::cuda::impl {

/// Throws qevolve::Error "CUDA: <call> failed: <error name> (<description>)" unless success.
void check(cudaError_t status, const std::string& call);
void check(cublasStatus_t status, const std::string& call);
void check(cusolverStatus_t status, const std::string& call);
/// After a kernel launch: the launch error (cudaGetLastError), if any.
void check_launch(const std::string& kernel);

}  // namespace qevolve::backend::cuda::impl
