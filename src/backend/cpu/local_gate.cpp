// CPU driver of the local-gate functors: loops over (l, m) slices and vectorises the
// contiguous run n; compile-time gate sizes for the common cases.
#include "qevolve/backend/local_gate.hpp"

#include "gate_ops.hpp"

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

namespace qevolve::backend {
namespace {

/// Gate functor F (ApplyGate<Real, G> or ApplyGateDynamic<Real>) over every (l, m) slice, the
/// contiguous run n vectorised. One function per functor type that builds its functor itself,
/// as before the dispatch was shared with CUDA: handing a functor built in the dispatch lambda to
/// one generic loop let GCC 12 merge all sizes into apply_gate, 4-6% slower (measured).
template <typename F, typename Real>
void run_apply(Real* re, Real* im, const GateGeometry& geo, const Real* gate) {
  const F f{re, im, gate, geo};
  for (std::ptrdiff_t l = 0; l < geo.outer; ++l)
    for (std::ptrdiff_t m = 0; m < geo.middle; ++m) {
#pragma omp simd
      for (std::ptrdiff_t n = 0; n < geo.inner; ++n) f(l, m, n);
    }
}

template <typename Real>
void run_accumulate(const Real* xre, const Real* xim, Real* yre, Real* yim,
                    const GateGeometry& geo, const Real* gate, Real ar, Real ai) {
  const int g = geo.size();
  for (std::ptrdiff_t l = 0; l < geo.outer; ++l)
    for (std::ptrdiff_t m = 0; m < geo.middle; ++m) {
      const std::ptrdiff_t base = geo.base(l, m);
      for (int o = 0; o < g; ++o) {
        // Coefficient alpha * G[o][j], then a vectorised axpy over the contiguous run.
        Real* yr = yre + base + geo.offset[o];
        Real* yi = yim + base + geo.offset[o];
        for (int j = 0; j < g; ++j) {
          const Real gr = gate[o * g + j], gi = gate[g * g + o * g + j];
          const Real cr = ar * gr - ai * gi, ci = ar * gi + ai * gr;
          if (cr == Real(0) && ci == Real(0)) continue;
          const Real* xr = xre + base + geo.offset[j];
          const Real* xi = xim + base + geo.offset[j];
#pragma omp simd
          for (std::ptrdiff_t n = 0; n < geo.inner; ++n) {
            yr[n] += cr * xr[n] - ci * xi[n];
            yi[n] += cr * xi[n] + ci * xr[n];
          }
        }
      }
    }
}

using cpu::for_each_position;

/// y = M x on the B amplitudes of one position (M in Gauss's form p, cpu::prepare_block); each
/// row is stored as soon as it is done.
template <int B, typename Real, typename Access>
void block_times(const Real* p, const Access& a) {
  using T = typename Access::value_type;
  T xr[B], xi[B], s[B], d[B];
  for (int j = 0; j < B; ++j) a.load(j, xr[j], xi[j]);
  cpu::gauss_inputs<B>(xr, xi, s, d);
  for (int o = 0; o < B; ++o) {
    T yr, yi;
    cpu::times_row<B>(p, xr, s, d, o, yr, yi);
    a.store(o, yr, yi);
  }
}

/// nb diagonal blocks of size B applied in one sweep over every slice: block k acts on the
/// states geo.offset[k B .. (k + 1) B) with the B x B matrix at blocks + 2 k B^2 (re then im,
/// row-major); nb = 1 is a dense gate.
template <typename Real, int B>
void run_blocks(Real* re, Real* im, const GateGeometry& geo, const Real* blocks_in, int nb) {
  // The blocks in Gauss's form (cpu::prepare_block), on the stack when small (every case the
  // solvers use): the compiler cannot know that the stores to re / im leave a local copy
  // alone, and would load every entry again for each vector. Larger ones go to a per-thread
  // buffer that only grows (no allocation per gate and step).
  constexpr int kLocal = 3 * B * B * (B <= 2 ? 4 : 1);
  Real local[kLocal];
  thread_local std::vector<Real> spill;
  Real* prepared = local;
  if (3 * B * B * nb > kLocal) {
    if (spill.size() < static_cast<std::size_t>(3 * B * B * nb)) spill.resize(static_cast<std::size_t>(3 * B * B * nb));
    prepared = spill.data();
  }
  for (int k = 0; k < nb; ++k) cpu::prepare_block(blocks_in + 2 * k * B * B, B, prepared + 3 * k * B * B);
  for (std::ptrdiff_t l = 0; l < geo.outer; ++l)
    for (std::ptrdiff_t m = 0; m < geo.middle; ++m)
      for (int k = 0; k < nb; ++k) {
        const Real* p = prepared + 3 * k * B * B;
        for_each_position<B>(re, im, geo, geo.base(l, m), k * B,
                             [&](const auto& a) { block_times<B>(p, a); });
      }
}

/// A factored gate (cpu::FactoredOp) over every slice; its geometry's offsets are the states
/// 0, 3, 1, 2 (its parity groups, as apply_gate_blocks takes them).
template <typename Real, int Kind, int Pos>
void run_factored(Real* re, Real* im, const GateGeometry& geo, const Real* data) {
  using Op = cpu::FactoredOp<Real, Kind, Pos>;
  Real local[Op::kPrepared];
  Op::prepare(data, local);
  const Op op{local};
  constexpr int kState[4] = {0, 3, 1, 2};  // the state at geometry offset j
  for (std::ptrdiff_t l = 0; l < geo.outer; ++l)
    for (std::ptrdiff_t m = 0; m < geo.middle; ++m)
      for_each_position<4>(re, im, geo, geo.base(l, m), 0, [&](const auto& a) {
        using T = typename std::decay_t<decltype(a)>::value_type;
        T xr[4], xi[4];
        for (int j = 0; j < 4; ++j) a.load(j, xr[kState[j]], xi[kState[j]]);
        op(xr, xi);
        for (int j = 0; j < 4; ++j) a.store(j, xr[kState[j]], xi[kState[j]]);
      });
}

/// Eight doubles, one 512-bit vector (GCC/Clang vector extension; two 256-bit halves on AVX2).
using Lanes = double __attribute__((vector_size(64)));
constexpr int kLanes = 8;

/// Loads `count` <= kLanes doubles (the other lanes zero) / stores the first `count` lanes.
void load_partial(const double* p, int count, Lanes& v) {
  if (count == kLanes) {
    std::memcpy(&v, p, sizeof v);
    return;
  }
  v = Lanes{};
  for (int i = 0; i < count; ++i) v[i] = p[i];
}

void store_partial(double* p, int count, const Lanes& v) {
  if (count == kLanes) {
    std::memcpy(p, &v, sizeof v);
    return;
  }
  for (int i = 0; i < count; ++i) p[i] = v[i];
}

/// load_partial / store_partial with the whole-vector case known at compile time.
template <bool kFull>
void load_lanes(const double* p, int count, Lanes& v) {
  if constexpr (kFull)
    std::memcpy(&v, p, sizeof v);
  else
    load_partial(p, count, v);
}

template <bool kFull>
void store_lanes(double* p, int count, const Lanes& v) {
  if constexpr (kFull)
    std::memcpy(p, &v, sizeof v);
  else
    store_partial(p, count, v);
}

/// start + the lanes of v, added in lane order.
double add_lanes(double start, const Lanes& v) {
  for (int i = 0; i < kLanes; ++i) start += v[i];
  return start;
}

/// Rows b0 .. b0+BB-1 of the environment (all g columns a) over every slice. The sums are kept
/// per SIMD lane in vector registers and reduced across lanes once at the end, so a short
/// contiguous run costs no horizontal reduction per slice; the BB rows share the loads of
/// lambda.
template <int G, int BB>
void environment_rows(const double* psi_re, const double* psi_im, const double* lam_re,
                      const double* lam_im, const GateGeometry& geo, int b0, double* env) {
  Lanes sr[BB][G] = {}, si[BB][G] = {};
  double tr[BB][G] = {}, ti[BB][G] = {};  // the tails of runs shorter than a vector
  const std::ptrdiff_t inner = geo.inner, full = inner - inner % kLanes;
  for (std::ptrdiff_t l = 0; l < geo.outer; ++l)
    for (std::ptrdiff_t m = 0; m < geo.middle; ++m) {
      const std::ptrdiff_t base = geo.base(l, m);
      const double* pr[BB];
      const double* pi[BB];
      const double* lr[G];
      const double* li[G];
      for (int bb = 0; bb < BB; ++bb) {
        pr[bb] = psi_re + base + geo.offset[b0 + bb];
        pi[bb] = psi_im + base + geo.offset[b0 + bb];
      }
      for (int a = 0; a < G; ++a) {
        lr[a] = lam_re + base + geo.offset[a];
        li[a] = lam_im + base + geo.offset[a];
      }
      for (std::ptrdiff_t n = 0; n < full; n += kLanes) {
        Lanes xr[BB], xi[BB];
        for (int bb = 0; bb < BB; ++bb) {
          load_partial(pr[bb] + n, kLanes, xr[bb]);
          load_partial(pi[bb] + n, kLanes, xi[bb]);
        }
        for (int a = 0; a < G; ++a) {
          Lanes yr, yi;
          load_partial(lr[a] + n, kLanes, yr);
          load_partial(li[a] + n, kLanes, yi);
          for (int bb = 0; bb < BB; ++bb) {
            // Four separate updates, so each is one fused multiply-add.
            sr[bb][a] += xr[bb] * yr;
            sr[bb][a] += xi[bb] * yi;
            si[bb][a] += xi[bb] * yr;
            si[bb][a] -= xr[bb] * yi;
          }
        }
      }
      for (std::ptrdiff_t n = full; n < inner; ++n)
        for (int bb = 0; bb < BB; ++bb) {
          const double xr = pr[bb][n], xi = pi[bb][n];
          for (int a = 0; a < G; ++a) {
            const double yr = lr[a][n], yi = li[a][n];
            tr[bb][a] += xr * yr + xi * yi;
            ti[bb][a] += xi * yr - xr * yi;
          }
        }
    }
  for (int bb = 0; bb < BB; ++bb)
    for (int a = 0; a < G; ++a) {
      env[(b0 + bb) * G + a] += add_lanes(tr[bb][a], sr[bb][a]);
      env[G * G + (b0 + bb) * G + a] += add_lanes(ti[bb][a], si[bb][a]);
    }
}

/// Any gate size: one dot product per (b, a) and slice.
void environment_dynamic(const double* psi_re, const double* psi_im, const double* lam_re,
                         const double* lam_im, const GateGeometry& geo, double* env) {
  const int g = geo.size();
  for (std::ptrdiff_t l = 0; l < geo.outer; ++l)
    for (std::ptrdiff_t m = 0; m < geo.middle; ++m) {
      const std::ptrdiff_t base = geo.base(l, m);
      for (int b = 0; b < g; ++b) {
        const double* pr = psi_re + base + geo.offset[b];
        const double* pi = psi_im + base + geo.offset[b];
        for (int a = 0; a < g; ++a) {
          const double* lr = lam_re + base + geo.offset[a];
          const double* li = lam_im + base + geo.offset[a];
          double sr = 0.0, si = 0.0;
#pragma omp simd reduction(+ : sr, si)
          for (std::ptrdiff_t n = 0; n < geo.inner; ++n) {
            sr += pr[n] * lr[n] + pi[n] * li[n];
            si += pi[n] * lr[n] - pr[n] * li[n];
          }
          env[b * g + a] += sr;
          env[g * g + b * g + a] += si;
        }
      }
    }
}

/// out[o] = sum_j M(o, j) in[j] on G gate-local vectors of lanes; M split re/im, row-major.
template <int G>
void gate_times(const double* M, const Lanes (&in_re)[G], const Lanes (&in_im)[G], Lanes (&out_re)[G],
                Lanes (&out_im)[G]) {
  for (int o = 0; o < G; ++o) {
    Lanes r{}, i{};
    for (int j = 0; j < G; ++j) {
      const double mr = M[o * G + j], mi = M[G * G + o * G + j];
      r += mr * in_re[j];
      r -= mi * in_im[j];
      i += mr * in_im[j];
      i += mi * in_re[j];
    }
    out_re[o] = r;
    out_im[o] = i;
  }
}

/// The fused adjoint step for a compile-time gate size (see adjoint_gate). Each gate-local
/// vector of both blocks is read and written once; the environment sums stay per lane until
/// the end. A run shorter than a vector (or its tail) goes through partial loads, whose zero
/// lanes add nothing.
template <int G, bool kEnv>
struct AdjointSweep {
  double* pr[G];
  double* pi[G];
  double* lr[G];
  double* li[G];
  const double* psi_gate;
  const double* lam_gate;
  Lanes er[G][G] = {}, ei[G][G] = {};

  template <bool kFull>
  void chunk(std::ptrdiff_t n, int count) {
    Lanes xr[G], xi[G], yr[G], yi[G], ur[G], ui[G];
    for (int j = 0; j < G; ++j) {
      load_lanes<kFull>(pr[j] + n, count, xr[j]);
      load_lanes<kFull>(pi[j] + n, count, xi[j]);
      load_lanes<kFull>(lr[j] + n, count, yr[j]);
      load_lanes<kFull>(li[j] + n, count, yi[j]);
    }
    gate_times<G>(psi_gate, xr, xi, ur, ui);
    for (int j = 0; j < G; ++j) {
      store_lanes<kFull>(pr[j] + n, count, ur[j]);
      store_lanes<kFull>(pi[j] + n, count, ui[j]);
    }
    if constexpr (kEnv)
      for (int b = 0; b < G; ++b)
        for (int a = 0; a < G; ++a) {
          er[b][a] += ur[b] * yr[a];
          er[b][a] += ui[b] * yi[a];
          ei[b][a] += ui[b] * yr[a];
          ei[b][a] -= ur[b] * yi[a];
        }
    gate_times<G>(lam_gate, yr, yi, ur, ui);
    for (int j = 0; j < G; ++j) {
      store_lanes<kFull>(lr[j] + n, count, ur[j]);
      store_lanes<kFull>(li[j] + n, count, ui[j]);
    }
  }
};

template <int G, bool kEnv>
void adjoint_gate_fixed(double* psi_re, double* psi_im, double* lam_re, double* lam_im,
                        const GateGeometry& geo, const double* psi_gate, const double* lam_gate,
                        double* env) {
  AdjointSweep<G, kEnv> sw;
  sw.psi_gate = psi_gate;
  sw.lam_gate = lam_gate;
  const std::ptrdiff_t inner = geo.inner, full = inner - inner % kLanes;
  for (std::ptrdiff_t l = 0; l < geo.outer; ++l)
    for (std::ptrdiff_t m = 0; m < geo.middle; ++m) {
      const std::ptrdiff_t base = geo.base(l, m);
      for (int j = 0; j < G; ++j) {
        sw.pr[j] = psi_re + base + geo.offset[j];
        sw.pi[j] = psi_im + base + geo.offset[j];
        sw.lr[j] = lam_re + base + geo.offset[j];
        sw.li[j] = lam_im + base + geo.offset[j];
      }
      for (std::ptrdiff_t n = 0; n < full; n += kLanes) sw.template chunk<true>(n, kLanes);
      if (full < inner) sw.template chunk<false>(full, static_cast<int>(inner - full));
    }
  if constexpr (kEnv)
    for (int b = 0; b < G; ++b)
      for (int a = 0; a < G; ++a) {
        env[b * G + a] += add_lanes(0.0, sw.er[b][a]);
        env[G * G + b * G + a] += add_lanes(0.0, sw.ei[b][a]);
      }
}

}  // namespace

void adjoint_gate(double* psi_re, double* psi_im, double* lam_re, double* lam_im,
                  const GateGeometry& geo, const double* psi_gate, const double* lam_gate,
                  double* env) {
  // The fused sweep keeps 4 g streams open; with long contiguous runs (gates on the leading
  // modes) their strides are multiples of 4 KiB and the separate passes were faster
  // (bench_local_gate BM_AdjointGate: 33 vs 26 GFLOP/s at a run of 1024, 42 vs 48 at 256).
  constexpr std::ptrdiff_t kLongRun = 512;
  auto separate = [&] {
    apply_gate(psi_re, psi_im, geo, psi_gate);
    if (env != nullptr) accumulate_environment(psi_re, psi_im, lam_re, lam_im, geo, env);
    apply_gate(lam_re, lam_im, geo, lam_gate);
  };
  if (geo.inner >= kLongRun || geo.inner < kLanes) {
    separate();
    return;
  }
  dispatch_gate_size(
      geo.size(),
      [&](auto g) {
        constexpr int G = decltype(g)::value;
        if constexpr (G > 9) {  // 2 G^2 lane accumulators: too many beyond two 3-level modes
          separate();
          return;
        }
        if (env != nullptr)
          adjoint_gate_fixed<G, true>(psi_re, psi_im, lam_re, lam_im, geo, psi_gate, lam_gate, env);
        else
          adjoint_gate_fixed<G, false>(psi_re, psi_im, lam_re, lam_im, geo, psi_gate, lam_gate, env);
      },
      separate);
}

void accumulate_environment(const double* psi_re, const double* psi_im, const double* lam_re,
                            const double* lam_im, const GateGeometry& geo, double* env) {
  // Register-blocked rows for the common sizes (two rows per pass for g <= 2, one row for
  // g <= 9: the accumulators must fit the 32 vector registers, and for g = 4 two rows, 12
  // open streams, measured slower when the strides alias in L1); the general loop otherwise.
  auto rows = [&](auto size, auto block) {
    constexpr int G = decltype(size)::value, BB = decltype(block)::value;
    for (int b0 = 0; b0 < G; b0 += BB)
      environment_rows<G, BB>(psi_re, psi_im, lam_re, lam_im, geo, b0, env);
  };
  using std::integral_constant;
  switch (geo.size()) {
    case 1: rows(integral_constant<int, 1>{}, integral_constant<int, 1>{}); break;
    case 2: rows(integral_constant<int, 2>{}, integral_constant<int, 2>{}); break;
    case 3: rows(integral_constant<int, 3>{}, integral_constant<int, 1>{}); break;
    case 4: rows(integral_constant<int, 4>{}, integral_constant<int, 1>{}); break;
    case 6: rows(integral_constant<int, 6>{}, integral_constant<int, 1>{}); break;
    case 8: rows(integral_constant<int, 8>{}, integral_constant<int, 1>{}); break;
    case 9: rows(integral_constant<int, 9>{}, integral_constant<int, 1>{}); break;
    default: environment_dynamic(psi_re, psi_im, lam_re, lam_im, geo, env);
  }
}

template <typename Real>
void apply_gate(Real* re, Real* im, const GateGeometry& geo, const Real* gate) {
  dispatch_gate_size(
      geo.size(), [&](auto g) { run_blocks<Real, decltype(g)::value>(re, im, geo, gate, 1); },
      [&] { run_apply<ApplyGateDynamic<Real>>(re, im, geo, gate); });
}

template <typename Real>
void apply_gate_blocks(Real* re, Real* im, const GateGeometry& geo, const Real* blocks, int b, int nb) {
  dispatch_gate_size(
      b, [&](auto size) { run_blocks<Real, decltype(size)::value>(re, im, geo, blocks, nb); },
      [&] {
        GateGeometry one = geo;
        one.da = b;
        one.db = 1;
        for (int k = 0; k < nb; ++k) {
          for (int j = 0; j < b; ++j) one.offset[j] = geo.offset[k * b + j];
          run_apply<ApplyGateDynamic<Real>>(re, im, one, blocks + 2 * k * b * b);
        }
      });
}

template <typename Real>
void accumulate_gate(const Real* xre, const Real* xim, Real* yre, Real* yim,
                     const GateGeometry& geo, const Real* gate, Real alpha_re, Real alpha_im) {
  run_accumulate<Real>(xre, xim, yre, yim, geo, gate, alpha_re, alpha_im);
}

template <typename Real>
void apply_factored_gate(Real* re, Real* im, const GateGeometry& geo, const Real* data, int position, int kind) {
  // (kind, position) at compile time: kind 0, 1 or 2 (anything else: general), position 0 or 1.
  auto at_position = [&](auto k) {
    constexpr int K = decltype(k)::value;
    position == 0 ? run_factored<Real, K, 0>(re, im, geo, data) : run_factored<Real, K, 1>(re, im, geo, data);
  };
  using std::integral_constant;
  if (kind == 0)
    at_position(integral_constant<int, 0>{});
  else if (kind == 1)
    at_position(integral_constant<int, 1>{});
  else
    at_position(integral_constant<int, 2>{});
}

template void apply_gate<double>(double*, double*, const GateGeometry&, const double*);
template void apply_factored_gate<double>(double*, double*, const GateGeometry&, const double*, int, int);
template void apply_factored_gate<float>(float*, float*, const GateGeometry&, const float*, int, int);
template void apply_gate<float>(float*, float*, const GateGeometry&, const float*);
template void apply_gate_blocks<double>(double*, double*, const GateGeometry&, const double*, int, int);
template void apply_gate_blocks<float>(float*, float*, const GateGeometry&, const float*, int, int);
template void accumulate_gate<double>(const double*, const double*, double*, double*,
                                      const GateGeometry&, const double*, double, double);
template void accumulate_gate<float>(const float*, const float*, float*, float*,
                                     const GateGeometry&, const float*, float, float);

}  // namespace qevolve::backend
