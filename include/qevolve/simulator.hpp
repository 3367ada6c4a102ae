// The cached simulator (issue "closed-system evolution"): built once from a device, a pulse
// schedule and the evolution options; evaluating it for new pulse parameters reuses every
// static factor (exponentials of static local terms, eigensystems of drive operators, the
// Trotter gate plan and index maps).
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "qevolve/comm.hpp"
#include "qevolve/drive_model.hpp"
#include "qevolve/evolution_plan.hpp"
#include "qevolve/state_map.hpp"
#include "qevolve/types.hpp"

namespace qevolve::solver {

/// One device parameter as the solver sees it: d/dtheta of every static local term
/// (Device::static_terms() order) and of every drive channel's operator O_j (the channel
/// factor stays in c_j). An empty matrix means zero.
struct HamiltonianTangent {
  std::vector<CMatrix> static_terms;
  std::vector<CMatrix> channels;
};

/// Receives, for every step s (descending), each time t at which the step samples the drive
/// coefficients (the midpoint; for magnus4 the two Gauss points, later first) and
/// d(objective)/dc_j(t) for every channel j.
using StepCotangent = std::function<void(int step, double t, const std::vector<double>& dc)>;

struct AdjointResult {
  /// Per tangent: d(objective)/dtheta through the propagator, sum over steps of
  /// 2 Re Tr(lambda_{s+1}^dag dG_s/dtheta psi_s).
  std::vector<double> tangents;
  CMatrix lambda0;  ///< the cotangent carried back to t = 0 (product basis, lab frame)
  CMatrix psi0;     ///< the initial columns reconstructed by reverse stepping
};

/// Called from the evolving thread with the fraction of work done, in [0, 1].
using Progress = std::function<void(double)>;

/// Called by the forward pass at each step boundary of trace_steps() (ascending,
/// t = step * dt) with the current state: product-basis lab-frame columns (closed systems) or
/// vectorised density matrices (open systems), before any output map. Empty: the forward pass
/// observes nothing and costs nothing extra.
struct StepObserver {
  std::function<void(int step, const CMatrix& state)> state;
  /// Optional (closed systems): the same boundary seen per column block, inside the gate
  /// executor, for an observer that needs no other column (columns [c0, c0 + w) of the pass's
  /// state as split planes, row-major [D][w]; backend::BlockObserver). Calls for different
  /// blocks may come at once from different threads. A pass that can use it skips the
  /// download of the state at every boundary but 0.
  std::function<void(int step, Index c0, Index w, const double* re, const double* im)> block;
  std::function<void(int step, Index c0, Index w, const float* re, const float* im)> block_single;
  /// The step boundaries to observe (ascending, unique, in [0, steps]); empty: those of
  /// trace_steps() (observed_steps()).
  std::vector<int> steps;
  /// Optional (open systems): the same boundary per block of vectorised density matrices inside
  /// the gate executor (rows D^2, columns [c0, c0 + w) of the pass's state, row-major [D^2][w]).
  std::function<void(int step, Index c0, Index w, const double* re, const double* im)> density_block;
  /// Where a pass that multiplies a step's last gate into the next step's first (the Strang
  /// splittings' fused boundary, backend::GateSchedule::breaks) must apply it to show the exact
  /// boundary state (ascending); unset: at every observed boundary. Elsewhere such a pass shows
  /// the state before that last gate (the truncation check accepts it: qevolve/truncation.hpp).
  std::optional<std::vector<int>> exact;

  explicit operator bool() const { return static_cast<bool>(state); }
  void operator()(int step, const CMatrix& s) const { state(step, s); }
};

struct EvolveResult {
  /// Evolved columns, D x n_initial, in the configured basis and frame.
  CMatrix columns;
  /// precision: single only: max |difference| between the first column block evolved in
  /// single and in double precision; NaN otherwise.
  double single_precision_deviation = 0.0;
};

/// Open systems: the channel on the initial states (n of them, in order), in the configured
/// basis and frame, column stacking (docs/output.md): superoperator(a + n b, i + n j) =
/// <a| E(|i><j|) |b>. With computational initial states it is the computational block S_E.
struct ChannelResult {
  CMatrix superoperator;
};

/// Open systems: d(generator)/dtheta of the dissipator of one `noise` entry (d^2 x d^2, local
/// column-stacking index, 1/ns), e.g. for theta = T1 or Tphi of that entry.
struct DissipatorTangent {
  int dissipator = 0;  ///< index of the dissipator (Simulator::dissipator_rate_tangent gives it)
  CMatrix generator;
};

/// Result of the open-system adjoint: the device tangents (as AdjointResult::tangents), the
/// noise tangents, lambda carried back to t = 0, and the number of states the checkpointing
/// kept at most (for the memory statement).
struct OpenAdjointResult {
  std::vector<double> tangents;
  std::vector<double> noise;
  CMatrix lambda0;
  int checkpoint_interval = 0;
  int stored_states = 0;
};

/// Counters proving what is cached (tests assert on them; they are not timings).
struct CacheStats {
  long static_factor_builds = 0;        ///< times the dt-dependent static factors were built
  long drive_eigendecompositions = 0;   ///< eigensystems of drive operators computed
  long dense_h0_builds = 0;             ///< dense H0 / drive operators built (expm, adaptive)
  long evaluations = 0;                 ///< evolve() calls
  long dissipator_builds = 0;           ///< open systems: dissipator sets built (build, set_noise)
};

/// Every initial state (or density input) of a Simulator, for evolve() and evolve_channel().
inline constexpr comm::Shard kAllStates{0, -1};

/// How much one step costs (the Trotter path; 0 elsewhere): the fused local gates per step and
/// the floating-point work of one step on one column as the CPU executor does it (8 flops per
/// complex multiply-add, D g per dense gate of size g, less for parity blocks and factored
/// gates: TrotterGates::work, docs/solvers.md "Parity blocks").
struct StepWork {
  int gates_per_step = 0;
  double flops_per_column_step = 0.0;
};

class Simulator {
 public:
  /// Builds the simulator from a resolved plan (the resolution stage's io::evolution_plan):
  /// the static cache (drive eigensystems, term and bond lists, dissipators) and the scheme's
  /// factors, and the lines' outputs. `threads` <= 0 means all cores.
  explicit Simulator(EvolutionPlan plan, int threads = 0);
  ~Simulator();
  Simulator(const Simulator&) = delete;
  Simulator& operator=(const Simulator&) = delete;

  [[nodiscard]] const device::Device& device() const { return device_; }
  [[nodiscard]] const Options& options() const { return options_; }
  /// The dressed basis, present when basis: dressed, frame: rotating with dressed basis, or a
  /// pulse uses frequency: auto_dressed.
  [[nodiscard]] const std::optional<device::DressedBasis>& dressed() const { return dressed_; }
  /// The pulses, lines and drive channels, what the modes see of them over time, and the time
  /// grid (include/qevolve/drive_model.hpp).
  [[nodiscard]] const DriveModel& drive() const { return drive_; }
  /// The initial states and the output map (include/qevolve/state_map.hpp).
  [[nodiscard]] const StateMap& states() const { return states_; }

  /// Replaces the pulses and lines by `drive`'s (resolved on this simulator's device and
  /// dressed basis), keeping every cached factor, when that is all that changes: the same drive
  /// channels (modes, operators, crosstalk factors) and the same total `duration`. Returns
  /// false, changing nothing, otherwise (build a new Simulator then). The result equals a fresh
  /// build's bitwise.
  bool set_drive(Drive drive, double duration);
  /// Pulse (and line) parameters may be changed between evaluations (the static cache stays
  /// valid): the same pulses and lines, in the same order, with other values; the lines'
  /// outputs are recomputed once. `lines` empty: the lines are kept. Checks
  /// DriveModel::check_lines first (nothing changes when it throws).
  void replace_pulses(std::vector<pulse::Pulse> pulses, std::vector<pulse::Line> lines = {});
  /// Through lines, the derivatives of a pulse are line outputs: names, per pulse, the pulse
  /// parameters and the line parameters whose derivatives DriveModel::pulse_derivatives and
  /// DriveModel::line_derivative will be asked; DriveModel::update_line_derivatives computes them.
  void track_derivatives(std::vector<std::vector<pulse::ParamRef>> params,
                         std::vector<std::vector<pulse::LineParam>> line_params = {});
  /// Changes the number of steps; rebuilds only the dt-dependent static factors.
  void set_steps(int steps);
  /// solver: adaptive: new rtol and atol (the step-error estimate's coarser run).
  void set_tolerances(double rtol, double atol);
  /// Open systems: new noise rates for the same entries (same qubits, same order): rebuilds
  /// the dissipators only, not the unitary static factors (a batch of noise variants reuses
  /// the cache). std::invalid_argument if the entries do not match or a rate is not positive.
  void set_noise(const std::vector<NoiseSpec>& noise);

  /// Closed systems: evolves the initial states of `shard` (all by default; a rank's shard of
  /// a distributed run) through all steps: the columns, in the configured basis and frame.
  [[nodiscard]] EvolveResult evolve(const comm::Shard& shard = kAllStates, const Progress& progress = {},
                                    const StepObserver& observe = {}) const;
  /// Lower level: evolves arbitrary product-basis columns psi0 (D x n) in the lab frame with
  /// the configured solver and returns the product-basis lab-frame result (no basis change,
  /// no frame). Used by evolve() and by tests.
  [[nodiscard]] CMatrix evolve_product(const CMatrix& psi0, const Progress& progress = {},
                                       const StepObserver& observe = {}) const;
  /// Open systems (evolution.noise, options().open): the channel on the initial states, the
  /// columns of the inputs of `shard` (input i + n j = |v_i><v_j|; all by default) (Lindblad;
  /// trotter with the local dissipators of src/solver/lindblad.hpp, or expm of the dense
  /// Liouvillian).
  [[nodiscard]] ChannelResult evolve_channel(const comm::Shard& shard = kAllStates,
                                             const Progress& progress = {}) const;
  /// Lower level: evolves vectorised density matrices (D^2 x m, column stacking, product
  /// basis, lab frame) with the configured solver.
  [[nodiscard]] CMatrix evolve_density(const CMatrix& vecs0, const Progress& progress = {},
                                       const StepObserver& observe = {}) const;

  /// Adjoint pass (docs/gradients.md "Method") for expm and trotter: starting
  /// from the final columns psiN (evolve_product's result) and the cotangent lambdaN =
  /// d(objective)/d(psiN^*) (so d(objective) = 2 Re Tr(lambdaN^dag dpsiN)), steps back with the
  /// exact inverse of every step, calling on_step with d(objective)/dc_j per step and summing
  /// the contributions of every tangent. Memory: O(columns x D) plus per-step gate data, not
  /// growing with the number of steps. Double precision. std::logic_error for `adaptive`.
  [[nodiscard]] AdjointResult adjoint(const CMatrix& psiN, const CMatrix& lambdaN,
                                      const std::vector<HamiltonianTangent>& tangents,
                                      const StepCotangent& on_step) const;
  /// Open systems, trotter: the checkpointed adjoint of evolve_density (memory O(sqrt(steps))
  /// states; `checkpoint_interval` 0 = ceil(sqrt(steps))). lambdaN = d(objective)/d(x_N^*) for
  /// the vectorised final states of evolve_density(vecs0); on_step as for adjoint(). Drive and
  /// device tangents as adjoint(); `noise` tangents move the dissipators.
  [[nodiscard]] OpenAdjointResult adjoint_density(const CMatrix& vecs0, const CMatrix& lambdaN,
                                                  const std::vector<HamiltonianTangent>& tangents,
                                                  const std::vector<DissipatorTangent>& noise,
                                                  const StepCotangent& on_step,
                                                  int checkpoint_interval = 0) const;
  /// d(generator)/dT1 (t1 = true) or d/dTphi of noise entry `entry`, on that entry's
  /// dissipator (an empty generator if the entry has no such rate).
  [[nodiscard]] DissipatorTangent dissipator_rate_tangent(int entry, bool t1) const;

  [[nodiscard]] CacheStats stats() const;
  [[nodiscard]] StepWork work() const;

 private:
  struct Cache;  // the shared factors and the solver's scheme (src/solver/scheme.hpp)
  friend CMatrix dense_hamiltonian(const Simulator& sim, double t);
  /// The flux gauge (docs/models.md "Flux pulses", src/solver/flux_gauge.cpp): cols =
  /// exp(+-i g(t) n) cols on every mode whose gauge moves (to_moving: lab -> moving gauge, +),
  /// for product-basis columns and for vectorised density matrices (G rho G^dag); a
  /// StepObserver that shows the lab gauge.
  void to_gauge(CMatrix& cols, double t, bool to_moving) const;
  void to_gauge_density(CMatrix& vecs, double t, bool to_moving) const;
  [[nodiscard]] StepObserver lab_gauge_observer(const StepObserver& observe) const;
  /// Per channel: d(objective)/dg of the turn at t (0: the moving-gauge input states and their
  /// cotangent; T: the lab-gauge output states and theirs), for the n channel of every mode
  /// whose gauge moves (0 elsewhere); `density`: vectorised density matrices. The turn's
  /// kept n moves with the device parameters too: tangent_sums[k] += its term for tangents[k].
  [[nodiscard]] std::vector<double> gauge_end_cotangents(const CMatrix& states, const CMatrix& lambda, double t,
                                                         bool density, const std::vector<HamiltonianTangent>& tangents,
                                                         std::vector<double>& tangent_sums) const;
  /// Whether the turn at t can depend on a parameter: a mode whose gauge moves has a flux
  /// offset != 0 at t, a flux source through a line, or a source pulse with a derivative != 0 at t.
  [[nodiscard]] bool gauge_end_sensitive(double t) const;
  /// Calls on_step with the end cotangents at t = T, then t = 0 (empty vectors: none).
  void report_gauge_ends(const std::vector<double>& at_T, const std::vector<double>& at_0,
                         const StepCotangent& on_step) const;
  device::Device device_;
  Options options_;
  std::optional<device::DressedBasis> dressed_;
  DriveModel drive_;
  StateMap states_;
  std::vector<NoiseSpec> noise_;  ///< evolution.noise (open systems), config order
  std::vector<CollapseSpec> collapse_;  ///< evolution.collapse
  std::vector<int> noise_dissipator_;   ///< dissipator of each noise entry
  std::unique_ptr<Cache> cache_;
};

/// The step boundaries output.trace observes (ascending, unique, in [0, steps]): every K-th
/// boundary with 0 and `steps` included, or each time mapped to round(t / dt); empty without a
/// trace.
[[nodiscard]] std::vector<int> trace_steps(const Options& options);
/// The step boundaries a forward pass shows `observe`: its own `steps`, else trace_steps().
[[nodiscard]] inline std::vector<int> observed_steps(const Options& options, const StepObserver& observe) {
  return observe.steps.empty() ? trace_steps(options) : observe.steps;
}
/// The global order of the error in dt (2: midpoint rule, 1: trotter order 1, 4: magnus4;
/// 0: adaptive, whose error follows its tolerances).
[[nodiscard]] int time_order(const Options& options);
/// The full time-dependent Hamiltonian at time t as a dense D x D matrix (tests and the dense
/// reference path; small D only).
[[nodiscard]] CMatrix dense_hamiltonian(const Simulator& sim, double t);

/// Number of threads used for `threads` <= 0 (all cores) or the value itself.
[[nodiscard]] int resolve_threads(int threads);

}  // namespace qevolve::solver
