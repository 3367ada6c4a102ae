// The hot kernel of the Trotter path: a small dense gate G (g x g, g = d_a * d_b) applied to
// modes (a, b) of a block of state columns, without forming any D x D matrix.
//
// Block layout ("split planes"): a block of `width` columns of a D-dimensional state is two
// arrays re[D * width], im[D * width]; element (flat index i, column c) sits at i * width + c.
// Mode 0 is the most significant digit of i. With stride_q = width * prod_{p > q} d_p, the
// element for levels (.., j_a, .., j_b, ..) of the gate's modes is
//     l * (d_a * stride_a) + j_a * stride_a + m * (d_b * stride_b) + j_b * stride_b + n
// with n in [0, stride_b) contiguous. A one-mode gate is the case d_b = 1, stride_b = stride_a.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include "qevolve/backend/host_device.hpp"

namespace qevolve::backend {

/// Largest gate handled by the kernels (two modes of 8 levels, or one of 64).
inline constexpr int kMaxGateSize = 64;

/// Where a gate's g amplitudes sit inside a block, computed once per (gate modes, block width).
struct GateGeometry {
  std::ptrdiff_t outer = 1;    ///< number of l values
  std::ptrdiff_t middle = 1;   ///< number of m values
  std::ptrdiff_t inner = 1;    ///< contiguous run length (stride_b)
  std::ptrdiff_t outer_stride = 0;   ///< d_a * stride_a
  std::ptrdiff_t middle_stride = 0;  ///< d_b * stride_b
  int da = 1, db = 1;
  std::ptrdiff_t stride_a = 0, stride_b = 0;

  /// Offset of gate basis state j = j_a * d_b + j_b relative to the slice base.
  std::ptrdiff_t offset[kMaxGateSize] = {};

  [[nodiscard]] QEVOLVE_HOST_DEVICE int size() const { return da * db; }
  [[nodiscard]] QEVOLVE_HOST_DEVICE std::ptrdiff_t base(std::ptrdiff_t l, std::ptrdiff_t m) const {
    return l * outer_stride + m * middle_stride;
  }
};

/// Geometry for a gate on `mode_a` (and `mode_b` > mode_a, or -1 for a one-mode gate) of a
/// block of `width` columns of a state with per-mode dimensions dims[0..num_modes).
GateGeometry make_geometry(const int* dims, int num_modes, int mode_a, int mode_b,
                           std::ptrdiff_t width);

/// y = G x in place on one contiguous run, the functor evaluated per (l, m, n) index: it reads
/// the g amplitudes of one gate-local vector, multiplies by G (row-major, split re/im) and writes
/// them back. G is given as g*g real parts followed by g*g imaginary parts.
template <typename Real, int G>
struct ApplyGate {
  Real* re;
  Real* im;
  const Real* gate;  // [2 * g * g]: re then im, row-major
  GateGeometry geo;

  QEVOLVE_HOST_DEVICE void operator()(std::ptrdiff_t l, std::ptrdiff_t m, std::ptrdiff_t n) const {
    // G > 0: the size is a compile-time constant (loops unrolled, scratch in registers);
    // G = 0: the size is geo.size() <= kMaxGateSize, known at run time only.
    constexpr int capacity = G > 0 ? G : kMaxGateSize;
    const int g = G > 0 ? G : geo.size();
    const std::ptrdiff_t b = geo.base(l, m) + n;
    Real xr[capacity], xi[capacity];
    for (int j = 0; j < g; ++j) {
      xr[j] = re[b + geo.offset[j]];
      xi[j] = im[b + geo.offset[j]];
    }
    for (int o = 0; o < g; ++o) {
      Real yr = 0, yi = 0;
      for (int j = 0; j < g; ++j) {
        const Real gr = gate[o * g + j], gi = gate[g * g + o * g + j];
        yr += gr * xr[j] - gi * xi[j];
        yi += gr * xi[j] + gi * xr[j];
      }
      re[b + geo.offset[o]] = yr;
      im[b + geo.offset[o]] = yi;
    }
  }
};

/// ApplyGate for a gate size known only at run time (g = geo.size() <= kMaxGateSize).
template <typename Real>
using ApplyGateDynamic = ApplyGate<Real, 0>;

/// The gate sizes with a compile-time kernel (ApplyGate<Real, G>); every backend dispatches
/// over the same list.
using CompiledGateSizes = std::integer_sequence<int, 1, 2, 3, 4, 5, 6, 8, 9, 12, 16, 25>;

namespace detail {
template <typename Fixed, int... Gs>
bool dispatch_compiled(int g, Fixed& fixed, std::integer_sequence<int, Gs...> /*sizes*/) {
  return ((g == Gs ? (fixed(std::integral_constant<int, Gs>{}), true) : false) || ...);
}
}  // namespace detail

/// Calls fixed(std::integral_constant<int, g>{}) when g is in CompiledGateSizes, dynamic()
/// otherwise. (C++17: the CUDA sources include this header too.)
template <typename Fixed, typename Dynamic>
void dispatch_gate_size(int g, Fixed&& fixed, Dynamic&& dynamic) {
  if (!detail::dispatch_compiled(g, fixed, CompiledGateSizes{})) dynamic();
}

/// Applies a g x g gate (g = geo.size()) in place to a block (CPU driver). Dispatches to a
/// compile-time g for CompiledGateSizes and to ApplyGateDynamic otherwise.
template <typename Real>
void apply_gate(Real* re, Real* im, const GateGeometry& geo, const Real* gate);

/// Applies a block-diagonal gate in one sweep: nb blocks of size b, block k acting on the gate
/// basis states at geo.offset[k b .. (k + 1) b) (geo.size() is not used) with the b x b matrix
/// at blocks + 2 k b^2 (real parts then imaginary parts, row-major). The same result as
/// apply_gate with the full matrix, with b^2 nb instead of (b nb)^2 multiply-adds per slice.
template <typename Real>
void apply_gate_blocks(Real* re, Real* im, const GateGeometry& geo, const Real* blocks, int b, int nb);

/// A factored gate G = R S of two 2-level modes in one sweep (backend.hpp GateSchedule): S is
/// block diagonal over the gate basis states {0, 3} and {1, 2} (total parity), given as
/// apply_gate_blocks takes it with b = 2, nb = 2 (geo.offset[0..4) the states 0, 3, 1, 2), and
/// R = [[1, w01], [w10, 1]] acts on mode position `position` (0: the gate's first mode).
/// data: S's 16 numbers, then re w01, im w01, re w10, im w10; kind 0: R real, 1: w01 and w10
/// imaginary, 2: general (the multiplications by the zero parts are skipped).
template <typename Real>
void apply_factored_gate(Real* re, Real* im, const GateGeometry& geo, const Real* data, int position, int kind);

/// y += alpha * G x (x and y are different blocks of the same shape): the building block of the
/// matrix-free H application used by the adaptive solver. `gate` as above (not necessarily
/// unitary), alpha a complex scalar.
template <typename Real>
void accumulate_gate(const Real* xre, const Real* xim, Real* yre, Real* yim,
                     const GateGeometry& geo, const Real* gate, Real alpha_re, Real alpha_im);

/// The gate environment of the adjoint pass: env(b, a) += sum over every slice (l, m, n) of
/// psi_b conj(lambda_a), where psi_b / lambda_a are the amplitudes of gate basis states b / a
/// in two blocks of the same shape. env holds g*g real parts then g*g imaginary parts,
/// row-major in (b, a). Then Tr(dG env) = sum_{a,b} dG(a, b) env(b, a) = <lambda| dG |psi>.
/// (Double precision only: the adjoint passes run in double.)
void accumulate_environment(const double* psi_re, const double* psi_im, const double* lam_re,
                            const double* lam_im, const GateGeometry& geo, double* env);

/// Entry (b, a) of the gate environment (as accumulate_environment) summed over the slices
/// first, first + stride, first + 2 stride, ... below geo's slice count, the flat slice index
/// being (l * middle + m) * inner + n: sum psi_b conj(lambda_a), real and imaginary part. The
/// CUDA adjoint executor gives each thread one (pair, first) with stride = threads per pair, so
/// that neighbouring threads read neighbouring amplitudes, and adds the partial sums
/// atomically; the CPU tests check the functor against accumulate_environment.
struct EnvironmentSum {
  const double* psi_re;
  const double* psi_im;
  const double* lam_re;
  const double* lam_im;
  GateGeometry geo;

  [[nodiscard]] QEVOLVE_HOST_DEVICE std::ptrdiff_t slices() const { return geo.outer * geo.middle * geo.inner; }

  QEVOLVE_HOST_DEVICE void operator()(int b, int a, std::ptrdiff_t first, std::ptrdiff_t stride, double& re,
                                      double& im) const {
    double sr = 0, si = 0;
    const std::ptrdiff_t total = slices(), ob = geo.offset[b], oa = geo.offset[a];
    for (std::ptrdiff_t s = first; s < total; s += stride) {
      const std::ptrdiff_t lm = s / geo.inner;
      const std::ptrdiff_t at = geo.base(lm / geo.middle, lm % geo.middle) + (s - lm * geo.inner);
      const double pr = psi_re[at + ob], pi = psi_im[at + ob];
      const double lr = lam_re[at + oa], li = lam_im[at + oa];
      sr += pr * lr + pi * li;  // psi_b conj(lambda_a)
      si += pi * lr - pr * li;
    }
    re = sr;
    im = si;
  }
};

/// One gate of the adjoint pass, fused into a single sweep over both blocks:
///   psi <- P psi;  env += psi lambda^dag (gate-local, as accumulate_environment; skipped when
///   env is null);  lambda <- L lambda.
/// P and L are g x g split gates (the same matrix for a unitary step; the open-system adjoint
/// passes a dissipator's inverse for psi). Equal to the three separate calls, up to rounding.
void adjoint_gate(double* psi_re, double* psi_im, double* lam_re, double* lam_im,
                  const GateGeometry& geo, const double* psi_gate, const double* lam_gate,
                  double* env);

}  // namespace qevolve::backend
