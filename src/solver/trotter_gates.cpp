#include "trotter_gates.hpp"

#include <algorithm>
#include <cmath>

#include "bond_list.hpp"
#include "qevolve/backend/backend.hpp"
#include "qevolve/linalg.hpp"

namespace qevolve::solver {
namespace {

/// Entries of a static term at most this fraction of its largest entry are rounding of a
/// selection rule (docs/solvers.md "Parity blocks"): the preset's fluxonium couplings at half
/// flux carry 5e-14 to 7e-14 (2 and 3 levels) where parity forbids any.
constexpr double kSelectionRuleTolerance = 1e-12;

}  // namespace

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
        s.matrix = CMatrix();
        s.channel = terms.channel[ti];
        s.frac = f.frac;
        s.position = tm[0] == plan.modes[0] ? 0 : 1;
        gate.segments.push_back(s);
        continue;
      }
      // Static factor exp(-i 2 pi dt frac H_term), embedded into the gate's space.
      CMatrix e = linalg::expm_hermitian_blocks(terms.static_matrix[ti], kTwoPi * dt * f.frac,
                                                kSelectionRuleTolerance);
      int position = -1;
      if (tm.size() == 1 && plan.modes.size() == 2) position = tm[0] == plan.modes[0] ? 0 : 1;
      if (tm.size() == 1) e = embed_in_gate(e, tm[0] == plan.modes[0] ? 0 : 1, gate.d0, gate.d1);
      if (gate.segments.empty() || !gate.segments.back().is_static)
        gate.segments.push_back({true, CMatrix::Identity(gate.g, gate.g), -1, 0.0, 0, {}});
      gate.segments.back().matrix = e * gate.segments.back().matrix;
      gate.segments.back().factors.push_back({f.term, f.frac, position});
    }
    if (gate.segments.size() == 1 && gate.segments.front().is_static) {
      auto blocks = linalg::pattern_blocks(gate.segments.front().matrix);
      if (blocks.size() > 1) gate.blocks = std::move(blocks);
    }
    gates_.push_back(std::move(gate));
  }
  // The step's last gate and the next step's first gate are adjacent in the product; on the
  // same modes (Strang: both hold the first coupling's half steps) they are multiplied into one,
  // which keeps block structure only when both gates have the same blocks.
  if (gates_.size() >= 2 && gates_.front().modes == gates_.back().modes) {
    boundary_ = 1;
    if (gates_.front().blocks != gates_.back().blocks) gates_.front().blocks.clear();
  }
  std::size_t off = 0;
  for (const auto& g : gates_) {
    offsets_.push_back(off);
    off += 2 * static_cast<std::size_t>(g.g) * static_cast<std::size_t>(g.g);
  }
  step_size_ = off;
  factor_gates();
}

void TrotterGates::factor_gates() {
  factor_offsets_.assign(gates_.size(), 0);
  for (std::size_t k = 0; k < gates_.size(); ++k) {
    Gate& gate = gates_[k];
    if (gate.segments.size() != 2 || gate.modes.size() != 2 || !gate.segments[0].is_static ||
        gate.segments[1].is_static || gate.segments[1].bond >= 0)
      continue;
    const Segment& drive = gate.segments[1];
    const CMatrix& O = (*drives_)[static_cast<std::size_t>(drive.channel)].op;
    if (O.rows() != 2) continue;
    const cplx o = O(0, 1);
    const double tol = kSelectionRuleTolerance * std::abs(o);
    if (!(std::abs(o) > 0.0) || std::abs(O(0, 0)) > tol || std::abs(O(1, 1)) > tol) continue;
    auto blocks = linalg::pattern_blocks(gate.segments[0].matrix);
    if (blocks.size() < 2) continue;
    // The boundary gate's static part is multiplied with the previous step's last gate.
    if (k < static_cast<std::size_t>(boundary_) && blocks != gates_.back().blocks) continue;
    gate.blocks = std::move(blocks);
    // S, row-major and refined to unitarity as gate_matrix refines a product, once: it does
    // not change from step to step.
    const int g = gate.g;
    gate.factor_static.resize(static_cast<std::size_t>(g * g));
    std::vector<cplx> work(2 * static_cast<std::size_t>(g * g));
    for (int i = 0; i < g; ++i)
      for (int j = 0; j < g; ++j)
        gate.factor_static[static_cast<std::size_t>(i * g + j)] = gate.segments[0].matrix(i, j);
    linalg::small_unitary_refine(gate.factor_static.data(), g, work.data());
    gate.factor_position = drive.position;
    gate.factor_kind = o.real() == 0.0 ? 0 : o.imag() == 0.0 ? 1 : 2;
    factor_offsets_[k] = step_size_;
    step_size_ += factor_size(gate.g);
  }
}

double TrotterGates::work(int k) const {
  const Gate& gate = gates_[static_cast<std::size_t>(k)];
  return backend::gate_work(gate.g, gate.blocks, gate.factor_position, gate.factor_kind);
}

template <typename Real>
void TrotterGates::write_factors(const Gate& gate, const std::vector<double>& c, Real* out) const {
  // D = exp(-i a O/|o|) = cos(a) I - i sin(a) O/|o| for O = [[0, o], [conj(o), 0]] with
  // (O/|o|)^2 = I, stored as R (cos(a) S) with R = D / cos(a) = I - i tan(a) O/|o|: R's unit
  // diagonal costs nothing. cos(a) is never exactly zero for a double a, and the pair's
  // rounding stays relative (cos(a) S y is tiny exactly where tan(a) is large).
  const Segment& drive = gate.segments[1];
  const cplx o = (*drives_)[static_cast<std::size_t>(drive.channel)].op(0, 1);
  const double a = kTwoPi * dt_ * drive.frac * c[static_cast<std::size_t>(drive.channel)] * std::abs(o);
  const double cos_a = std::cos(a), tan_a = std::sin(a) / cos_a;
  const int g = gate.g;
  for (int i = 0; i < g * g; ++i) {
    const cplx s = cos_a * gate.factor_static[static_cast<std::size_t>(i)];
    out[i] = static_cast<Real>(s.real());
    out[g * g + i] = static_cast<Real>(s.imag());
  }
  const cplx u = o / std::abs(o);
  const cplx w01 = cplx(0.0, -tan_a) * u, w10 = cplx(0.0, -tan_a) * std::conj(u);
  Real* w = out + 2 * g * g;
  w[0] = static_cast<Real>(w01.real());
  w[1] = static_cast<Real>(w01.imag());
  w[2] = static_cast<Real>(w10.real());
  w[3] = static_cast<Real>(w10.imag());
}

TrotterGates::TrotterGates(const BondList& bonds, const std::vector<DriveEigen>& drives, int order,
                           double dt)
    : drives_(&drives), bonds_(&bonds), dt_(dt) {
  const auto seq = trotter_sequence(bonds.colours, order);
  for (const Factor& f : seq)
    for (std::size_t b = 0; b < bonds.bonds.size(); ++b) {
      const BondTerm& bt = bonds.bonds[b];
      if (bt.colour != f.term) continue;
      Gate gate;
      gate.modes = bt.modes;
      gate.d0 = bt.d0;
      gate.d1 = bt.d1;
      gate.g = bt.size();
      Segment s;
      s.is_static = false;
      s.frac = f.frac;
      s.bond = static_cast<int>(b);
      s.matrix = linalg::expm_hermitian(bt.S, kTwoPi * dt * f.frac);
      gate.segments.push_back(std::move(s));
      gates_.push_back(std::move(gate));
    }
  if (seq.size() >= 2 && seq.front().term == seq.back().term)
    boundary_ = static_cast<int>(std::count_if(bonds.bonds.begin(), bonds.bonds.end(),
                                               [&](const BondTerm& b) { return b.colour == seq.front().term; }));
  std::size_t off = 0;
  for (const auto& g : gates_) {
    offsets_.push_back(off);
    off += 2 * static_cast<std::size_t>(g.g) * static_cast<std::size_t>(g.g);
  }
  step_size_ = off;
  factor_offsets_.assign(gates_.size(), 0);
}

bool TrotterGates::bond_driven(const Segment& s, const std::vector<double>& c) const {
  const BondTerm& bt = bonds_->bonds[static_cast<std::size_t>(s.bond)];
  return std::any_of(bt.channels.begin(), bt.channels.end(),
                     [&c](int j) { return c[static_cast<std::size_t>(j)] != 0.0; });
}

CMatrix TrotterGates::bond_hamiltonian(const Segment& s, const std::vector<double>& c) const {
  const BondTerm& bt = bonds_->bonds[static_cast<std::size_t>(s.bond)];
  CMatrix H = bt.S;
  for (std::size_t i = 0; i < bt.channels.size(); ++i) {
    const double cj = c[static_cast<std::size_t>(bt.channels[i])];
    if (cj != 0.0) H += cj * bt.drive_ops[i];
  }
  return H;
}

void TrotterGates::bond_factor(const Segment& s, const std::vector<double>& c, int g, cplx* out) const {
  if (!bond_driven(s, c)) {
    for (int i = 0; i < g; ++i)
      for (int j = 0; j < g; ++j) out[i * g + j] = s.matrix(i, j);
    return;
  }
  const double scale = kTwoPi * dt_ * s.frac;
  if (g > linalg::kSmallExpm) {
    const CMatrix F = linalg::expm_hermitian(bond_hamiltonian(s, c), scale);
    for (int i = 0; i < g; ++i)
      for (int j = 0; j < g; ++j) out[i * g + j] = F(i, j);
    return;
  }
  // h_b(c) = S_b + sum_i c_i O_i, assembled row-major on the stack.
  const BondTerm& bt = bonds_->bonds[static_cast<std::size_t>(s.bond)];
  CplxScratch<linalg::kSmallExpm * linalg::kSmallExpm> h_buf;
  cplx* h = h_buf.data();
  for (int i = 0; i < g; ++i)
    for (int j = 0; j < g; ++j) h[i * g + j] = bt.S(i, j);
  for (std::size_t k = 0; k < bt.channels.size(); ++k) {
    const double ck = c[static_cast<std::size_t>(bt.channels[k])];
    if (ck == 0.0) continue;
    const CMatrix& o = bt.drive_ops[k];
    for (int i = 0; i < g; ++i)
      for (int j = 0; j < g; ++j) h[i * g + j] += ck * o(i, j);
  }
  linalg::expm_hermitian_small(h, g, scale, out);
}

CMatrix TrotterGates::bond_factor(const Segment& s, const std::vector<double>& c) const {
  const auto g = static_cast<int>(s.matrix.rows());
  std::vector<cplx> buf(static_cast<std::size_t>(g) * static_cast<std::size_t>(g));
  bond_factor(s, c, g, buf.data());
  CMatrix F(g, g);
  for (int i = 0; i < g; ++i)
    for (int j = 0; j < g; ++j) F(i, j) = buf[static_cast<std::size_t>(i * g + j)];
  return F;
}


void TrotterGates::gate_matrix(const Gate& gate, const std::vector<double>& c, cplx* m,
                               cplx* work) const {
  const int g = gate.g;
  bool identity = true;
  CplxScratch<kMaxStepGate * kMaxStepGate> f_buf;  // one drive factor, d x d
  CplxScratch<kMaxStepGate> ph_buf;
  cplx* f = f_buf.data();
  cplx* ph = ph_buf.data();
  for (const Segment& s : gate.segments) {
    if (s.bond >= 0) {
      // Bond segment: the exact exponential of h_b(c) (cached when the bond is undriven),
      // written into f (g <= kMaxStepGate).
      bond_factor(s, c, g, f);
      if (identity) {
        std::copy(f, f + g * g, m);
      } else {
        linalg::small_matmul(f, m, work, g);
        std::copy(work, work + g * g, m);
      }
      identity = false;
      continue;
    }
    if (s.is_static) {
      // m <- S m (S row-major copy kept in s.matrix, column-major Eigen: index (i, k)). The same
      // sum as linalg::small_matmul, written here on purpose: through the shared function (on a
      // row-major copy of S) every Trotter output moved by ~1e-14 (the compiler contracts the
      // complex multiply-adds differently in that translation unit), so this loop stays.
      if (identity) {
        for (int i = 0; i < g; ++i)
          for (int j = 0; j < g; ++j) m[i * g + j] = s.matrix(i, j);
      } else {
        for (int i = 0; i < g; ++i)
          for (int j = 0; j < g; ++j) {
            cplx acc{};
            for (int k = 0; k < g; ++k) acc += s.matrix(i, k) * m[k * g + j];
            work[i * g + j] = acc;
          }
        std::copy(work, work + g * g, m);
      }
      identity = false;
      continue;
    }
    const double coeff = c[static_cast<std::size_t>(s.channel)];
    if (coeff == 0.0) continue;  // the pulse is off: the factor is the identity
    const DriveEigen& de = (*drives_)[static_cast<std::size_t>(s.channel)];
    const double scale = kTwoPi * dt_ * s.frac * coeff;
    const auto d = static_cast<int>(de.lambda.size());
    for (int k = 0; k < d; ++k) ph[k] = std::polar(1.0, -scale * de.lambda(k));
    for (int i = 0; i < d; ++i)
      for (int j = 0; j < d; ++j) {
        cplx acc{};
        for (int k = 0; k < d; ++k) acc += de.V(i, k) * ph[k] * std::conj(de.V(j, k));
        f[i * d + j] = acc;
      }
    // m <- embed(f) m, with f on gate position 0 (kron(f, I_d1)) or 1 (kron(I_d0, f)).
    const int d0 = gate.d0, d1 = gate.d1;
    if (identity) {
      std::fill(m, m + g * g, cplx{});
      for (int a = 0; a < d0; ++a)
        for (int b = 0; b < d1; ++b)
          for (int x = 0; x < d; ++x) {
            const int row = s.position == 0 ? a * d1 + b : a * d1 + b;
            const int col = s.position == 0 ? x * d1 + b : a * d1 + x;
            m[row * g + col] = s.position == 0 ? f[a * d + x] : f[b * d + x];
          }
    } else {
      for (int a = 0; a < d0; ++a)
        for (int b = 0; b < d1; ++b)
          for (int j = 0; j < g; ++j) {
            cplx acc{};
            for (int x = 0; x < d; ++x) {
              const int src = s.position == 0 ? x * d1 + b : a * d1 + x;
              acc += (s.position == 0 ? f[a * d + x] : f[b * d + x]) * m[src * g + j];
            }
            work[(a * d1 + b) * g + j] = acc;
          }
      std::copy(work, work + g * g, m);
    }
    identity = false;
  }
  if (identity) {
    std::fill(m, m + g * g, cplx{});
    for (int i = 0; i < g; ++i) m[i * g + i] = 1.0;
    return;
  }
  // The product of a few factors is unitary to ~g eps; remove that defect so it does not
  // accumulate over thousands of steps.
  linalg::small_unitary_refine(m, g, work);
}

CMatrix TrotterGates::segment_matrix(const Gate& gate, const Segment& s,
                                     const std::vector<double>& c) const {
  if (s.bond >= 0) return bond_factor(s, c);
  if (s.is_static) return s.matrix;
  const DriveEigen& de = (*drives_)[static_cast<std::size_t>(s.channel)];
  const double scale = kTwoPi * dt_ * s.frac * c[static_cast<std::size_t>(s.channel)];
  CVector ph(de.lambda.size());
  for (Index k = 0; k < de.lambda.size(); ++k) ph(k) = std::polar(1.0, -scale * de.lambda(k));
  const CMatrix f = de.V * ph.asDiagonal() * de.V.adjoint();
  return gate.d1 == 1 ? f : embed_in_gate(f, s.position, gate.d0, gate.d1);
}

std::vector<CMatrix> TrotterGates::matrices(const std::vector<double>& coefficients) const {
  std::vector<CMatrix> out;
  std::vector<cplx> m(kMaxStepGate * kMaxStepGate), work(2 * kMaxStepGate * kMaxStepGate);
  for (const auto& gate : gates_) {
    gate_matrix(gate, coefficients, m.data(), work.data());
    CMatrix M(gate.g, gate.g);
    for (int i = 0; i < gate.g; ++i)
      for (int j = 0; j < gate.g; ++j) M(i, j) = m[static_cast<std::size_t>(i * gate.g + j)];
    out.push_back(std::move(M));
  }
  return out;
}

template <typename Real>
void TrotterGates::compute(const std::vector<double>& coefficients, Real* out) const {
  thread_local std::vector<cplx> m(kMaxStepGate * kMaxStepGate),
      work(2 * kMaxStepGate * kMaxStepGate);
  for (std::size_t k = 0; k < gates_.size(); ++k) {
    const int g = gates_[k].g;
    gate_matrix(gates_[k], coefficients, m.data(), work.data());
    Real* dst = out + offsets_[k];
    for (int i = 0; i < g * g; ++i) {
      dst[i] = static_cast<Real>(m[static_cast<std::size_t>(i)].real());
      dst[g * g + i] = static_cast<Real>(m[static_cast<std::size_t>(i)].imag());
    }
    if (gates_[k].factor_position >= 0) write_factors(gates_[k], coefficients, out + factor_offsets_[k]);
  }
}

template void TrotterGates::compute<double>(const std::vector<double>&, double*) const;
template void TrotterGates::compute<float>(const std::vector<double>&, float*) const;

}  // namespace qevolve::solver
