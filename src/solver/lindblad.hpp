// Open systems (docs/solvers.md "Open systems"): the Lindblad equation
//     d rho/dt = -i 2 pi [H, rho] + sum_c (c rho c^dag - 1/2 {c^dag c, rho})
// on vectorised density matrices, vec(rho)[i + D j] = rho[i, j] (column stacking).
//
// vec(rho) is a state of a doubled register of 2N modes: digits 0..N-1 are the column index j
// (the more significant half of i + D j), digits N..2N-1 the row index i. A unitary local gate
// G on modes M acts as G rho G^dag: G on the row digits M + N and conj(G) on the column digits
// M. A qubit's dissipator is a d^2 x d^2 superoperator on its (column digit, row digit) pair.
// Every factor is local, so the Trotter path reuses the closed-system gate kernels and never
// forms the D^2 x D^2 Liouvillian (only the small-system `expm` reference does).
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "qevolve/backend/backend.hpp"
#include "qevolve/config.hpp"
#include "qevolve/device.hpp"
#include "qevolve/types.hpp"
#include "observe_points.hpp"
#include "trotter_gates.hpp"

namespace qevolve::solver {

/// A mode's dissipator as a local superoperator generator (d^2 x d^2), local index
/// j_col * d + i_row, summed over the mode's collapse operators.
struct Dissipator {
  int mode = 0;
  CMatrix generator;
};

/// The generator of one collapse operator c (d x d), column stacking:
/// conj(c) (x) c - 1/2 I (x) (c^dag c) - 1/2 (c^dag c)^T (x) I.
[[nodiscard]] CMatrix lindblad_generator(const CMatrix& c);

/// The collapse operators of a `noise` entry in the mode's kept eigenbasis (docs/solvers.md "Open systems"):
/// t1: sqrt(1/T1) c1 with c1 = sum_{k>=1} sqrt(k) |k-1><k|; tphi: sqrt(2/Tphi) c2 with
/// c2 = sum_k k |k><k|. The generators are rate * lindblad_generator(c1 or c2).
[[nodiscard]] CMatrix t1_operator(int levels);
[[nodiscard]] CMatrix tphi_operator(int levels);
[[nodiscard]] std::vector<CMatrix> collapse_operators(const NoiseSpec& noise, int levels);

/// The checkpoint interval of the open-system adjoint: ceil(sqrt(steps)).
[[nodiscard]] int checkpoint_interval(int steps);

/// One Dissipator per mode with noise: its `noise` entry's rates plus every `collapse`
/// operator on it (summed into one generator, so the mode's collapse operators are not split
/// from each other). noise_index[e] is the dissipator of noise entry e. Unknown modes, missing
/// operators and wrong matrix sizes are located input errors.
struct DissipatorSet {
  std::vector<Dissipator> dissipators;
  std::vector<int> noise_index;
};
[[nodiscard]] DissipatorSet make_dissipators(const std::vector<NoiseSpec>& noise,
                                             const std::vector<CollapseSpec>& collapse, const device::Device& device);

/// The dissipators embedded in the full space (D^2 x D^2, step independent: built once), and
/// the dense Liouvillian -i 2 pi (I (x) H - H^T (x) I) + that part: the `expm` reference,
/// small D only.
[[nodiscard]] CMatrix dense_dissipator(const device::Device& device, const std::vector<Dissipator>& dissipators);
[[nodiscard]] CMatrix dense_liouvillian(const CMatrix& H, const CMatrix& dissipator);

/// One stage of the split open step: a unitary Trotter step (`unitary` >= 0, an index into
/// the unitary gate sets) or every dissipator for `frac` of dt (`unitary` = -1).
struct OpenStage {
  int unitary = -1;
  double frac = 0.0;
};

/// The open step at splitting order 1, 2 or 4. `unitary_fracs` receives, per unitary gate set,
/// the fraction of dt it is built for and `unitary_orders` its closed splitting order:
///   order 1: U1(dt) E(dt);
///   order 2: E(dt/2) U2(dt) E(dt/2) (Strang, symmetric);
///   order 4: S2(p dt) S2((1-2p) dt) S2(p dt), p = 1/(2 - 2^(1/3)), with the adjacent
///            dissipator halves merged (the middle stage runs backwards in time: any splitting
///            beyond order 2 has a negative coefficient; its error stays O(dt^5) per step).
[[nodiscard]] std::vector<OpenStage> open_step_stages(int order, std::vector<double>& unitary_fracs,
                                                      std::vector<int>& unitary_orders);

/// Everything the Trotter path of the open system needs.
struct DensityEvolution {
  const device::Device* device = nullptr;
  std::vector<const TrotterGates*> unitary;  ///< gate sets, as open_step_stages numbered them
  std::vector<OpenStage> stages;
  const std::vector<Dissipator>* dissipators = nullptr;
  /// Drive coefficients of every channel for step s (the midpoint values).
  std::function<void(int, std::vector<double>&)> coefficients;
  int steps = 0;
  double dt = 0.0;
  int threads = 1;
  /// Where the steps run: the backend's gate executor (evolve_density and the adjoint's
  /// recomputation, DensitySteps) and its open adjoint executor (adjoint_density; the
  /// CPU's only, so the stage keeps open-system gradients on the CPU).
  ComputeDevice compute_device = ComputeDevice::cpu;
  /// output.trace: the steps (ascending, in [0, steps]) at which `observer` sees the state.
  std::vector<int> observe_at{};
  PassObserver observer{};
  /// The same per column block inside the executor (StepObserver::density_block), where the
  /// executor supports it.
  std::function<void(int, Index, Index, const double*, const double*)> block_observer{};
};

/// Evolves the columns of `vecs` (D^2 x m, vectorised density matrices, product basis, lab
/// frame) in place through all steps: blocks of columns on threads, as the closed path.
void evolve_density(const DensityEvolution& job, CMatrix& vecs,
                    const std::function<void(double)>& progress);

class DensityPlan;  // density_plan.hpp

/// The open step on the gate executor, as evolve_density, for the adjoint's checkpoints and its
/// recomputation between them: built once for a plan (the schedule, the executor, a buffer of
/// chunks of at most `max_steps` steps with the dissipators' exponentials written once), then
/// run for any number of segments of at most max_steps steps.
class DensitySteps {
 public:
  DensitySteps(const DensityEvolution& job, const DensityPlan& plan, Index columns, int max_steps);
  DensitySteps(const DensitySteps&) = delete;
  DensitySteps& operator=(const DensitySteps&) = delete;
  ~DensitySteps();

  /// Steps [s_begin, s_end) of `vecs` (the plan's columns) in place; with `store`,
  /// (*store)[s - s_begin] receives the state at the start of step s (a block observer copies
  /// it out of the executor's blocks; an executor without one is downloaded after every step).
  void run(CMatrix& vecs, int s_begin, int s_end, std::vector<CMatrix>* store);

 private:
  const DensityEvolution& job_;
  const DensityPlan& plan_;
  Index columns_;
  int chunk_;
  std::size_t step_size_;
  std::vector<double> buffer_;
  std::unique_ptr<backend::GateExecutor<double>> executor_;
};

}  // namespace qevolve::solver
