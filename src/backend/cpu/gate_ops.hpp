// Register-level gate arithmetic shared by the CPU kernels (local_gate.cpp: the dense, block
// and factored gate kernels). Every kernel that applies a given kind of gate goes through the
// same functions here, so the updates of an amplitude happen in the same order whichever
// kernel ran them: results are bitwise the same for vector and scalar (tail) positions.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <type_traits>

#include "qevolve/backend/backend.hpp"
#include "qevolve/backend/local_gate.hpp"

namespace qevolve::backend::cpu {

/// One 64-byte vector of Real (GCC/Clang vector extension): 8 doubles or 16 floats.
template <typename Real>
struct Simd {
  typedef Real V __attribute__((vector_size(64)));
  static constexpr int kLanes = 64 / static_cast<int>(sizeof(Real));
};

/// Loads and stores at position n of a slice's amplitude runs (pointers pr[j], pi[j]): 64-byte
/// vectors (T = Simd<Real>::V) or scalars (T = Real).
template <typename T, typename Real>
struct RunAccess {
  using value_type = T;
  Real* const* pr;
  Real* const* pi;
  std::ptrdiff_t n;
  void load(int j, T& xr, T& xi) const {
    if constexpr (std::is_same_v<T, Real>) {
      xr = pr[j][n];
      xi = pi[j][n];
    } else {
      std::memcpy(&xr, pr[j] + n, sizeof(T));
      std::memcpy(&xi, pi[j] + n, sizeof(T));
    }
  }
  void store(int j, const T& yr, const T& yi) const {
    if constexpr (std::is_same_v<T, Real>) {
      pr[j][n] = yr;
      pi[j][n] = yi;
    } else {
      std::memcpy(pr[j] + n, &yr, sizeof(T));
      std::memcpy(pi[j] + n, &yi, sizeof(T));
    }
  }
};

/// Every position of one slice's G amplitude runs (the states geo.offset[first .. first + G)
/// at `base`): body(RunAccess<vector>) for each whole 64-byte vector of the contiguous run
/// geo.inner, then body(RunAccess<Real>) for each position of its tail. One body for both, so
/// a column's result does not depend on whether it fell into a vector or into the tail (the
/// block width, and so the split, depends on the thread count and the cache).
template <int G, typename Real, typename Body>
void for_each_position(Real* re, Real* im, const GateGeometry& geo, std::ptrdiff_t base, int first,
                       Body&& body) {
  constexpr int L = Simd<Real>::kLanes;
  Real* pr[G];
  Real* pi[G];
  for (int j = 0; j < G; ++j) {
    pr[j] = re + base + geo.offset[first + j];
    pi[j] = im + base + geo.offset[first + j];
  }
  const std::ptrdiff_t inner = geo.inner, full = inner - inner % L;
  for (std::ptrdiff_t n = 0; n < full; n += L)
    body(RunAccess<typename Simd<Real>::V, Real>{pr, pi, n});
  for (std::ptrdiff_t n = full; n < inner; ++n) body(RunAccess<Real, Real>{pr, pi, n});
}

/// A B x B block in Gauss's form for times_block: Re M, Im M and Re M + Im M, each B^2 numbers
/// row-major (3 B^2 in all), from M given as B^2 real parts then B^2 imaginary parts.
template <typename Real>
void prepare_block(const Real* m, int B, Real* out) {
  const int n = B * B;
  for (int i = 0; i < n; ++i) {
    out[i] = m[i];
    out[n + i] = m[n + i];
    out[2 * n + i] = m[i] + m[n + i];
  }
}

/// Gauss's sums of B inputs for times_row: s = Re x + Im x, d = Im x - Re x.
template <int B, typename T>
[[gnu::always_inline]] inline void gauss_inputs(const T* xr, const T* xi, T* s, T* d) {
  for (int j = 0; j < B; ++j) {
    s[j] = xr[j] + xi[j];
    d[j] = xi[j] - xr[j];
  }
}

/// Row o of y = M x with M in Gauss's form p (prepare_block) and the inputs' gauss_inputs:
/// (a + ib)(x + iy) = [x (a + b) - b (x + y)] + i [x (a + b) + a (y - x)], so each entry costs
/// three multiply-adds instead of four (the sums of the inputs are shared by all rows and run
/// on the adders, which the multiply-adds leave idle).
template <int B, typename Real, typename T>
[[gnu::always_inline]] inline void times_row(const Real* p, const T* xr, const T* s, const T* d,
                                             int o, T& yr, T& yi) {
  constexpr int n = B * B;
  const Real* a = p + o * B;
  T k = a[2 * n] * xr[0], q = a[n] * s[0], e = a[0] * d[0];
  for (int j = 1; j < B; ++j) {
    k += a[2 * n + j] * xr[j];
    q += a[n + j] * s[j];
    e += a[j] * d[j];
  }
  yr = k - q;
  yi = k + e;
}

/// x <- M x for B amplitudes in registers, M in Gauss's form.
template <int B, typename Real, typename T>
[[gnu::always_inline]] inline void times_block(const Real* p, T* xr, T* xi) {
  T s[B], d[B], yr[B], yi[B];
  gauss_inputs<B>(xr, xi, s, d);
  for (int o = 0; o < B; ++o) times_row<B>(p, xr, s, d, o, yr[o], yi[o]);
  for (int o = 0; o < B; ++o) {
    xr[o] = yr[o];
    xi[o] = yi[o];
  }
}

// Gates of two 2-level modes as register operators on the gate's numbers (kSize of them) in
// the prepared form at m (kPrepared numbers, Op::prepare: Gauss's form of each block): op(xr, xi)
// maps the four amplitudes of the gate basis states j = 2 j_a + j_b (natural order) in place;
// always inlined, so the amplitudes stay in vector registers (GCC 12 otherwise calls them, with the
// vectors through memory). Kernels point m at a local copy: the compiler cannot know that the
// stores to the state leave the gate alone, and would otherwise load every entry again for each
// vector.

/// A gate that conserves total parity: its 2 x 2 blocks on the states {0, 3} and {1, 2}, 16
/// numbers (each block's real parts then imaginary parts, row-major; apply_gate_blocks).
template <typename Real>
struct ParityOp {
  static constexpr int kSize = 16, kPrepared = 24;
  static void prepare(const Real* raw, Real* out) {
    prepare_block(raw, 2, out);
    prepare_block(raw + 8, 2, out + 12);
  }
  const Real* m;  ///< prepared
  template <typename T>
  [[gnu::always_inline]] void operator()(T* xr, T* xi) const {
    constexpr int kStates[2][2] = {{0, 3}, {1, 2}};
    for (int k = 0; k < 2; ++k) {
      T br[2], bi[2];
      for (int j = 0; j < 2; ++j) {
        br[j] = xr[kStates[k][j]];
        bi[j] = xi[kStates[k][j]];
      }
      times_block<2>(m + 12 * k, br, bi);
      for (int j = 0; j < 2; ++j) {
        xr[kStates[k][j]] = br[j];
        xi[kStates[k][j]] = bi[j];
      }
    }
  }
};

/// A factored gate G = R S (backend.hpp GateSchedule::Gate): S as ParityOp, then R =
/// [[1, w01], [w10, 1]] on the mode at position Pos (0: the gate's first mode); 20 numbers
/// (S's 16, then re w01, im w01, re w10, im w10). Kind 0: w real, 1: w imaginary, 2: general
/// (the multiplications by the zero parts are skipped).
template <typename Real, int Kind, int Pos>
struct FactoredOp {
  static constexpr int kSize = ParityOp<Real>::kSize + kDriveFactorSize;
  static constexpr int kPrepared = ParityOp<Real>::kPrepared + kDriveFactorSize;
  static void prepare(const Real* raw, Real* out) {
    ParityOp<Real>::prepare(raw, out);
    std::copy(raw + ParityOp<Real>::kSize, raw + kSize, out + ParityOp<Real>::kPrepared);
  }
  const Real* m;  ///< prepared

  /// y + w q for one amplitude pair (w = wr + i wi).
  template <typename T>
  [[gnu::always_inline]] static void rotate(const T& yr, const T& yi, const T& qr, const T& qi,
                                            Real wr, Real wi, T& outr, T& outi) {
    outr = yr;
    outi = yi;
    if constexpr (Kind != 1) {
      outr += wr * qr;
      outi += wr * qi;
    }
    if constexpr (Kind != 0) {
      outr -= wi * qi;
      outi += wi * qr;
    }
  }

  template <typename T>
  [[gnu::always_inline]] void operator()(T* xr, T* xi) const {
    ParityOp<Real>{m}(xr, xi);
    const Real* w = m + ParityOp<Real>::kPrepared;
    // The pairs that differ in the drive's level; the first of each has level 0.
    constexpr int kPairs[2][2] = {{0, Pos == 0 ? 2 : 1}, {Pos == 0 ? 1 : 2, 3}};
    for (const auto& pair : kPairs) {
      const int lo = pair[0], hi = pair[1];
      T r0, i0, r1, i1;
      rotate(xr[lo], xi[lo], xr[hi], xi[hi], w[0], w[1], r0, i0);
      rotate(xr[hi], xi[hi], xr[lo], xi[lo], w[2], w[3], r1, i1);
      xr[lo] = r0;
      xi[lo] = i0;
      xr[hi] = r1;
      xi[hi] = i1;
    }
  }
};

}  // namespace qevolve::backend::cpu
