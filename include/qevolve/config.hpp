// The parsed configuration: a plain-data image of the YAML file of docs/config.md.
//
// io::load_config() fills it strictly (unknown keys, wrong types, out-of-range values are
// InputErrors with a location). Later layers read it and may find further problems (a coupling
// to a mode that does not exist after merging a preset, a pulse that ends after
// evolution.duration, ...); they report them with Config::fail(), which looks up the location
// of the offending key in Config::where.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "qevolve/error.hpp"

namespace qevolve {

/// The config spellings of these enums: qevolve/names.hpp (enum_name).
enum class ModeType { fluxonium, transmon, resonator, duffing };
/// What a mode is for (docs/device.md "Qubits and couplers"): a qubit has a bit in the
/// computational subspace; a coupler (and every resonator) is held in its ground state there.
enum class ModeRole { qubit, coupler };

/// One entry of device.qubits. Every physical key is optional because an entry may only
/// override some keys of a preset mode; device::resolve_modes() merges and completes them.
struct ModeEntry {
  std::string name;
  std::optional<ModeType> type;
  std::optional<ModeRole> role;
  std::optional<int> levels;
  std::optional<double> ec, ej, el, flux, ng, asymmetry;  // fluxonium / transmon
  std::optional<double> frequency, anharmonicity;         // resonator / duffing
  std::optional<int> basis_size;  // internal basis: phase-grid points, charge cutoff or Fock states
  std::vector<std::string> optimize;
  std::string path;  // key path of the entry, e.g. "device.qubits[2]"
};

/// One entry of device.couplings.
struct CouplingEntry {
  std::string a, b;  // mode names, in the order given
  std::optional<double> capacitive, inductive, dipole, cross_kerr;
  std::vector<std::string> optimize;
  std::string path;  // "device.couplings[0]"
};

struct PresetSpec {
  std::string name;  // mpc_fluxonium_1d | transmon_coupler_1d
  int qubits = 2;
  bool periodic = false;
  int levels = 2;
  std::optional<int> coupler_levels;  // transmon_coupler_1d only (default 3)
  double variance = 0.0;
  std::uint64_t seed = 42;
};

struct DeviceSpec {
  std::optional<PresetSpec> preset;
  std::vector<ModeEntry> qubits;
  std::vector<CouplingEntry> couplings;
};

enum class Shape { cos, rampcos, trapezoid, gaussian, tanh, erf, drag, piecewise_constant, spline };
enum class FrequencyMode { value, auto_bare, auto_dressed };

struct PulseSpec {
  std::string qubit;
  std::string op;  // "phi" | "n" | "x" | "y"; empty: the mode's default (phi, or x for oscillators)
  Shape shape = Shape::cos;
  bool amplitude_auto = false;
  double amplitude = 0.0;           // GHz (ignored when amplitude_auto)
  std::optional<double> angle;      // with amplitude: auto
  FrequencyMode frequency_mode = FrequencyMode::value;
  double frequency = 0.0;           // GHz (frequency_mode == value)
  double phase = 0.0;               // rad
  std::optional<double> duration;   // ns
  double delay = 0.0;               // ns
  std::optional<double> ramp, plateau, sigma, c, lambda;
  Shape base = Shape::cos;          // drag: cos | gaussian
  std::vector<double> values;       // piecewise_constant, spline (GHz)
  std::vector<std::pair<std::string, double>> crosstalk;  // other mode -> factor
  std::vector<std::string> optimize;
  std::string line;  // the control line it goes through (LineSpec::name); empty: none
  std::string path;  // "pulses[3]"
};

/// A linear, time-invariant filter of a control line (docs/lines.md "Filters").
enum class FilterType { gaussian, highpass, exponential, fir };

struct FilterSpec {
  FilterType type = FilterType::gaussian;
  double sigma = 0.0;      ///< gaussian: standard deviation (ns)
  double tau = 0.0;        ///< highpass, exponential: time constant (ns)
  double amplitude = 0.0;  ///< exponential: A of the step response 1 + A e^(-t/tau)
  std::vector<double> taps;  ///< fir: h_0, h_1, ... at the line's sample rate
  /// Trainable keys: sigma | tau | amplitude | taps (all) | taps[k].
  std::vector<std::string> optimize;
  std::string path;  ///< "lines[0].filters[1]"
};

/// A control line between a pulse and its mode (docs/lines.md): zero-order-hold sampling at
/// `sample_rate` (GS/s, absent: no sampling), then the filters in order; `predistort` replaces
/// the pulse, before sampling, by the exact inverse of the line's highpass and exponential
/// filters applied to it.
struct LineSpec {
  std::string name;
  std::optional<double> sample_rate;  ///< GS/s
  std::vector<FilterSpec> filters;
  bool predistort = false;
  std::string path;  ///< "lines[0]"
};

enum class Solver { expm, trotter, magnus4, adaptive };
enum class Splitting { terms, bonds, dense, chebyshev };
enum class Basis { product, dressed };
enum class Frame { lab, rotating };
enum class Precision { double_, single };
enum class ComputeDevice { cpu, cuda, auto_ };

struct NoiseSpec {
  std::string qubit;
  std::optional<double> t1, tphi;  // ns
  std::vector<std::string> optimize;  // trainable rates: t1 | tphi (open-system gradients)
};

/// A general collapse operator c = sqrt(rate) O on one mode (open systems), O a mode operator
/// in the kept eigenbasis or a given matrix.
struct CollapseSpec {
  std::string qubit;
  std::string op;  ///< lowering | number | phi | n | x | y | matrix
  std::vector<std::vector<double>> matrix;  ///< op == "matrix": d x d (row-major lists)
  double rate = 0.0;                        ///< 1/ns
  std::string path;                         ///< evolution.collapse[k]
};

struct InitialStates {
  enum class Kind { computational, all, list } kind = Kind::computational;
  std::vector<std::string> labels;  // Kind::list: one digit per mode, e.g. "0110"
};

struct EvolutionSpec {
  Solver solver = Solver::trotter;
  int order = 2;
  bool order_given = false;  // `order` written in the config (magnus4 accepts only 4)
  Splitting splitting = Splitting::terms;  // the more accurate in the lab frame (docs/solvers.md)
  int steps = 1000;
  /// `steps: auto`: the step count is chosen by the step-error estimate to reach `tolerance`
  /// (docs/accuracy.md "steps: auto"); `steps` then holds the count it starts from.
  bool steps_auto = false;
  /// Absolute error of F the run must reach (steps: auto; optimize's certification); absent:
  /// kDefaultTolerance where it is needed.
  std::optional<double> tolerance;
  static constexpr double kDefaultTolerance = 1e-6;
  /// The step-error estimate of F (`fidelity_error_steps`), on by default.
  bool error_estimate = true;
  std::optional<double> duration;  // ns
  double rtol = 1e-10;
  double atol = 1e-12;
  Basis basis = Basis::product;
  Frame frame = Frame::lab;
  InitialStates initial_states;
  Precision precision = Precision::double_;
  ComputeDevice device = ComputeDevice::auto_;
  std::vector<NoiseSpec> noise;
  std::vector<CollapseSpec> collapse;
  /// An open (Lindblad) system: `noise` or `collapse` given.
  [[nodiscard]] bool is_open() const { return !noise.empty() || !collapse.empty(); }
  /// trotter or magnus4: the solvers whose exponentials `splitting` says how to apply.
  [[nodiscard]] bool split_solver() const { return solver == Solver::trotter || solver == Solver::magnus4; }
  /// Local gates (the gate executors): a split solver with splitting terms or bonds.
  [[nodiscard]] bool local_gates() const {
    return split_solver() && (splitting == Splitting::terms || splitting == Splitting::bonds);
  }
  /// One dense D x D generator per gate step: expm, or a split solver with splitting dense or
  /// chebyshev.
  [[nodiscard]] bool dense_generator() const {
    return solver == Solver::expm || (split_solver() && !local_gates());
  }
};

enum class Compensation { none, vz, single_qubit };

struct GateSpec {
  std::string gate;                // a name of qevolve/gates.hpp (X, RX, CZ, CPHASE, ...), or empty
  std::optional<double> angle;     // RX RY RZ CPHASE
  std::string matrix_file;         // {matrix_file: ..., qubits: [...]}
  std::vector<std::string> qubits;
  std::string path;                // "target.gates[1]"
};

struct TargetSpec {
  std::vector<GateSpec> gates;
  Compensation compensation = Compensation::none;
  bool compensation_trainable = false;
};

enum class OptimizerMethod { lbfgs, adam };

struct OptimizeSpec {
  OptimizerMethod method = OptimizerMethod::lbfgs;
  int max_iterations = 200;
  double target_infidelity = 1e-4;
  double learning_rate = 1e-3;  // adam
  std::string checkpoint;       // empty: no checkpoint
  double leakage_weight = 0.0;  // w of the objective (1 - F) + w leakage
};

/// output.trace (docs/config.md "output"): populations at step boundaries. Exactly one of
/// `every` (every K-th step boundary, t = 0 and the final time included) and `times` (ns, each
/// mapped to the nearest step boundary) when present; both empty: no trace.
struct TraceSpec {
  int every = 0;              // 0: not given
  std::vector<double> times;  // ns, as given
  [[nodiscard]] bool requested() const { return every > 0 || !times.empty(); }
};

struct OutputSpec {
  std::string file;  // empty: no HDF5 output unless -o is given
  TraceSpec trace;
  bool ensemble_unitaries = false;  // output.ensemble_unitaries: each member's unitary too
};

/// `ensemble:` (docs/config.md "ensemble"): one pulse over several variants of the config,
/// each a set of overrides in `--set` syntax; io::ensemble_members (qevolve/ensemble.hpp)
/// lists them. The objective combines the members' 1 - F: their weighted mean, or the worst.
enum class EnsembleObjective { mean, worst };
enum class EnsembleDistribution { normal, uniform };

/// One entry of ensemble.members.
struct EnsembleMemberSpec {
  std::vector<std::pair<std::string, std::string>> set;  // key path, YAML value text, file order
  double weight = 1.0;                                   // > 0, normalised by ensemble_members
};

/// One entry of ensemble.vary: `points` Gauss nodes of the key's distribution (normal: mean,
/// std; uniform: low, high). Several entries form the tensor grid, the first entry slowest.
struct EnsembleVarySpec {
  std::string key;
  EnsembleDistribution distribution = EnsembleDistribution::normal;
  double mean = 0, std = 0, low = 0, high = 0;
  int points = 0;
};

/// Exactly one of `members` and `vary` is non-empty.
struct EnsembleSpec {
  std::vector<EnsembleMemberSpec> members;
  std::vector<EnsembleVarySpec> vary;
  EnsembleObjective objective = EnsembleObjective::mean;
};

/// One `--set KEY=VALUE` (or one `--vary` value) applied to the YAML tree before the loader
/// read it (io::apply_overrides): problems with the keys it set are reported at `label`.
struct AppliedOverride {
  std::string label;               ///< "--set pulses[0].amplitude=0.1": FILE of its messages
  std::vector<std::string> paths;  ///< key paths it set or created, lists by index
                                   ///< ("device.qubits[0].el")
};

struct Config {
  std::string source_file;  // path as given on the command line ("<stdin>" for `-`)
  /// The text as run, stored as the `config` attribute of outputs: the file's text, or with
  /// overrides the YAML of the overridden tree (docs/cli.md "--set").
  std::string yaml_text;
  std::vector<AppliedOverride> overrides;  ///< in the order given
  /// The labels ("--set pulses[0].qubit=q2", comma-separated) of the overrides that wrote a key
  /// of the list entry `key_path` is in (pulses[0], device.qubits[q0], ...), when `key_path`
  /// itself comes from the file: fail() names them after the problem, since a value the file
  /// still shows may be wrong only with them. Empty otherwise.
  [[nodiscard]] std::string overrides_in_entry(const std::string& key_path) const;
  DeviceSpec device;
  std::vector<PulseSpec> pulses;
  std::vector<LineSpec> lines;
  EvolutionSpec evolution;
  bool has_evolution = false;
  std::optional<TargetSpec> target;
  std::optional<OptimizeSpec> optimize;
  OutputSpec output;
  std::optional<EnsembleSpec> ensemble;

  /// Location of every key that was present in the file, by key path
  /// ("device.qubits[2].ec", "pulses[0]", "evolution.steps").
  std::map<std::string, SourceLocation> where;

  /// Throws an InputError located at `key_path` (or at its closest present parent).
  [[noreturn]] void fail(const std::string& key_path, const std::string& problem,
                         const std::string& expected = {}) const;
  /// The location of `key_path` or of its closest present parent (file only if none); a key
  /// set by an override is located at the override's label.
  [[nodiscard]] SourceLocation locate(const std::string& key_path) const;
  /// The last override that set `key_path` or one of its parents, or nullptr.
  [[nodiscard]] const AppliedOverride* override_of(const std::string& key_path) const;
  /// The key path of the first `optimize:` list with an entry (device qubits, couplings,
  /// pulses, in that order), or empty when nothing is trainable.
  [[nodiscard]] std::string first_trainable_list() const;
  /// What makes a run compute gradients, for messages: first_trainable_list(), else
  /// "target.compensation_trainable" when the compensation angles are trained; empty: none.
  [[nodiscard]] std::string first_trainable() const;
};

}  // namespace qevolve
