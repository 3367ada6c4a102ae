// The resolution stage, memory part (include/qevolve/memory_estimate.hpp): the estimate of a
// command's dominant allocations, from the resolved device and the evolution options only, in
// doubles (D = 3^41 does not overflow), and its comparison with the memory the process may use.
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <vector>
#include <algorithm>

#include "qevolve/error.hpp"
#include "qevolve/line.hpp"
#include "qevolve/pulse.hpp"
#include "qevolve/memory_estimate.hpp"
#include "qevolve/ensemble.hpp"
#include "qevolve/names.hpp"
#include "qevolve/scheme_traits.hpp"
#include "messages.hpp"

namespace qevolve::io {
namespace {

constexpr double kComplex = 16.0;  // bytes of a complex double
constexpr double kReal = 8.0;
/// The process before any D-sized allocation: code and libraries (HDF5, BLAS, MPI stubs),
/// the parsed config, the mode diagonalisations of small bases (measured: docs/performance.md
/// "Memory estimate").
constexpr double kBaseBytes = 20.0 * 1024 * 1024;
/// A dense diagonalisation of H0 (dressed basis, spectrum): H0, the eigenvectors, the assigned
/// transform and the eigensolver's workspace, in D x D complex matrices (measured: 4.0 at D = 4096).
constexpr double kDressedMatrices = 4.0;
/// One validated sweep point kept until it is evaluated: its config (locations dropped) and
/// resolved device (measured: 20000 points of a two-fluxonium config in 73 MB, docs/cli.md
/// "sweep"; rounded up).
constexpr double kSweepPointBytes = 4096.0;
/// d x d complex matrices the closed-system fidelity holds beside the states: the computational
/// block, the target, the compensated block and the formula's products. Measured: 12 two-level
/// fluxonia with an X target (D = d = 4096, every state evolved) peak at 1.52 GiB, the states
/// and these five (docs/performance.md "Memory estimate").
constexpr double kFidelityMatrices = 5.0;

/// 6561, 3.6e19 (two digits, no '+' in the exponent) from 1e9 on.
std::string short_number(double x) {
  char buf[40];
  if (x < 1e9) {
    std::snprintf(buf, sizeof buf, "%.0f", x);
    return buf;
  }
  std::snprintf(buf, sizeof buf, "%.2g", x);
  std::string s = buf;
  if (const auto plus = s.find("e+"); plus != std::string::npos) s.erase(plus + 1, 1);
  if (const auto zero = s.find("e0"); zero != std::string::npos) s.erase(zero + 1, 1);  // 1.1e9, not 1.1e09
  return s;
}

/// "2^3 x 3^2 = 72", "3^41 = 3.6e19".
std::string dim_text(const device::ResolvedDevice& dev, double D) {
  std::map<int, int> count;  // levels -> modes
  for (const auto& m : dev.modes) ++count[m.levels];
  std::string s = "D = ";
  bool first = true;
  for (const auto& [levels, n] : count) {
    if (!first) s += " x ";
    s += std::to_string(levels);
    if (n > 1) {  // appended piecewise: GCC 12 warns (-Wstringop-overflow) on "^" + string&&
      s += '^';
      s += std::to_string(n);
    }
    first = false;
  }
  if (dev.modes.size() == 1) return "D = " + short_number(D);
  return s + " = " + short_number(D);
}

/// The computational dimension d: 2 levels on every qubit (couplers and resonators stay in 0).
double computational_dim(const device::ResolvedDevice& dev) {
  double n = 1.0;
  for (const auto& m : dev.modes)
    if (device::is_qubit(m)) n *= 2.0;
  return n;
}

/// Evolved columns: initial states (closed) or their n^2 density matrices (open).
double initial_count(const Config& config, const device::ResolvedDevice& dev, double D) {
  const InitialStates& is = config.evolution.initial_states;
  if (is.kind == InitialStates::Kind::all) return D;
  if (is.kind == InitialStates::Kind::list) return static_cast<double>(is.labels.size());
  return computational_dim(dev);
}

/// Adds a term; the largest one names the message's part and key.
struct Terms {
  MemoryEstimate& e;
  void add(double bytes, const char* part, const std::string& key) {
    e.bytes += bytes;
    if (bytes > e.part_bytes) {
      e.part_bytes = bytes;
      e.part = part;
      e.key = key;
    }
  }
};

/// The terms of one phase of the run (allocations alive at the same time).
struct Phase {
  struct Term {
    double bytes;
    const char* part;
    std::string key;
  };
  std::vector<Term> terms;
  double bytes = 0.0;
  void add(double b, const char* part, const std::string& key) {
    terms.push_back({b, part, key});
    bytes += b;
  }
};

/// The per-mode diagonalisations on an explicit basis_size (a dense N x N real problem).
void add_mode_bases(const Config& config, const device::ResolvedDevice& dev, Terms& t) {
  for (std::size_t k = 0; k < dev.modes.size(); ++k) {
    const auto& m = dev.modes[k];
    if (m.basis_size <= 0) continue;
    const double n = m.type == ModeType::transmon ? 2.0 * m.basis_size + 1 : m.basis_size;
    std::string key = "device";
    for (const auto& q : config.device.qubits)
      if (q.name == m.name && q.basis_size) key = q.path + ".basis_size";
    // Hamiltonian, eigenvectors, the eigensolver's workspace and the operators' basis change.
    t.add(4.0 * n * n * kReal, "the basis of one mode needs", key);
  }
}

/// The control lines' outputs (docs/lines.md "Cost"): per pulse on a line, 16 values per
/// panel for its output, three working copies while it is computed and, with a gradient, one
/// output per trainable parameter of the pulse and of its line.
double line_bytes(const Config& config, bool gradient) {
  if (config.lines.empty()) return 0.0;
  double T = config.evolution.duration.value_or(0.0);
  for (const PulseSpec& p : config.pulses) T = std::max(T, pulse::Pulse(p, 0.0, 1.0).end());
  double bytes = 0.0;
  for (const PulseSpec& p : config.pulses) {
    const auto l = std::find_if(config.lines.begin(), config.lines.end(), [&](const LineSpec& s) { return s.name == p.line; });
    if (l == config.lines.end()) continue;
    double copies = 4.0;
    if (gradient) {
      copies += static_cast<double>(p.optimize.size() + p.values.size());  // `values` may name them all
      for (const FilterSpec& f : l->filters) copies += static_cast<double>(f.optimize.size() + f.taps.size());
    }
    const double frequency = p.frequency_mode == FrequencyMode::value ? std::abs(p.frequency) : 10.0;
    bytes += copies * pulse::PanelFunction::kNodes * 8.0 * pulse::Line(*l).panel_estimate(T, frequency);
  }
  return bytes;
}

void add_evolution(const Config& config, const device::ResolvedDevice& dev, Purpose purpose, bool writes_output,
                   Terms& t) {
  const EvolutionSpec& ev = config.evolution;
  MemoryEstimate& e = t.e;
  const double D = e.dim;
  const double n = initial_count(config, dev, D);
  const bool open = ev.is_open();
  const double length = open ? D * D : D;   // one column
  e.columns = open ? n * n : n;
  const bool gradient = purpose == Purpose::optimize || has_trainable(config);
  const solver::SchemeTraits& scheme = solver::scheme_traits(ev);  // its label and working memory
  e.scheme = std::string(enum_name(ev.solver)) + scheme.label;
  const std::string state_key = ev.initial_states.kind == InitialStates::Kind::computational
                                    ? std::string("device")
                                    : std::string("evolution.initial_states");
  const double state = length * e.columns * kComplex;
  // Three phases that do not overlap in time; the largest one is the peak.
  // The evolution: the initial columns, the evolved columns (stepped in place) and their copy
  // in the output basis (open: the initial density matrices and the evolved copy; the channel
  // on the n initial states is only n^2 x n^2), the gradient's states, the dense propagator.
  Phase evolution;
  evolution.add((open ? 2.0 : 3.0) * state, "the states need", state_key);
  if (gradient) {
    // Closed: lambda and psi stepped backwards and the lambda0, psi0 the adjoint returns
    // (AdjointResult). Open: the checkpoints of the adjoint.
    const double kept = open ? sizes::checkpointed_states(ev.steps, sizes::checkpoint_interval(ev.steps)) : 4.0;
    evolution.add(kept * state, open ? "the gradient's checkpoints need" : "the gradient's states need",
                  open ? "evolution.steps" : state_key);
  }
  const double side = open ? D * D : D;
  for (const solver::SchemeMemoryTerm& term :
       scheme.memory({side, state, static_cast<double>(config.pulses.size()), gradient}))
    evolution.add(term.bytes, term.part, term.key);
  if (const double lines = line_bytes(config, gradient); lines > 0.0)
    evolution.add(lines, "the control lines' outputs need", "lines");
  // The dressed basis the simulator builds first (basis: dressed, auto_dressed frequencies)
  // and keeps (its transform) through the evolution.
  const double dressing = kDressedMatrices * D * D * kComplex;
  Phase build;
  if (sizes::needs_dressed_basis(config)) {
    build.add(dressing, "the dressed basis needs", "evolution.basis");
    evolution.add(D * D * kComplex, "the dressed transform needs", "evolution.basis");
  }
  // The output: the result (one copy of the states) and /energies up to D = 4096.
  Phase output;
  output.add(state, "the states need", state_key);
  if (!open && config.target && !config.target->gates.empty()) {
    const double d = computational_dim(dev);
    output.add(kFidelityMatrices * d * d * kComplex, "the fidelity's d x d matrices need", "target");
  }
  if (writes_output && D <= sizes::kMaxDenseEnergies) output.add(dressing, "the dressed basis needs", "device");
  const Phase* peak = &evolution;
  for (const Phase* p : {&build, &output})
    if (p->bytes > peak->bytes) peak = p;
  for (const auto& term : peak->terms) t.add(term.bytes, term.part, term.key);
}

}  // namespace

namespace {

/// An ensemble (docs/ensembles.md "Parallelism and cost"): `one` member's estimate times the
/// simulators alive at once -- optimize keeps every member's gradient problem (K), run the
/// nominal's and one member's (2) -- and each member's figures and unitary (d x d).
MemoryEstimate ensemble_memory(const Config& config, const device::ResolvedDevice& dev, Purpose purpose,
                               const MemoryEstimate& one) {
  const auto K = static_cast<double>(ensemble_members(config).size());
  MemoryEstimate e = one;
  e.bytes = 0.0;
  e.part_bytes = 0.0;
  Terms t{e};
  t.add(kBaseBytes, "qevolve itself needs", "device");
  const double at_once = purpose == Purpose::optimize ? K : 2.0;
  t.add(at_once * (one.bytes - kBaseBytes),
        purpose == Purpose::optimize ? "the members' gradient problems need" : "the nominal and one member need",
        one.key);
  const double d = computational_dim(dev);
  t.add(K * (8.0 + d * d) * kComplex, "the members' results need", "ensemble");
  e.scheme = one.scheme + ", " + short_number(K) + " members";
  return e;
}

}  // namespace

MemoryEstimate estimate_memory(const Config& config, const device::ResolvedDevice& dev, Purpose purpose,
                               bool writes_output) {
  MemoryEstimate e;
  for (const auto& m : dev.modes) e.dim *= m.levels;
  e.dim_text = dim_text(dev, e.dim);
  Terms t{e};
  t.add(kBaseBytes, "qevolve itself needs", "device");
  add_mode_bases(config, dev, t);
  if (purpose == Purpose::inspect) {
    // spectrum: H0, its eigenvectors, the assigned transform and zheevd's workspace.
    e.scheme = "spectrum";
    t.add(kDressedMatrices * e.dim * e.dim * kComplex, "the dense diagonalisation needs", "device");
  } else {
    add_evolution(config, dev, purpose, writes_output, t);
  }
  return config.ensemble && purpose != Purpose::inspect ? ensemble_memory(config, dev, purpose, e) : e;
}

namespace {

/// A number from a limit file; < 0 when absent or "max".
double read_limit_file(const char* path) {
  std::ifstream f(path);
  std::string word;
  if (!(f >> word) || word == "max") return -1.0;
  char* end = nullptr;
  const double v = std::strtod(word.c_str(), &end);
  return end != word.c_str() && v > 0.0 ? v : -1.0;
}

void lower(MemoryLimit& limit, double bytes, const char* source) {
  if (bytes > 0.0 && bytes < limit.bytes) {
    limit.bytes = bytes;
    limit.source = source;
  }
}

}  // namespace

MemoryLimit available_memory(std::optional<double> max_memory) {
  MemoryLimit limit{static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGESIZE)),
                    "physical memory"};
  lower(limit, read_limit_file("/sys/fs/cgroup/memory.max"), "cgroup memory.max");
  lower(limit, read_limit_file("/sys/fs/cgroup/memory/memory.limit_in_bytes"), "cgroup memory.limit_in_bytes");
  for (const auto& [resource, name] : {std::pair{RLIMIT_AS, "RLIMIT_AS"}, std::pair{RLIMIT_DATA, "RLIMIT_DATA"}}) {
    rlimit rl{};
    if (getrlimit(resource, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
      lower(limit, static_cast<double>(rl.rlim_cur), name);
  }
  if (max_memory) lower(limit, *max_memory, "--max-memory");
  return limit;
}

namespace {

/// The refusal of an estimate over the limit: "D = ... states[, N columns][, CONTEXT]: PART
/// BYTES (TOTAL in all); LIMIT available (SOURCE)" at the key of the largest part (a config
/// key: located; a flag such as --vary: named).
void refuse_over_limit(const Config& config, const MemoryEstimate& e, const MemoryLimit& limit, bool columns,
                       const std::string& context) {
  const std::string count = short_number(e.columns);
  const MsgArgs args{
      {"DIM", e.dim_text},
      {"COLUMNS", !columns ? "" : message(e.columns == 1 ? Msg::ContextColumn : Msg::ContextColumns, {{"COUNT", count}})},
      {"CONTEXT", context},
      {"PART", e.part},
      {"PART_BYTES", format_bytes(e.part_bytes)},
      {"TOTAL", e.bytes > 1.01 * e.part_bytes ? message(Msg::ContextMemoryTotal, {{"BYTES", format_bytes(e.bytes)}}) : ""},
      {"LIMIT", format_bytes(limit.bytes)},
      {"SOURCE", limit.source}};
  if (!e.key.empty() && e.key[0] == '-') throw input_error({}, e.key, Msg::MemoryOverLimitPoints, args);
  fail(config, e.key, Msg::MemoryOverLimit, args);
}

}  // namespace

MemoryEstimate check_memory(const Config& config, const device::ResolvedDevice& dev, Purpose purpose,
                            std::optional<double> max_memory, bool writes_output) {
  const MemoryEstimate e = estimate_memory(config, dev, purpose, writes_output);
  const MemoryLimit limit = available_memory(max_memory);
  if (e.bytes > limit.bytes) refuse_over_limit(config, e, limit, purpose != Purpose::inspect, "");
  return e;
}

MemoryEstimate estimate_sweep_memory(const Config& point, const device::ResolvedDevice& dev, const SweepSize& size) {
  const MemoryEstimate one = estimate_memory(point, dev, Purpose::evolve, false);
  MemoryEstimate e = one;
  e.bytes = 0.0;
  e.part_bytes = 0.0;
  Terms t{e};
  t.add(kBaseBytes, "qevolve itself needs", "device");
  // Each thread evaluates one point at a time with its own cached simulator.
  const double at_once = std::max(1.0, std::min(size.threads, size.local_points));
  t.add(at_once * (one.bytes - kBaseBytes), "the points evaluated at once need", one.key);
  // The validated points this rank keeps (their configs and resolved devices) ...
  t.add(size.local_points * kSweepPointBytes, "the validated points need", "--vary");
  // ... and rank 0's results of the whole grid: F, F uncompensated, leakage, the conditional
  // phase and the d x d populations per point (kSweepFigures + d^2, src/commands/sweep_grid.hpp),
  // in three copies at the peak (this rank's results, the gathered records, the populations
  // written).
  const double d = computational_dim(dev);
  t.add(3.0 * size.points * (4.0 + d * d) * kReal, "the grid's results need", "--vary");
  e.scheme = one.scheme + ", " + short_number(size.points) + " points";
  return e;
}

MemoryEstimate check_sweep_memory(const Config& point, const device::ResolvedDevice& dev, const SweepSize& size,
                                  std::optional<double> max_memory) {
  const MemoryEstimate e = estimate_sweep_memory(point, dev, size);
  const MemoryLimit limit = available_memory(max_memory);
  if (e.bytes > limit.bytes) {
    const double at_once = std::max(1.0, std::min(size.threads, size.local_points));
    const std::string largest = size.point.empty() ? std::string() : message(Msg::ContextLargestPoint, {{"POINT", size.point}});
    refuse_over_limit(point, e, limit, true,
                      message(Msg::ContextPerPoint, {{"LARGEST", largest},
                                                     {"POINTS", short_number(size.points)},
                                                     {"AT_ONCE", short_number(at_once)}}));
  }
  return e;
}

double parse_memory_size(const std::string& text, const std::string& flag) {
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  std::string unit(end == nullptr ? "" : end);
  static const std::map<std::string, double> kUnits{
      {"", 1.0},          {"B", 1.0},
      {"K", 0x1p10},      {"KiB", 0x1p10},  {"KB", 1e3},
      {"M", 0x1p20},      {"MiB", 0x1p20},  {"MB", 1e6},
      {"G", 0x1p30},      {"GiB", 0x1p30},  {"GB", 1e9},
      {"T", 0x1p40},      {"TiB", 0x1p40},  {"TB", 1e12},
      // ulimit / sort spellings: lowercase single letters are binary units too
      {"k", 0x1p10},      {"m", 0x1p20},    {"g", 0x1p30},  {"t", 0x1p40}};
  const auto it = kUnits.find(unit);
  if (end == text.c_str() || errno != 0 || it == kUnits.end() || !(v > 0.0) || !std::isfinite(v))
    throw input_error({}, flag, Msg::NotAMemorySize, {{"TEXT", text}});
  return v * it->second;
}

std::string format_bytes(double bytes) {
  static const char* kUnit[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  char buf[48];
  if (bytes >= 0x1p70) return short_number(bytes) + " bytes";
  int u = 0;
  while (bytes >= 1024.0 && u < 6) {
    bytes /= 1024.0;
    ++u;
  }
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.3g %s", bytes, kUnit[u]);
  return buf;
}

std::string describe(const MemoryEstimate& e) {
  std::string s = "~";  // appended piecewise: GCC 12 warns (-Wstringop-overflow) on "~" + string&&
  s += format_bytes(e.bytes);
  s += " estimated (";
  s += e.dim_text;
  if (e.scheme != "spectrum") s += ", " + short_number(e.columns) + (e.columns == 1 ? " column" : " columns");
  return s + ", " + e.scheme + ")";
}

}  // namespace qevolve::io
