// The library face of the commands for programs that keep the engine loaded (the Python module
// `qevolve`, docs/python.md): a config parsed once, then many runs, gradients, sweeps and
// optimisations with overrides, each as the CLI command with `--set` would compute it, from a
// cached device and simulator (pulse and target overrides rebuild nothing; device and
// evolution overrides rebuild the device or the simulator only).
//
// Overrides are "KEY=VALUE" strings exactly as `--set` takes them (docs/cli.md "--set"); their
// problems are InputErrors located as the CLI locates them. A Session is not shared between
// threads without a lock of its own (the Python module serialises calls on one Session).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "qevolve/gradient.hpp"
#include "qevolve/trace.hpp"
#include "qevolve/types.hpp"

namespace qevolve::commands {

/// An ensemble's members (docs/ensembles.md; /ensemble/* of docs/output.md), in member order.
struct EnsembleData {
  std::string objective;               ///< "mean" or "worst"
  std::vector<std::string> overrides;  ///< per member: "KEY = VALUE, ..."
  std::vector<double> weights, fidelity, fidelity_uncompensated, leakage;  ///< weights sum to 1
  std::vector<double> step_error;      ///< per member: the step-error estimate of F (NaN: none)
  std::vector<long long> steps;        ///< per member: the steps it ran
  std::int64_t worst = -1;             ///< the member with the largest objective
  std::vector<CMatrix> unitaries;      ///< output.ensemble_unitaries: per member (else empty)
};

/// One evaluation: what `qevolve run` (or the final evaluation of `qevolve optimize`) reports.
/// With an `ensemble:` the figures are the objective's (docs/ensembles.md), ensemble() holds the
/// members, and the unitary, propagator and angles are empty (per member, as the file has them).
class RunResult {
 public:
  struct Impl;
  explicit RunResult(std::shared_ptr<const Impl> impl);

  /// False without a target, or when the initial states are not the computational ones.
  [[nodiscard]] bool has_fidelity() const;
  [[nodiscard]] double fidelity() const;                ///< after compensation (NaN: none)
  [[nodiscard]] double fidelity_uncompensated() const;  ///< NaN: none
  [[nodiscard]] double leakage() const;                 ///< NaN: none
  /// The step-error estimate of F (docs/accuracy.md); NaN: none (off, or no fidelity). An
  /// ensemble: the bound on the objective's (/ensemble's objective_step_error).
  [[nodiscard]] double fidelity_error_steps() const;
  /// The members of an `ensemble:` config's run (nullptr without one).
  [[nodiscard]] const EnsembleData* ensemble() const;
  [[nodiscard]] bool is_open() const;                   ///< Lindblad run
  [[nodiscard]] const RVector& angles() const;          ///< /compensation/angles (empty: none)
  [[nodiscard]] const CMatrix& unitary() const;         ///< /unitary (closed, with a fidelity)
  [[nodiscard]] const CMatrix& unitary_compensated() const;  ///< /unitary_compensated
  [[nodiscard]] const CMatrix& propagator() const;      ///< /propagator (closed systems)
  [[nodiscard]] const CMatrix& superoperator() const;   ///< /superoperator (open systems)
  [[nodiscard]] const std::vector<std::string>& gradient_names() const;  ///< empty: no gradient
  [[nodiscard]] const RVector& gradient() const;        ///< d(1 - F)/d(theta), /gradient order
  [[nodiscard]] const std::optional<solver::Trace>& trace() const;  ///< output.trace
  /// /truncation/top_level_population: per mode, the largest population of its top level during
  /// the evolution (docs/output.md "Truncation check"; NaN: a two-level qubit, not checked).
  [[nodiscard]] const std::vector<double>& top_level_population() const;
  /// /pulses/*: the sample times, every pulse as its mode saw it (after its control line), the
  /// pulses before their lines (`ideal`: empty when no pulse has a line) and their names.
  [[nodiscard]] const solver::PulseSamples& pulses() const;
  [[nodiscard]] std::vector<std::pair<std::string, double>> resolved() const;  ///< /resolved/*
  [[nodiscard]] std::vector<std::string> initial_labels() const;  ///< /initial_states
  [[nodiscard]] std::vector<int> dims() const;          ///< levels per mode
  /// What `qevolve run` prints as `qevolve: warning: …` (without the prefix): the plausibility
  /// warnings (io::plausibility_warnings, located as the CLI locates them), then the step size.
  [[nodiscard]] const std::vector<std::string>& warnings() const;
  [[nodiscard]] double evolve_seconds() const;          ///< engine time by phase
  [[nodiscard]] double fidelity_seconds() const;
  [[nodiscard]] double gradient_seconds() const;
  /// Writes the HDF5 file `qevolve run -o PATH` (or `optimize -o PATH`) writes (docs/output.md).
  void save(const std::string& path) const;

 private:
  std::shared_ptr<const Impl> impl_;
};

/// A sweep grid's figures (the arrays of /sweep/*, row-major over the axes, first slowest).
class SweepData {
 public:
  struct Impl;
  explicit SweepData(std::shared_ptr<const Impl> impl);
  [[nodiscard]] std::vector<std::int64_t> shape() const;
  [[nodiscard]] std::vector<std::string> keys() const;  ///< axis keys, in order
  /// Axis k's values as numbers (empty when a value is not a number) and as YAML texts.
  [[nodiscard]] const std::vector<double>& axis_values(std::size_t k) const;
  [[nodiscard]] const std::vector<std::string>& axis_texts(std::size_t k) const;
  [[nodiscard]] std::vector<double> fidelity() const;
  [[nodiscard]] std::vector<double> fidelity_uncompensated() const;
  [[nodiscard]] std::vector<double> leakage() const;
  /// rad; NaN unless the target is one CZ / CPHASE gate on two qubits (/sweep/conditional_phase).
  [[nodiscard]] std::vector<double> conditional_phase() const;
  [[nodiscard]] std::vector<double> populations() const;  ///< shape + [d, d]
  [[nodiscard]] const std::vector<std::string>& labels() const;  ///< computational labels (d)
  /// Devices, simulators built and pulse-only updates (the cache's work).
  [[nodiscard]] std::vector<long> builds() const;
  /// What `qevolve sweep` prints as `qevolve: warning: …` (without the prefix).
  [[nodiscard]] const std::vector<std::string>& warnings() const;
  void save(const std::string& path) const;  ///< the file of `qevolve sweep -o PATH`

 private:
  std::shared_ptr<const Impl> impl_;
};

/// `qevolve spectrum`'s figures and, for the device parameters asked for, their derivatives
/// (Hellmann-Feynman, device::spectrum_derivative): column j is d/dtheta_j in the figure's unit
/// per unit of theta_j (GHz per GHz of EJ, GHz per flux quantum, kHz per GHz for ZZ, ...).
struct SpectrumData {
  RVector energies;                 ///< dressed energies, ascending (GHz)
  std::vector<std::string> labels;  ///< bare label of each dressed state
  std::vector<std::string> modes, types;
  std::vector<double> f01_bare, f12_bare, f01_dressed, phi01, n01;  ///< per mode
  std::vector<std::pair<std::string, std::string>> zz_pairs;
  std::vector<double> zz_khz;
  std::vector<std::string> gradient_names;  ///< the parameters, as /gradient_names spells them
  RMatrix energies_gradient;                ///< levels x parameters (empty: none asked for)
  RMatrix f01_bare_gradient, f12_bare_gradient, f01_dressed_gradient;  ///< modes x parameters
  RMatrix zz_khz_gradient;                                              ///< pairs x parameters
  /// What `qevolve spectrum` prints as `qevolve: warning: …` (without the prefix): the
  /// plausibility warnings.
  std::vector<std::string> warnings;
};

/// `qevolve optimize`'s outcome: the final evaluation (with /history) and the optimised config.
struct OptimizeData {
  std::optional<RunResult> result;  ///< always set; optional only for default construction
  std::vector<std::string> names;
  RVector x0, x;
  std::vector<long long> iteration;  ///< /history/iteration
  std::vector<double> infidelity, leakage, objective, gradient_norm, step, wall_time_s;  ///< /history
  std::string stop_reason;
  int evaluations = 0;
  std::string optimized_yaml;  ///< the text `qevolve optimize` writes to OUT.optimized.yaml
};

/// `qevolve converge`'s outcome (docs/accuracy.md "qevolve converge"): the table, the
/// converged steps and levels and the config `converge` writes.
struct ConvergeData {
  std::vector<std::string> settings, verdicts;  ///< per row of the table
  std::vector<double> fidelity, change, estimate, seconds;  ///< per row (change NaN: the first)
  std::string table;                 ///< the table as `qevolve converge` prints it
  int steps = 0;
  std::vector<std::string> modes;    ///< in mode order
  std::vector<int> levels;           ///< per mode
  double final_fidelity = 0.0;       ///< F at steps and levels
  double final_estimate = 0.0;       ///< its step-error estimate
  bool converged = false;            ///< false: a cap or the memory stopped it (the CLI's exit 3)
  std::string stop_reason;           ///< why (empty when converged)
  std::string converged_yaml;        ///< the text `qevolve converge` writes
  double wall_time = 0.0;
};

class Session {
 public:
  /// Parses `text` (FILE `name` in messages) with the `sets` ("KEY=VALUE") applied to every
  /// call; validates the config (io::resolve). `threads` as --threads (0: all cores).
  Session(std::string text, std::string name, std::vector<std::string> sets = {}, int threads = 0);
  /// The same from a file (its path in messages).
  [[nodiscard]] static Session from_file(const std::string& path, std::vector<std::string> sets = {},
                                         int threads = 0);
  ~Session();
  Session(Session&&) noexcept;
  Session& operator=(Session&&) noexcept;

  /// `qevolve run --set ...`: evolve, fidelity with compensation and, when something is
  /// trainable, the gradient. An `ensemble:` config: every member, as `qevolve run` evaluates
  /// them (commands::evaluate_ensemble), the objective's figures and gradient.
  [[nodiscard]] RunResult run(const std::vector<std::string>& overrides = {});
  /// d(1 - F)/d(theta) of every trainable parameter, as `run` writes /gradient (InputError when
  /// nothing is trainable); an ensemble: the objective's, from the session's cached
  /// gradient::EnsembleProblem (at the config's values, no warm start).
  [[nodiscard]] std::pair<std::vector<std::string>, RVector> gradient(const std::vector<std::string>& overrides = {});
  /// The trainable parameters of the config (stable order: /gradient_names) and their values.
  [[nodiscard]] const std::vector<gradient::ParameterInfo>& parameters();
  [[nodiscard]] RVector x0();
  /// The objective of `qevolve optimize` ((1 - F) + w leakage, w = optimize.leakage_weight)
  /// and its gradient at parameter values x (units of the parameters). `scaled`: x and the
  /// gradient are in the optimiser's variables u = theta / ParameterInfo::scale, as `qevolve
  /// optimize` minimises (docs/optimize.md): its first steps are then sensible whatever the units.
  /// An ensemble: the objective `qevolve optimize` minimises (mean: sum_k w_k o_k; worst: the
  /// power mean J) from one gradient::EnsembleProblem, built once per session (its members'
  /// static factors reused by every call).
  [[nodiscard]] std::pair<double, RVector> value_and_grad(const RVector& x, bool scaled = false);
  /// Ensemble members the session's ensemble problems have built so far (K per problem: once
  /// for value_and_grad, gradient and parameters together, while the overrides stay the same).
  [[nodiscard]] long ensemble_builds() const;
  /// `qevolve sweep --vary V ... --set ...` with `threads` points in parallel.
  [[nodiscard]] SweepData sweep(const std::vector<std::string>& vary, const std::vector<std::string>& overrides = {});
  /// `qevolve spectrum --set ...`, with the derivatives of its energy figures with respect to
  /// the device parameters `gradient` names (keys as `--set` spells them: device.qubits[q0].ej,
  /// device.couplings[0].capacitive; io::device_params_of_keys, its InputErrors at FILE
  /// "gradient").
  [[nodiscard]] SpectrumData spectrum(const std::vector<std::string>& overrides = {},
                                      const std::vector<std::string>& gradient = {});
  /// `qevolve optimize --set ...` (checkpoint as optimize.checkpoint, `resume` as --resume);
  /// `line` receives the progress lines (empty: none).
  [[nodiscard]] OptimizeData optimize(const std::vector<std::string>& overrides = {}, const std::string& resume = {},
                                      const std::function<void(const std::string&)>& line = {});

  /// `qevolve converge --tolerance T --set ...`: InputError as the CLI's exit 2 (a tolerance
  /// outside (0, 0.1], named `tolerance`; a first refinement that cannot fit); a cap that stops
  /// it is reported in ConvergeData::converged / stop_reason, not thrown.
  [[nodiscard]] ConvergeData converge(double tolerance, const std::vector<std::string>& overrides = {});

  [[nodiscard]] int threads() const;
  [[nodiscard]] const std::string& text() const;
  [[nodiscard]] const std::string& name() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace qevolve::commands
