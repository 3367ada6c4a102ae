// `qevolve converge`'s search (converge_search.hpp, docs/accuracy.md "qevolve converge").
#include "converge_search.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>

#include "auto_steps.hpp"
#include "qevolve/ensemble.hpp"
#include "qevolve/plan.hpp"
#include "qevolve/comm.hpp"
#include "qevolve/config_writer.hpp"
#include "qevolve/device.hpp"
#include "qevolve/error.hpp"
#include "qevolve/gradient.hpp"
#include "qevolve/memory_estimate.hpp"
#include "qevolve/resolve.hpp"
#include "qevolve/simulator.hpp"
#include "qevolve/step_error.hpp"
#include "stopwatch.hpp"

namespace qevolve::commands {
namespace {

using Clock = std::chrono::steady_clock;

/// A config at some steps and levels with its simulator.
struct Trial {
  Config config;
  std::unique_ptr<solver::Simulator> sim;
  std::optional<fidelity::ObjectiveSpec> objective;
};

std::unique_ptr<Trial> make_trial(Config config, int threads) {
  auto t = std::make_unique<Trial>();
  t->config = std::move(config);
  t->sim = std::make_unique<solver::Simulator>(io::evolution_plan(t->config), threads);
  t->objective = io::objective_spec(t->config, *t->sim);
  return t;
}

/// The step search on a trial and the wall time of each count it tried.
struct Searched {
  AutoSteps steps;
  std::vector<double> seconds;
  [[nodiscard]] double total() const {
    double s = 0.0;
    for (double x : seconds) s += x;
    return s;
  }
};

Searched search(Trial& t, int start, double tolerance) {
  comm::SerialCommunicator serial;
  Searched out;
  Clock::time_point t0;
  StepSearch s;
  s.set_steps = [&t](int n) {
    t.sim->set_steps(n);
    t.config.evolution.steps = n;
  };
  s.evaluate = [&] {
    t0 = Clock::now();
    return gradient::evaluate(*t.sim, t.objective, serial, serial);
  };
  s.estimate = [&](const gradient::Evaluation& ev) {
    gradient::StepError e = gradient::estimate_step_error(*t.sim, *t.objective, ev, serial, serial);
    out.seconds.push_back(seconds_since(t0));
    return e;
  };
  out.steps = choose_steps(s, start, tolerance);
  return out;
}

/// A mode's next count: L + max(2, L/2), at most kMaxConvergeLevels (L itself from the cap on:
/// no raise).
int next_levels(int levels) {
  return std::max(levels, std::min(levels + std::max(2, levels / 2), kMaxConvergeLevels));
}

/// `config` with mode `name` at `levels` (a preset mode gets a device.qubits entry of its own,
/// as `--set device.qubits[NAME].levels=N` gives it).
void set_levels(Config& config, const std::string& name, int levels) {
  for (ModeEntry& e : config.device.qubits)
    if (e.name == name) {
      e.levels = levels;
      return;
    }
  ModeEntry e;
  e.name = name;
  e.levels = levels;
  e.path = "device.qubits[" + std::to_string(config.device.qubits.size()) + "]";
  config.device.qubits.push_back(std::move(e));
}

/// The key that sets a mode's levels in `config`, for messages.
std::string levels_key(const Config& config, const device::ModeParams& m) {
  for (std::size_t k = 0; k < config.device.qubits.size(); ++k)
    if (config.device.qubits[k].name == m.name && config.device.qubits[k].levels)
      return "device.qubits[" + std::to_string(k) + "].levels";
  if (config.device.preset)
    return device::is_qubit(m) ? "device.preset_args.levels" : "device.preset_args.coupler_levels";
  return "device.qubits";
}

/// Why `config` cannot be run within the memory (empty: it can); InputErrors of the
/// resolution stage (a basis_size under the levels, the levels a noisy mode may have) pass.
std::string memory_problem(const Config& config, std::optional<double> max_memory) {
  const device::ResolvedDevice dev = io::resolve(config, io::Purpose::evolve);
  const io::MemoryEstimate e = io::estimate_memory(config, dev, io::Purpose::evolve, false);
  const io::MemoryLimit limit = io::available_memory(max_memory);
  if (e.bytes <= limit.bytes) return {};
  return e.dim_text + " needs ~" + io::format_bytes(e.bytes) + " (" + e.part + " " + io::format_bytes(e.part_bytes) +
         "); " + io::format_bytes(limit.bytes) + " available (" + limit.source + ")";
}

std::string levels_change(const std::string& mode, int from, int to) {
  return mode + " levels " + std::to_string(from) + " \u2192 " + std::to_string(to);
}

/// The search's state: the accepted setting and the table.
class Search {
 public:
  Search(const Config& config, const ConvergeRequest& r) : r_(r), half_(0.5 * r.tolerance) {
    Config base = config;
    base.evolution.steps_auto = false;
    for (const device::ModeParams& m : io::resolve(base, io::Purpose::evolve).modes) {
      out_.modes.push_back(m.name);
      out_.levels.push_back(m.levels);
    }
    out_.start_levels = out_.levels;
    accepted_ = make_trial(std::move(base), r.threads);
    start_ = config.evolution.steps_auto ? auto_steps_start(*accepted_->sim) : config.evolution.steps;
  }

  ConvergeOutcome run() {
    const auto t0 = Clock::now();
    if (steps() && levels()) out_.converged = true;
    out_.seconds = seconds_since(t0);
    return std::move(out_);
  }

 private:
  void add(ConvergeRow row) {
    if (r_.on_row) r_.on_row(row);
    out_.rows.push_back(std::move(row));
  }

  void take(const Searched& s) {
    out_.steps = s.steps.steps;
    out_.fidelity = s.steps.fidelity;
    out_.estimate = s.steps.estimate.error;
  }

  /// (1) the steps at the config's levels: one row per count tried.
  bool steps() {
    const Searched s = search(*accepted_, start_, half_);
    for (std::size_t k = 0; k < s.steps.tried.size(); ++k) {
      const auto& t = s.steps.tried[k];
      const bool last = k + 1 == s.steps.tried.size();
      add({"steps " + std::to_string(t.steps), t.fidelity, k ? t.fidelity - s.steps.tried[k - 1].fidelity : std::nan(""),
           t.error, s.seconds[k], t.error <= half_ ? "estimate within T/2" : last ? "" : "estimate above T/2"});
    }
    take(s);
    if (s.steps.reached) return true;
    char what[200];
    std::snprintf(what, sizeof what, "the step-error estimate %.2e is above T/2 = %.1e at %d steps, the most converge tries",
                  s.steps.estimate.error, half_, kMaxAutoSteps);
    out_.stop = what;
    return false;
  }

  /// (2) + (3): each mode in turn, raised while F moves by at least T/2, until every mode has
  /// been found converged once since the last change.
  bool levels() {
    const std::size_t n = out_.modes.size();
    std::size_t converged_since_change = 0;
    for (std::size_t m = 0; converged_since_change < n; m = (m + 1) % n) {
      for (;;) {
        const int kept = refine(m);
        if (kept < 0) return false;
        if (kept == 0) break;
        converged_since_change = 0;
      }
      ++converged_since_change;
    }
    return true;
  }

  /// One refinement of mode m: 1 kept, 0 converged, -1 stopped by a cap.
  int refine(std::size_t m) {
    const std::string& name = out_.modes[m];
    const int from = out_.levels[m], to = next_levels(from);
    if (to == from) {
      out_.stop = "mode `" + name + "` moved F by T/2 or more at its last increase and is at " +
                  std::to_string(kMaxConvergeLevels) + " levels, the most converge gives a mode";
      return -1;
    }
    Config c = accepted_->config;
    set_levels(c, name, to);
    std::string problem;
    try {
      problem = memory_problem(c, r_.max_memory);
    } catch (const InputError& e) {
      problem = e.problem();
    }
    if (!problem.empty()) {
      out_.stop = "the next refinement, " + levels_change(name, from, to) + ", cannot be run: " + problem;
      return -1;
    }
    auto trial = make_trial(std::move(c), r_.threads);
    const Searched s = search(*trial, out_.steps, half_);
    std::string setting = levels_change(name, from, to);
    const int steps_before = out_.steps;
    if (!s.steps.reached) {
      add({setting, s.steps.fidelity, std::nan(""), s.steps.estimate.error, s.total(), "steps cap"});
      char what[240];
      std::snprintf(what, sizeof what, "at %s the step-error estimate is %.2e, above T/2 = %.1e at %d steps", setting.c_str(),
                    s.steps.estimate.error, half_, kMaxAutoSteps);
      out_.stop = what;
      return -1;
    }
    if (s.steps.steps != steps_before) {
      // Faster phases at the new levels needed more steps: F at the old levels is compared at
      // the same steps (the steps are kept either way).
      const Searched again = search(*accepted_, s.steps.steps, half_);
      add({name + " levels " + std::to_string(from) + ", steps " + std::to_string(again.steps.steps), again.steps.fidelity,
           again.steps.fidelity - out_.fidelity, again.steps.estimate.error, again.total(), "the same steps"});
      take(again);
      setting += ", steps " + std::to_string(steps_before) + " \u2192 " + std::to_string(s.steps.steps);
    }
    const double change = s.steps.fidelity - out_.fidelity;
    const bool keep = std::abs(change) >= half_;
    add({setting, s.steps.fidelity, change, s.steps.estimate.error, s.total(),
         keep ? "kept (|change| >= T/2)" : name + " converged at " + std::to_string(from)});
    if (!keep) return 0;
    accepted_ = std::move(trial);
    out_.levels[m] = to;
    take(s);
    return 1;
  }

  const ConvergeRequest& r_;
  const double half_;
  ConvergeOutcome out_;
  std::unique_ptr<Trial> accepted_;
  int start_ = 0;
};

}  // namespace

void check_converge_input(const Config& config, double tolerance, const std::string& tolerance_key,
                          std::optional<double> max_memory) {
  io::refuse_ensemble(config, "converge");
  io::check_converge(config, tolerance, tolerance_key, kMaxConvergeTolerance);
  const device::ResolvedDevice dev = io::resolve(config, io::Purpose::evolve);
  (void)io::check_memory(config, dev, io::Purpose::evolve, max_memory, false);
  // Every mode's first refinement must be possible: it is the least converge tries.
  for (const device::ModeParams& m : dev.modes) {
    const int to = next_levels(m.levels);
    std::string problem;
    if (to != m.levels) {
      Config c = config;
      set_levels(c, m.name, to);
      try {
        problem = memory_problem(c, max_memory);
      } catch (const InputError& e) {
        problem = e.problem();
      }
    }
    io::check_converge_refinement(config, levels_key(config, m), m.name, m.levels, to, kMaxConvergeLevels, problem);
  }
}

ConvergeOutcome converge_config(const Config& config, const ConvergeRequest& request) {
  return Search(config, request).run();
}

std::string converged_yaml(const Config& config, const ConvergeOutcome& outcome) {
  // Only what changed: a config converge leaves as it is is written back unchanged.
  std::vector<std::string> names;
  std::vector<double> v;
  if (config.evolution.steps_auto || outcome.steps != config.evolution.steps) {
    names.push_back("evolution.steps");
    v.push_back(outcome.steps);
  }
  for (std::size_t m = 0; m < outcome.modes.size(); ++m)
    if (outcome.levels[m] != outcome.start_levels[m]) {
      names.push_back("device.qubits[" + outcome.modes[m] + "].levels");
      v.push_back(outcome.levels[m]);
    }
  const RVector values = Eigen::Map<const RVector>(v.data(), static_cast<Index>(v.size()));
  char line[300];
  std::snprintf(line, sizeof line, "%s: %s, F = %.12f \u00b1 %.1e (steps)%s\n", kConvergedHeader,
                config.source_file.c_str(), outcome.fidelity, outcome.estimate,
                outcome.converged ? "" : " (not converged: stopped by a cap)");
  std::string body = write_back_yaml(config, names, values);
  if (body.rfind(kConvergedHeader, 0) == 0) body.erase(0, body.find('\n') + 1);  // converged again: one header
  return line + body;
}

namespace {
/// `text` padded with spaces to `width` characters on a terminal (UTF-8: the arrow is one).
std::string padded(const std::string& text, std::size_t width) {
  std::size_t shown = 0;
  for (unsigned char ch : text) shown += (ch & 0xC0) != 0x80 ? 1 : 0;
  return shown >= width ? text : text + std::string(width - shown, ' ');
}
}  // namespace

std::string converge_table_header() {
  char line[200];
  std::snprintf(line, sizeof line, " %16s %10s %9s %9s\n", "F", "change", "estimate", "time");
  return padded("setting", 36) + line;
}


std::string format_row(const ConvergeRow& r) {
  char change[32];
  if (std::isnan(r.change))
    std::snprintf(change, sizeof change, "-");
  else
    std::snprintf(change, sizeof change, "%+.2e", r.change);
  char line[400];
  std::snprintf(line, sizeof line, " %16.12f %10s %9.1e %7.2f s  %s\n", r.fidelity, change, r.estimate, r.seconds,
                r.verdict.c_str());
  return padded(r.setting, 36) + line;
}

}  // namespace qevolve::commands
