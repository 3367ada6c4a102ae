// The Chebyshev series on column blocks (backend/chebyshev_series.hpp): the recurrence, its
// products with the sparse generator and its one-mode local terms. Moved unchanged from
// src/solver/chebyshev.cpp (the same arithmetic: outputs bitwise as before).
#include "qevolve/backend/chebyshev_series.hpp"

#include <algorithm>
#include <type_traits>

namespace qevolve::backend {
namespace {

/// One d x inner block (level-major, contiguous): y += (ar + i ai) x, the run over the inner
/// index fixed at compile time when it is (I > 0), so that it vectorises.
template <int I, bool Imaginary>
void local_block(int d, Index inner_rt, const double* ar, const double* ai, const double* __restrict xr,
                 const double* __restrict xi, double* __restrict yr, double* __restrict yi) {
  constexpr int kChunk = I > 0 ? I : 8;
  const Index inner = I > 0 ? I : inner_rt;
  for (Index r0 = 0; r0 < inner; r0 += kChunk) {
    const Index w = std::min<Index>(kChunk, inner - r0);
    for (int k = 0; k < d; ++k) {
      double accr[kChunk] = {}, acci[kChunk] = {};  // row k of (alpha O) x, held in registers
      for (int l = 0; l < d; ++l) {
        const double cr = ar[k * d + l], ci = ai[k * d + l];
        if (cr == 0.0 && ci == 0.0) continue;  // parity: half of a mode operator vanishes
        const double* __restrict xrl = xr + l * inner + r0;
        const double* __restrict xil = xi + l * inner + r0;
        if (I > 0 || w == kChunk) {
          for (int r = 0; r < kChunk; ++r) {
            if constexpr (!Imaginary) {  // (alpha O) imaginary, as for sin phi or n: two multiply-adds
              accr[r] += cr * xrl[r];
              acci[r] += cr * xil[r];
            }
            accr[r] -= ci * xil[r];
            acci[r] += ci * xrl[r];
          }
        } else {
          for (Index r = 0; r < w; ++r) {
            accr[r] += cr * xrl[r] - ci * xil[r];
            acci[r] += cr * xil[r] + ci * xrl[r];
          }
        }
      }
      for (Index r = 0; r < w; ++r) {
        yr[k * inner + r0 + r] += accr[r];
        yi[k * inner + r0 + r] += acci[r];
      }
    }
  }
}

/// y += alpha O x for a one-mode term (planar row-major, every column). Per outer index the
/// term acts on a contiguous d x (inner m) block: y_block += (alpha O) x_block.
void add_local(const ChebyshevGenerator::Local& t, cplx alpha, const PlanarBlock& x, PlanarBlock& y) {
  const int d = t.d;
  const Index run = t.inner * x.cols;
  double ar[kMaxLocalLevels * kMaxLocalLevels], ai[kMaxLocalLevels * kMaxLocalLevels];
  for (int k = 0; k < d * d; ++k) {
    const std::size_t q = static_cast<std::size_t>(k);
    ar[k] = alpha.real() * t.re[q] - alpha.imag() * t.im[q];
    ai[k] = alpha.real() * t.im[q] + alpha.imag() * t.re[q];
  }
  bool imaginary = true;
  for (int k = 0; k < d * d; ++k) imaginary = imaginary && ar[k] == 0.0;
  using Block = void (*)(int, Index, const double*, const double*, const double*, const double*, double*, double*);
  const auto pick = [run](auto imag) -> Block {
    constexpr bool kI = decltype(imag)::value;
    return run == 1    ? local_block<1, kI>
           : run == 2  ? local_block<2, kI>
           : run == 4  ? local_block<4, kI>
           : run == 8  ? local_block<8, kI>
           : run == 16 ? local_block<16, kI>
                       : local_block<0, kI>;
  };
  const Block block = imaginary ? pick(std::true_type{}) : pick(std::false_type{});
  for (Index o = 0; o < t.outer; ++o) {
    const std::size_t base = static_cast<std::size_t>(o * d * run);
    block(d, run, ar, ai, x.re.data() + base, x.im.data() + base, y.re.data() + base, y.im.data() + base);
  }
}

}  // namespace

/// out = scale (H in - c in) - prev (prev may be null).
void chebyshev_product(const ChebyshevGenerator& H, const PlanarBlock& in, const PlanarBlock* prev, double c,
                       double scale, PlanarBlock& out) {
  out.resize(in.rows, in.cols);
  backend::sparse_columns_step(H.sparse, in.re.data(), in.im.data(), prev ? prev->re.data() : nullptr,
                               prev ? prev->im.data() : nullptr, in.cols, scale, c, out.re.data(), out.im.data());
  for (const ChebyshevGenerator::Local& t : H.locals) add_local(t, scale * t.alpha, in, out);
}

/// y += a x (planar).
void add_scaled(cplx a, const PlanarBlock& x, PlanarBlock& y) {
  const double ar = a.real(), ai = a.imag();
  const std::size_t n = x.re.size();
  for (std::size_t i = 0; i < n; ++i) {
    const double xr = x.re[i], xi = x.im[i];
    y.re[i] += ar * xr - ai * xi;
    y.im[i] += ar * xi + ai * xr;
  }
}

void ChebyshevGenerator::assign(const CMatrix& H) {
  sparse = {};
  sparse.n = H.rows();
  sparse.start.push_back(0);
  for (Index i = 0; i < H.rows(); ++i) {
    for (Index j = 0; j < H.cols(); ++j)
      if (H(i, j) != cplx(0.0, 0.0)) {
        sparse.col.push_back(j);
        sparse.re.push_back(H(i, j).real());
        sparse.im.push_back(H(i, j).imag());
      }
    sparse.start.push_back(static_cast<Index>(sparse.col.size()));
  }
  locals.clear();
}

void PlanarBlock::resize(Index r, Index c) {
  rows = r;
  cols = c;
  re.resize(static_cast<std::size_t>(r * c));
  im.resize(static_cast<std::size_t>(r * c));
}

void PlanarBlock::assign(const CMatrix& m) {
  resize(m.rows(), m.cols());
  for (Index i = 0; i < rows; ++i)
    for (Index j = 0; j < cols; ++j) {
      re[static_cast<std::size_t>(i * cols + j)] = m(i, j).real();
      im[static_cast<std::size_t>(i * cols + j)] = m(i, j).imag();
    }
}

void PlanarBlock::to(CMatrix& m) const {
  m.resize(rows, cols);
  for (Index i = 0; i < rows; ++i)
    for (Index j = 0; j < cols; ++j)
      m(i, j) = cplx(re[static_cast<std::size_t>(i * cols + j)], im[static_cast<std::size_t>(i * cols + j)]);
}

void apply_chebyshev(const ChebyshevSeries& s, const ChebyshevGenerator& H, PlanarBlock& x, ChebyshevWork& work) {
  const std::size_t K = s.a.size() - 1;
  work.blocks.resize(std::max<std::size_t>(work.blocks.size(), 3));
  PlanarBlock* prev = &work.blocks[0];
  PlanarBlock* cur = &work.blocks[1];
  PlanarBlock* next = &work.blocks[2];
  *prev = x;  // x accumulates the sum from here
  const double a0r = s.a[0].real(), a0i = s.a[0].imag();
  for (std::size_t i = 0; i < x.re.size(); ++i) {
    const double r = prev->re[i], m = prev->im[i];
    x.re[i] = a0r * r - a0i * m;
    x.im[i] = a0r * m + a0i * r;
  }
  if (K == 0) return;
  chebyshev_product(H, *prev, nullptr, s.center, 1.0 / s.radius, *cur);
  add_scaled(s.a[1], *cur, x);
  for (std::size_t k = 2; k <= K; ++k) {
    chebyshev_product(H, *cur, prev, s.center, 2.0 / s.radius, *next);
    add_scaled(s.a[k], *next, x);
    std::swap(prev, cur);
    std::swap(cur, next);
  }
}

void apply_chebyshev(const ChebyshevSeries& s, const CMatrix& H, CMatrix& x, ChebyshevWork& work) {
  work.h.assign(H);
  PlanarBlock px;
  px.assign(x);
  apply_chebyshev(s, work.h, px, work);
  px.to(x);
}

ChebyshevSeries conjugate(const ChebyshevSeries& s) {
  ChebyshevSeries out = s;
  for (cplx& a : out.a) a = std::conj(a);
  return out;
}

// Moved unchanged from src/solver/chebyshev.cpp (adjoint_step), the accumulation a callback.
void chebyshev_step_back(const ChebyshevSeries& s, const ChebyshevGenerator& H, CMatrix& psi, CMatrix& lambda,
                         ChebyshevWork& work, const ChebyshevAccumulate& accumulate) {
  const std::size_t K = s.a.size() - 1;
  PlanarBlock p;
  p.assign(psi);
  apply_chebyshev(conjugate(s), H, p, work);  // psi before the step
  p.to(psi);
  const Index D = H.sparse.n;
  if (K == 0) {
    lambda *= std::conj(s.a[0]);
    return;
  }
  // T_j psi, j = 0 .. K - 1 (the forward recurrence of the step, kept), then three blocks for
  // W and one for lambda.
  std::vector<PlanarBlock>& b = work.blocks;
  b.resize(K + 4);
  b[0] = p;
  if (K > 1) chebyshev_product(H, b[0], nullptr, s.center, 1.0 / s.radius, b[1]);
  for (std::size_t j = 2; j < K; ++j) chebyshev_product(H, b[j - 1], &b[j - 2], s.center, 2.0 / s.radius, b[j]);
  // Clenshaw backward: W_m = conj(a_m) lambda + 2 Ht W_{m+1} - W_{m+2}, m = K .. 0.
  PlanarBlock& lam = b[K + 3];
  lam.assign(lambda);
  PlanarBlock* w2 = &b[K];      // W_{m+2}
  PlanarBlock* w1 = &b[K + 1];  // W_{m+1}
  PlanarBlock* w0 = &b[K + 2];  // W_m
  for (PlanarBlock* w : {w2, w1, w0}) {
    w->resize(D, lambda.cols());
    std::fill(w->re.begin(), w->re.end(), 0.0);
    std::fill(w->im.begin(), w->im.end(), 0.0);
  }
  CMatrix W, W2_at_0;
  for (std::size_t m = K + 1; m-- > 0;) {
    if (m == K) {
      std::fill(w0->re.begin(), w0->re.end(), 0.0);
      std::fill(w0->im.begin(), w0->im.end(), 0.0);
    } else {
      chebyshev_product(H, *w1, w2, s.center, 2.0 / s.radius, *w0);
    }
    add_scaled(std::conj(s.a[m]), lam, *w0);
    if (m >= 1) accumulate((m == 1 ? 1.0 : 2.0) / s.radius, b[m - 1], *w0);
    if (m == 0) w2->to(W2_at_0);
    std::swap(w2, w1);
    std::swap(w1, w0);
  }
  // After the loop w1 holds W_0.
  w1->to(W);
  lambda = 0.5 * (W - W2_at_0 + std::conj(s.a[0]) * lambda);
}

}  // namespace qevolve::backend
