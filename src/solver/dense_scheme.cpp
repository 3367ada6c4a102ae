// The dense scheme (scheme.hpp): expm, and trotter / magnus4 with splitting: dense. One D x D
// exponential exp(-i 2 pi dt H) per gate step on the backend's dense executor; its adjoint steps
// back with the same eigen-decompositions (adjoint_dense.cpp); open systems exponentiate the
// dense Liouvillian (small D only, checked by the resolution stage) and step the vectorised
// density matrices on the backend's propagator executor.
#include "device_select.hpp"
#include "observe_points.hpp"
#include "qevolve/linalg.hpp"
#include "scheme.hpp"
#include "time_grid.hpp"

namespace qevolve::solver {
namespace {

class DenseScheme final : public Scheme {
 public:
  DenseScheme(const Simulator& sim, SharedCache& shared) {
    const device::Device& dev = sim.device();
    h0_ = dev.dense_h0();
    for (const DriveChannel& ch : sim.drive().channels()) {
      const CMatrix& O = *dev.modes()[static_cast<std::size_t>(ch.mode)].op(ch.op);
      ops_.push_back(dev.embed({{ch.mode}, O}));
    }
    ++shared.dense_builds;
    if (sim.options().open) set_dissipators(sim, shared);
  }

  void set_steps(const Simulator& /*sim*/, const SharedCache& /*shared*/) override {}

  void set_dissipators(const Simulator& sim, const SharedCache& shared) override {
    dissipator_ = dense_dissipator(sim.device(), shared.dissipators);
  }

  void evolve(const Simulator& sim, const SharedCache& /*shared*/, CMatrix& state,
              const Progress& progress, const StepObserver& observe) const override {
    const linalg::DenseBlasPhase dense_phase(state.rows());
    const TimeGrid grid = sim.drive().time_grid();
    const auto coefficients = sim.drive().substep_coefficients();
    const int per = grid.samples_per_step();
    ObservePoints points([&observe, per](int u, const CMatrix& s) { observe(u / per, s); },
                         observe ? scaled_points(observed_steps(sim.options(), observe), per) : std::vector<int>());
    std::vector<double> c;
    const auto executor = make_dense_executor(sim.options().device, state.rows(), state.cols());
    if (points.due(0)) points.call(0, state);
    executor->upload(state);
    for (int u = 0; u < grid.substeps(); ++u) {
      coefficients(u, c);
      executor->apply_exponential(dense_hamiltonian(sim, c), kTwoPi * grid.substep_dt());
      if (progress) progress(static_cast<double>(u + 1) / grid.substeps());
      if (u + 1 < grid.substeps() && points.due(u + 1)) {
        executor->download(state);
        points.call(u + 1, state);
        executor->upload(state);
      }
    }
    executor->download(state);
    if (points.due(grid.substeps())) points.call(grid.substeps(), state);
  }

  void adjoint(const Simulator& sim, const SharedCache& /*shared*/, CMatrix& psi, CMatrix& lambda,
               const std::vector<HamiltonianTangent>& tangents, const SubstepCotangent& on_substep,
               std::vector<double>& tangent_sums) const override {
    const TimeGrid grid = sim.drive().time_grid();
    DenseAdjointJob job{[this, &sim](const std::vector<double>& c) { return dense_hamiltonian(sim, c); },
                        &ops_, sim.drive().substep_coefficients(), grid.substeps(), grid.substep_dt(),
                        sim.options().device};
    adjoint_dense(job, sim.device(), sim.drive().channels(), psi, lambda, tangents, on_substep, tangent_sums);
  }

  void evolve_density(const Simulator& sim, const SharedCache& /*shared*/, CMatrix& vecs,
                      const Progress& progress, const StepObserver& observe) const override {
    const linalg::DenseBlasPhase dense_phase(sim.device().dim() * sim.device().dim());
    const auto coefficients = sim.drive().substep_coefficients();
    const int steps = sim.options().steps;
    ObservePoints points(observe, observe ? observed_steps(sim.options(), observe) : std::vector<int>());
    std::vector<double> c;
    const auto executor = make_propagator_executor(sim.options().device);
    if (points.due(0)) points.call(0, vecs);
    executor->upload(vecs);
    for (int s = 0; s < steps; ++s) {
      coefficients(s, c);
      const CMatrix L = dense_liouvillian(dense_hamiltonian(sim, c), dissipator_);
      executor->apply(linalg::expm(L * sim.options().dt()));
      if (progress) progress(static_cast<double>(s + 1) / steps);
      if (points.due(s + 1)) {
        executor->download(vecs);
        points.call(s + 1, vecs);
        executor->upload(vecs);
      }
    }
    executor->download(vecs);
  }

  CMatrix dense_hamiltonian(const Simulator& sim, const std::vector<double>& c) const override {
    CMatrix H = h0_;
    for (std::size_t j = 0; j < sim.drive().channels().size(); ++j) {
      if (c[j] == 0.0) continue;
      H += c[j] * ops_[j];
    }
    return H;
  }

 private:
  CMatrix h0_;                 // dense H0
  std::vector<CMatrix> ops_;   // per channel operator, D x D (c_j carries the factor)
  CMatrix dissipator_;         // open systems: the embedded dissipators
};

}  // namespace

std::unique_ptr<Scheme> make_dense_scheme(const Simulator& sim, SharedCache& shared) {
  return std::make_unique<DenseScheme>(sim, shared);
}

}  // namespace qevolve::solver
