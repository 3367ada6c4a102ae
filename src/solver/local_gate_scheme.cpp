// The local-gate scheme (scheme.hpp): trotter and magnus4 with splitting terms | bonds. Fused
// local gates (TrotterGates) applied by the backend executors; the closed adjoint steps back
// through the same gates (adjoint_trotter.cpp); open systems split each step into unitary gate
// sets and dissipator exponentials (lindblad.hpp) with a checkpointed adjoint.
#include <limits>

#include "block_evolution.hpp"
#include "scheme.hpp"
#include "time_grid.hpp"

namespace qevolve::solver {
namespace {

class LocalGateScheme final : public Scheme {
 public:
  void set_steps(const Simulator& sim, const SharedCache& shared) override {
    const Options& o = sim.options();
    gates_ = make_gates(sim, shared, o.order, sim.drive().time_grid().substep_dt());
    ++shared.static_builds;
    if (!o.open) return;
    std::vector<double> fracs;
    std::vector<int> orders;
    open_stages_ = open_step_stages(o.order, fracs, orders);
    open_gates_.clear();
    for (std::size_t u = 0; u < fracs.size(); ++u)
      open_gates_.push_back(make_gates(sim, shared, orders[u], sim.options().dt() * fracs[u]));
  }

  void evolve(const Simulator& sim, const SharedCache& /*shared*/, CMatrix& state,
              const Progress& progress, const StepObserver& observe) const override {
    const Options& o = sim.options();
    const TimeGrid grid = sim.drive().time_grid();
    BlockEvolution job{&sim.device(), &gates_, sim.drive().substep_coefficients(), grid.substeps(),
                       grid.substep_dt(), o.threads, 0, o.device};
    if (observe) {
      const int per = grid.samples_per_step();
      job.observe_at = scaled_points(observed_steps(sim.options(), observe), per);
      job.observer = [&observe, per](int u, const CMatrix& s) { observe(u / per, s); };
      if (observe.exact) job.breaks = scaled_points(*observe.exact, per);
      if (observe.block)
        job.block_observer = [&observe, per](int u, Index c0, Index w, const double* re, const double* im) {
          observe.block(u / per, c0, w, re, im);
        };
      if (observe.block_single)
        job.block_observer_single = [&observe, per](int u, Index c0, Index w, const float* re, const float* im) {
          observe.block_single(u / per, c0, w, re, im);
        };
    }
    if (o.precision == Precision::single)
      evolve_blocks<float>(job, state, progress);
    else
      evolve_blocks<double>(job, state, progress);
  }

  double single_precision_deviation(const Simulator& sim, const SharedCache& /*shared*/, const CMatrix& psi0,
                                    const CMatrix& single) const override {
    const Options& o = sim.options();
    const Index n = psi0.cols();
    if (o.precision != Precision::single || n == 0) return std::numeric_limits<double>::quiet_NaN();
    // The first column block again in double precision, to report what single costs.
    const Index w = std::min<Index>(n, choose_block_width(sim.device().dim(), n, o.threads));
    CMatrix first = psi0.leftCols(w);
    const TimeGrid grid = sim.drive().time_grid();
    BlockEvolution job{&sim.device(), &gates_, sim.drive().substep_coefficients(), grid.substeps(),
                       grid.substep_dt(), o.threads, w};
    evolve_blocks<double>(job, first, {});
    return (first - single.leftCols(w)).cwiseAbs().maxCoeff();
  }

  void adjoint(const Simulator& sim, const SharedCache& shared, CMatrix& psi, CMatrix& lambda,
               const std::vector<HamiltonianTangent>& tangents, const SubstepCotangent& on_substep,
               std::vector<double>& tangent_sums) const override {
    const TimeGrid grid = sim.drive().time_grid();
    BlockEvolution job{&sim.device(), &gates_, sim.drive().substep_coefficients(), grid.substeps(),
                       grid.substep_dt(), sim.options().threads, 0, sim.options().device};
    adjoint_blocks(job, shared.terms, psi, lambda, tangents, on_substep, tangent_sums);
  }

  void evolve_density(const Simulator& sim, const SharedCache& shared, CMatrix& vecs,
                      const Progress& progress, const StepObserver& observe) const override {
    DensityEvolution job;
    fill_density_job(sim, shared, job);
    if (observe) {
      job.observe_at = observed_steps(sim.options(), observe);
      job.observer = observe;
      job.block_observer = observe.density_block;
    }
    solver::evolve_density(job, vecs, progress);
  }

  void adjoint_density(const Simulator& sim, const SharedCache& shared, const CMatrix& vecs0, CMatrix& lambda,
                       const std::vector<HamiltonianTangent>& tangents, const std::vector<DissipatorTangent>& noise,
                       const SubstepCotangent& on_step, std::vector<double>& tangent_sums,
                       std::vector<double>& noise_sums, int K) const override {
    DensityEvolution job;
    fill_density_job(sim, shared, job);
    solver::adjoint_density(job, shared.terms, vecs0, lambda, tangents, noise, on_step, tangent_sums, noise_sums, K);
  }

  int gates_per_step(const Simulator& sim) const override {
    // Gates applied per step: with bonds the last layer of a gate step is multiplied into the
    // first layer of the next one.
    return sim.drive().time_grid().samples_per_step() * (gates_.num_gates() - gates_.boundary_gates());
  }

  double flops_per_column_step(const Simulator& sim) const override {
    double flops = 0.0;
    for (int k = 0; k < gates_.num_gates() - gates_.boundary_gates(); ++k)
      flops += 8.0 * static_cast<double>(sim.device().dim()) * gates_.work(k);
    return sim.drive().time_grid().samples_per_step() * flops;
  }

 private:
  static TrotterGates make_gates(const Simulator& sim, const SharedCache& shared, int order, double dt) {
    return sim.options().splitting == Splitting::bonds
               ? TrotterGates(shared.bonds, shared.drives, order, dt)
               : TrotterGates(sim.device(), shared.terms, shared.drives, order, dt);
  }

  void fill_density_job(const Simulator& sim, const SharedCache& shared, DensityEvolution& job) const {
    job.device = &sim.device();
    job.unitary.clear();
    for (const auto& g : open_gates_) job.unitary.push_back(&g);
    job.stages = open_stages_;
    job.dissipators = &shared.dissipators;
    job.coefficients = sim.drive().substep_coefficients();
    job.steps = sim.options().steps;
    job.dt = sim.options().dt();
    job.threads = sim.options().threads;
    job.compute_device = sim.options().device;
  }

  TrotterGates gates_;
  std::vector<OpenStage> open_stages_;     // open systems: the split step
  std::vector<TrotterGates> open_gates_;   // its unitary gate sets
};

}  // namespace

std::unique_ptr<Scheme> make_local_gate_scheme(const Simulator& /*sim*/, SharedCache& /*shared*/) {
  return std::make_unique<LocalGateScheme>();
}

}  // namespace qevolve::solver
