// The Chebyshev scheme (scheme.hpp): trotter (midpoint) or magnus4 with splitting: chebyshev.
// Each gate step's exponential exp(-i 2 pi dt H_u) -- the same generator as splitting: dense --
// is applied to the evolved columns only, by its Chebyshev series to kChebyshevTolerance
// (chebyshev.hpp), so a step costs about (R + 15) products of the D x D generator with the
// D x m columns (R = pi dt (hi - lo), the spectral width the step spans) instead of a D x D
// eigen-decomposition. The spectral interval of every step is a rigorous (Weyl) bound: the sum
// over the static local terms and the drive channels of their own eigenvalue ranges, each
// channel's scaled by its coefficient. Closed systems only (the resolution stage refuses
// evolution.noise); its adjoint differentiates the series (chebyshev_adjoint).
#include <algorithm>

#include "chebyshev.hpp"
#include "observe_points.hpp"
#include "qevolve/linalg.hpp"
#include "scheme.hpp"
#include "time_grid.hpp"

namespace qevolve::solver {
namespace {

/// Smallest and largest eigenvalue of a (small) Hermitian matrix.
std::pair<double, double> eigen_range(const CMatrix& m) {
  RVector w;
  CMatrix V;
  linalg::hermitian_eigen(m, w, V);
  return {w.minCoeff(), w.maxCoeff()};
}

class ChebyshevScheme final : public Scheme {
 public:
  ChebyshevScheme(const Simulator& sim, SharedCache& shared) {
    const device::Device& dev = sim.device();
    h0_ = dev.dense_h0();
    for (const auto& t : dev.static_terms()) {
      const auto [lo, hi] = eigen_range(t.matrix);
      h0_lo_ += lo;
      h0_hi_ += hi;
    }
    for (const DriveChannel& ch : sim.channels()) {
      const CMatrix& O = *dev.modes()[static_cast<std::size_t>(ch.mode)].op(ch.op);
      ops_.push_back(dev.embed({{ch.mode}, O}));
      op_ranges_.push_back(eigen_range(O));
    }
    ++shared.dense_builds;
  }

  void set_steps(const Simulator& /*sim*/, const SharedCache& /*shared*/) override {}

  void evolve(const Simulator& sim, const SharedCache& /*shared*/, CMatrix& state, const Progress& progress,
              const StepObserver& observe) const override {
    const linalg::DenseBlasPhase dense_phase(state.rows());
    const TimeGrid grid = sim.time_grid();
    const auto coefficients = sim.substep_coefficients();
    const int per = grid.samples_per_step();
    ObservePoints points([&observe, per](int u, const CMatrix& s) { observe(u / per, s); },
                         observe ? scaled_points(sim.trace_steps(), per) : std::vector<int>());
    const double tau = kTwoPi * grid.substep_dt();
    std::vector<double> c;
    std::vector<CMatrix> work;
    if (points.due(0)) points.call(0, state);
    for (int u = 0; u < grid.substeps(); ++u) {
      coefficients(u, c);
      apply_chebyshev(series(tau, c), dense_hamiltonian(sim, c), state, work);
      if (progress) progress(static_cast<double>(u + 1) / grid.substeps());
      if (points.due(u + 1)) points.call(u + 1, state);
    }
  }

  void adjoint(const Simulator& sim, const SharedCache& /*shared*/, CMatrix& psi, CMatrix& lambda,
               const std::vector<HamiltonianTangent>& tangents, const SubstepCotangent& on_substep,
               std::vector<double>& tangent_sums) const override {
    const linalg::DenseBlasPhase dense_phase(psi.rows());
    const TimeGrid grid = sim.time_grid();
    const double tau = kTwoPi * grid.substep_dt();
    std::vector<CMatrix> work;
    DenseAdjointJob job{[this, &sim](const std::vector<double>& c) { return dense_hamiltonian(sim, c); },
                        {}, &ops_, sim.substep_coefficients(), grid.substeps(), grid.substep_dt()};
    job.step_back = [&](const std::vector<double>& c, const CMatrix& H, CMatrix& p, CMatrix& l) -> DenseContraction {
      CMatrix M = chebyshev_adjoint(series(tau, c), H, p, l, work);
      return [M = std::move(M)](const CMatrix& E) { return 2.0 * E.cwiseProduct(M.transpose()).sum().real(); };
    };
    adjoint_dense(job, sim.device(), sim.channels(), psi, lambda, tangents, on_substep, tangent_sums);
  }

  void evolve_density(const Simulator& /*sim*/, const SharedCache& /*shared*/, CMatrix& /*vecs*/,
                      const Progress& /*progress*/, const StepObserver& /*observe*/) const override {
    throw std::logic_error("splitting: chebyshev evolves closed systems only (the resolution stage refuses noise)");
  }

  CMatrix dense_hamiltonian(const Simulator& sim, const std::vector<double>& c) const override {
    CMatrix H = h0_;
    for (std::size_t j = 0; j < sim.channels().size(); ++j) {
      if (c[j] == 0.0) continue;
      H += c[j] * ops_[j];
    }
    return H;
  }

 private:
  /// The series of exp(-i tau H(c)) on the Weyl bound of H(c)'s spectrum.
  [[nodiscard]] ChebyshevSeries series(double tau, const std::vector<double>& c) const {
    double lo = h0_lo_, hi = h0_hi_;
    for (std::size_t j = 0; j < c.size(); ++j) {
      const double a = c[j] * op_ranges_[j].first, b = c[j] * op_ranges_[j].second;
      lo += std::min(a, b);
      hi += std::max(a, b);
    }
    const double margin = 1e-12 * std::max({std::abs(lo), std::abs(hi), 1.0});
    return chebyshev_exponential(tau, lo - margin, hi + margin);
  }

  CMatrix h0_;                                       // dense H0
  std::vector<CMatrix> ops_;                         // per channel operator, D x D
  double h0_lo_ = 0.0, h0_hi_ = 0.0;                 // Weyl bound of H0's spectrum
  std::vector<std::pair<double, double>> op_ranges_;  // per channel: eigenvalue range of O_j
};

}  // namespace

std::unique_ptr<Scheme> make_chebyshev_scheme(const Simulator& sim, SharedCache& shared) {
  return std::make_unique<ChebyshevScheme>(sim, shared);
}

}  // namespace qevolve::solver
