// backend/cuda.hpp as the rest of qevolve sees it: each function loads the CUDA plugin on first
// use (loader.cpp) and calls it; the CUDA code itself is in libqevolve_cuda.so.
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "qevolve/backend/cuda.hpp"
#include "qevolve/backend/cuda_plugin.hpp"
#include "qevolve/error.hpp"

namespace qevolve::backend::cuda {
namespace {

const CudaPlugin& loaded() {
  std::string why;
  const CudaPlugin* p = plugin(&why);
  if (p == nullptr) throw Error("the CUDA plugin could not be loaded: " + why);
  return *p;
}

}  // namespace

DeviceQuery query_devices() {
  DeviceQuery q;
  std::string why;
  const CudaPlugin* p = plugin(&why);
  if (p == nullptr) {
    q.said = "the CUDA plugin could not be loaded: " + why;
    return q;
  }
  p->query_devices(q);
  return q;
}

void use_device(int ordinal) { loaded().use_device(ordinal); }

template <typename Real>
std::unique_ptr<GateExecutor<Real>> make_gate_executor(const GateSchedule& schedule, Index columns,
                                                       int max_chunk_steps) {
  const CudaPlugin& p = loaded();
  if constexpr (std::is_same_v<Real, double>)
    return std::unique_ptr<GateExecutor<Real>>(p.make_gate_executor_double(schedule, columns, max_chunk_steps));
  else
    return std::unique_ptr<GateExecutor<Real>>(p.make_gate_executor_float(schedule, columns, max_chunk_steps));
}

std::unique_ptr<DenseExecutor> make_dense_executor(Index dim, Index columns) {
  return std::unique_ptr<DenseExecutor>(loaded().make_dense_executor(dim, columns));
}

std::unique_ptr<AdjointExecutor> make_adjoint_executor(const GateSchedule& schedule, std::vector<bool> environment,
                                                       Index columns, int max_chunk_steps) {
  return std::unique_ptr<AdjointExecutor>(
      loaded().make_adjoint_executor(schedule, environment, columns, max_chunk_steps));
}

void run_accumulate_environment(const double* psi_re, const double* psi_im, const double* lam_re,
                                const double* lam_im, std::size_t size, const GateGeometry& geo, double* env) {
  loaded().run_accumulate_environment(psi_re, psi_im, lam_re, lam_im, size, geo, env);
}

template <typename Real>
void run_apply_gate(Real* re, Real* im, std::size_t size, const GateGeometry& geo, const Real* gate) {
  const CudaPlugin& p = loaded();
  if constexpr (std::is_same_v<Real, double>)
    p.run_apply_gate_double(re, im, size, geo, gate);
  else
    p.run_apply_gate_float(re, im, size, geo, gate);
}

void run_apply_phases(const double* v, double* w, const double* lambda, double scale, std::ptrdiff_t rows,
                      std::ptrdiff_t cols) {
  loaded().run_apply_phases(v, w, lambda, scale, rows, cols);
}

template std::unique_ptr<GateExecutor<double>> make_gate_executor<double>(const GateSchedule&, Index, int);
template std::unique_ptr<GateExecutor<float>> make_gate_executor<float>(const GateSchedule&, Index, int);
template void run_apply_gate<double>(double*, double*, std::size_t, const GateGeometry&, const double*);
template void run_apply_gate<float>(float*, float*, std::size_t, const GateGeometry&, const float*);

}  // namespace qevolve::backend::cuda
