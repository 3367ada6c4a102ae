// Error-controlled Dormand-Prince 5(4) integration of dy/dt = A(t) y with A applied matrix-free
// through its local terms: closed systems -i 2 pi H(t) psi, open systems the Lindblad generator
// on vectorised density matrices (the references for convergence studies).
#pragma once

#include <functional>
#include <vector>

#include "qevolve/backend/backend.hpp"
#include "qevolve/config.hpp"
#include "qevolve/device.hpp"
#include "qevolve/types.hpp"

namespace qevolve::solver {

/// One local term of the generator: dy/dt += alpha * c(t) * O y with O on `modes` (1 or 2,
/// ascending) and c(t) = 1 (channel -1) or the drive coefficient of `channel`.
struct AdaptiveTerm {
  std::vector<int> modes;
  CMatrix matrix;
  cplx alpha{0.0, 0.0};
  int channel = -1;
};

/// The adaptive solver's documented maximum of step attempts per column block.
inline constexpr long kAdaptiveMaxSteps = 1000000;

/// dy/dt = sum of the terms, on a register of modes of dimensions `dims` (closed systems: the
/// device's modes with alpha = -i 2 pi; open systems: the doubled register of lindblad.hpp).
struct AdaptiveJob {
  std::vector<int> dims;
  std::vector<AdaptiveTerm> terms;
  std::function<void(double, std::vector<double>&)> coefficients;
  double start = 0.0;     ///< integrate from start to duration (ns)
  double duration = 0.0;
  double rtol = 1e-10, atol = 1e-12;
  int threads = 1;
  /// Where the blocks are integrated (the term executor's backend; the CPU's only: the stage
  /// keeps solver: adaptive on the CPU).
  ComputeDevice compute_device = ComputeDevice::cpu;
  /// Work bound (docs/solvers.md "`adaptive` — convergence studies"): step attempts, accepted and rejected, per column
  /// block; beyond it the integration stops with a NumericalError naming the time reached.
  long max_steps = kAdaptiveMaxSteps;
};

/// The closed-system job: -i 2 pi H(t) on the device (static terms and drive channels).
[[nodiscard]] AdaptiveJob closed_adaptive_job(const device::Device& device,
                                              const std::vector<device::LocalTerm>& static_terms,
                                              const std::vector<device::LocalTerm>& drive_terms);

/// The job's terms as the term executor takes them (backend.hpp TermSchedule).
[[nodiscard]] backend::TermSchedule term_schedule(const AdaptiveJob& job);

/// Integrates the columns of `state` (prod(dims) x n) from job.start to job.duration in place,
/// in column blocks on the term executor of job.compute_device (backend.hpp TermExecutor).
/// Throws NumericalError if the step size underflows or job.max_steps attempts do not reach the
/// end. Returns the number of accepted steps
/// summed over column blocks.
long integrate_adaptive(const AdaptiveJob& job, CMatrix& state,
                        const std::function<void(double)>& progress);

}  // namespace qevolve::solver
