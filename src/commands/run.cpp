// `qevolve run`: config -> device -> cached simulator -> evolve -> fidelity -> HDF5 + summary.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <ostream>
#include <string>

#include "progress.hpp"
#include "qevolve/commands.hpp"
#include "qevolve/config_loader.hpp"
#include "qevolve/device.hpp"
#include "qevolve/fidelity.hpp"
#include "qevolve/hdf5_file.hpp"
#include "qevolve/simulator.hpp"
#include "qevolve/version.hpp"

namespace qevolve::commands {
namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

/// Largest D for which `run` diagonalises H0 densely to write /energies.
constexpr Index kMaxDenseEnergies = 4096;

const char* solver_name(Solver s) {
  switch (s) {
    case Solver::expm: return "expm";
    case Solver::trotter: return "trotter";
    case Solver::magnus4: return "magnus4";
    case Solver::adaptive: return "adaptive";
  }
  return "?";
}

const char* compensation_name(Compensation c) {
  switch (c) {
    case Compensation::none: return "none";
    case Compensation::vz: return "vz";
    case Compensation::single_qubit: return "single_qubit";
  }
  return "?";
}

/// Closed-system evolution keeps every column normalised; a larger deviation than the solver's
/// own accuracy means a numerical failure (exit 3).
void check_norms(const CMatrix& columns, const solver::Options& o) {
  double tol = o.precision == Precision::single ? 1e-4 : 1e-9;
  if (o.solver == Solver::adaptive) tol = std::max(1e-8, 1e3 * o.rtol);
  double worst = 0.0;
  for (Index c = 0; c < columns.cols(); ++c)
    worst = std::max(worst, std::abs(columns.col(c).squaredNorm() - 1.0));
  if (!(worst <= tol))
    throw NumericalError("lost unitarity: a column's squared norm deviates from 1 by " +
                         std::to_string(worst) + " (tolerance " + std::to_string(tol) + ")");
}

struct Outcome {
  std::optional<fidelity::FidelityResult> fidelity;
  CMatrix unitary;  // computational block (only with a fidelity)
};

void write_output(const std::string& path, const Config& config, const solver::Simulator& sim,
                  const solver::EvolveResult& evolved, const Outcome& outcome,
                  const std::optional<device::DressedBasis>& dressed, double wall_time) {
  io::Hdf5Writer w(path);
  const auto& dev = sim.device();
  if (outcome.fidelity) {
    w.write("/unitary", outcome.unitary);
    w.write("/unitary_compensated", outcome.fidelity->unitary_compensated);
    w.write("/compensation/angles", outcome.fidelity->angles);
    w.attribute("compensation", std::string(compensation_name(outcome.fidelity->compensation)));
    w.attribute("fidelity", outcome.fidelity->fidelity);
    w.attribute("fidelity_uncompensated", outcome.fidelity->fidelity_uncompensated);
    w.attribute("leakage", outcome.fidelity->leakage);
  }
  w.write("/propagator", evolved.columns);
  w.write("/initial_states", sim.initial_labels());
  if (dressed) {
    w.write("/energies", dressed->energies);
    std::vector<std::string> labels;
    for (Index l : dressed->labels) labels.push_back(dev.label(l));
    w.write("/labels", labels);
  }
  const auto& o = sim.options();
  w.attribute("dims", std::vector<long long>(dev.dims().begin(), dev.dims().end()));
  w.attribute("steps", static_cast<long long>(o.steps));
  w.attribute("solver", std::string(solver_name(o.solver)));
  w.attribute("order", static_cast<long long>(o.order));
  w.attribute("duration_ns", o.duration);
  w.attribute("wall_time_s", wall_time);
  w.attribute("qevolve_version", std::string(kVersion));
  w.attribute("config", config.yaml_text);
  if (!std::isnan(evolved.single_precision_deviation))
    w.attribute("single_precision_deviation", evolved.single_precision_deviation);
  w.commit();
}

}  // namespace

int run(const RunOptions& options, Streams io) {
  const auto t_start = Clock::now();
  Config config = io::load_config(options.config_path);
  if (options.steps) config.evolution.steps = *options.steps;
  device::Device dev = device::build_device(config);
  solver::Simulator sim(config, std::move(dev), options.threads);
  const double t_build = since(t_start);

  const auto t1 = Clock::now();
  solver::EvolveResult evolved;
  {
    ProgressBar bar(io.err, io.progress && !io.quiet, "evolving");
    evolved = sim.evolve([&bar](double f) { bar.update(f); });
  }
  check_norms(evolved.columns, sim.options());
  const double t_evolve = since(t1);

  // Fidelity: needs a target and the computational initial states.
  const auto t2 = Clock::now();
  Outcome outcome;
  const auto& device = sim.device();
  if (config.target && sim.initial_states_are_computational()) {
    std::vector<std::string> qubit_names;
    for (int q : device.qubit_modes()) qubit_names.push_back(device.modes()[static_cast<std::size_t>(q)].name());
    const CMatrix target = fidelity::target_unitary(*config.target, qubit_names, config);
    const auto comp = device.computational_indices();
    const auto d = static_cast<Index>(comp.size());
    outcome.unitary.resize(d, d);
    for (Index r = 0; r < d; ++r) outcome.unitary.row(r) = evolved.columns.row(comp[static_cast<std::size_t>(r)]);
    outcome.fidelity =
        fidelity::evaluate_fidelity(outcome.unitary, target, config.target->compensation);
  }
  const double t_fid = since(t2);

  // Output.
  const auto t3 = Clock::now();
  const std::string output = options.output.empty() ? config.output.file : options.output;
  std::optional<device::DressedBasis> dressed = sim.dressed();
  bool energies_skipped = false;
  if (!output.empty()) {
    if (!dressed && device.dim() <= kMaxDenseEnergies) dressed = device::dress(device);
    energies_skipped = !dressed;
    write_output(output, config, sim, evolved, outcome, dressed, since(t_start));
  }
  const double t_out = since(t3);

  // Summary.
  const auto& o = sim.options();
  auto& out = io.out;
  char line[320];
  out << "qevolve run: " << options.config_path << "\n";
  out << "device: " << device.num_modes() << " modes (" << device.qubit_modes().size()
      << " qubits), D = " << device.dim() << ", levels";
  for (int d : device.dims()) out << ' ' << d;
  out << "\n";
  std::snprintf(line, sizeof line,
                "solver: %s%s, %d steps, dt = %.6g ns, T = %.6g ns, %zu initial states, %d threads%s\n",
                solver_name(o.solver),
                o.solver == Solver::trotter
                    ? (" order " + std::to_string(o.order) + " (" + std::to_string(sim.gates_per_step()) +
                       " local gates per step)").c_str()
                    : "",
                o.steps, sim.dt(), o.duration, sim.initial_indices().size(), o.threads,
                o.precision == Precision::single ? ", single precision" : "");
  out << line;
  if (!std::isnan(evolved.single_precision_deviation)) {
    std::snprintf(line, sizeof line, "single precision: first block differs from double by %.3e\n",
                  evolved.single_precision_deviation);
    out << line;
  }
  if (outcome.fidelity) {
    const auto& f = *outcome.fidelity;
    std::snprintf(line, sizeof line, "fidelity: F = %.12f (1 - F = %.4e), uncompensated F = %.12f "
                  "(1 - F = %.4e), compensation %s\n",
                  f.fidelity, 1.0 - f.fidelity, f.fidelity_uncompensated,
                  1.0 - f.fidelity_uncompensated, compensation_name(f.compensation));
    out << line;
    std::snprintf(line, sizeof line, "leakage: %.4e\n", f.leakage);
    out << line;
  } else if (!config.target) {
    out << "fidelity: not computed (no target)\n";
  } else {
    out << "fidelity: not computed (initial_states is not the computational subspace)\n";
  }
  std::snprintf(line, sizeof line,
                "wall time: build %.3f s | evolve %.3f s | fidelity %.3f s | output %.3f s | "
                "total %.3f s\n",
                t_build, t_evolve, t_fid, t_out, since(t_start));
  out << line;
  if (!output.empty()) {
    out << "wrote " << output << "\n";
    if (energies_skipped && !io.quiet)
      io.err << "qevolve: warning: /energies not written: D = " << device.dim()
             << " is too large for a dense diagonalisation (limit " << kMaxDenseEnergies << ")\n";
  }
  return 0;
}

}  // namespace qevolve::commands
