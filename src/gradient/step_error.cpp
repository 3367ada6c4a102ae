// The time-step error estimate of F (include/qevolve/step_error.hpp, docs/accuracy.md): a
// coarser run, Richardson extrapolation of the evolved matrix, F of the extrapolated matrix.
#include "qevolve/step_error.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <span>

#include "qevolve/line.hpp"
#include "qevolve/pulse.hpp"
#include "qevolve/simulator.hpp"

namespace qevolve::gradient {
namespace {

using Clock = std::chrono::steady_clock;

/// The coarser run of adaptive: tolerances this much looser (about half its steps: the step
/// count of a 5(4) pair grows as tolerance^(-1/5)).
constexpr double kAdaptiveLoosening = 32.0;
/// An estimate above this fraction of 1 - F (where it matters at the 1 % level) is confirmed by
/// a second run at 3/4 of the steps.
constexpr double kConfirmAbove = 0.01;

/// A drive that jumps inside steps: the midpoint rule is then first order in dt.
bool drive_jumps(const solver::Simulator& sim) {
  for (const pulse::Pulse& p : sim.drive().pulses())
    if (p.shape() == Shape::piecewise_constant) return true;
  for (const pulse::Line& line : sim.drive().lines()) {
    if (!line.spec().sample_rate) continue;
    const auto& f = line.spec().filters;
    const bool smooth = std::any_of(f.begin(), f.end(), [](const FilterSpec& s) {
      return s.type == FilterType::gaussian && s.sigma > 0.0;
    });
    if (!smooth) return true;
  }
  return false;
}

/// The nearest isometry X (X^dag X)^(-1/2) (polar factor) of closed-system columns. With the
/// run's error of the form U_inf exp(i E dt^p), the linear extrapolant is U_inf (1 + O(E^2))
/// with a Hermitian O(E^2) part; the polar factor removes it, leaving an O(E^3) error, so the
/// estimate stays sharp where the error is mostly a phase (the midpoint rule's).
CMatrix nearest_isometry(const CMatrix& x) {
  // Newton-Schulz, X <- X (3 - X^dag X) / 2: quadratic convergence to the polar factor while
  // X^dag X is near 1 (it is: 1 + O(E^2)); two zgemm per step, no n x n eigensolver (which cost
  // 8 % of the standard workload's run, n = 256).
  CMatrix y = x;
  const auto n = y.cols();
  for (int k = 0; k < 8; ++k) {
    const CMatrix g = y.adjoint() * y;
    const double off = (g - CMatrix::Identity(n, n)).cwiseAbs().maxCoeff();
    if (!(off < 0.5)) break;  // far from an isometry: the eigensolver below
    if (off < 1e-15) return y;
    y = y * (1.5 * CMatrix::Identity(n, n) - 0.5 * g);
  }
  const Eigen::SelfAdjointEigenSolver<CMatrix> eig(x.adjoint() * x);
  const RVector s = eig.eigenvalues().cwiseMax(1e-300).cwiseSqrt().cwiseInverse();
  return x * (eig.eigenvectors() * s.asDiagonal() * eig.eigenvectors().adjoint());
}

/// F of `m` (gathered columns, closed; the channel block, open) under `objective`, serially.
double fidelity_of(const CMatrix& m, const fidelity::ObjectiveSpec& objective, bool open) {
  comm::SerialCommunicator serial;
  const fidelity::FinalColumns columns{&m, &m, serial.shard(m.cols()), open};
  return fidelity::evaluate_with_cotangent(columns, objective, serial).fidelity.fidelity;
}

}  // namespace

int coarse_steps(int steps) { return std::max(1, (steps + 1) / 2); }

int step_error_order(const solver::Simulator& sim) {
  const int order = time_order(sim.options());
  if (order == 0) return 1;  // adaptive: the error is taken as proportional to the tolerance
  if (drive_jumps(sim)) return 1;
  // A line's output is a piecewise polynomial (include/qevolve/line.hpp) whose panel edges carry
  // jumps at the 1e-12 level: magnus4's fourth order is not reached below ~1e-10 there (the
  // chebyshev CZ through a line: 2.0e-11 at 1700 steps, where order 4 predicted 6e-12).
  return sim.drive().lines().empty() ? order : std::min(order, 2);
}

namespace {

/// One coarser run at `steps` (adaptive: tolerances x `loosen`) and its extrapolation into `e`.
void estimate_from(solver::Simulator& sim, fidelity::ObjectiveSpec objective, const Evaluation& fine,
                   comm::Communicator& comm, comm::Communicator& reduce, const std::function<void(double)>& progress,
                   int steps, double loosen, StepError& e) {
  const solver::Options own = sim.options();
  const auto restore = [&sim, &own] {
    sim.set_steps(own.steps);
    sim.set_tolerances(own.rtol, own.atol);
  };
  if (loosen > 1.0) {
    e.ratio = loosen;
    sim.set_tolerances(own.rtol * loosen, own.atol * loosen);
  } else {
    e.coarse_steps = steps;
    e.ratio = static_cast<double>(own.steps) / steps;
    sim.set_steps(steps);
  }
  PipelineHooks hooks;
  hooks.progress = progress;
  Evaluation coarse;
  try {
    coarse = evaluate(sim, std::nullopt, comm, reduce, hooks);
  } catch (...) {
    restore();
    throw;
  }
  restore();

  // Rank 0 holds both gathered matrices: extrapolate, evaluate, and tell every rank.
  std::array<double, 3> figures{0.0, 0.0, 0.0};
  if (comm.is_root()) {
    const bool open = sim.options().open;
    const CMatrix& f = open ? fine.superoperator : fine.columns;
    const CMatrix& c = open ? coarse.superoperator : coarse.columns;
    CMatrix limit = f + (f - c) / (std::pow(e.ratio, e.order) - 1.0);
    if (!open) limit = nearest_isometry(limit);
    objective.cotangent = false;
    // The compensation of the run as an extra start: the same optimum, not a neighbouring one.
    if (!objective.angles && fine.fidelity && fine.fidelity->angles.size() > 0)
      objective.options.initial_angles = fine.fidelity->angles;
    const double f_fine = fine.fidelity ? fine.fidelity->fidelity : fidelity_of(f, objective, open);
    figures = {fidelity_of(limit, objective, open), fidelity_of(c, objective, open), 0.0};
    // Where F is quadratic in the propagator's error (a converged gate, or a compensation that
    // absorbs most of the error) F itself converges at order 2p; its own Richardson difference
    // at that order is then the error, and below it otherwise (the larger one is taken).
    const double quadratic = std::abs(f_fine - figures[1]) / (std::pow(e.ratio, 2 * e.order) - 1.0);
    figures[2] = std::max(std::abs(f_fine - figures[0]), quadratic);
  }
  comm.broadcast(std::span<double>(figures), 0);
  e.fidelity_limit = figures[0];
  e.fidelity_coarse = figures[1];
  e.error = figures[2];
}

}  // namespace

StepError estimate_step_error(solver::Simulator& sim, fidelity::ObjectiveSpec objective, const Evaluation& fine,
                              comm::Communicator& comm, comm::Communicator& reduce,
                              const std::function<void(double)>& progress) {
  const auto t0 = Clock::now();
  StepError e;
  e.order = step_error_order(sim);
  const int steps = sim.options().steps;
  if (time_order(sim.options()) == 0) {
    estimate_from(sim, objective, fine, comm, reduce, progress, 0, kAdaptiveLoosening, e);
  } else {
    estimate_from(sim, objective, fine, comm, reduce, progress, coarse_steps(steps), 0.0, e);
    // A large error: the half-step run may lie outside the asymptotic regime (a splitting
    // resonance, an unresolved frequency) and overstate it. A second, nearer run decides.
    const double infidelity = 1.0 - (fine.fidelity ? fine.fidelity->fidelity : e.fidelity_limit);
    const int nearer = confirm_steps(steps);
    if (e.error > kConfirmAbove * infidelity && e.error > 1e-12 && nearer > e.coarse_steps && nearer < steps) {
      e.first_error = e.error;
      e.first_coarse_steps = e.coarse_steps;
      estimate_from(sim, objective, fine, comm, reduce, progress, nearer, 0.0, e);
    }
  }
  e.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return e;
}

int confirm_steps(int steps) { return static_cast<int>(std::lround(0.75 * steps)); }

}  // namespace qevolve::gradient
