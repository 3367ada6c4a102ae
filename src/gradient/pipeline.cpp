// The one evaluation pipeline of `run` and GradientProblem (docs/architecture.md "Call order"):
// forward on this rank's shard -> gather on rank 0 -> objective and cotangent (fidelity layer)
// -> optionally the adjoint pass. The gradient is an addition to this path, not a second one.
#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "qevolve/gradient.hpp"
#include "qevolve/simulator.hpp"
#include "qevolve/truncation.hpp"

namespace qevolve::gradient {
namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

}  // namespace

Evaluation evaluate(const solver::Simulator& sim, const std::optional<fidelity::ObjectiveSpec>& objective,
                    comm::Communicator& comm, comm::Communicator& reduce, const PipelineHooks& hooks,
                    const GradientPass& gradient) {
  auto t0 = Clock::now();
  Evaluation ev;
  Forward fw;
  const bool open = sim.options().open;
  const auto n = static_cast<Index>(sim.states().initial_indices().size());
  // output.trace: recorded by the forward pass's observer on this rank's shard.
  std::optional<solver::TraceRecorder> recorder;
  solver::StepObserver observe;
  std::optional<solver::TruncationMonitor> monitor;  // the truncation check, on the same observer
  // Forward on this rank's initial states (closed) or inputs |i><j| (open), then the gather.
  if (open) {
    fw.shard = comm.shard(n * n);
    if (hooks.trace) observe = recorder.emplace(sim, fw.shard).observer();
    if (hooks.truncation) observe = solver::combine_observers(sim, observe, monitor.emplace(sim, fw.shard).observer());
    {
      CMatrix x0 = sim.states().initial_density(fw.shard);
      fw.local = sim.states().channel_from(sim.evolve_density(x0, hooks.progress, observe));
      if (gradient) fw.initial = std::move(x0);
    }
    ev.superoperator = comm.gather_columns(fw.local, n * n, 0);
  } else {
    fw.shard = comm.shard(n);
    if (hooks.trace) observe = recorder.emplace(sim, fw.shard).observer();
    if (hooks.truncation) observe = solver::combine_observers(sim, observe, monitor.emplace(sim, fw.shard).observer());
    if (gradient) {
      // The adjoint starts from psi_N in the product basis and lab frame: keep it, and apply
      // the output map here (Simulator::evolve is this, plus the single-precision check that
      // a gradient, always in double precision, does not need).
      fw.product = sim.evolve_product(sim.states().initial_columns(fw.shard), hooks.progress, observe);
      fw.local = sim.states().to_output(fw.product);
    } else {
      solver::EvolveResult evolved = sim.evolve(fw.shard, hooks.progress, observe);
      ev.single_precision_deviation = evolved.single_precision_deviation;
      fw.local = std::move(evolved.columns);
    }
    if (hooks.check_columns) hooks.check_columns(fw.local);
    ev.columns = comm.gather_columns(fw.local, sim.device().dim(), 0);
  }
  if (recorder) ev.trace = recorder->finish(comm);
  if (monitor) ev.top_level_population = monitor->finish(comm);
  ev.evolve_s = since(t0);
  if (!objective) return ev;

  t0 = Clock::now();
  const fidelity::FinalColumns columns{&fw.local, open ? &ev.superoperator : &ev.columns, fw.shard, open};
  fidelity::ObjectiveEvaluation value = fidelity::evaluate_with_cotangent(columns, *objective, reduce);
  ev.unitary = std::move(value.unitary);
  ev.fidelity = std::move(value.fidelity);
  ev.infidelity = 1.0 - ev.fidelity->fidelity;
  ev.objective = ev.infidelity + objective->leakage_weight * ev.fidelity->leakage;
  ev.fidelity_s = since(t0);
  if (!gradient) return ev;

  t0 = Clock::now();
  ev.gradient = gradient(fw, value);
  ev.gradient_s = since(t0);
  return ev;
}

}  // namespace qevolve::gradient
