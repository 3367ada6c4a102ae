// The adjoint pass of a scheme whose dense-generator step takes itself back
// (StepsAdjointJob::step_back: splitting: chebyshev) and the dense directions it contracts with
// (docs/gradients.md "Method"). adjoint_dense.cpp embeds the same directions itself: routing it
// through dense_tangents() changed GCC's code for its step loop and moved the expm gradient by
// 2e-15 relative, and the dense path's results are kept bitwise as they were.
#include <vector>

#include "adjoint.hpp"

namespace qevolve::solver {

DenseTangents dense_tangents(const device::Device& device, const std::vector<DriveChannel>& channels,
                             const std::vector<HamiltonianTangent>& tangents) {
  DenseTangents out;
  out.dim = device.dim();
  out.dH0.resize(tangents.size());
  out.dO.resize(tangents.size());
  const auto static_terms = device.static_terms();
  for (std::size_t t = 0; t < tangents.size(); ++t) {
    for (std::size_t i = 0; i < tangents[t].static_terms.size(); ++i) {
      const CMatrix& m = tangents[t].static_terms[i];
      if (m.size() == 0) continue;
      if (out.dH0[t].size() == 0) out.dH0[t] = CMatrix::Zero(device.dim(), device.dim());
      device.add_embedded({static_terms[i].modes, m}, out.dH0[t]);
    }
    out.dO[t].resize(channels.size());
    for (std::size_t j = 0; j < channels.size() && j < tangents[t].channels.size(); ++j)
      if (tangents[t].channels[j].size() != 0)
        out.dO[t][j] = device.embed({{channels[j].mode}, tangents[t].channels[j]});
  }
  return out;
}

CMatrix DenseTangents::direction(std::size_t t, const std::vector<double>& c) const {
  CMatrix dH = dH0[t].size() != 0 ? dH0[t] : CMatrix::Zero(dim, dim);
  bool any = dH0[t].size() != 0;
  for (std::size_t j = 0; j < dO[t].size(); ++j)
    if (dO[t][j].size() != 0 && c[j] != 0.0) {
      dH += c[j] * dO[t][j];
      any = true;
    }
  return any ? dH : CMatrix();
}

void adjoint_steps(const StepsAdjointJob& job, const device::Device& device,
                   const std::vector<DriveChannel>& channels, CMatrix& psi, CMatrix& lambda,
                   const std::vector<HamiltonianTangent>& tangents, const SubstepCotangent& on_step,
                   std::vector<double>& tangent_sums) {
  const DenseTangents directions = dense_tangents(device, channels, tangents);
  std::vector<double> c, dc(channels.size());
  for (int s = job.steps - 1; s >= 0; --s) {
    job.coefficients(s, c);
    const DenseContraction contract = job.step_back(c, psi, lambda);
    for (std::size_t j = 0; j < channels.size(); ++j) dc[j] = contract((*job.channel_ops)[j]);
    for (std::size_t t = 0; t < tangents.size(); ++t)
      if (const CMatrix dH = directions.direction(t, c); dH.size() != 0) tangent_sums[t] += contract(dH);
    if (on_step) on_step(s, dc);
  }
}

}  // namespace qevolve::solver
