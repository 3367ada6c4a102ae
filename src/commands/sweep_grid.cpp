#include "sweep_grid.hpp"
#include "line_warnings.hpp"
#include "summary_notes.hpp"
#include "truncation_notes.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "config_input.hpp"
#include "qevolve/ensemble.hpp"
#include "qevolve/names.hpp"
#include "qevolve/plan.hpp"
#include "qevolve/error.hpp"
#include "qevolve/hdf5_file.hpp"
#include "qevolve/linalg.hpp"
#include "qevolve/memory_estimate.hpp"
#include "qevolve/plausibility.hpp"
#include "qevolve/version.hpp"

namespace qevolve::commands {

SweepPlan plan_sweep(const io::ParsedConfig& parsed, const std::vector<io::Override>& sets,
                     const std::vector<std::string>& vary, comm::Communicator& comm, int threads,
                     const SweepChecks& checks) {
  // One thread per point: BLAS must not start its own, and the modes diagonalised while the
  // points are validated must be computed as `run --threads 1` computes them (bitwise).
  linalg::set_blas_threads(1);
  SweepPlan plan;
  SweepGrid& grid = plan.grid;
  for (const std::string& v : vary) grid.axes.push_back(io::parse_vary(v));
  grid.points = io::sweep_points(grid.axes);
  // The same size on every rank (the largest share), so that all refuse alike.
  const io::SweepSize size{static_cast<double>(grid.points),
                           std::ceil(static_cast<double>(grid.points) / static_cast<double>(comm.size())),
                           static_cast<double>(threads), ""};
  // Before any work: the grid's memory at its first point, and the output paths. An invalid
  // first point is reported by build_points, as any other.
  std::optional<SweepPoint> head;
  try {
    head = build_point(grid, parsed, sets, 0);
  } catch (const InputError&) {
  }
  if (head) {
    (void)io::check_sweep_memory(head->config, head->resolved, size, checks.max_memory);
    if (checks.outputs) checks.outputs(head->config);
  }
  // Every point validated before any evolution; this rank builds its contiguous share.
  plan.points = build_points(grid, parsed, sets, comm, threads);
  plan.implausible = first_implausible_point(plan.points, grid, comm);
  // An axis may make a later point larger (levels, solver): the largest, before any evaluation.
  if (const std::int64_t largest = largest_point(plan.points, grid, comm); largest != 0) {
    const SweepPoint p = build_point(grid, parsed, sets, largest);  // with its locations
    io::SweepSize at = size;
    at.point = p.label;
    (void)io::check_sweep_memory(p.config, p.resolved, at, checks.max_memory);
  }
  // The first point gives the computational labels (d is the same at every point), the output
  // file and the dims; the `config` attribute is the text with the --set overrides.
  const SweepPoint first = head ? std::move(*head) : build_point(grid, parsed, sets, 0);
  const device::Device built = device::build_device(first.resolved);  // memoised
  for (Index i : built.computational_indices()) plan.labels.push_back(built.label(i));
  plan.first = first.resolved;
  plan.base = first.config;
  plan.base.yaml_text = parsed.text_with(sets);
  plan.base.overrides.resize(sets.size());
  return plan;
}

namespace {

GridResult gather(const std::vector<PointResult>& local, std::int64_t d, comm::Communicator& comm) {
  GridResult g;
  g.d = d;
  std::vector<double> mine;
  mine.reserve(local.size() * g.width());
  for (const PointResult& r : local) {
    if (r.populations.size() != static_cast<std::size_t>(d * d))
      throw Error("sweep: the computational dimension changes across the grid (a swept key changes the qubits)");
    mine.insert(mine.end(), {r.fidelity, r.fidelity_uncompensated, r.leakage, r.conditional_phase});
    mine.insert(mine.end(), r.populations.begin(), r.populations.end());
  }
  g.records = comm.size() == 1 ? std::move(mine) : comm.gather(mine, 0);
  return g;
}

}  // namespace

void write_sweep(const std::string& path, const SweepPlan& plan, const GridResult& g, double wall) {
  const SweepGrid& grid = plan.grid;
  io::Hdf5Writer w(path);
  std::vector<long long> shape;
  for (const auto& a : grid.axes) shape.push_back(static_cast<long long>(a.texts.size()));
  const char* names[kSweepFigures] = {"/sweep/fidelity", "/sweep/fidelity_uncompensated", "/sweep/leakage",
                                      "/sweep/conditional_phase"};
  for (std::size_t k = 0; k < kSweepFigures; ++k) {
    std::vector<double> v(static_cast<std::size_t>(grid.points));
    for (std::int64_t p = 0; p < grid.points; ++p) v[static_cast<std::size_t>(p)] = g.at(p, k);
    // The conditional phase only where some point has one (a CZ / CPHASE target on two qubits).
    if (k == 3 && std::none_of(v.begin(), v.end(), [](double x) { return std::isfinite(x); })) continue;
    w.write(names[k], v, shape);
  }
  if (plan.base.ensemble)  // each point's figures are the ensemble's objective (docs/ensembles.md "Sweeps")
    w.attribute("ensemble_objective", std::string(enum_name(plan.base.ensemble->objective)), "/sweep/fidelity");
  std::vector<double> pops;
  pops.reserve(static_cast<std::size_t>(grid.points * g.d * g.d));
  for (std::int64_t p = 0; p < grid.points; ++p)
    for (std::int64_t k = 0; k < g.d * g.d; ++k) pops.push_back(g.at(p, kSweepFigures + static_cast<std::size_t>(k)));
  std::vector<long long> pshape = shape;
  pshape.push_back(g.d);
  pshape.push_back(g.d);
  w.write("/sweep/populations", pops, pshape);
  w.write("/sweep/labels", plan.labels);
  std::vector<std::string> varies;
  for (std::size_t k = 0; k < grid.axes.size(); ++k) {
    const io::SweepAxis& a = grid.axes[k];
    const std::string ds = "/sweep/axes/" + std::to_string(k);
    if (a.values.empty())
      w.write(ds, a.texts);
    else
      w.write(ds, a.values);
    w.attribute("key", a.key, ds);
    varies.push_back("--vary " + a.argument);
  }
  w.attribute("vary", varies, "/sweep");
  write_mode_attributes(w, plan.first.modes);
  w.attribute("points", static_cast<long long>(grid.points));
  w.attribute("wall_time_s", wall);
  w.attribute("qevolve_version", std::string(kVersion));
  w.attribute("command", std::string("sweep"));
  write_config_attributes(w, plan.base);
  w.commit();
}


std::vector<std::string> sweep_plausibility(const SweepPlan& plan, const io::ParsedConfig& parsed,
                                            const std::vector<io::Override>& sets) {
  std::vector<std::string> out;
  if (plan.implausible < 0) return out;
  const SweepPoint point = build_point(plan.grid, parsed, sets, plan.implausible);  // with its locations
  for (const std::string& w : io::plausibility_warnings(point.config, point.resolved.modes))
    out.push_back(w + " (at the sweep's point " + point.label + ")");
  return out;
}

std::vector<std::string> sweep_warnings(const SweepPlan& plan, const SweepStats& stats, const io::ParsedConfig& parsed,
                                        const std::vector<io::Override>& sets, comm::Communicator& comm) {
  std::vector<std::string> out;
  const std::int64_t worst = worst_step_point(stats, plan.grid, comm);
  if (worst >= 0) {
    const SweepPoint point = build_point(plan.grid, parsed, sets, worst);
    const device::Device device = device::build_device(point.resolved);
    const solver::Simulator sim(io::evolution_plan(point.config, device), 1);
    out.push_back(step_size_warning(sim, "at the sweep's point " + point.label));
  }
  if (const std::int64_t at = worst_step_error_point(stats, plan.grid, comm); at >= 0)
    out.push_back("the time steps move F by more than max(tolerance, 0.1 (1 - F)) at the sweep's point " +
                  build_point(plan.grid, parsed, sets, at).label +
                  ": its F is not converged in steps; `qevolve run` with that point's values prints the estimate; "
                  "use `evolution.steps: auto` or more steps (docs/accuracy.md)");
  std::vector<double> top;
  if (const std::int64_t at = worst_truncation_point(stats, plan.grid, comm, top); at >= 0) {
    const SweepPoint point = build_point(plan.grid, parsed, sets, at);
    for (std::string& w : truncation_warnings(device::build_device(point.resolved), top,
                                              "at the sweep's point " + point.label))
      out.push_back(std::move(w));
  }
  if (const std::int64_t at = worst_tail_point(stats, plan.grid, comm); at >= 0) {
    const SweepPoint point = build_point(plan.grid, parsed, sets, at);
    const solver::Simulator sim(io::evolution_plan(point.config, device::build_device(point.resolved)), 1);
    for (std::string& w : line_tail_warnings(sim, "at the sweep's point " + point.label)) out.push_back(std::move(w));
  }
  if (plan.base.where.count("output.trace") != 0)
    out.emplace_back("sweep records no output.trace (/sweep/* holds each point's final figures); "
                     "`qevolve run` with one point's values as --set records its trace");
  return out;
}

GridResult evaluate_sweep(const SweepPlan& plan, int threads, comm::Communicator& comm, SweepStats& stats,
                          const std::function<void(std::int64_t done)>& done) {
  const std::vector<PointResult> local = evaluate_points(plan.points, threads, stats, done);
  return gather(local, static_cast<std::int64_t>(plan.labels.size()), comm);
}

}  // namespace qevolve::commands
