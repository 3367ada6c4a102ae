#include "sweep_grid.hpp"

#include "config_input.hpp"
#include "qevolve/error.hpp"
#include "qevolve/hdf5_file.hpp"
#include "qevolve/linalg.hpp"
#include "qevolve/version.hpp"

namespace qevolve::commands {

SweepPlan plan_sweep(const io::ParsedConfig& parsed, const std::vector<io::Override>& sets,
                     const std::vector<std::string>& vary, comm::Communicator& comm, int threads) {
  // One thread per point: BLAS must not start its own, and the modes diagonalised while the
  // points are validated must be computed as `run --threads 1` computes them (bitwise).
  linalg::set_blas_threads(1);
  SweepPlan plan;
  for (const std::string& v : vary) plan.grid.axes.push_back(io::parse_vary(v));
  plan.grid.points = io::sweep_points(plan.grid.axes);
  // Every point validated before any evolution; this rank builds its contiguous share.
  plan.points = build_points(plan.grid, parsed, sets, comm, threads);
  // The first point gives the computational labels, the output file and the dims; the
  // `config` attribute is the text with the --set overrides.
  const SweepPoint first = build_point(plan.grid, parsed, sets, 0);
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
    mine.insert(mine.end(), {r.fidelity, r.fidelity_uncompensated, r.leakage});
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
  const char* names[kSweepFigures] = {"/sweep/fidelity", "/sweep/fidelity_uncompensated", "/sweep/leakage"};
  for (std::size_t k = 0; k < kSweepFigures; ++k) {
    std::vector<double> v(static_cast<std::size_t>(grid.points));
    for (std::int64_t p = 0; p < grid.points; ++p) v[static_cast<std::size_t>(p)] = g.at(p, k);
    w.write(names[k], v, shape);
  }
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
  write_config_attributes(w, plan.base);
  w.commit();
}


GridResult evaluate_sweep(const SweepPlan& plan, int threads, comm::Communicator& comm, SweepStats& stats,
                          const std::function<void(std::int64_t done)>& done) {
  const std::vector<PointResult> local = evaluate_points(plan.points, threads, stats, done);
  return gather(local, static_cast<std::int64_t>(plan.labels.size()), comm);
}

}  // namespace qevolve::commands
