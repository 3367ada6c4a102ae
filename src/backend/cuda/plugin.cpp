// The table of libqevolve_cuda.so (backend/cuda_plugin.hpp): its one exported symbol.
#include <stdexcept>
#include <vector>

#include "impl.hpp"
#include "qevolve/backend/cuda_plugin.hpp"
#include "qevolve/error.hpp"

#if defined(QEVOLVE_PLUGIN_NCCL) && QEVOLVE_PLUGIN_NCCL
namespace qevolve::comm::nccl_impl {
// src/comm/nccl/nccl_communicator.cpp, compiled into the plugin.
Communicator* make_nccl(Communicator& bootstrap, int local_rank);
}  // namespace qevolve::comm::nccl_impl
#endif

namespace qevolve::backend::cuda::impl {
namespace {

void query_devices_into(DeviceQuery& out) { out = query_devices(); }

template <typename Real>
GateExecutor<Real>* gate_executor(const GateSchedule& schedule, Index columns, int max_chunk_steps) {
  return make_gate_executor<Real>(schedule, columns, max_chunk_steps).release();
}

DenseExecutor* dense_executor(Index dim, Index columns) { return make_dense_executor(dim, columns).release(); }

AdjointExecutor* adjoint_executor(const GateSchedule& schedule, const std::vector<bool>& environment, Index columns,
                                  int max_chunk_steps) {
  return make_adjoint_executor(schedule, environment, columns, max_chunk_steps).release();
}

void raise(int kind, const char* what) {
  switch (kind) {
    case 0: throw Error(what);
    case 1: throw NumericalError(what);
    default: throw std::invalid_argument(what);
  }
}

const CudaPlugin kTable{
    kCudaPluginAbi,
    sizeof(CudaPlugin),
    &query_devices_into,
    &use_device,
    &gate_executor<double>,
    &gate_executor<float>,
    &dense_executor,
    &run_apply_gate<double>,
    &run_apply_gate<float>,
    &run_apply_phases,
#if defined(QEVOLVE_PLUGIN_NCCL) && QEVOLVE_PLUGIN_NCCL
    &comm::nccl_impl::make_nccl,
#else
    nullptr,
#endif
    &raise,
    &adjoint_executor,
    &run_accumulate_environment,
};

}  // namespace
}  // namespace qevolve::backend::cuda::impl

extern "C" __attribute__((visibility("default"))) const qevolve::backend::cuda::CudaPlugin* qevolve_cuda_plugin() {
  return &qevolve::backend::cuda::impl::kTable;
}
