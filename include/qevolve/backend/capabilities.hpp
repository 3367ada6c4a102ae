// Which executor kinds each backend implements (docs/backend.md "Selection"): one row per
// backend. The schemes' table (include/qevolve/scheme_traits.hpp) says which kinds each solver
// path uses; whether a path runs on a backend, the part of a run only the CPU has
// (solver::cpu_only_part) and the words of the device choice's refusal (solver::backend_runs) are
// computed from the two. A new executor of a backend is its factory and its bit in the row below.
#pragma once

#include "qevolve/config.hpp"

namespace qevolve::backend {

/// The kinds of executor a solver path runs on (backend.hpp), one bit each.
enum class ExecutorKind : unsigned {
  gate,          ///< GateExecutor: local-gate steps (closed and open forward, the open recompute)
  dense,         ///< DenseExecutor: exp(-i scale H) of a dense Hermitian H
  adjoint,       ///< AdjointExecutor: the closed adjoint of the gate path
  open_adjoint,  ///< OpenAdjointExecutor: the open-system (Lindblad) adjoint's backward sweep
  terms,         ///< TermExecutor: a sum of local terms applied to column blocks (adaptive)
  chebyshev,     ///< ChebyshevExecutor: a sparse generator's Chebyshev series on column blocks
  propagator,    ///< PropagatorExecutor: a host-computed general matrix (the dense Liouvillian's exp)
  chebyshev_adjoint,  ///< ChebyshevAdjointExecutor: the Chebyshev series' adjoint step
  dense_adjoint,      ///< DenseAdjointExecutor: the dense path's adjoint step in the eigenbasis
};

/// A set of executor kinds (bit k: ExecutorKind k).
using ExecutorKinds = unsigned;

[[nodiscard]] constexpr ExecutorKinds kind_bit(ExecutorKind k) { return 1u << static_cast<unsigned>(k); }
[[nodiscard]] constexpr ExecutorKinds operator|(ExecutorKind a, ExecutorKind b) { return kind_bit(a) | kind_bit(b); }
[[nodiscard]] constexpr ExecutorKinds operator|(ExecutorKinds a, ExecutorKind b) { return a | kind_bit(b); }

inline constexpr ExecutorKinds kNoExecutor = 0;
/// Every kind: the bits up to the last kind (dense_adjoint).
inline constexpr ExecutorKinds kEveryExecutor = (kind_bit(ExecutorKind::dense_adjoint) << 1) - 1;

/// A backend and the executor kinds it implements.
struct BackendExecutors {
  ComputeDevice device;
  ExecutorKinds kinds;
};

/// The backends' table. CUDA: the gate, dense and closed adjoint executors of
/// backend/cuda.hpp (src/backend/cuda/).
inline constexpr BackendExecutors kBackendExecutors[] = {
    {ComputeDevice::cpu, kEveryExecutor},
    {ComputeDevice::cuda, ExecutorKind::gate | ExecutorKind::dense | ExecutorKind::adjoint},
};

/// The executor kinds `device` implements (none for a device without a row).
[[nodiscard]] constexpr ExecutorKinds implemented(ComputeDevice device) {
  for (const BackendExecutors& b : kBackendExecutors)
    if (b.device == device) return b.kinds;
  return kNoExecutor;
}

/// Whether `device` implements every kind of `needed` (an empty set: nothing to run, true).
[[nodiscard]] constexpr bool runs(ComputeDevice device, ExecutorKinds needed) {
  return (needed & ~implemented(device)) == 0;
}

}  // namespace qevolve::backend
