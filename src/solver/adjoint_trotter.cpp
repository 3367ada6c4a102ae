// Adjoint pass of the Trotter path. Chunk-major like the forward pass (block_evolution.cpp):
// for each chunk of steps, walked backwards, the gate matrices are recomputed once and every
// column block is stepped back through the chunk by one thread with the fused sequence
//   psi <- g^dag psi,  env += psi lambda^dag (gate-local),  lambda <- g^dag lambda
// per gate, in one sweep over both blocks (backend::adjoint_gate); the environment only of gates
// with something to contract. The per-(step, gate) environments of all blocks are then added
// and contracted with the gate's parameter derivatives (tiny g x g matrices): d/dc_j for each
// drive segment and, for device tangents, the Frechet derivatives of the static and drive
// factors.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "adjoint.hpp"
#include "bond_list.hpp"
#include "split_gate.hpp"
#include "qevolve/backend/local_gate.hpp"
#include "qevolve/linalg.hpp"

namespace qevolve::solver {
namespace {

using Gate = TrotterGates::Gate;
using Segment = TrotterGates::Segment;

/// Partial trace of a g x g gate-space matrix onto the mode at `position` (d x d):
/// Tr((f (x) I) X) = Tr(f reduce(X, 0)), Tr((I (x) f) X) = Tr(f reduce(X, 1)).
CMatrix reduce_to_mode(const CMatrix& X, int position, int d0, int d1) {
  if (d1 == 1) return X;
  if (position == 0) {
    CMatrix r = CMatrix::Zero(d0, d0);
    for (int x = 0; x < d0; ++x)
      for (int a = 0; a < d0; ++a)
        for (int b = 0; b < d1; ++b) r(x, a) += X(x * d1 + b, a * d1 + b);
    return r;
  }
  CMatrix r = CMatrix::Zero(d1, d1);
  for (int x = 0; x < d1; ++x)
    for (int a = 0; a < d1; ++a)
      for (int b = 0; b < d0; ++b) r(x, a) += X(b * d1 + x, b * d1 + a);
  return r;
}

/// Tr(A B) for square matrices of the same size.
cplx trace_product(const CMatrix& A, const CMatrix& B) { return A.cwiseProduct(B.transpose()).sum(); }

}  // namespace

/// Everything the contraction needs that does not change from step to step.
struct GateContraction::Prepared {
  /// [gate][segment]: drive segments: the embedded operator O_emb (g x g); static: empty.
  std::vector<std::vector<CMatrix>> drive_op;
  /// [tangent][channel]: V^dag dO_j V in the eigenbasis of O_j (empty: the tangent does not
  /// move O_j).
  std::vector<std::vector<CMatrix>> tangent_drive;
  bool any_tangent_drive = false;
  /// splitting: bonds, [tangent][bond]: the tangent's static part dS_b (g x g; empty: zero)
  /// and its weighted embedded drive operators d(O_i) per bond channel slot (empty: zero).
  std::vector<std::vector<CMatrix>> bond_static;
  std::vector<std::vector<std::vector<CMatrix>>> bond_drive;
};

namespace {

/// Bond segment exp(-i theta h_b(c)): d(objective)/dc_j and the device tangents, through the
/// Frechet derivative in the eigenbasis of h_b (Daleckii-Krein, as the dense adjoint does).
void contract_bond(const TrotterGates& gates, const GateContraction::Prepared& prep, const Segment& seg,
                   const std::vector<double>& c, const CMatrix& Ebar, std::vector<double>& dc,
                   std::vector<double>& tangent_acc) {
  const BondTerm& bt = gates.bonds()->bonds[static_cast<std::size_t>(seg.bond)];
  const double theta = kTwoPi * gates.dt() * seg.frac;
  RVector w;
  CMatrix W;
  linalg::hermitian_eigen(gates.bond_hamiltonian(seg, c), w, W);
  linalg::refine_unitary(W);
  const CMatrix B = W.adjoint() * Ebar * W;
  const CMatrix GB = linalg::exp_divided_differences(w, theta).cwiseProduct(B.transpose());
  auto contract = [&](const CMatrix& dH) { return 2.0 * (W.adjoint() * dH * W).cwiseProduct(GB).sum().real(); };
  for (std::size_t i = 0; i < bt.channels.size(); ++i)
    dc[static_cast<std::size_t>(bt.channels[i])] += contract(bt.drive_ops[i]);
  const auto b = static_cast<std::size_t>(seg.bond);
  for (std::size_t t = 0; t < prep.bond_static.size(); ++t) {
    CMatrix dH;
    if (prep.bond_static[t][b].size() != 0) dH = prep.bond_static[t][b];
    for (std::size_t i = 0; i < bt.channels.size(); ++i) {
      const CMatrix& dO = prep.bond_drive[t][b][i];
      const double cj = c[static_cast<std::size_t>(bt.channels[i])];
      if (dO.size() == 0 || cj == 0.0) continue;
      if (dH.size() == 0) dH = CMatrix::Zero(bt.size(), bt.size());
      dH += cj * dO;
    }
    if (dH.size() != 0) tangent_acc[t] += contract(dH);
  }
}

}  // namespace

void GateContraction::contract_step(const std::vector<double>& c, const double* env,
                                    std::vector<double>& dc, Accumulators& acc) const {
  const TrotterGates& gates = *gates_;
  const Prepared& prep = *prep_;
  const bool want_static = want_static_;
  const double dt = gates.dt();
  for (int k = 0; k < gates.num_gates(); ++k) {
    const Gate& gate = gates.gate(k);
    const int g = gate.g;
    const auto m = static_cast<int>(gate.segments.size());
    if (m == 0) continue;  // a gate without segments has no parameters to contract
    const double* e = env + gates.offset(k);
    const CMatrix E = from_split(e, g);
    // Segment matrices: static ones by reference (they do not change from step to step), drive
    // ones built for this step's coefficients.
    std::vector<CMatrix> drive_F(static_cast<std::size_t>(m));
    std::vector<const CMatrix*> Fp(static_cast<std::size_t>(m));
    for (int i = 0; i < m; ++i) {
      const auto si = static_cast<std::size_t>(i);
      const Segment& seg = gate.segments[si];
      if (seg.is_static) {
        Fp[si] = &seg.matrix;
      } else {
        drive_F[si] = gates.segment_matrix(gate, seg, c);
        Fp[si] = &drive_F[si];
      }
    }
    auto F = [&Fp](std::size_t i) -> const CMatrix& { return *Fp[i]; };
    // pre[i] = F_{i-1} ... F_0, suf[i] = F_{m-1} ... F_{i+1}; segment environment
    // Ebar_i = pre[i] E suf[i], so that Tr(dG E) = sum_i Tr(dF_i Ebar_i).
    std::vector<CMatrix> pre(static_cast<std::size_t>(m)), suf(static_cast<std::size_t>(m));
    pre[0] = CMatrix::Identity(g, g);
    for (int i = 1; i < m; ++i)
      pre[static_cast<std::size_t>(i)] = F(static_cast<std::size_t>(i - 1)) * pre[static_cast<std::size_t>(i - 1)];
    suf[static_cast<std::size_t>(m - 1)] = CMatrix::Identity(g, g);
    for (int i = m - 2; i >= 0; --i)
      suf[static_cast<std::size_t>(i)] = suf[static_cast<std::size_t>(i + 1)] * F(static_cast<std::size_t>(i + 1));
    for (int i = 0; i < m; ++i) {
      const auto si = static_cast<std::size_t>(i);
      const Segment& seg = gate.segments[si];
      if (seg.is_static && !want_static) continue;
      const CMatrix Ebar = pre[si] * E * suf[si];
      if (seg.bond >= 0) {
        contract_bond(gates, prep, seg, c, Ebar, dc, acc.tangents);
        continue;
      }
      if (seg.is_static) {
        acc.static_env[static_cast<std::size_t>(k)][si] += Ebar;
        continue;
      }
      const auto j = static_cast<std::size_t>(seg.channel);
      const double kappa = kTwoPi * dt * seg.frac;
      // dF/dc = -i kappa O F.
      const cplx t = trace_product(prep.drive_op[static_cast<std::size_t>(k)][si] * F(si), Ebar);
      dc[j] += 2.0 * (cplx(0.0, -kappa) * t).real();
      if (!prep.any_tangent_drive) continue;
      // Device tangents moving O_j: dF = V (G o (V^dag dO V)) V^dag with G the divided
      // differences of exp(-i kappa c x) (Daleckii-Krein).
      const DriveEigen& de = gates.drives()[j];
      CMatrix B;  // V^dag Ebar_red V, built on first use
      CMatrix G;
      for (std::size_t tg = 0; tg < prep.tangent_drive.size(); ++tg) {
        const CMatrix& M = prep.tangent_drive[tg][j];
        if (M.size() == 0) continue;
        if (B.size() == 0) {
          B = de.V.adjoint() * reduce_to_mode(Ebar, seg.position, gate.d0, gate.d1) * de.V;
          G = linalg::exp_divided_differences(de.lambda, kappa * c[j]);
        }
        acc.tangents[tg] += 2.0 * trace_product(G.cwiseProduct(M), B).real();
      }
    }
  }
}

namespace {

/// 2 Re Tr(dS Sbar) for one static segment S = e_p ... e_1 and one tangent.
double static_segment_term(const TrotterGates& gates, const TermList& terms, const Gate& gate,
                           const Segment& seg, const CMatrix& Sbar,
                           const HamiltonianTangent& tangent) {
  const auto nf = seg.factors.size();
  std::vector<CMatrix> e(nf), de(nf);
  bool any = false;
  for (std::size_t p = 0; p < nf; ++p) {
    const auto& f = seg.factors[p];
    const CMatrix& H = terms.static_matrix[static_cast<std::size_t>(f.term)];
    const double scale = kTwoPi * gates.dt() * f.frac;
    RVector w;
    CMatrix V;
    linalg::hermitian_eigen(H, w, V);
    linalg::refine_unitary(V);
    CVector ph(w.size());
    for (Index k = 0; k < w.size(); ++k) ph(k) = std::polar(1.0, -scale * w(k));
    CMatrix ef = V * ph.asDiagonal() * V.adjoint();
    const CMatrix& dH = tangent.static_terms[static_cast<std::size_t>(f.term)];
    CMatrix def = dH.size() == 0 ? CMatrix::Zero(H.rows(), H.cols())
                                 : linalg::expm_hermitian_frechet(w, V, scale, dH);
    any = any || dH.size() != 0;
    if (f.position >= 0) {
      ef = embed_in_gate(ef, f.position, gate.d0, gate.d1);
      def = embed_in_gate(def, f.position, gate.d0, gate.d1);
    }
    e[p] = std::move(ef);
    de[p] = std::move(def);
  }
  if (!any) return 0.0;
  // dS = sum_p e_{n-1} .. e_{p+1} de_p e_{p-1} .. e_0.
  const int g = gate.g;
  CMatrix dS = CMatrix::Zero(g, g);
  CMatrix right = CMatrix::Identity(g, g);  // e_{p-1} .. e_0
  for (std::size_t p = 0; p < nf; ++p) {
    CMatrix term = de[p] * right;
    for (std::size_t q = p + 1; q < nf; ++q) term = e[q] * term;
    dS += term;
    right = e[p] * right;
  }
  return 2.0 * trace_product(dS, Sbar).real();
}

}  // namespace

GateContraction::GateContraction(const TrotterGates& gates, const TermList& terms,
                                 const std::vector<HamiltonianTangent>& tangents)
    : gates_(&gates), terms_(&terms), tangents_(&tangents), prep_(std::make_shared<Prepared>()) {
  Prepared& prep = *prep_;
  const int num_gates = gates.num_gates();
  const auto num_channels = gates.drives().size();
  for (int k = 0; k < num_gates; ++k) {
    const Gate& gate = gates.gate(k);
    std::vector<CMatrix> ops;
    for (const Segment& s : gate.segments) {
      if (s.is_static || s.bond >= 0) {
        ops.emplace_back();
        continue;
      }
      const DriveEigen& de = gates.drives()[static_cast<std::size_t>(s.channel)];
      const CMatrix O = de.V * de.lambda.cast<cplx>().asDiagonal() * de.V.adjoint();
      ops.push_back(embed_in_gate(O, s.position, gate.d0, gate.d1));
    }
    prep.drive_op.push_back(std::move(ops));
  }
  for (const auto& t : tangents) {
    std::vector<CMatrix> per_channel(num_channels);
    for (std::size_t j = 0; j < num_channels && j < t.channels.size(); ++j) {
      if (t.channels[j].size() == 0) continue;
      const DriveEigen& de = gates.drives()[j];
      per_channel[j] = de.V.adjoint() * t.channels[j] * de.V;
      prep.any_tangent_drive = true;
    }
    prep.tangent_drive.push_back(std::move(per_channel));
    for (const auto& m : t.static_terms) want_static_ = want_static_ || m.size() != 0;
    if (const BondList* bl = gates.bonds()) {
      // The tangent's pieces of every bond Hamiltonian, with the bond's weights and embedding.
      std::vector<CMatrix> dS(bl->bonds.size());
      std::vector<std::vector<CMatrix>> dO(bl->bonds.size());
      for (std::size_t b = 0; b < bl->bonds.size(); ++b) {
        const BondTerm& bt = bl->bonds[b];
        for (const auto& part : bt.static_parts) {
          const auto i = static_cast<std::size_t>(part.term);
          if (i >= t.static_terms.size() || t.static_terms[i].size() == 0) continue;
          if (dS[b].size() == 0) dS[b] = CMatrix::Zero(bt.size(), bt.size());
          dS[b] += part.weight * (part.position < 0 ? t.static_terms[i]
                                                     : embed_in_gate(t.static_terms[i], part.position, bt.d0, bt.d1));
        }
        dO[b].resize(bt.channels.size());
        for (std::size_t k = 0; k < bt.channels.size(); ++k) {
          const auto j = static_cast<std::size_t>(bt.channels[k]);
          if (j >= t.channels.size() || t.channels[j].size() == 0) continue;
          dO[b][k] = bt.channel_weight[k] * embed_in_gate(t.channels[j], bt.channel_position[k], bt.d0, bt.d1);
        }
      }
      prep.bond_static.push_back(std::move(dS));
      prep.bond_drive.push_back(std::move(dO));
    }
  }
  for (int k = 0; k < num_gates; ++k) {
    const auto& segs = gates.gate(k).segments;
    needs_env_.push_back(std::any_of(segs.begin(), segs.end(), [&](const Segment& s) {
      return !s.is_static || s.bond >= 0 || want_static_;
    }) ? 1 : 0);
  }
}

GateContraction::Accumulators GateContraction::make_accumulators() const {
  Accumulators a;
  a.tangents.assign(tangents_->size(), 0.0);
  if (want_static_)
    for (int k = 0; k < gates_->num_gates(); ++k) {
      const Gate& gate = gates_->gate(k);
      a.static_env.emplace_back(gate.segments.size(), CMatrix::Zero(gate.g, gate.g));
    }
  return a;
}

void GateContraction::add(Accumulators& total, const Accumulators& part) {
  for (std::size_t t = 0; t < part.tangents.size(); ++t) total.tangents[t] += part.tangents[t];
  for (std::size_t k = 0; k < part.static_env.size(); ++k)
    for (std::size_t i = 0; i < part.static_env[k].size(); ++i) total.static_env[k][i] += part.static_env[k][i];
}

void GateContraction::finish(const Accumulators& total, std::vector<double>& tangent_sums) const {
  const TrotterGates& gates = *gates_;
  for (std::size_t t = 0; t < tangents_->size(); ++t) {
    double sum = total.tangents[t];
    if (want_static_)
      for (int k = 0; k < gates.num_gates(); ++k) {
        const Gate& gate = gates.gate(k);
        for (std::size_t i = 0; i < gate.segments.size(); ++i)
          if (gate.segments[i].is_static)
            sum += static_segment_term(gates, *terms_, gate, gate.segments[i],
                                       total.static_env[static_cast<std::size_t>(k)][i], (*tangents_)[t]);
      }
    tangent_sums[t] += sum;
  }
}


void adjoint_blocks(const BlockEvolution& job, const TermList& terms, CMatrix& psi,
                    CMatrix& lambda, const std::vector<HamiltonianTangent>& tangents,
                    const SubstepCotangent& on_step, std::vector<double>& tangent_sums) {
  const device::Device& dev = *job.device;
  const TrotterGates& gates = *job.gates;
  const Index D = dev.dim();
  const Index n = psi.cols();
  if (n == 0 || job.steps == 0) return;
  const int threads = std::max(1, job.threads);
  const BlockLayout layout = make_block_layout(job, n);
  const Index width = layout.width, num_blocks = layout.num_blocks;
  const int num_gates = gates.num_gates();
  const auto num_channels = gates.drives().size();
  const GateContraction contraction(gates, terms, tangents);
  GateContraction::Accumulators total = contraction.make_accumulators();

  // Chunks of steps, as in the forward pass (independent of the number of steps).
  const std::size_t per_step = gates.step_size();
  const int chunk = step_chunk(per_step * sizeof(double), job.steps);
  std::vector<double> adj_gates(per_step * static_cast<std::size_t>(chunk));
  std::vector<double> env(per_step * static_cast<std::size_t>(chunk));
  std::vector<std::vector<double>> coeffs(static_cast<std::size_t>(chunk));
  std::vector<std::vector<double>> dcs(static_cast<std::size_t>(chunk),
                                       std::vector<double>(num_channels, 0.0));
  double step_flops = 0.0;
  for (int k = 0; k < num_gates; ++k) step_flops += 24.0 * static_cast<double>(D * n) * gates.size(k);

  const int num_chunks = (job.steps + chunk - 1) / chunk;
  if (threads > 1 && step_flops * std::min(chunk, job.steps) > 1e7) linalg::park_blas_workers();
  for (int ci = num_chunks - 1; ci >= 0; --ci) {
    const int s0 = ci * chunk;
    const int s1 = std::min(job.steps, s0 + chunk);
    const bool parallel = threads > 1 && step_flops * (s1 - s0) > 1e7;
    std::fill(env.begin(), env.end(), 0.0);
#pragma omp parallel num_threads(threads) if (parallel)
    {
#pragma omp for schedule(static)
      for (int s = s0; s < s1; ++s) {
        auto& c = coeffs[static_cast<std::size_t>(s - s0)];
        job.coefficients(s, c);
        double* dst = adj_gates.data() + per_step * static_cast<std::size_t>(s - s0);
        gates.compute(c, dst);
        // In place: g -> g^dag (split re/im, row-major).
        for (int k = 0; k < num_gates; ++k) split_adjoint_in_place(dst + gates.offset(k), gates.size(k));
      }
      std::vector<double> local_env(env.size(), 0.0);
      AdjointPlanes planes(static_cast<std::size_t>(D * width));
      double* pr = planes.plane(0);
      double* pi = planes.plane(1);
      double* lr = planes.plane(2);
      double* li = planes.plane(3);
#pragma omp for schedule(dynamic, 1)
      for (Index b = 0; b < num_blocks; ++b) {
        const Index c0 = layout.first_column(b), w = layout.columns(b);
        const auto& geo = layout.geometry(b);
        load_block(psi, c0, w, pr, pi);
        load_block(lambda, c0, w, lr, li);
        for (int s = s1 - 1; s >= s0; --s) {
          const std::size_t base = per_step * static_cast<std::size_t>(s - s0);
          for (int k = num_gates - 1; k >= 0; --k) {
            const double* gd = adj_gates.data() + base + gates.offset(k);
            double* e = contraction.needs_environment(k) ? local_env.data() + base + gates.offset(k) : nullptr;
            backend::adjoint_gate(pr, pi, lr, li, geo[static_cast<std::size_t>(k)], gd, gd, e);
          }
        }
        store_block(psi, c0, w, pr, pi);
        store_block(lambda, c0, w, lr, li);
      }
#pragma omp critical(qevolve_adjoint_env)
      for (std::size_t i = 0; i < env.size(); ++i) env[i] += local_env[i];
#pragma omp barrier
      GateContraction::Accumulators acc = contraction.make_accumulators();
#pragma omp for schedule(static)
      for (int s = s0; s < s1; ++s) {
        const auto at = static_cast<std::size_t>(s - s0);
        std::fill(dcs[at].begin(), dcs[at].end(), 0.0);
        contraction.contract_step(coeffs[at], env.data() + per_step * at, dcs[at], acc);
      }
#pragma omp critical(qevolve_adjoint_acc)
      GateContraction::add(total, acc);
    }
    if (on_step)
      for (int s = s1 - 1; s >= s0; --s)
        on_step(s, dcs[static_cast<std::size_t>(s - s0)]);
  }

  contraction.finish(total, tangent_sums);
}

}  // namespace qevolve::solver
