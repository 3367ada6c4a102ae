// The resolution stage (include/qevolve/resolve.hpp): every check that needs the merged device
// or more than one section. The loader (config_*.cpp) has already checked each key on its own.
#include "qevolve/resolve.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "qevolve/backend/local_gate.hpp"
#include "qevolve/compute_device.hpp"
#include "qevolve/gates.hpp"
#include "qevolve/hdf5_file.hpp"
#include "qevolve/line.hpp"
#include "qevolve/memory_estimate.hpp"
#include "qevolve/pulse.hpp"
#include "qevolve/scheme_traits.hpp"
#include "unknown_mode.hpp"

namespace qevolve::io {
namespace {

/// The largest D for which an open system may use a dense (expm / dense splitting) Liouvillian:
/// D^2 x D^2 complex entries (docs/solvers.md "Open systems").
constexpr double kMaxDenseLiouvillian = 1024;

/// Unitarity tolerance of a matrix_file gate: max |G^dag G - I| (docs/fidelity.md).
constexpr double kUnitarityTolerance = 1e-10;

/// The resolved device with name lookups.
struct Modes {
  const device::ResolvedDevice& dev;
  [[nodiscard]] int find(const std::string& name) const {
    for (std::size_t i = 0; i < dev.modes.size(); ++i)
      if (dev.modes[i].name == name) return static_cast<int>(i);
    return -1;
  }
  [[nodiscard]] const device::ModeParams& at(int m) const { return dev.modes[static_cast<std::size_t>(m)]; }
  /// D = prod levels, as a double (no overflow).
  [[nodiscard]] double dim() const {
    double d = 1.0;
    for (const auto& m : dev.modes) d *= m.levels;
    return d;
  }
};

/// A layer's precondition failure while the stage asks it to compute something, located.
template <typename F>
void located(const Config& config, F&& f) {
  try {
    f();
  } catch (const UnvalidatedInput& e) {
    config.fail(e.key_path(), e.problem(), e.expected());
  }
}

/// Why `op` cannot drive `mode` (docs/device.md "Drive operators").
std::string operator_problem(const device::ModeParams& mode, const std::string& op) {
  const std::string head = "mode `" + mode.name + "`";
  if (op == "flux" && mode.type == ModeType::transmon)
    return head + " is a fixed-frequency transmon (no `asymmetry`): it takes no flux pulse";
  if (op == "flux") return head + " is a " + enum_name(mode.type) + ": it has no flux to pulse";
  if (op == "number")
    return head + " is a " + enum_name(mode.type) + ": `operator: number` drives a resonator or duffing mode";
  return head + " has no drive operator `" + op + "`";
}

/// Flux and number pulses set the value itself: no `amplitude: auto` (a rotation angle) and no
/// `frequency: auto` (a qubit frequency) for them.
void check_parametric_pulse(const Config& config, const PulseSpec& spec, const std::string& op) {
  if (op != "flux" && op != "number") return;
  if (spec.amplitude_auto)
    config.fail(spec.path + ".amplitude", "`amplitude: auto` is for drives of a rotation angle, not `operator: " + op + "`",
                op == "flux" ? "a number (flux quanta)" : "a number (GHz)");
  if (spec.frequency_mode != FrequencyMode::value)
    config.fail(spec.path + ".frequency", std::string("`frequency: ") + enum_name(spec.frequency_mode) + "` is for qubit drives, not `operator: " + op + "`",
                "a number (GHz; 0 for a baseband pulse, the default)");
}

/// Pulses against their modes and operators; returns the latest pulse end (ns).
double check_pulses(const Config& config, const Modes& modes) {
  double latest = 0.0;
  for (const PulseSpec& spec : config.pulses) {
    const int q = modes.find(spec.qubit);
    if (q < 0) fail_unknown_mode(config, spec.path + ".qubit", spec.qubit, modes.dev.modes);
    const device::ModeParams& mode = modes.at(q);
    const std::string op = spec.op.empty() ? std::string(device::default_operator(mode.type)) : spec.op;
    if (!device::accepts_pulse_operator(mode, op))
      config.fail(spec.path + ".operator", operator_problem(mode, op), device::pulse_operators(mode));
    check_parametric_pulse(config, spec, op);
    for (const auto& [other, factor] : spec.crosstalk) {
      const std::string key = spec.path + ".crosstalk." + other;
      const int q2 = modes.find(other);
      if (q2 < 0) fail_unknown_mode(config, key, other, modes.dev.modes);
      const device::ModeParams& target = modes.at(q2);
      if (!device::accepts_pulse_operator(target, op))
        config.fail(key, "mode `" + other + "` has no operator `" + op + "` for crosstalk",
                    op == "flux"     ? "a fluxonium or a transmon with `asymmetry`"
                    : op == "number" ? "a resonator or duffing mode"
                                     : "");
    }
    located(config, [&] {
      const pulse::Pulse p(spec, 0.0, 1.0);  // shape keys, ranges; auto values come later
      (void)p.trainable(spec);
      latest = std::max(latest, p.end());
    });
  }
  return latest;
}

double check_duration(const Config& config, double latest) {
  double duration = latest;
  if (config.evolution.duration) {
    duration = *config.evolution.duration;
    if (duration < latest - 1e-12 * latest)
      config.fail("evolution.duration",
                  "duration " + std::to_string(duration) + " ns is shorter than the latest pulse end " +
                      std::to_string(latest) + " ns",
                  "duration >= " + std::to_string(latest));
  }
  if (!(duration > 0.0))
    config.fail("evolution.duration", "the evolution has zero length (no pulses and no duration)",
                "evolution.duration > 0 or at least one pulse");
  return duration;
}

/// output.trace (docs/config.md "output"): exactly one of `every` and `times`; each time in
/// [0, T] maps to the nearest step boundary round(t / dt), two times on one boundary are
/// refused.
std::string shortest(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

void check_trace(const Config& config, double duration) {
  const TraceSpec& t = config.output.trace;
  if (config.where.count("output.trace") == 0) return;
  if (t.every <= 0 && t.times.empty() && config.where.count("output.trace.times") != 0)
    config.fail("output.trace.times", "the list is empty", "at least one time (ns)");
  if ((t.every > 0) == !t.times.empty())
    config.fail("output.trace", "give exactly one of `every` and `times`",
                "{every: K} or {times: [t1, t2, ...]} (ns)");
  const int steps = config.evolution.steps;
  const double dt = duration / steps;
  std::vector<long long> seen;
  for (std::size_t k = 0; k < t.times.size(); ++k) {
    const std::string key = "output.trace.times[" + std::to_string(k) + "]";
    const double x = t.times[k];
    if (x > duration * (1.0 + 1e-12))
      config.fail(key, "time " + shortest(x) + " ns is after the end of the evolution T = " + shortest(duration) + " ns",
                  "0 <= t <= T");
    const long long s = std::llround(x / dt);
    for (std::size_t j = 0; j < seen.size(); ++j)
      if (seen[j] == s)
        config.fail(key,
                    "maps to step boundary " + std::to_string(s) + " (t = " + shortest(static_cast<double>(s) * dt) +
                        " ns), as does output.trace.times[" + std::to_string(j) + "]",
                    "times at least one step (dt = " + shortest(dt) + " ns) apart");
    seen.push_back(s);
  }
}

/// Every line a pulse uses fits in kMaxLinePanels panels over [0, T] (docs/lines.md "Cost"):
/// its carrier bounds the panels' length, so an `auto` frequency counts as 10 GHz.
void check_lines(const Config& config, double T) {
  for (const LineSpec& spec : config.lines) {
    double frequency = -1.0;
    for (const PulseSpec& p : config.pulses)
      if (p.line == spec.name)
        frequency = std::max(frequency, p.frequency_mode == FrequencyMode::value ? std::abs(p.frequency) : 10.0);
    if (frequency < 0.0) continue;  // no pulse uses it (a plausibility warning)
    const double panels = pulse::Line(spec).panel_estimate(T, frequency);
    if (panels > pulse::kMaxLinePanels)
      config.fail(spec.path,
                  "the line's output over the " + shortest(T) + " ns evolution needs about " + shortest(panels) +
                      " panels, more than " + shortest(pulse::kMaxLinePanels) +
                      " (a panel is at most half a filter's sigma or tau, half of (1 + amplitude) tau for a "
                      "pre-distorted exponential, an eighth of the carrier's period, and one sample long)",
                  "larger sigma or tau, an exponential's amplitude further from -1 with predistort, fewer samples "
                  "over the evolution, or a shorter evolution");
  }
}

void check_precision(const Config& config) {
  const EvolutionSpec& e = config.evolution;
  if (e.precision != Precision::single) return;
  if (e.is_open())
    config.fail("evolution.precision", "precision: single is for closed systems, but `evolution.noise` is given",
                "precision: double for an open system");
  if (!e.local_gates())
    config.fail("evolution.precision",
                "precision: single is supported by the split solvers (trotter, magnus4 with "
                "splitting terms or bonds) only",
                e.split_solver() ? "precision: double, or splitting: terms | bonds" : "precision: double, or solver: trotter");
}

void check_initial_states(const Config& config, const Modes& modes) {
  const InitialStates& is = config.evolution.initial_states;
  if (is.kind != InitialStates::Kind::list) return;
  const auto n = modes.dev.modes.size();
  for (std::size_t k = 0; k < is.labels.size(); ++k) {
    const std::string& label = is.labels[k];
    const std::string path = "evolution.initial_states[" + std::to_string(k) + "]";
    if (label.size() != n)
      config.fail(path,
                  "label `" + label + "` has " + std::to_string(label.size()) + " digits but the device has " +
                      std::to_string(n) + " modes",
                  "one digit per mode");
    for (std::size_t q = 0; q < n; ++q) {
      const int level = label[q] - '0';
      const int levels = modes.dev.modes[q].levels;
      if (level < 0 || level >= levels)
        config.fail(path,
                    "level " + std::string(1, label[q]) + " of mode `" + modes.dev.modes[q].name +
                        "` is not kept (levels " + std::to_string(levels) + ")",
                    "a digit below the mode's levels");
    }
  }
}

/// Noise and collapse entries: modes, operators, matrix sizes, the local kernels' size limit.
void check_open_system(const Config& config, const Modes& modes) {
  const auto kernel_size = [&](int m, const std::string& path) {
    const int d = modes.at(m).levels;
    if (d * d > backend::kMaxGateSize)
      config.fail(path,
                  "mode `" + modes.at(m).name + "` keeps " + std::to_string(d) +
                      " levels; its dissipator would act on " + std::to_string(d * d) +
                      " (column, row) levels, more than the local kernels take (" +
                      std::to_string(backend::kMaxGateSize) + ")",
                  "at most 8 levels on a mode with noise");
  };
  for (const NoiseSpec& n : config.evolution.noise) {
    const std::string path = "evolution.noise." + n.qubit;
    const int m = modes.find(n.qubit);
    if (m < 0) fail_unknown_mode(config, path, n.qubit, modes.dev.modes);
    kernel_size(m, path);
  }
  for (const CollapseSpec& cs : config.evolution.collapse) {
    const int m = modes.find(cs.qubit);
    if (m < 0) fail_unknown_mode(config, cs.path + ".qubit", cs.qubit, modes.dev.modes);
    kernel_size(m, cs.path);
    const int d = modes.at(m).levels;
    if (cs.op == "matrix") {
      if (static_cast<int>(cs.matrix.size()) != d)
        config.fail(cs.path + ".matrix",
                    "mode `" + cs.qubit + "` keeps " + std::to_string(d) + " levels but the matrix is " +
                        std::to_string(cs.matrix.size()) + " x " + std::to_string(cs.matrix.size()),
                    "a " + std::to_string(d) + " x " + std::to_string(d) + " matrix");
    } else if (!device::has_operator(modes.at(m).type, cs.op)) {
      config.fail(cs.path + ".operator", "mode `" + cs.qubit + "` has no operator `" + cs.op + "`",
                  "lowering | number | matrix, or an operator of the mode's model");
    }
  }
  const EvolutionSpec& e = config.evolution;
  const double D = modes.dim();
  if (e.is_open() && e.dense_generator() && D * D > kMaxDenseLiouvillian)
    config.fail("evolution.solver",
                "the dense Liouvillian of an open system with D = " + std::to_string(static_cast<long long>(D)) +
                    " would be " + std::to_string(static_cast<long long>(D * D)) + " x " +
                    std::to_string(static_cast<long long>(D * D)) + " (limit " +
                    std::to_string(static_cast<long long>(kMaxDenseLiouvillian)) + ")",
                "solver: trotter for D > 32");
}

/// `evolution.device: cuda` must be runnable as asked (`auto` falls back to the CPU): the
/// simulator's own rule (include/qevolve/compute_device.hpp), located here.
void check_compute_device(const Config& config) {
  if (config.evolution.device != ComputeDevice::cuda) return;
  if (const solver::ComputeDeviceChoice c = solver::choose_compute_device(config.evolution, config.first_trainable()); !c.refusal.empty())
    config.fail("evolution.device", c.refusal, solver::kOtherComputeDevices);
}

void check_target(const Config& config, const Modes& modes) {
  if (!config.target) return;
  std::vector<std::string> qubit_names;  // the qubits (no couplers, no resonators), in mode order
  for (const auto& m : modes.dev.modes)
    if (device::is_qubit(m)) qubit_names.push_back(m.name);
  for (const GateSpec& g : config.target->gates) {
    const bool from_file = g.gate.empty();
    if (from_file && g.matrix_file.empty())
      config.fail(g.path, "missing required key `gate` or `matrix_file`",
                  "a gate name or an HDF5 file holding the gate");
    if (!from_file && !g.matrix_file.empty())
      config.fail(g.path, "both `gate` and `matrix_file` given", "exactly one of them");
    if (!from_file && gate_arity(g.gate) == 0)
      config.fail(g.path + ".gate", "unknown gate `" + g.gate + "`", "one of " + known_gates());
    if (!from_file && gate_takes_angle(g.gate) && !g.angle)
      config.fail(g.path, "gate `" + g.gate + "` needs an `angle`", "angle: <radians>");
    if ((from_file || !gate_takes_angle(g.gate)) && g.angle)
      config.fail(g.path + ".angle", "`angle` is only used by " + gates_with_angle(), "no angle for this gate");
    const std::string qkey = g.path + ".qubits";
    const std::size_t arity = from_file ? g.qubits.size() : static_cast<std::size_t>(gate_arity(g.gate));
    if (g.qubits.empty() || g.qubits.size() != arity)
      config.fail(qkey,
                  "gate acts on " + std::to_string(arity) + " qubit(s), but " + std::to_string(g.qubits.size()) +
                      " given",
                  "a list of " + std::to_string(std::max<std::size_t>(arity, 1)) + " qubit name(s)");
    std::vector<std::string> seen;
    for (const std::string& name : g.qubits) {
      if (std::find(qubit_names.begin(), qubit_names.end(), name) == qubit_names.end()) {
        std::string list;
        for (const auto& q : qubit_names) list += (list.empty() ? "" : ", ") + q;
        const int m = modes.find(name);
        const std::string why = m < 0 ? "" : modes.at(m).type == ModeType::resonator
                                                 ? " (a resonator, held in its ground state)"
                                                 : " (role: coupler, held in its ground state)";
        config.fail(qkey, "`" + name + "` is not a qubit of the device" + why,
                    list.empty() ? std::string("a qubit mode (the device has none)") : "one of " + list);
      }
      if (std::find(seen.begin(), seen.end(), name) != seen.end())
        config.fail(qkey, "qubit `" + name + "` listed twice", "distinct qubits");
      seen.push_back(name);
    }
    if (from_file) (void)load_gate_matrix(g, config);
  }
}

/// What gradients (run with `optimize:` lists, and optimize) need.
void check_gradient(const Config& config) {
  const EvolutionSpec& e = config.evolution;
  if (!config.target) config.fail("target", "gradients need a `target`", "a target section");
  // A scheme without an adjoint (adaptive) with trainable parameters: the loader's rule
  // (SolverWithoutGradient, which names them).
  if (e.precision == Precision::single)
    config.fail("evolution.precision", "gradients are computed in double precision only", "precision: double");
  if (e.initial_states.kind != InitialStates::Kind::computational)
    config.fail("evolution.initial_states", "gradients need the computational initial states",
                "initial_states: computational");
  if (!e.is_open()) return;
  // Open systems: the checkpointed adjoint of the split Lindblad step (docs/gradients.md).
  if (!solver::solver_has(e.solver, &solver::SchemeTraits::open_adjoint)) {
    const std::string solvers = solver::solvers_with(&solver::SchemeTraits::open_adjoint);
    config.fail("evolution.solver", "open-system gradients are computed for solver " + solvers + " only",
                "solver: " + solvers);
  }
  if (config.target->compensation_trainable)
    config.fail("target.compensation_trainable",
                "trainable compensation angles are not available for open systems (they are re-optimised)",
                "compensation_trainable: false");
  bool device_trainable = false;
  for (const auto& q : config.device.qubits) device_trainable = device_trainable || !q.optimize.empty();
  for (const auto& c : config.device.couplings) device_trainable = device_trainable || !c.optimize.empty();
  if (device_trainable && (e.basis != Basis::product || e.frame != Frame::lab))
    config.fail(e.basis != Basis::product ? "evolution.basis" : "evolution.frame",
                "open-system gradients for device parameters are computed in the product basis and the "
                "lab frame only",
                "basis: product, frame: lab");
}

}  // namespace

CMatrix load_gate_matrix(const GateSpec& g, const Config& config) {
  const std::string key = g.path + ".matrix_file";
  const std::string file = gate_file_path(g.matrix_file, config.source_file);
  // The matrix is 2^k x 2^k for k qubits: refused before the shift could overflow or the read
  // allocate more than the process may use.
  const double bytes = std::ldexp(16.0, 2 * static_cast<int>(g.qubits.size()));
  const MemoryLimit limit = available_memory(std::nullopt);
  if (g.qubits.size() > 30 || bytes > limit.bytes)
    config.fail(key,
                "a gate on " + std::to_string(g.qubits.size()) + " qubits is a 2^" +
                    std::to_string(g.qubits.size()) + " x 2^" + std::to_string(g.qubits.size()) +
                    " matrix: it needs " + format_bytes(bytes) + "; " + format_bytes(limit.bytes) +
                    " available (" + limit.source + ")",
                "a gate on fewer qubits");
  CMatrix m;
  const Index want = Index{1} << g.qubits.size();
  try {
    m = read_complex_matrix(file, "/unitary", want);  // a larger declared shape is refused unread
  } catch (const InputError& e) {
    config.fail(key, std::string("cannot read the gate matrix: ") + e.what(),
                "an HDF5 file with a complex dataset /unitary");
  }
  if (m.rows() != want || m.cols() != want)
    config.fail(key,
                file + ": /unitary is " + std::to_string(m.rows()) + " x " + std::to_string(m.cols()) +
                    " but the gate acts on " + std::to_string(g.qubits.size()) + " qubit(s)",
                std::to_string(want) + " x " + std::to_string(want));
  if (!m.allFinite()) config.fail(key, file + ": /unitary contains NaN or inf", "a unitary matrix");
  const double err = (m.adjoint() * m - CMatrix::Identity(want, want)).cwiseAbs().maxCoeff();
  if (!(err <= kUnitarityTolerance)) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", err);
    config.fail(key, file + ": /unitary is not unitary (max |G^dag G - I| = " + buf + ")",
                "a unitary matrix, to 1e-10");
  }
  return m;
}

bool has_trainable(const Config& config) {
  if (!config.first_trainable_list().empty()) return true;
  return config.target && config.target->compensation_trainable &&
         config.target->compensation != Compensation::none;
}

device::ResolvedDevice resolve(const Config& config, Purpose purpose) {
  device::ResolvedDevice dev = resolve_device(config);
  if (purpose == Purpose::inspect) return dev;
  const Modes modes{dev};
  check_precision(config);
  check_compute_device(config);
  if (purpose == Purpose::optimize || has_trainable(config)) check_gradient(config);
  const double duration = check_duration(config, check_pulses(config, modes));
  check_trace(config, duration);
  check_lines(config, duration);
  check_initial_states(config, modes);
  check_open_system(config, modes);
  check_target(config, modes);
  if (purpose == Purpose::optimize) check_trainable(config);
  return dev;
}

void check_trainable(const Config& config) {
  if (!has_trainable(config))
    config.fail("pulses", "nothing is trainable: no `optimize:` list names a parameter",
                "an `optimize: [...]` list on a pulse, qubit or coupling");
}

}  // namespace qevolve::io
