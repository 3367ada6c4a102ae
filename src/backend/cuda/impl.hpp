// Inside the CUDA plugin (libqevolve_cuda.so): the functions its table (backend/cuda_plugin.hpp,
// plugin.cpp) points to. backend/cuda.hpp documents each one under the same name; the
// rest of qevolve reaches them only through the loader's forwarders (src/backend/cuda_loader/).
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "qevolve/backend/backend.hpp"
#include "qevolve/backend/cuda.hpp"
#include "qevolve/backend/local_gate.hpp"

namespace qevolve::backend::cuda::impl {

[[nodiscard]] DeviceQuery query_devices();
void use_device(int ordinal);
template <typename Real>
[[nodiscard]] std::unique_ptr<GateExecutor<Real>> make_gate_executor(const GateSchedule& schedule,
                                                                     Index columns,
                                                                     int max_chunk_steps);
[[nodiscard]] std::unique_ptr<DenseExecutor> make_dense_executor(Index dim, Index columns);
[[nodiscard]] std::unique_ptr<AdjointExecutor> make_adjoint_executor(const GateSchedule& schedule,
                                                                     std::vector<bool> environment,
                                                                     Index columns, int max_chunk_steps);
void run_accumulate_environment(const double* psi_re, const double* psi_im, const double* lam_re,
                                const double* lam_im, std::size_t size, const GateGeometry& geo, double* env);
template <typename Real>
void run_apply_gate(Real* re, Real* im, std::size_t size, const GateGeometry& geo, const Real* gate);
void run_apply_phases(const double* v, double* w, const double* lambda, double scale,
                      std::ptrdiff_t rows, std::ptrdiff_t cols);

}  // namespace qevolve::backend::cuda::impl
