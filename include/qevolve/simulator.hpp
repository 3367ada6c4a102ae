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
#include "qevolve/evolution_plan.hpp"
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

/// Called by the forward pass at each step boundary of Simulator::trace_steps() (ascending,
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
  /// Simulator::trace_steps() (Simulator::observed_steps).
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

/// The drive samples of a run (Simulator::pulse_samples, docs/output.md "Pulse samples").
struct PulseSamples {
  std::vector<double> time;                 ///< S sample times (ns), ascending
  std::vector<std::vector<double>> values;  ///< [P][S]: f_p(t) of every pulse (GHz), after its line
  std::vector<std::vector<double>> ideal;   ///< [P][S]: the pulses before their lines (empty: no line)
  std::vector<std::string> names;           ///< [P]: the pulses' key paths ("pulses[0]")
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

struct TimeGrid;          // src/solver/time_grid.hpp

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
  [[nodiscard]] const std::vector<DriveChannel>& channels() const { return channels_; }
  /// The dressed basis, present when basis: dressed, frame: rotating with dressed basis, or a
  /// pulse uses frequency: auto_dressed.
  [[nodiscard]] const std::optional<device::DressedBasis>& dressed() const { return dressed_; }

  [[nodiscard]] const std::vector<pulse::Pulse>& pulses() const { return pulses_; }
  /// Pulse (and line) parameters may be changed between evaluations (the static cache stays
  /// valid): the same pulses and lines, in the same order, with other values; the lines'
  /// outputs are recomputed once. `lines` empty: the lines are kept.
  void replace_pulses(std::vector<pulse::Pulse> pulses, std::vector<pulse::Line> lines = {});
  /// NumericalError when these values of the pulses and lines would make a line's output
  /// unaffordable (more than pulse::kMaxLinePanels panels, docs/lines.md "Cost"): an optimiser's
  /// step is refused before anything changes. replace_pulses checks it first too.
  void check_lines(const std::vector<pulse::Pulse>& pulses, const std::vector<pulse::Line>& lines) const;
  /// The control lines (docs/lines.md) and the line of each pulse (-1: none).
  [[nodiscard]] const std::vector<pulse::Line>& lines() const { return lines_; }
  [[nodiscard]] int pulse_line(std::size_t p) const { return pulse_line_[p]; }
  /// Through a line, at the line's nodes in [0, T]: |output - f| at the evolution's end (the
  /// line's tail, not yet settled), the pulse's peak max|f| and the output's max|y|; all 0
  /// without a line.
  struct LineSummary {
    double end_gap = 0.0, pulse_peak = 0.0, output_peak = 0.0;
  };
  [[nodiscard]] LineSummary line_summary(std::size_t p) const;
  /// What the mode sees of pulse p at time t: the pulse itself, or its line's output.
  [[nodiscard]] double pulse_value(std::size_t p, double t) const;
  /// d(pulse_value(p, t))/d(params): the pulse's derivatives, or (through a line) the line's
  /// output for them. Through a line, `params` must be those of the last
  /// track_derivatives() for p (std::logic_error otherwise).
  void pulse_derivatives(std::size_t p, double t, std::span<const pulse::ParamRef> params,
                         std::span<double> out) const;
  /// Through a line, the derivatives of pulse p are line outputs: names the parameters whose
  /// derivatives pulse_derivatives() will be asked (per pulse). They are computed by
  /// update_line_derivatives(), which a gradient pass calls first (a no-op when current).
  void track_derivatives(std::vector<std::vector<pulse::ParamRef>> params);
  void update_line_derivatives();
  /// d(pulse_value(p, t))/d(param) of a parameter of pulse p's line.
  [[nodiscard]] double line_derivative(std::size_t p, const pulse::LineParam& param, double t) const;
  /// Through lines: names the line parameters line_derivative() will be asked, per pulse.
  void track_line_derivatives(std::vector<std::vector<pulse::LineParam>> params);

  /// Replaces the pulses and lines by `drive`'s (resolved on this simulator's device and
  /// dressed basis), keeping every cached factor, when that is all that changes: the same drive
  /// channels (modes, operators, crosstalk factors) and the same total `duration`. Returns
  /// false, changing nothing, otherwise (build a new Simulator then). The result equals a fresh
  /// build's bitwise.
  bool set_drive(Drive drive, double duration);
  /// Changes the number of steps; rebuilds only the dt-dependent static factors.
  void set_steps(int steps);
  /// solver: adaptive: new rtol and atol (the step-error estimate's coarser run).
  void set_tolerances(double rtol, double atol);
  /// The global order of the error in dt (2: midpoint rule, 1: trotter order 1, 4: magnus4;
  /// 0: adaptive, whose error follows its tolerances).
  [[nodiscard]] int time_order() const;
  /// Open systems: new noise rates for the same entries (same qubits, same order): rebuilds
  /// the dissipators only, not the unitary static factors (a batch of noise variants reuses
  /// the cache). std::invalid_argument if the entries do not match or a rate is not positive.
  void set_noise(const std::vector<NoiseSpec>& noise);
  [[nodiscard]] double dt() const { return options_.duration / options_.steps; }

  /// Basis-state indices of the initial states (flat indices; in the dressed basis these label
  /// dressed states) and their labels ("0110").
  [[nodiscard]] const std::vector<Index>& initial_indices() const { return initial_; }
  [[nodiscard]] std::vector<std::string> initial_labels() const;
  /// True when the initial states are exactly the computational subspace, in order.
  [[nodiscard]] bool initial_states_are_computational() const;

  /// Evolves every initial state through all steps.
  [[nodiscard]] EvolveResult evolve(const Progress& progress = {}) const;
  /// Evolves the initial states [shard.first, shard.first + shard.count) only (a rank's shard
  /// of a distributed run): the columns are those of evolve() for these states.
  [[nodiscard]] EvolveResult evolve(const comm::Shard& shard, const Progress& progress = {},
                                    const StepObserver& observe = {}) const;
  /// The whole range of initial states {0, n} and of density inputs {0, n^2}.
  [[nodiscard]] comm::Shard all_initial() const;
  [[nodiscard]] comm::Shard all_inputs() const;

  /// Lower level: evolves arbitrary product-basis columns psi0 (D x n) in the lab frame with
  /// the configured solver and returns the product-basis lab-frame result (no basis change,
  /// no frame). Used by evolve() and by tests.
  [[nodiscard]] CMatrix evolve_product(const CMatrix& psi0, const Progress& progress = {},
                                       const StepObserver& observe = {}) const;

  /// True for an open system (evolution.noise): use evolve_channel(), not evolve().
  [[nodiscard]] bool is_open() const { return options_.open; }
  /// Open systems: evolves |i><j| for every pair of initial states (Lindblad; trotter with the
  /// local dissipators of src/solver/lindblad.hpp, or expm of the dense Liouvillian).
  [[nodiscard]] ChannelResult evolve_channel(const Progress& progress = {}) const;
  /// The channel columns of the inputs [shard.first, shard.first + shard.count) (input
  /// i + n j = |v_i><v_j|) only: a rank's shard of a distributed open-system run.
  [[nodiscard]] ChannelResult evolve_channel(const comm::Shard& shard, const Progress& progress = {}) const;
  /// Lower level: evolves vectorised density matrices (D^2 x m, column stacking, product
  /// basis, lab frame) with the configured solver.
  [[nodiscard]] CMatrix evolve_density(const CMatrix& vecs0, const Progress& progress = {},
                                       const StepObserver& observe = {}) const;

  /// The step boundaries output.trace observes (ascending, unique, in [0, steps]): every K-th
  /// boundary with 0 and `steps` included, or each time mapped to round(t / dt); empty
  /// without a trace.
  [[nodiscard]] std::vector<int> trace_steps() const;
  /// The step boundaries a forward pass shows `observe`: its own `steps`, else trace_steps().
  [[nodiscard]] std::vector<int> observed_steps(const StepObserver& observe) const {
    return observe.steps.empty() ? trace_steps() : observe.steps;
  }
  /// Every pulse sampled where the fixed-step solvers sample it: the step midpoints (expm,
  /// trotter, the open-system step), the two Gauss points of each step (magnus4); adaptive
  /// evaluates the formula at its own times, its samples are those of the midpoint grid of
  /// evolution.steps. f_p(t) without crosstalk factors.
  [[nodiscard]] PulseSamples pulse_samples() const;
  /// Open systems: the inputs |v_i><v_j| of evolve_channel (D^2 x n^2, input i + n j, v the
  /// initial columns), the channel block of evolved inputs (output map and projection onto the
  /// initial states), and the adjoint of that map (cotangent of S -> cotangent of the states).
  [[nodiscard]] CMatrix initial_density() const;
  [[nodiscard]] CMatrix initial_density(const comm::Shard& shard) const;
  [[nodiscard]] CMatrix channel_from(const CMatrix& vecs) const;
  [[nodiscard]] CMatrix channel_adjoint(const CMatrix& lambda_s) const;
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
  /// The product-basis columns evolve() starts from (basis vectors, or dressed eigenvectors).
  [[nodiscard]] CMatrix initial_columns() const;
  [[nodiscard]] CMatrix initial_columns(const comm::Shard& shard) const;
  /// The map evolve() applies to the product-basis lab-frame result: out = Phi W^dag psi
  /// (W: dressed transform for basis: dressed; Phi: the rotating-frame phases), and its
  /// adjoint (used to carry a cotangent of the output back to psi).
  [[nodiscard]] CMatrix to_output(const CMatrix& product_lab) const;
  [[nodiscard]] CMatrix output_adjoint(const CMatrix& cotangent) const;
  /// The energies E_i that define the rotating frame (bare sums or dressed), by flat index.
  [[nodiscard]] RVector frame_energies() const;

  /// Adjoint pass (docs/gradients.md "Method") for expm and trotter: starting
  /// from the final columns psiN (evolve_product's result) and the cotangent lambdaN =
  /// d(objective)/d(psiN^*) (so d(objective) = 2 Re Tr(lambdaN^dag dpsiN)), steps back with the
  /// exact inverse of every step, calling on_step with d(objective)/dc_j per step and summing
  /// the contributions of every tangent. Memory: O(columns x D) plus per-step gate data, not
  /// growing with the number of steps. Double precision. std::logic_error for `adaptive`.
  [[nodiscard]] AdjointResult adjoint(const CMatrix& psiN, const CMatrix& lambdaN,
                                      const std::vector<HamiltonianTangent>& tangents,
                                      const StepCotangent& on_step) const;

  /// The full time-dependent Hamiltonian at time t as a dense D x D matrix (tests and the
  /// dense reference path; small D only).
  [[nodiscard]] CMatrix dense_hamiltonian(double t) const;
  /// H0 + sum_j c_j O_j as a dense D x D matrix.
  [[nodiscard]] CMatrix dense_hamiltonian_for(const std::vector<double>& c) const;
  /// Drive coefficients c_j(t) = law_j(f_p(t) * factor) of every channel.
  void drive_coefficients(double t, std::vector<double>& out) const;
  /// per_pulse[p] += weight * dc_j/df_p(t) for every pulse p channel j reads (the factor for a
  /// linear channel; the law's slope times each source's factor for a flux channel).
  void add_channel_slopes(std::size_t j, double t, double weight, std::vector<double>& per_pulse) const;
  /// A tunable transmon's flux channels also read the flux at the edges (t_s, t_s + dt) of the
  /// step that contains t (the moving gauge, docs/models.md "Flux pulses"): lo[p] += weight *
  /// dc_j/df_p(t_s), hi[p] += weight * dc_j/df_p(t_s + dt); nothing for other channels.
  void add_channel_edge_slopes(std::size_t j, double t, double weight, std::vector<double>& lo,
                               std::vector<double>& hi) const;
  /// Whether a tunable transmon's flux channel moves its gauge (docs/models.md "Flux pulses"):
  /// a != 0 (a symmetric SQUID keeps the static gauge, no n term).
  [[nodiscard]] bool gauge_moves(const DriveChannel& ch) const;
  /// Whether the gauge angle of a mode whose gauge moves is nonzero at t (the turn at t = 0 or
  /// t = T is not the identity).
  [[nodiscard]] bool gauge_turned(double t) const;
  /// The turns exp(-+i g n) at t = T and t = 0 that take the moving gauge to the lab one depend
  /// on the flux there: the adjoints report their cotangents d(objective)/dg through on_step as
  /// samples at exactly t = T and t = 0 (no sample time of a fixed-step solver), with dc_j on
  /// the channel j of the gauge's n term. At those two times add_channel_slopes and
  /// channel_partial give that channel's dg/df_p and dg/d(key), add_channel_edge_slopes nothing.
  [[nodiscard]] bool gauge_end(const DriveChannel& ch, double t) const;
  /// The edges (t_s, t_s + dt) of the time step that contains t (s clamped to [0, steps - 1]).
  [[nodiscard]] std::pair<double, double> step_edges(double t) const;
  /// dc_j/d(key) at time t and fixed pulse values for a parameter `key` of the channel's mode
  /// (zero for linear channels; the flux laws read el, ej, flux, asymmetry).
  [[nodiscard]] double channel_partial(std::size_t j, double t, std::string_view key) const;

  [[nodiscard]] CacheStats stats() const;

  /// Trotter path only: number of fused local gates per step, and the floating-point work of
  /// one step on one column as the CPU executor does it (8 flops per complex multiply-add,
  /// D g per dense gate of size g, less for parity blocks and factored gates:
  /// TrotterGates::work, docs/solvers.md "Parity blocks").
  [[nodiscard]] int gates_per_step() const;
  [[nodiscard]] double flops_per_column_step() const;

  /// Lower level, for the schemes (src/solver/scheme.hpp): steps -> gate steps and drive
  /// samples (src/solver/time_grid.hpp), and the drive coefficients of gate step u (the
  /// midpoint values, or magnus4's Gauss combination).
  [[nodiscard]] TimeGrid time_grid() const;
  [[nodiscard]] std::function<void(int, std::vector<double>&)> substep_coefficients() const;

 private:
  struct Cache;  // the shared factors and the solver's scheme (src/solver/scheme.hpp)
  /// The total flux offset x(t) of a flux channel (sum over its sources).
  [[nodiscard]] double flux_offset(const DriveChannel& ch, double t) const;
  /// x at t and at the edges of the time step that contains t (the flux gauge's grid).
  [[nodiscard]] device::FluxSample flux_sample(const DriveChannel& ch, double t) const;
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
  /// The lines' outputs of every pulse on a line, and the tracked derivatives.
  void update_lines();
  [[nodiscard]] pulse::LineInput line_input(std::size_t p) const;
  device::Device device_;
  Options options_;
  std::vector<pulse::Pulse> pulses_;
  std::vector<pulse::Line> lines_;
  std::vector<int> pulse_line_;                    ///< per pulse: its line, or -1
  std::vector<pulse::PanelFunction> line_out_;     ///< per pulse: its line's output (empty: none)
  std::vector<std::vector<pulse::ParamRef>> tracked_;          ///< per pulse (track_derivatives)
  std::vector<std::vector<pulse::PanelFunction>> tracked_out_;  ///< their line outputs
  std::vector<std::vector<pulse::LineParam>> tracked_line_;     ///< per pulse (track_line_derivatives)
  std::vector<std::vector<pulse::PanelFunction>> tracked_line_out_;
  bool derivatives_current_ = false;  ///< tracked_out_, tracked_line_out_ match the pulses and lines
  std::vector<DriveChannel> channels_;
  std::optional<device::DressedBasis> dressed_;
  std::vector<Index> initial_;
  std::vector<NoiseSpec> noise_;  ///< evolution.noise (open systems), config order
  std::vector<CollapseSpec> collapse_;  ///< evolution.collapse
  std::vector<int> noise_dissipator_;   ///< dissipator of each noise entry
  std::unique_ptr<Cache> cache_;
};

/// Number of threads used for `threads` <= 0 (all cores) or the value itself.
[[nodiscard]] int resolve_threads(int threads);

}  // namespace qevolve::solver
