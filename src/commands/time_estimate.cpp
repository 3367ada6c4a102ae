// The wall-time estimate of a run (time_estimate.hpp; docs/cli.md "Time estimate").
#include "time_estimate.hpp"
#include "qevolve/ensemble.hpp"
#include "qevolve/plan.hpp"
#include "qevolve/step_error.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "qevolve/backend/parallel.hpp"
#include "qevolve/comm.hpp"
#include "qevolve/gradient.hpp"
#include "qevolve/linalg.hpp"
#include "qevolve/memory_estimate.hpp"
#include "qevolve/resolve.hpp"
#include "qevolve/scheme_traits.hpp"
#include "qevolve/simulator.hpp"
#include "qevolve/version.hpp"

namespace qevolve::commands {
namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

/// A probe shorter than this is too noisy to extrapolate from; it is lengthened once (on this
/// 2-core machine a 30 ms probe's per-step cost came out 3x too low now and then).
constexpr double kMinProbeSeconds = 0.1;
/// The probe's first length in steps (cut to the configured steps).
constexpr int kFirstProbeSteps = 4;
/// Lines kept in the cache file (the newest).
constexpr std::size_t kCacheLines = 400;

// ---- the cache ---------------------------------------------------------------------------

std::string cpu_model() {
  std::ifstream f("/proc/cpuinfo");
  for (std::string line; std::getline(f, line);)
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 1);
  return "unknown cpu";
}

std::uint64_t fnv1a(const std::string& text, std::uint64_t h = 1469598103934665603ULL) {
  for (const unsigned char c : text) h = (h ^ c) * 1099511628211ULL;
  return h;
}

/// The config's tree as yaml-cpp emits it (so that the file's text and the text a --set or
/// --steps re-emits compare equal) with evolution.steps blanked.
std::string canonical_text(const std::string& yaml) {
  try {
    YAML::Node root = YAML::Load(yaml);
    if (root.IsMap() && root["evolution"].IsMap() && root["evolution"]["steps"]) root["evolution"]["steps"] = 0;
    return YAML::Dump(root);
  } catch (const YAML::Exception&) {
    return yaml;  // read by the loader before: not reached
  }
}

/// The kind of work: the config as run with its step count blanked (the cache holds per-step
/// costs, so `--steps` or `evolution.steps` does not make another kind), the threads, the
/// version and the processor. The output file's cost is not cached (estimated each time).
std::string work_key(const Config& config, int threads) {
  std::ostringstream key;
  if (threads <= 0) threads = backend::hardware_threads();  // the default: all cores
  key << canonical_text(config.yaml_text) << "\n" << threads << " " << kVersion << cpu_model();
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(fnv1a(key.str())));
  return buf;
}

std::filesystem::path cache_file() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  std::filesystem::path base;
  if (xdg != nullptr && *xdg != '\0') base = xdg;
  else if (home != nullptr && *home != '\0') base = std::filesystem::path(home) / ".cache";
  else return {};
  return base / "qevolve" / "time-estimates.tsv";
}

/// Cached costs: build, evolve_step, once, gradient_step, flops_per_step (the output file's
/// cost is estimated each time: whether there is one is no property of the work).
struct CachedCosts {
  double v[5] = {0, 0, 0, 0, 0};
};

std::vector<std::string> cache_lines() {
  std::vector<std::string> lines;
  const auto path = cache_file();
  if (path.empty()) return lines;
  std::ifstream f(path);
  for (std::string line; std::getline(f, line);)
    if (!line.empty()) lines.push_back(line);
  return lines;
}

std::optional<CachedCosts> cache_find(const std::string& key) {
  const auto lines = cache_lines();
  for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
    std::istringstream in(*it);
    std::string k;
    CachedCosts c;
    if (!(in >> k) || k != key) continue;
    bool ok = true;
    for (double& x : c.v) ok = ok && static_cast<bool>(in >> x) && std::isfinite(x) && x >= 0.0;
    if (ok) return c;
  }
  return std::nullopt;
}

/// Appends (replacing an older line of the same key); a cache that cannot be written is skipped.
void cache_store(const std::string& key, const CachedCosts& c) {
  const auto path = cache_file();
  if (path.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  std::vector<std::string> lines;
  for (std::string& l : cache_lines())
    if (l.rfind(key + "\t", 0) != 0) lines.push_back(std::move(l));
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s\t%.6g\t%.6g\t%.6g\t%.6g\t%.6g", key.c_str(), c.v[0], c.v[1], c.v[2], c.v[3],
                c.v[4]);
  lines.emplace_back(buf);
  if (lines.size() > kCacheLines) lines.erase(lines.begin(), lines.end() - static_cast<std::ptrdiff_t>(kCacheLines));
  const auto tmp = path.string() + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream f(tmp, std::ios::trunc);
    for (const auto& l : lines) f << l << "\n";
    if (!f) {
      std::filesystem::remove(tmp, ec);
      return;
    }
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) std::filesystem::remove(tmp, ec);
}

// ---- the probe ---------------------------------------------------------------------------

struct ProbeRun {
  double build = 0.0;
  gradient::Evaluation ev;
  double flops_per_step = 0.0;
};

/// The pipeline of `run` on `config` shortened to `steps` steps (a fresh simulator: the run's
/// own state is never touched, so its results are the same with or without a probe).
ProbeRun probe_once(const Config& config, int steps, int threads) {
  Config c = config;
  c.evolution.steps = steps;
  comm::SerialCommunicator serial;
  ProbeRun r;
  const auto t0 = Clock::now();
  if (io::has_trainable(c)) {
    gradient::GradientProblem problem(io::gradient_plan(c), threads, serial);
    r.build = since(t0);
    r.ev = problem.evaluate(true);
    r.flops_per_step = problem.simulator().work().flops_per_column_step * problem.simulator().states().initial_labels().size();
  } else {
    const solver::Simulator sim(io::evolution_plan(c), threads);
    r.build = since(t0);
    r.ev = gradient::evaluate(sim, io::objective_spec(c, sim), serial, serial);
    r.flops_per_step = sim.work().flops_per_column_step * static_cast<double>(sim.states().initial_labels().size());
  }
  return r;
}

/// probe_once twice, each phase's faster time kept: a probe of tens of milliseconds is at the
/// mercy of whatever else the machine runs, and the faster of two is the usual remedy.
ProbeRun probe(const Config& config, int steps, int threads, bool twice) {
  ProbeRun a = probe_once(config, steps, threads);
  if (!twice) return a;
  const ProbeRun b = probe_once(config, steps, threads);
  a.build = std::min(a.build, b.build);
  a.ev.evolve_s = std::min(a.ev.evolve_s, b.ev.evolve_s);
  a.ev.fidelity_s = std::min(a.ev.fidelity_s, b.ev.fidelity_s);
  a.ev.gradient_s = std::min(a.ev.gradient_s, b.ev.gradient_s);
  return a;
}

/// `splitting: chebyshev` (and open systems never take it): a step's cost grows with dt (the
/// series' length), so a probe of a few long steps costs as much as the run and extrapolates
/// 20-30x high. Such a config is timed on its own grid instead: the forward pass of the real
/// simulator stopped after `k` steps by a trace observer (called between segments, outside
/// the threads). Returns {build s, seconds per step}.
bool dt_dependent(const Config& config) {
  return solver::scheme_traits(config.evolution).dt_dependent_cost;
}

std::pair<double, double> real_steps(const Config& config, int threads, int k) {
  struct Stop {};
  Config c = config;
  c.output.trace = {};
  c.output.trace.every = k;
  const auto t0 = Clock::now();
  const solver::Simulator sim(io::evolution_plan(c), threads);
  const double build = since(t0);
  Clock::time_point start;
  solver::StepObserver stop_at_k;
  stop_at_k.state = [&](int step, const CMatrix&) {
    if (step == 0) start = Clock::now();
    else throw Stop{};
  };
  try {
    (void)sim.evolve(sim.states().all_initial(), {}, stop_at_k);
  } catch (const Stop&) {
  }
  return {build, since(start) / k};
}

/// real_steps with k doubled from kFirstProbeSteps until the steps take kMinProbeSeconds (or k
/// reaches the run's steps).
std::pair<double, double> timed_real_steps(const Config& config, int threads) {
  const int steps = config.evolution.steps;
  int k = std::min(steps, kFirstProbeSteps);
  auto r = real_steps(config, threads, k);
  while (r.second * k < kMinProbeSeconds && k < steps) {
    k = std::min(steps, static_cast<int>(std::ceil(k * kMinProbeSeconds / std::max(r.second * k, 1e-5))));
    r = real_steps(config, threads, k);
  }
  return r;
}

/// The forward pass alone over `steps` steps on a simulator of its own: build + evolution
/// seconds (the quick look `run` takes before deciding whether a full probe is worth it).
double quick_forward(const Config& config, int steps, int threads) {
  const double passes = io::has_trainable(config) ? 3.0 : 1.0;
  if (dt_dependent(config)) {
    const auto [build, step] = real_steps(config, threads, steps);
    return build + passes * step * config.evolution.steps;
  }
  Config c = config;
  c.evolution.steps = steps;
  const auto t0 = Clock::now();
  const solver::Simulator sim(io::evolution_plan(c), threads);
  const auto t1 = Clock::now();
  if (sim.options().open)
    (void)sim.evolve_channel();
  else
    (void)sim.evolve();
  // With a gradient the adjoint pass costs about twice the forward pass (docs/gradients.md).
  return std::chrono::duration<double>(t1 - t0).count() + passes * since(t1) * config.evolution.steps / steps;
}

/// Seconds of a dense Hermitian eigen-decomposition of size `dim` (the /energies of run):
/// timed once at min(dim, 256) and scaled by dim^3.
double eigen_seconds(double dim) {
  const auto m = static_cast<Index>(std::min(dim, 256.0));
  CMatrix h = CMatrix::Random(m, m);
  h = (h + h.adjoint()).eval();
  RVector w;
  CMatrix v;
  const auto t0 = Clock::now();
  linalg::hermitian_eigen(h, w, v);
  return since(t0) * std::pow(dim / static_cast<double>(m), 3.0);
}

double output_seconds(const Config& config, const io::MemoryEstimate& m, bool writes_output) {
  if (!writes_output) return 0.0;
  // The file itself (create, write the propagator or channel, commit): ~25 ms measured on the
  // examples plus 1 GB/s; /energies: one dense diagonalisation up to D = 4096 (closed).
  const double bytes = 16.0 * m.dim * m.columns;
  double seconds = 0.025 + bytes / 1e9;
  if (!config.evolution.is_open() && m.dim <= sizes::kMaxDenseEnergies && !sizes::needs_dressed_basis(config))
    seconds += eigen_seconds(m.dim);
  return seconds;
}

/// How long this process has existed (start-up: loading libraries, MPI, the config), from
/// /proc (clock-tick resolution, 10 ms); 0 where /proc does not tell.
double process_age() {
  std::ifstream stat("/proc/self/stat"), uptime("/proc/uptime");
  std::string text;
  double up = 0.0;
  if (!std::getline(stat, text) || !(uptime >> up)) return 0.0;
  // Field 22 (starttime, clock ticks after boot) counts from the field after the command name's
  // closing parenthesis (field 3).
  std::istringstream in(text.substr(text.rfind(')') + 2));
  std::string field;
  for (int k = 3; k < 22 && (in >> field); ++k) {
  }
  double ticks = 0.0;
  if (!(in >> ticks)) return 0.0;
  const long hz = ::sysconf(_SC_CLK_TCK);
  return hz > 0 ? std::max(0.0, up - ticks / static_cast<double>(hz)) : 0.0;
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2g", v);
  return buf;
}

}  // namespace

std::string duration_text(double s) {
  char buf[32];
  if (s < 10.0) std::snprintf(buf, sizeof buf, "%.2g s", s);
  else if (s < 120.0) std::snprintf(buf, sizeof buf, "%.0f s", s);
  else if (s < 7200.0) std::snprintf(buf, sizeof buf, "%.1f min", s / 60.0);
  else std::snprintf(buf, sizeof buf, "%.1f h", s / 3600.0);
  return buf;
}

namespace {

std::optional<TimeEstimate> estimate_one_run(const Config& config, int threads, const io::MemoryEstimate& memory,
                                             bool writes_output, double refine_above);

}  // namespace

std::optional<TimeEstimate> estimate_run_time(const Config& config, int threads, const io::MemoryEstimate& memory,
                                              bool writes_output, double refine_above) {
  // An ensemble: refine_above compares the members' total; one member is probed.
  const auto K = config.ensemble ? static_cast<int>(io::ensemble_members(config).size()) : 1;
  std::optional<TimeEstimate> e = estimate_one_run(config, threads, memory, writes_output, refine_above / K);
  if (e) e->members = K;
  return e;
}

namespace {

std::optional<TimeEstimate> estimate_one_run(const Config& config, int threads, const io::MemoryEstimate& memory,
                                             bool writes_output, double refine_above) {
  if (!solver::scheme_traits(config.evolution).steps) return std::nullopt;
  const std::string key = work_key(config, threads);
  TimeEstimate e;
  e.steps = config.evolution.steps;
  // The step-error estimate's coarser run (its confirming run, when one is needed, is not
  // foreseen: it depends on the result).
  const bool fidelity = config.target && config.evolution.initial_states.kind == InitialStates::Kind::computational;
  if (config.evolution.error_estimate && fidelity) e.check_steps = gradient::coarse_steps(e.steps);
  e.startup = process_age();
  if (const auto cached = cache_find(key)) {
    e.build = cached->v[0];
    e.evolve_step = cached->v[1];
    e.once = cached->v[2];
    e.gradient_step = cached->v[3];
    e.flops_per_step = cached->v[4];
    e.output = output_seconds(config, memory, writes_output);
    return e;
  }
  const int steps = e.steps;
  int k1 = std::min(steps, kFirstProbeSteps);
  if (refine_above > 0.0 && quick_forward(config, k1, threads) < refine_above) return std::nullopt;
  if (dt_dependent(config)) {  // the forward pass on the run's own grid; the adjoint about 2x it
    const auto [build, step] = timed_real_steps(config, threads);
    e.build = build;
    e.evolve_step = step;
    e.gradient_step = io::has_trainable(config) ? 2.0 * step : 0.0;
    e.probe_steps = -1;
    e.output = output_seconds(config, memory, writes_output);
    cache_store(key, {{e.build, e.evolve_step, e.once, e.gradient_step, e.flops_per_step}});
    return e;
  }
  // check times each probe length twice (the faster kept); run, whose own time it spends, once.
  const bool twice = refine_above <= 0.0;
  // Two probe lengths k1 < k2 separate what each step costs from what a run costs once.
  ProbeRun a = probe(config, k1, threads, twice);
  const double first = a.ev.evolve_s + a.ev.gradient_s;
  if (first < kMinProbeSeconds && k1 < steps) {
    k1 = std::min(steps, static_cast<int>(std::ceil(k1 * kMinProbeSeconds / std::max(first, 1e-5))));
    a = probe(config, k1, threads, twice);
  }
  e.build = a.build;
  e.once = a.ev.fidelity_s;
  e.flops_per_step = a.flops_per_step;
  e.probe_steps = k1;
  e.evolve_step = a.ev.evolve_s / k1;
  e.gradient_step = a.ev.gradient_s / k1;
  if (k1 < steps) {
    const int k2 = std::min(steps, 2 * k1);
    const ProbeRun b = probe(config, k2, threads, twice);
    e.probe_steps = k2;
    // The per-step cost from the difference, the rest of the longer probe a once-per-run cost;
    // a difference below 0.7x the longer probe's mean per step is the noise of a busy machine
    // (a step cannot cost less than the mean by more than the fixed part allows): the mean.
    auto split = [&](double ta, double tb, double& step) {
      const double slope = (tb - ta) / (k2 - k1), mean = tb / k2;
      step = slope >= 0.7 * mean ? slope : mean;
      e.once += std::max(0.0, tb - step * k2);
    };
    split(a.ev.evolve_s, b.ev.evolve_s, e.evolve_step);
    split(a.ev.gradient_s, b.ev.gradient_s, e.gradient_step);
  }
  e.output = output_seconds(config, memory, writes_output);
  cache_store(key, {{e.build, e.evolve_step, e.once, e.gradient_step, e.flops_per_step}});
  return e;
}

}  // namespace

void remember_run_time(const Config& config, int threads, double build, double evolve, double once,
                       double gradient) {
  if (!solver::scheme_traits(config.evolution).steps || config.evolution.steps <= 0) return;
  const std::string key = work_key(config, threads);
  const auto cached = cache_find(key);
  if (!cached) return;  // only kinds a probe measured
  const double steps = config.evolution.steps;
  cache_store(key, {{build, evolve / steps, once, gradient / steps, cached->v[4]}});
}

std::string describe(const TimeEstimate& e) {
  std::string text = "about " + duration_text(e.total()) + " (start-up " + duration_text(e.startup) +
                     (e.members > 1 ? ", the nominal's build and " + std::to_string(e.members) + " members, each:" : ",") +
                     " build " + duration_text(e.build) + ", evolution " +
                     std::to_string(e.steps) + " steps x " + duration_text(e.evolve_step);
  if (e.flops_per_step > 0.0 && e.evolve_step > 0.0)
    text += " = " + number(e.flops_per_step * e.steps) + " flops at " +
            number(e.flops_per_step / e.evolve_step / 1e9) + " GFLOP/s";
  if (e.check_steps > 0)
    text += ", step-error run " + std::to_string(e.check_steps) + " steps (" + duration_text(e.check()) + ")";
  text += ", fidelity and set-up " + duration_text(e.once);
  if (e.gradient_step > 0.0) text += ", gradient " + duration_text(e.gradient());
  if (e.output > 0.0) text += ", output " + duration_text(e.output);
  text += e.probe_steps > 0    ? "; timed here by a " + std::to_string(e.probe_steps) + "-step probe)"
          : e.probe_steps < 0  ? "; timed here on the run's first steps)"
                               : "; from this machine's cache)";
  return text;
}

}  // namespace qevolve::commands
