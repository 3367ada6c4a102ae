// The adaptive scheme (scheme.hpp): an embedded Runge-Kutta integrator on the local terms
// (adaptive.cpp), matrix-free; open systems integrate the Lindblad generator on the doubled
// register. No adjoint (the resolution stage refuses gradients with it).
#include "scheme.hpp"

namespace qevolve::solver {
namespace {

class AdaptiveScheme final : public Scheme {
 public:
  explicit AdaptiveScheme(const Simulator& sim) {
    const device::Device& dev = sim.device();
    static_terms_ = dev.static_terms();
    for (const DriveChannel& ch : sim.drive().channels()) {
      const CMatrix& O = *dev.modes()[static_cast<std::size_t>(ch.mode)].op(ch.op);
      drive_terms_.push_back({{ch.mode}, O});
    }
  }

  void set_steps(const Simulator& /*sim*/, const SharedCache& /*shared*/) override {}

  void evolve(const Simulator& sim, const SharedCache& /*shared*/, CMatrix& state,
              const Progress& progress, const StepObserver& observe) const override {
    AdaptiveJob job = closed_adaptive_job(sim.device(), static_terms_, drive_terms_);
    set_adaptive_run(job, sim);
    integrate_segments(sim, job, state, progress, observe);
  }

  void evolve_density(const Simulator& sim, const SharedCache& shared, CMatrix& vecs,
                      const Progress& progress, const StepObserver& observe) const override {
    // The Lindblad generator on the doubled register, matrix-free: every local term h as
    // -i 2 pi h on the row digits and +i 2 pi h^T on the column digits, every dissipator on its
    // (column, row) pair.
    const device::Device& dev = sim.device();
    const int N = dev.num_modes();
    AdaptiveJob job;
    job.dims = dev.dims();
    job.dims.insert(job.dims.end(), dev.dims().begin(), dev.dims().end());
    auto add = [&](const device::LocalTerm& t, int channel) {
      std::vector<int> row(t.modes);
      for (int& m : row) m += N;
      job.terms.push_back({row, t.matrix, cplx(0.0, -kTwoPi), channel});
      job.terms.push_back({t.modes, t.matrix.transpose(), cplx(0.0, kTwoPi), channel});
    };
    for (const auto& t : static_terms_) add(t, -1);
    for (std::size_t j = 0; j < drive_terms_.size(); ++j) add(drive_terms_[j], static_cast<int>(j));
    for (const auto& d : shared.dissipators) job.terms.push_back({{d.mode, d.mode + N}, d.generator, cplx(1.0, 0.0), -1});
    set_adaptive_run(job, sim);
    integrate_segments(sim, job, vecs, progress, observe);
  }

 private:
  /// Without an observer one integration over [0, T]; with one, the integration stops at
  /// every trace time s dt (a fresh step-size start there) and the observer sees the state.
  static void integrate_segments(const Simulator& sim, AdaptiveJob& job, CMatrix& y, const Progress& progress,
                                 const StepObserver& observe) {
    if (!observe) {
      integrate_adaptive(job, y, progress);
      return;
    }
    const double T = job.duration;
    double t0 = 0.0;
    for (int s : observed_steps(sim.options(), observe)) {
      const double t1 = s == sim.options().steps ? T : s * sim.options().dt();
      if (t1 > t0) {
        job.start = t0;
        job.duration = t1;
        integrate_adaptive(job, y, {});
        t0 = t1;
      }
      observe(s, y);
      if (progress) progress(t1 / T);
    }
    if (t0 < T) {
      job.start = t0;
      job.duration = T;
      integrate_adaptive(job, y, {});
    }
    if (progress) progress(1.0);
  }

  std::vector<device::LocalTerm> static_terms_;
  std::vector<device::LocalTerm> drive_terms_;  // channel operators
};

}  // namespace

std::unique_ptr<Scheme> make_adaptive_scheme(const Simulator& sim, SharedCache& /*shared*/) {
  return std::make_unique<AdaptiveScheme>(sim);
}

}  // namespace qevolve::solver
