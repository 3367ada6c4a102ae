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
#include "qevolve/names.hpp"
#include "qevolve/scheme_traits.hpp"
#include "qevolve/text.hpp"
#include "messages.hpp"
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

/// Why `op` cannot drive `mode` (docs/device.md "Drive operators").
Msg operator_problem(const device::ModeParams& mode, const std::string& op) {
  if (op == "flux" && mode.type == ModeType::transmon) return Msg::PulseFluxFixedTransmon;
  if (op == "flux") return Msg::PulseNoFlux;
  if (op == "number") return Msg::PulseNumberOperator;
  return Msg::PulseNoOperator;
}

/// Flux and number pulses set the value itself: no `amplitude: auto` (a rotation angle) and no
/// `frequency: auto` (a qubit frequency) for them.
void check_parametric_pulse(const Config& config, const PulseSpec& spec, const std::string& op) {
  if (op != "flux" && op != "number") return;
  if (spec.amplitude_auto)
    fail(config, spec.path + ".amplitude", op == "flux" ? Msg::AutoAmplitudeFlux : Msg::AutoAmplitudeNumber,
         {{"OP", op}});
  if (spec.frequency_mode != FrequencyMode::value)
    fail(config, spec.path + ".frequency", Msg::AutoFrequencyParametric,
         {{"MODE", enum_name(spec.frequency_mode)}, {"OP", op}});
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
      fail(config, spec.path + ".operator", operator_problem(mode, op),
           {{"NAME", mode.name}, {"TYPE", enum_name(mode.type)}, {"OP", op}, {"OPERATORS", device::pulse_operators(mode)}});
    check_parametric_pulse(config, spec, op);
    for (const auto& [other, factor] : spec.crosstalk) {
      const std::string key = spec.path + ".crosstalk." + other;
      const int q2 = modes.find(other);
      if (q2 < 0) fail_unknown_mode(config, key, other, modes.dev.modes);
      const device::ModeParams& target = modes.at(q2);
      if (!device::accepts_pulse_operator(target, op))
        fail(config, key,
             op == "flux"     ? Msg::CrosstalkNoFlux
             : op == "number" ? Msg::CrosstalkNoNumber
                              : Msg::CrosstalkNoOperator,
             {{"NAME", other}, {"OP", op}});
    }
    check_pulse_spec(config, spec);  // shape keys, ranges, `optimize:` names; auto values come later
    latest = std::max(latest, pulse::Pulse(spec, 0.0, 1.0).end());
  }
  return latest;
}

double check_duration(const Config& config, double latest) {
  double duration = latest;
  if (config.evolution.duration) {
    duration = *config.evolution.duration;
    if (duration < latest - 1e-12 * latest)
      fail(config, "evolution.duration", Msg::DurationShort,
           {{"DURATION", std::to_string(duration)}, {"LATEST", std::to_string(latest)}});
  }
  if (!(duration > 0.0)) fail(config, "evolution.duration", Msg::ZeroLength);
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
    fail(config, "output.trace.times", Msg::TraceTimesEmpty);
  if ((t.every > 0) == !t.times.empty()) fail(config, "output.trace", Msg::TraceEveryOrTimes);
  const int steps = config.evolution.steps;
  const double dt = duration / steps;
  std::vector<long long> seen;
  for (std::size_t k = 0; k < t.times.size(); ++k) {
    const std::string key = "output.trace.times[" + std::to_string(k) + "]";
    const double x = t.times[k];
    if (x > duration * (1.0 + 1e-12))
      fail(config, key, Msg::TraceTimeAfterEnd, {{"TIME", shortest(x)}, {"T", shortest(duration)}});
    const long long s = std::llround(x / dt);
    for (std::size_t j = 0; j < seen.size(); ++j)
      if (seen[j] == s)
        fail(config, key, Msg::TraceTimesOneStep,
             {{"STEP", std::to_string(s)},
              {"TIME", shortest(static_cast<double>(s) * dt)},
              {"OTHER", std::to_string(j)},
              {"DT", shortest(dt)}});
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
      fail(config, spec.path, Msg::LinePanels,
           {{"T", shortest(T)}, {"PANELS", shortest(panels)}, {"LIMIT", shortest(pulse::kMaxLinePanels)}});
  }
}

void check_precision(const Config& config) {
  const EvolutionSpec& e = config.evolution;
  if (e.precision != Precision::single) return;
  if (e.is_open()) fail(config, "evolution.precision", Msg::SingleOpen);
  if (!e.local_gates())
    fail(config, "evolution.precision", e.split_solver() ? Msg::SingleNotSplitSplitting : Msg::SingleNotSplitSolver);
}

void check_initial_states(const Config& config, const Modes& modes) {
  const InitialStates& is = config.evolution.initial_states;
  if (is.kind != InitialStates::Kind::list) return;
  const auto n = modes.dev.modes.size();
  for (std::size_t k = 0; k < is.labels.size(); ++k) {
    const std::string& label = is.labels[k];
    const std::string path = "evolution.initial_states[" + std::to_string(k) + "]";
    if (label.size() != n)
      fail(config, path, Msg::LabelModeCount,
           {{"LABEL", label}, {"DIGITS", std::to_string(label.size())}, {"MODES", counted(n, "mode")}});
    for (std::size_t q = 0; q < n; ++q) {
      const int level = label[q] - '0';
      const int levels = modes.dev.modes[q].levels;
      if (level < 0 || level >= levels)
        fail(config, path, Msg::LabelLevelNotKept,
             {{"LEVEL", std::string(1, label[q])}, {"NAME", modes.dev.modes[q].name}, {"LEVELS", std::to_string(levels)}});
    }
  }
}

/// Noise and collapse entries: modes, operators, matrix sizes, the local kernels' size limit.
void check_open_system(const Config& config, const Modes& modes) {
  const auto kernel_size = [&](int m, const std::string& path) {
    const int d = modes.at(m).levels;
    if (d * d > backend::kMaxGateSize)
      fail(config, path, Msg::DissipatorTooLarge,
           {{"NAME", modes.at(m).name},
            {"LEVELS", std::to_string(d)},
            {"PAIRS", std::to_string(d * d)},
            {"LIMIT", std::to_string(backend::kMaxGateSize)}});
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
        fail(config, cs.path + ".matrix", Msg::CollapseMatrixSize,
             {{"NAME", cs.qubit}, {"LEVELS", std::to_string(d)}, {"SIZE", std::to_string(cs.matrix.size())}});
    } else if (!device::has_operator(modes.at(m).type, cs.op)) {
      fail(config, cs.path + ".operator", Msg::CollapseNoOperator, {{"NAME", cs.qubit}, {"OP", cs.op}});
    }
  }
  const EvolutionSpec& e = config.evolution;
  const double D = modes.dim();
  if (e.is_open() && e.dense_generator() && D * D > kMaxDenseLiouvillian)
    fail(config, "evolution.solver", Msg::DenseLiouvillian,
         {{"D", std::to_string(static_cast<long long>(D))},
          {"D2", std::to_string(static_cast<long long>(D * D))},
          {"LIMIT", std::to_string(static_cast<long long>(kMaxDenseLiouvillian))}});
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
    // The loader's rules (config_target.cpp), for configs built without it.
    if (from_file && g.matrix_file.empty()) fail(config, g.path, Msg::GateMissing);
    if (!from_file && !g.matrix_file.empty()) fail(config, g.path, Msg::GateBoth);
    if (!from_file && gate_arity(g.gate) == 0)
      fail(config, g.path + ".gate", Msg::UnknownGate, {{"GATE", g.gate}, {"GATES", known_gates()}});
    if (!from_file && gate_takes_angle(g.gate) && !g.angle) fail(config, g.path, Msg::GateNeedsAngle, {{"GATE", g.gate}});
    if ((from_file || !gate_takes_angle(g.gate)) && g.angle)
      fail(config, g.path + ".angle", Msg::AngleUnused, {{"GATES", gates_with_angle()}});
    const std::string qkey = g.path + ".qubits";
    const std::size_t arity = from_file ? g.qubits.size() : static_cast<std::size_t>(gate_arity(g.gate));
    if (g.qubits.empty() || g.qubits.size() != arity)
      fail(config, qkey, Msg::GateQubitCount,
           {{"ARITY", std::to_string(arity)},
            {"COUNT", std::to_string(g.qubits.size())},
            {"MIN", std::to_string(std::max<std::size_t>(arity, 1))}});
    std::vector<std::string> seen;
    for (const std::string& name : g.qubits) {
      if (std::find(qubit_names.begin(), qubit_names.end(), name) == qubit_names.end()) {
        std::string list;
        for (const auto& q : qubit_names) list += (list.empty() ? "" : ", ") + q;
        const int m = modes.find(name);
        const std::string why = m < 0                                       ? ""
                                : modes.at(m).type == ModeType::resonator ? message(Msg::ContextResonatorHeld)
                                                                          : message(Msg::ContextCouplerHeld);
        fail(config, qkey, list.empty() ? Msg::NotAQubitNone : Msg::NotAQubit,
             {{"NAME", name}, {"WHY", why}, {"QUBITS", list}});
      }
      // The loader's rule (config_target.cpp), for configs built without it.
      if (std::find(seen.begin(), seen.end(), name) != seen.end())
        fail(config, qkey, Msg::DuplicateGateQubit, {{"NAME", name}});
      seen.push_back(name);
    }
    if (from_file) (void)load_gate_matrix(g, config);
  }
}

/// What gradients (run with `optimize:` lists, and optimize) need.
void check_gradient(const Config& config) {
  const EvolutionSpec& e = config.evolution;
  if (!config.target) fail(config, "target", Msg::GradientNeedsTarget);
  // A scheme without an adjoint (adaptive) with trainable parameters: the loader's rule
  // (SolverWithoutGradient, which names them).
  if (e.precision == Precision::single) fail(config, "evolution.precision", Msg::GradientSinglePrecision);
  if (e.initial_states.kind != InitialStates::Kind::computational)
    fail(config, "evolution.initial_states", Msg::GradientInitialStates);
  if (!e.is_open()) return;
  // Open systems: the checkpointed adjoint of the split Lindblad step (docs/gradients.md).
  if (!solver::solver_has(e.solver, &solver::SchemeTraits::open_adjoint))
    fail(config, "evolution.solver", Msg::OpenGradientSolver,
         {{"SOLVERS", solver::solvers_with(&solver::SchemeTraits::open_adjoint)}});
  if (!solver::scheme_traits(e).open_adjoint) {  // the solver has one, not with this splitting
    std::string splittings;
    for (const EnumRow<Splitting>& row : enum_table<Splitting>())
      if (solver::scheme_traits(e.solver, row.value).open_adjoint)
        splittings += (splittings.empty() ? "" : " | ") + std::string(row.name);
    fail(config, "evolution.splitting", Msg::OpenGradientSplitting,
         {{"SOLVER", enum_name(e.solver)}, {"SPLITTINGS", splittings}});
  }
  if (config.target->compensation_trainable) fail(config, "target.compensation_trainable", Msg::OpenCompensationTrainable);
  bool device_trainable = false;
  for (const auto& q : config.device.qubits) device_trainable = device_trainable || !q.optimize.empty();
  for (const auto& c : config.device.couplings) device_trainable = device_trainable || !c.optimize.empty();
  if (device_trainable && (e.basis != Basis::product || e.frame != Frame::lab))
    fail(config, e.basis != Basis::product ? "evolution.basis" : "evolution.frame", Msg::OpenGradientBasis);
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
    fail(config, key, Msg::GateMatrixTooLarge,
         {{"COUNT", std::to_string(g.qubits.size())},
          {"BYTES", format_bytes(bytes)},
          {"LIMIT", format_bytes(limit.bytes)},
          {"SOURCE", limit.source}});
  CMatrix m;
  const Index want = Index{1} << g.qubits.size();
  try {
    m = read_complex_matrix(file, "/unitary", want);  // a larger declared shape is refused unread
  } catch (const InputError& e) {
    fail(config, key, Msg::GateMatrixUnreadable, {{"REASON", e.what()}});
  }
  if (m.rows() != want || m.cols() != want)
    fail(config, key, Msg::GateMatrixShape,
         {{"FILE", file},
          {"ROWS", std::to_string(m.rows())},
          {"COLS", std::to_string(m.cols())},
          {"COUNT", std::to_string(g.qubits.size())},
          {"WANT", std::to_string(want)}});
  if (!m.allFinite()) fail(config, key, Msg::GateMatrixNotFinite, {{"FILE", file}});
  const double err = (m.adjoint() * m - CMatrix::Identity(want, want)).cwiseAbs().maxCoeff();
  if (!(err <= kUnitarityTolerance)) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", err);
    fail(config, key, Msg::GateMatrixNotUnitary, {{"FILE", file}, {"ERROR", buf}});
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
    fail(config, "pulses", Msg::NothingTrainable);
}

}  // namespace qevolve::io
