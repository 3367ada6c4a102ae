// The CUDA plugin (docs/backend.md "The CUDA plugin"): the CUDA backend and the NCCL
// communicator are one shared library, libqevolve_cuda.so, the only qevolve code linked to
// cudart, cuBLAS, cuSOLVER and NCCL. The rest of qevolve loads it with dlopen on first use
// (backend::cuda::plugin()) and calls it through the table below, so a CPU run maps none of the
// CUDA libraries. The table carries C++ types (std::string, the executor interfaces, the
// communicator): plugin and loader must come from the same build, which kCudaPluginAbi checks.
// Exceptions thrown in the plugin (qevolve::Error and its subclasses) reach the caller with
// their type.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "qevolve/backend/backend.hpp"
#include "qevolve/backend/local_gate.hpp"

namespace qevolve::comm {
class Communicator;
}

namespace qevolve::backend::cuda {

struct DeviceQuery;

/// Raise whenever the table or a type passed through it changes layout or meaning.
inline constexpr std::uint32_t kCudaPluginAbi = 3;
/// The one symbol the plugin exports: `extern "C" const CudaPlugin* qevolve_cuda_plugin()`.
inline constexpr const char* kCudaPluginEntry = "qevolve_cuda_plugin";
/// The environment variable naming the plugin file; it overrides the search (docs/backend.md).
inline constexpr const char* kCudaPluginEnv = "QEVOLVE_CUDA_LIBRARY";

/// The plugin's functions (backend/cuda.hpp and comm.hpp document what each does). Executors
/// and communicators are returned owning (the caller deletes them through their virtual
/// destructor, which runs the plugin's code).
struct CudaPlugin {
  std::uint32_t abi;          ///< kCudaPluginAbi of the build that made the plugin
  std::uint32_t table_size;   ///< sizeof(CudaPlugin) there
  void (*query_devices)(DeviceQuery& out);
  void (*use_device)(int ordinal);
  GateExecutor<double>* (*make_gate_executor_double)(const GateSchedule& schedule, Index columns,
                                                     int max_chunk_steps);
  GateExecutor<float>* (*make_gate_executor_float)(const GateSchedule& schedule, Index columns,
                                                   int max_chunk_steps);
  DenseExecutor* (*make_dense_executor)(Index dim, Index columns);
  void (*run_apply_gate_double)(double* re, double* im, std::size_t size, const GateGeometry& geo,
                                const double* gate);
  void (*run_apply_gate_float)(float* re, float* im, std::size_t size, const GateGeometry& geo,
                               const float* gate);
  void (*run_apply_phases)(const double* v, double* w, const double* lambda, double scale,
                           std::ptrdiff_t rows, std::ptrdiff_t cols);
  /// The NCCL communicator over the ranks of `bootstrap` on GPU local_rank modulo the visible
  /// devices; null when the plugin was built without NCCL.
  comm::Communicator* (*make_nccl)(comm::Communicator& bootstrap, int local_rank);
  /// Throws, from inside the plugin, qevolve::Error (kind 0), NumericalError (1) or
  /// std::invalid_argument (any other) with message `what`: the tests check that exceptions
  /// cross the boundary with their type.
  void (*raise)(int kind, const char* what);
  AdjointExecutor* (*make_adjoint_executor)(const GateSchedule& schedule, const std::vector<bool>& environment,
                                            Index columns, int max_chunk_steps);
  void (*run_accumulate_environment)(const double* psi_re, const double* psi_im, const double* lam_re,
                                     const double* lam_im, std::size_t size, const GateGeometry& geo, double* env);
};

/// The loaded plugin, or null with the reason in `*why` (dlopen's or dlsym's message, or an ABI
/// mismatch). Loads on the first call (std::call_once; RTLD_NOW | RTLD_LOCAL); later calls
/// return the same result. Search order: $QEVOLVE_CUDA_LIBRARY if set (nothing else then);
/// libqevolve_cuda.so next to the binary holding this loader and in ../lib from there (dladdr);
/// the build tree's lib/ (compiled in). Never throws.
[[nodiscard]] const CudaPlugin* plugin(std::string* why = nullptr);

/// Whether an NVIDIA driver is present, without loading anything: /dev/nvidiactl (Linux) or
/// /dev/dxg (WSL2) exists. `device: auto` loads the plugin only then, so a CPU run maps no
/// CUDA library.
[[nodiscard]] bool driver_present();

}  // namespace qevolve::backend::cuda
