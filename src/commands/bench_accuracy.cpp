// `qevolve bench accuracy CONFIG` (issue "time-to-accuracy"): users want a correct gate fast,
// not a fast step. Every solver variant runs the config over a ladder of step counts; the error
// of each run against a converged reference (magnus4 at reference_factor x the finest step
// count) is measured on the unitary itself (max |U - U_ref| over the computational block) and
// on the fidelity (|d(1 - F)|, the config's target and compensation), beside the wall time of
// the evolution. The summary gives, per variant and tolerance, the first ladder point from
// which every finer point stays within the tolerance, and its time.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "qevolve/ensemble.hpp"
#include "qevolve/plan.hpp"
#include "qevolve/resolve.hpp"
#include "qevolve/commands.hpp"
#include "qevolve/config_loader.hpp"
#include "qevolve/device.hpp"
#include "qevolve/error.hpp"
#include "qevolve/linalg.hpp"
#include "qevolve/memory_estimate.hpp"
#include "qevolve/output_path.hpp"
#include "progress.hpp"
#include "qevolve/fidelity.hpp"
#include "qevolve/names.hpp"
#include "qevolve/scheme_traits.hpp"
#include "qevolve/simulator.hpp"
#include "python_script.hpp"

namespace qevolve::commands {
namespace {

using Clock = std::chrono::steady_clock;

struct Variant {
  std::string name;
  Solver solver = Solver::trotter;
  int order = 2;
  Splitting splitting = Splitting::terms;
};

/// A variant "SOLVER[ORDER][:SPLITTING]"; `flag` names the option it came from in errors.
Variant parse_variant(const std::string& text, const char* flag) {
  Variant v;
  v.name = text;
  const auto colon = text.find(':');
  const std::string head = text.substr(0, colon);
  const std::string split = colon == std::string::npos ? "" : text.substr(colon + 1);
  auto bad = [&text, flag]() -> Variant {
    throw InputError({}, flag, "unknown solver variant `" + text + "`",
                     "expm | trotter1|2|4[:terms|:bonds|:dense] | trotter2:chebyshev | "
                     "magnus4[:terms|:bonds|:dense|:chebyshev]");
  };
  if (head == enum_name(Solver::expm)) {
    v.solver = Solver::expm;
    if (!split.empty()) return bad();
    return v;
  }
  if (head == enum_name(Solver::magnus4)) {
    v.solver = Solver::magnus4;
    v.order = 4;
  } else if (head == "trotter1" || head == "trotter2" || head == "trotter4") {
    v.solver = Solver::trotter;
    v.order = head.back() - '0';
  } else {
    return bad();
  }
  // No splitting: the config's default, terms.
  const std::optional<Splitting> splitting =
      split.empty() ? Splitting::terms : enum_value<Splitting>(split);
  if (!splitting) return bad();
  // chebyshev's exponentials are exact: a trotter order would name the same run thrice.
  if (*splitting == Splitting::chebyshev && v.solver == Solver::trotter && v.order != 2) return bad();
  v.splitting = *splitting;
  if (split.empty()) v.name += ":terms";
  return v;
}

struct Outcome {
  CMatrix block;  ///< computational block of the propagator
  double infidelity = std::numeric_limits<double>::quiet_NaN();
  double seconds = 0.0;
};

class Runner {
 public:
  Runner(const Config& base, int threads) : base_(base), threads_(threads) {
    base_.evolution.initial_states = InitialStates{};  // the computational columns
    device_ = io::build_device(base_);
    if (base_.target) {
      std::vector<std::string> names;
      for (int q : device_.qubit_modes()) names.push_back(device_.modes()[static_cast<std::size_t>(q)].name());
      target_ = io::target_unitary(base_, names);
    }
  }
  [[nodiscard]] Index dim() const { return device_.dim(); }

  Outcome run(const Variant& v, int steps) {
    if (!sim_ || current_ != v.name) {
      Config c = base_;
      c.evolution.solver = v.solver;
      c.evolution.order = v.order;
      c.evolution.order_given = false;
      c.evolution.splitting = v.splitting;
      c.evolution.steps = steps;
      sim_ = std::make_unique<solver::Simulator>(io::evolution_plan(c, device_), threads_);
      current_ = v.name;
    } else {
      sim_->set_steps(steps);
    }
    Outcome o;
    const auto t0 = Clock::now();
    const CMatrix cols = sim_->evolve().columns;
    o.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    const auto comp = device_.computational_indices();
    const auto d = static_cast<Index>(comp.size());
    o.block.resize(d, d);
    for (Index i = 0; i < d; ++i) o.block.row(i) = cols.row(comp[static_cast<std::size_t>(i)]);
    if (target_) o.infidelity = 1.0 - fidelity::evaluate_fidelity(o.block, *target_, base_.target->compensation).fidelity;
    return o;
  }

 private:
  Config base_;
  int threads_;
  device::Device device_;
  std::optional<CMatrix> target_;
  std::unique_ptr<solver::Simulator> sim_;
  std::string current_;
};

struct AccuracyRow {
  std::string variant;
  int steps = 0;
  double seconds = 0.0, max_du = 0.0, dinf = 0.0;
};

/// Time to accuracy: per variant and tolerance, the first ladder point from which every finer
/// point is within the tolerance, and its time.
void print_time_to_accuracy(std::ostream& out, const std::vector<Variant>& variants, const std::vector<AccuracyRow>& rows) {
  char line[512];
  const double tols[3] = {1e-4, 1e-6, 1e-8};
  for (int measure = 0; measure < 2; ++measure) {
    out << (measure == 0 ? "time to |d(1-F)| <= tol:\n" : "time to max|dU| <= tol:\n");
    std::snprintf(line, sizeof line, "%-18s %20s %20s %20s\n", "solver", "1e-4", "1e-6", "1e-8");
    out << line;
    for (const auto& v : variants) {
      std::string cells;
      for (double tol : tols) {
        const AccuracyRow* hit = nullptr;
        for (auto it = rows.rbegin(); it != rows.rend(); ++it) {
          if (it->variant != v.name) continue;
          const double e = measure == 0 ? it->dinf : it->max_du;
          if (!(e <= tol)) break;
          hit = &*it;
        }
        char cell[64];
        if (hit != nullptr)
          std::snprintf(cell, sizeof cell, " %9.4f s (%6d)", hit->seconds, hit->steps);
        else
          std::snprintf(cell, sizeof cell, " %20s", "not reached");
        cells += cell;
      }
      std::snprintf(line, sizeof line, "%-18s%s\n", v.name.c_str(), cells.c_str());
      out << line;
    }
  }
}

/// The variants of the ladder: --solvers, or a default set chosen from D.
std::vector<Variant> ladder_variants(const BenchAccuracyOptions& options, double D) {
  std::vector<Variant> variants;
  if (options.solvers.empty()) {
    if (D <= 256) variants.push_back(parse_variant("expm", "--solvers"));
    for (const char* n : {"trotter2:terms", "trotter2:bonds", "trotter4:bonds", "magnus4:terms", "magnus4:bonds"})
      variants.push_back(parse_variant(n, "--solvers"));
  } else {
    for (const auto& n : options.solvers) variants.push_back(parse_variant(n, "--solvers"));
  }
  return variants;
}

/// Every variant's run checked against the memory the process may use, before any of them: an
/// expm or dense variant needs dense D x D matrices (docs/cli.md "Memory"); such a refusal
/// names the variant and `flag`, the others are located in the config as `run` locates them.
void check_ladder_memory(const Config& base, const device::ResolvedDevice& dev, const std::vector<Variant>& variants,
                         const char* flag, std::optional<double> max_memory) {
  for (const Variant& v : variants) {
    Config c = base;
    c.evolution.solver = v.solver;
    c.evolution.splitting = v.splitting;
    try {
      (void)io::check_memory(c, dev, io::Purpose::evolve, max_memory, false);
    } catch (const InputError& e) {
      if (e.key_path() != "evolution.solver") throw;
      throw InputError({}, flag, "variant `" + v.name + "`: " + e.problem(),
                       "a variant without dense D x D matrices (trotter or magnus4 with terms or bonds)");
    }
  }
}

}  // namespace

int bench_accuracy(const BenchAccuracyOptions& options, Streams io) {
  if (!options.plot.empty() && options.csv.empty())
    throw InputError({}, "--plot", "the plot is drawn from the CSV file", "--csv FILE as well");
  const Config config = io::load_config(options.config_path);
  io::refuse_ensemble(config, "bench accuracy");
  linalg::set_blas_threads(options.threads);  // --threads bounds BLAS too (no spinning workers)
  if (!solver::scheme_traits(config.evolution).steps || config.evolution.is_open())
    throw InputError({}, "bench accuracy", "the ladder compares the step-based closed-system solvers",
                     "a closed-system config (no `noise`)");
  // The resolution stage (the computational columns the ladder evolves), then the memory of
  // every variant, before any work.
  Config computational = config;
  computational.evolution.initial_states = InitialStates{};
  const device::ResolvedDevice resolved = io::resolve(computational, io::Purpose::evolve);
  double D = 1.0;
  for (const auto& m : resolved.modes) D *= m.levels;
  const std::vector<Variant> variants = ladder_variants(options, D);
  const Variant ref_variant =
      parse_variant(options.reference.empty() ? (D <= 128 ? "magnus4:chebyshev" : "magnus4:bonds") : options.reference,
                    "--reference");
  check_ladder_memory(computational, resolved, variants, "--solvers", options.max_memory);
  check_ladder_memory(computational, resolved, {ref_variant}, "--reference", options.max_memory);
  const io::Replacing table{"plot", options.force};  // a table or picture replaces no HDF5 file
  if (!options.csv.empty()) io::check_flag_output("--csv", options.csv, config.source_file, table);  // before the work
  if (!options.plot.empty()) io::check_flag_output("--plot", options.plot, config.source_file, table);
  Runner runner(config, options.threads);

  std::vector<int> ladder = options.steps;
  if (ladder.empty())
    for (int s = 50; s <= 12800; s *= 2) ladder.push_back(s);
  int finest = 0;
  for (int s : ladder) finest = std::max(finest, s);
  const int ref_steps = options.reference_factor * finest;

  char line[512];
  io.out << "bench accuracy: " << options.config_path << " (D = " << runner.dim() << ")\n";
  const Outcome ref = runner.run(ref_variant, ref_steps);
  const Outcome ref_half = runner.run(ref_variant, ref_steps / 2);
  std::snprintf(line, sizeof line,
                "reference: %s, %d steps, %.3f s; against %d steps: max|dU| = %.2e, |d(1-F)| = %.2e\n",
                ref_variant.name.c_str(), ref_steps, ref.seconds, ref_steps / 2,
                (ref_half.block - ref.block).cwiseAbs().maxCoeff(), std::abs(ref_half.infidelity - ref.infidelity));
  io.out << line;
  if (!std::isnan(ref.infidelity)) {
    std::snprintf(line, sizeof line, "reference 1 - F = %.10e\n", ref.infidelity);
    io.out << line;
  }
  std::snprintf(line, sizeof line, "%-18s %7s %10s %11s %11s\n", "solver", "steps", "time [s]", "max|dU|", "|d(1-F)|");
  io.out << line;

  std::vector<AccuracyRow> rows;
  RowProgress progress(io.err, !io.quiet, static_cast<int>(variants.size() * ladder.size()));
  for (const auto& v : variants) {
    for (std::size_t li = 0; li < ladder.size(); ++li) {
      const int s = ladder[li];
      Outcome o = runner.run(v, s);
      // Short runs are timed again and the best kept (a millisecond run is at the mercy of
      // the scheduler); the results are identical, only the clock differs.
      for (int k = 1; k < options.repeat && o.seconds < 1.0; ++k) o.seconds = std::min(o.seconds, runner.run(v, s).seconds);
      AccuracyRow r{v.name, s, o.seconds, (o.block - ref.block).cwiseAbs().maxCoeff(), std::abs(o.infidelity - ref.infidelity)};
      std::snprintf(line, sizeof line, "%-18s %7d %10.4f %11.3e %11.3e\n", r.variant.c_str(), r.steps, r.seconds,
                    r.max_du, r.dinf);
      io.out << line << std::flush;
      rows.push_back(r);
      // The next rung of this ladder: its steps over these (the time grows with the steps);
      // the first rung of the next variant: unknown.
      progress.row_done(li + 1 < ladder.size() ? o.seconds * ladder[li + 1] / s : -1.0);
      if (o.seconds > options.max_seconds) break;
    }
  }

  print_time_to_accuracy(io.out, variants, rows);

  if (!options.csv.empty()) {
    const std::string tmp = options.csv + ".tmp";
    {
      std::ofstream f(tmp);
      if (!f) throw InputError({}, "--csv", "cannot write " + options.csv);
      f << "solver,steps,seconds,max_dU,d_infidelity\n";
      f.precision(10);
      for (const auto& r : rows) f << r.variant << ',' << r.steps << ',' << r.seconds << ',' << r.max_du << ',' << r.dinf << '\n';
    }
    std::rename(tmp.c_str(), options.csv.c_str());
    io.out << "wrote " << options.csv << "\n";
  }
  if (!options.plot.empty()) {
    run_python_script("plot_accuracy.py", {options.csv, options.plot});
    io.out << "wrote " << options.plot << "\n";
  }
  return 0;
}

}  // namespace qevolve::commands
