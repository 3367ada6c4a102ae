// The CUDA backend as the test bodies see it (built only with QEVOLVE_HAVE_CUDA): every test
// skips, visibly, when cudaGetDeviceCount reports no device or fails.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "qevolve/backend/cuda.hpp"

namespace qevolve::backend::testing {

/// "" when a CUDA device is present, otherwise why the GPU tests skip.
inline std::string cuda_unavailable() {
  const cuda::DeviceQuery q = cuda::query_devices();
  return q.count > 0 ? std::string() : "no CUDA device: cudaGetDeviceCount said: " + q.said;
}

struct CudaBackend {
  static constexpr const char* name = "cuda";
  static std::string unavailable() { return cuda_unavailable(); }
  // local_gate_test_body.hpp
  static constexpr bool has_accumulate = false;  // the adaptive solver runs on the CPU only
  template <class Real>
  static void apply(Real* re, Real* im, const GateGeometry& geo, const Real* gate, std::size_t n) {
    cuda::run_apply_gate(re, im, n, geo, gate);
  }
  // executor_test_body.hpp
  template <class Real>
  static std::unique_ptr<GateExecutor<Real>> gate_executor(const GateSchedule& s, Index columns, Index, int,
                                                           int chunk_steps) {
    return cuda::make_gate_executor<Real>(s, columns, chunk_steps);
  }
  static std::unique_ptr<DenseExecutor> dense_executor(Index dim, Index columns) {
    return cuda::make_dense_executor(dim, columns);
  }
  // adjoint_executor_test_body.hpp (the CUDA executor keeps all columns in one block; the
  // chunk bound is the test's largest chunk)
  static std::unique_ptr<AdjointExecutor> adjoint_executor(const GateSchedule& s, std::vector<bool> environment,
                                                           Index columns, Index, int) {
    return cuda::make_adjoint_executor(s, std::move(environment), columns, 8);
  }
  static void apply_phases(const double* v, double* w, const double* lambda, double scale, std::ptrdiff_t rows,
                           std::ptrdiff_t cols) {
    cuda::run_apply_phases(v, w, lambda, scale, rows, cols);
  }
};

}  // namespace qevolve::backend::testing
