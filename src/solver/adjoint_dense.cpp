// Adjoint pass of the dense path (`expm`, `magnus4` with splitting: dense): each gate step is
// U_s = exp(-i 2 pi dt H_s), computed
// through the eigen-decomposition H = W diag(w) W^dag exactly as the forward pass does. In
// that eigenbasis the inverse step is a phase, and the derivative of U_s in any direction dH
// is W (G o (W^dag dH W)) W^dag with G the divided differences of exp(-i 2 pi dt x)
// (Daleckii-Krein), so Tr(dU E) = sum_{k,l} G_kl (W^dag dH W)_kl B_lk with B = W^dag E W. The
// host decomposes and contracts; the backend's dense adjoint executor steps psi and lambda back
// and forms B.
#include <cmath>
#include <vector>

#include "adjoint.hpp"
#include "device_select.hpp"
#include "qevolve/linalg.hpp"

namespace qevolve::solver {

void adjoint_dense(const DenseAdjointJob& job, const device::Device& device,
                   const std::vector<DriveChannel>& channels, CMatrix& psi, CMatrix& lambda,
                   const std::vector<HamiltonianTangent>& tangents, const SubstepCotangent& on_step,
                   std::vector<double>& tangent_sums) {
  const linalg::DenseBlasPhase dense_phase(psi.rows());
  const double scale = kTwoPi * job.dt;
  // Dense tangents: dH0 (static part) and dO_j embedded, per tangent.
  std::vector<CMatrix> dH0(tangents.size());
  std::vector<std::vector<CMatrix>> dO(tangents.size());
  const auto static_terms = device.static_terms();
  for (std::size_t t = 0; t < tangents.size(); ++t) {
    for (std::size_t i = 0; i < tangents[t].static_terms.size(); ++i) {
      const CMatrix& m = tangents[t].static_terms[i];
      if (m.size() == 0) continue;
      if (dH0[t].size() == 0) dH0[t] = CMatrix::Zero(device.dim(), device.dim());
      device.add_embedded({static_terms[i].modes, m}, dH0[t]);
    }
    dO[t].resize(channels.size());
    for (std::size_t j = 0; j < channels.size() && j < tangents[t].channels.size(); ++j)
      if (tangents[t].channels[j].size() != 0)
        dO[t][j] = device.embed({{channels[j].mode}, tangents[t].channels[j]});
  }

  std::vector<double> c, dc(channels.size());
  const auto executor = make_dense_adjoint_executor(job.compute_device);
  executor->upload(psi, lambda);
  for (int s = job.steps - 1; s >= 0; --s) {
    job.coefficients(s, c);
    RVector w;
    CMatrix W;
    linalg::hermitian_eigen_rephased(job.hamiltonian(c), w, W);  // as the forward dense step
    linalg::refine_unitary(W);  // as linalg::apply_expm_hermitian_rephased does in the forward pass
    CVector back(w.size());    // conj(exp(-i scale w)): the inverse step in the eigenbasis
    for (Index k = 0; k < w.size(); ++k) back(k) = std::polar(1.0, scale * w(k));
    // psi <- psi_s, lambda <- lambda_s; B = W^dag (psi_s lambda_{s+1}^dag) W
    const CMatrix B = executor->step_back(W, back);
    const CMatrix G = linalg::exp_divided_differences(w, scale);
    const CMatrix GB = G.cwiseProduct(B.transpose());  // sum_kl G_kl M_kl B_lk = sum(M o GB)
    auto contract = [&](const CMatrix& dH) {
      return 2.0 * (W.adjoint() * dH * W).cwiseProduct(GB).sum().real();
    };
    for (std::size_t j = 0; j < channels.size(); ++j) dc[j] = contract((*job.channel_ops)[j]);
    for (std::size_t t = 0; t < tangents.size(); ++t) {
      CMatrix dH = dH0[t].size() != 0 ? dH0[t] : CMatrix::Zero(device.dim(), device.dim());
      bool any = dH0[t].size() != 0;
      for (std::size_t j = 0; j < channels.size(); ++j)
        if (dO[t][j].size() != 0 && c[j] != 0.0) {
          dH += c[j] * dO[t][j];
          any = true;
        }
      if (any) tangent_sums[t] += contract(dH);
    }
    if (on_step) on_step(s, dc);
  }
  executor->download(psi, lambda);
}

}  // namespace qevolve::solver
