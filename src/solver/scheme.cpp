// The scheme factory (the row of the schemes' table) and the defaults of Scheme.
#include "scheme.hpp"

#include <limits>
#include <stdexcept>

#include "qevolve/scheme_traits.hpp"
#include "time_grid.hpp"

namespace qevolve::solver {

std::unique_ptr<Scheme> make_scheme(const Simulator& sim, SharedCache& shared) {
  const Options& o = sim.options();
  return scheme_traits(o.solver, o.splitting).make(sim, shared);
}

double Scheme::single_precision_deviation(const Simulator& /*sim*/, const SharedCache& /*shared*/,
                                          const CMatrix& /*psi0*/, const CMatrix& /*single*/) const {
  return std::numeric_limits<double>::quiet_NaN();
}

void Scheme::adjoint(const Simulator& /*sim*/, const SharedCache& /*shared*/, CMatrix& /*psi*/,
                     CMatrix& /*lambda*/, const std::vector<HamiltonianTangent>& /*tangents*/,
                     const SubstepCotangent& /*on_substep*/, std::vector<double>& /*tangent_sums*/) const {
  throw std::logic_error("Simulator::adjoint: the adaptive solver has no adjoint");
}

void Scheme::adjoint_density(const Simulator& /*sim*/, const SharedCache& /*shared*/, const CMatrix& /*vecs0*/,
                             CMatrix& /*lambda*/, const std::vector<HamiltonianTangent>& /*tangents*/,
                             const std::vector<DissipatorTangent>& /*noise*/, const SubstepCotangent& /*on_step*/,
                             std::vector<double>& /*tangent_sums*/, std::vector<double>& /*noise_sums*/,
                             int /*K*/) const {
  throw std::logic_error("Simulator::adjoint_density: open systems with solver trotter only");
}

CMatrix Scheme::dense_hamiltonian(const Simulator& sim, const std::vector<double>& c) const {
  const device::Device& dev = sim.device();
  CMatrix H = dev.dense_h0();
  for (std::size_t j = 0; j < sim.drive().channels().size(); ++j) {
    if (c[j] == 0.0) continue;
    const DriveChannel& ch = sim.drive().channels()[j];
    const CMatrix& O = *dev.modes()[static_cast<std::size_t>(ch.mode)].op(ch.op);
    H += c[j] * dev.embed({{ch.mode}, O});
  }
  return H;
}

void set_adaptive_run(AdaptiveJob& job, const Simulator& sim) {
  job.coefficients = [&sim](double t, std::vector<double>& c) { sim.drive().drive_coefficients(t, c); };
  job.duration = sim.options().duration;
  job.rtol = sim.options().rtol;
  job.atol = sim.options().atol;
  job.threads = sim.options().threads;
  job.compute_device = sim.options().device;
}

}  // namespace qevolve::solver
