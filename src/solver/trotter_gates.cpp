#include "trotter_gates.hpp"

#include <cmath>

#include "qevolve/linalg.hpp"

namespace qevolve::solver {
namespace {

/// Embeds a one-mode matrix on position `pos` of a gate on modes of dimensions (d0, d1).
CMatrix embed_in_gate(const CMatrix& m, int pos, int d0, int d1) {
  if (d1 == 1) return m;
  CMatrix out = CMatrix::Zero(d0 * d1, d0 * d1);
  if (pos == 0) {
    for (int i = 0; i < d0; ++i)
      for (int j = 0; j < d0; ++j)
        for (int k = 0; k < d1; ++k) out(i * d1 + k, j * d1 + k) = m(i, j);
  } else {
    for (int k = 0; k < d0; ++k) out.block(k * d1, k * d1, d1, d1) = m;
  }
  return out;
}

}  // namespace

TermList make_term_list(const device::Device& device, const std::vector<DriveEigen>& drives) {
  TermList t;
  for (const auto& term : device.static_terms()) {
    t.modes.push_back({term.modes});
    t.static_matrix.push_back(term.matrix);
    t.channel.push_back(-1);
  }
  for (std::size_t j = 0; j < drives.size(); ++j) {
    t.modes.push_back({{drives[j].mode}});
    t.static_matrix.emplace_back();
    t.channel.push_back(static_cast<int>(j));
  }
  return t;
}

TrotterGates::TrotterGates(const device::Device& device, const TermList& terms,
                           const std::vector<DriveEigen>& drives, int order, double dt)
    : drives_(&drives), dt_(dt) {
  const auto plans = fuse(trotter_sequence(terms.size(), order), terms.modes);
  const auto& dims = device.dims();
  for (const auto& plan : plans) {
    Gate gate;
    gate.modes = plan.modes;
    gate.d0 = dims[static_cast<std::size_t>(plan.modes[0])];
    gate.d1 = plan.modes.size() == 2 ? dims[static_cast<std::size_t>(plan.modes[1])] : 1;
    gate.g = gate.d0 * gate.d1;
    for (const Factor& f : plan.factors) {
      const auto ti = static_cast<std::size_t>(f.term);
      const auto& tm = terms.modes[ti].modes;
      if (terms.channel[ti] >= 0) {
        Segment s;
        s.is_static = false;
        s.channel = terms.channel[ti];
        s.frac = f.frac;
        s.position = tm[0] == plan.modes[0] ? 0 : 1;
        gate.segments.push_back(s);
        continue;
      }
      // Static factor exp(-i 2 pi dt frac H_term), embedded into the gate's space.
      CMatrix e = linalg::expm_hermitian(terms.static_matrix[ti], kTwoPi * dt * f.frac);
      if (tm.size() == 1) e = embed_in_gate(e, tm[0] == plan.modes[0] ? 0 : 1, gate.d0, gate.d1);
      if (!gate.segments.empty() && gate.segments.back().is_static)
        gate.segments.back().matrix = e * gate.segments.back().matrix;
      else
        gate.segments.push_back({true, e, -1, 0.0, 0});
    }
    gates_.push_back(std::move(gate));
  }
  std::size_t off = 0;
  for (const auto& g : gates_) {
    offsets_.push_back(off);
    off += 2 * static_cast<std::size_t>(g.g) * static_cast<std::size_t>(g.g);
  }
  step_size_ = off;
}

CMatrix TrotterGates::gate_matrix(const Gate& gate, const std::vector<double>& c) const {
  CMatrix m = CMatrix::Identity(gate.g, gate.g);
  bool identity = true;
  for (const Segment& s : gate.segments) {
    if (s.is_static) {
      m = identity ? s.matrix : CMatrix(s.matrix * m);
      identity = false;
      continue;
    }
    const double coeff = c[static_cast<std::size_t>(s.channel)];
    if (coeff == 0.0) continue;  // the pulse is off: the factor is the identity
    const DriveEigen& de = (*drives_)[static_cast<std::size_t>(s.channel)];
    const double scale = kTwoPi * dt_ * s.frac * coeff;
    CVector ph(de.lambda.size());
    for (Index k = 0; k < ph.size(); ++k) ph(k) = std::polar(1.0, -scale * de.lambda(k));
    const CMatrix f = de.V * ph.asDiagonal() * de.V.adjoint();
    const CMatrix e = embed_in_gate(f, s.position, gate.d0, gate.d1);
    m = identity ? e : CMatrix(e * m);
    identity = false;
  }
  // The product of a few factors is unitary to ~g eps; remove that defect so it does not
  // accumulate over thousands of steps.
  if (!identity) linalg::refine_unitary(m);
  return m;
}

std::vector<CMatrix> TrotterGates::matrices(const std::vector<double>& coefficients) const {
  std::vector<CMatrix> out;
  out.reserve(gates_.size());
  for (const auto& g : gates_) out.push_back(gate_matrix(g, coefficients));
  return out;
}

template <typename Real>
void TrotterGates::compute(const std::vector<double>& coefficients, Real* out) const {
  for (std::size_t k = 0; k < gates_.size(); ++k) {
    const CMatrix m = gate_matrix(gates_[k], coefficients);
    const int g = gates_[k].g;
    Real* dst = out + offsets_[k];
    for (int o = 0; o < g; ++o)
      for (int j = 0; j < g; ++j) {
        dst[o * g + j] = static_cast<Real>(m(o, j).real());
        dst[g * g + o * g + j] = static_cast<Real>(m(o, j).imag());
      }
  }
}

template void TrotterGates::compute<double>(const std::vector<double>&, double*) const;
template void TrotterGates::compute<float>(const std::vector<double>&, float*) const;

}  // namespace qevolve::solver
