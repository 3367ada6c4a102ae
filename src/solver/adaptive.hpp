// Error-controlled Dormand-Prince 5(4) integration of d psi/dt = -i 2 pi H(t) psi with H applied
// matrix-free through its local terms (the reference for convergence studies).
#pragma once

#include <functional>
#include <vector>

#include "qevolve/device.hpp"
#include "qevolve/types.hpp"

namespace qevolve::solver {

struct AdaptiveJob {
  const device::Device* device = nullptr;
  /// Static local terms (energies, couplings) and drive operators (one per channel).
  std::vector<device::LocalTerm> static_terms;
  std::vector<device::LocalTerm> drive_terms;  ///< channel operators (c_j(t) carries the factor)
  std::function<void(double, std::vector<double>&)> coefficients;
  double duration = 0.0;
  double rtol = 1e-10, atol = 1e-12;
  int threads = 1;
};

/// Integrates the columns of `state` (D x n, product basis) from 0 to duration in place.
/// Throws NumericalError if the step size underflows. Returns the number of accepted steps
/// summed over column blocks.
long integrate_adaptive(const AdaptiveJob& job, CMatrix& state,
                        const std::function<void(double)>& progress);

}  // namespace qevolve::solver
