// The time-step error of F (docs/accuracy.md "The step-error estimate"): every run is repeated
// on a coarser discretisation (half the steps, or for `adaptive` 32x looser tolerances), the
// evolved columns (closed) or the channel (open) are Richardson-extrapolated with the scheme's
// known order, and F of the extrapolated columns is compared with F of the run. F is evaluated
// on the extrapolated matrix, not extrapolated itself, so the estimate holds both where F moves
// linearly with the propagator's error and where it moves quadratically (a converged gate);
// F's own Richardson difference at order 2p is a floor for the latter case.
#pragma once

#include <functional>
#include <limits>
#include <optional>

#include "qevolve/comm.hpp"
#include "qevolve/fidelity.hpp"
#include "qevolve/gradient.hpp"
#include "qevolve/types.hpp"

namespace qevolve::solver {
class Simulator;
}

namespace qevolve::gradient {

// StepError (the estimate and how it was made) is declared in include/qevolve/gradient.hpp.


/// The coarser run and the extrapolation (a second run at 3/4 of the steps when the first
/// estimate exceeds 1 % of 1 - F, whose estimate is then the one returned):
/// U_inf = U + (U - U_c) / (r^p - 1) with r the ratio
/// of resolutions and p = solver::time_order() (1 where a pulse jumps inside steps:
/// piecewise_constant, or a sampled control line without a gaussian filter; adaptive: 1 in the
/// tolerance; at most 2 for a drive through a control line). `fine` is the run's own evaluation (its gathered columns or superoperator on
/// rank 0). The simulator is left at its own steps and tolerances. Collective over `comm`:
/// every rank returns the same estimate. `progress` sees the coarser run's fraction.
[[nodiscard]] StepError estimate_step_error(solver::Simulator& sim, fidelity::ObjectiveSpec objective,
                                            const Evaluation& fine, comm::Communicator& comm,
                                            comm::Communicator& reduce,
                                            const std::function<void(double)>& progress = {});

/// The Richardson order the estimate uses for this simulator (see estimate_step_error).
[[nodiscard]] int step_error_order(const solver::Simulator& sim);

/// The steps of the coarser run for a run of `steps` steps: ceil(steps / 2), at least 1.
[[nodiscard]] int coarse_steps(int steps);
/// The steps of the confirming run: round(3 steps / 4).
[[nodiscard]] int confirm_steps(int steps);

}  // namespace qevolve::gradient
