// The trace recorder (qevolve/trace.hpp): at each observed step boundary the forward pass's
// product-basis lab-frame state is taken to the basis of /propagator (dressed: W^dag psi,
// W^dag rho W) and its populations are added to the full-size arrays; ranks fill their own
// columns and a sum over the ranks assembles the whole trace.
#include "qevolve/trace.hpp"

#include "qevolve/backend/parallel.hpp"

#include <sys/mman.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <cstdint>
#include <limits>
#include <complex>
#include <span>
#include <stdexcept>
#include <string>

namespace qevolve::solver {
namespace {

/// `v` resized to `count` zeros, its memory advised for transparent huge pages first (a trace
/// of tens of MiB is otherwise faulted in 4 KiB page by page, which at N = 8 cost as much as
/// recording it: ~6 % of the forward pass at every: 10) and faulted in by `threads` threads at
/// once. The elements are zero already (ZeroedAllocator: calloc); the team writes one 0.0 per
/// 4 KiB page, the pages' first touch, spread over the threads instead of taken during the
/// evolution, where a fault stalled one thread while the others waited for it (measured at
/// N = 8, 2 threads). Writing zeros over the whole buffer instead would store the 26 MB of that
/// case a second time after the kernel has zeroed its pages.
template <typename Vector>
void zeros_on_huge_pages(Vector& v, std::size_t count, int threads) {
  constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
  constexpr Index kPage = 4096 / sizeof(double);
  v.reserve(count);
  const auto begin = reinterpret_cast<std::uintptr_t>(v.data());
  const std::uintptr_t first = (begin + kHuge - 1) & ~(kHuge - 1);
  const std::uintptr_t last = (begin + count * sizeof(double)) & ~(kHuge - 1);
  if (last > first) (void)madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
  v.resize(count);  // zeros, nothing written (ZeroedAllocator)
  constexpr auto kChunk = static_cast<Index>(kHuge / sizeof(double));
  const auto chunks = static_cast<Index>((count + kChunk - 1) / kChunk);
  double* data = v.data();
  // Page faults, not flops, decide: any two 2 MiB chunks are worth a team.
  const bool parallel = backend::worth_threads(threads, std::numeric_limits<double>::infinity(), chunks);
  backend::run_team(threads, parallel,
                    [&](backend::Team& team) {
                      team.for_static(0, chunks, [&](Index c) {
                        const Index end = std::min(static_cast<Index>(count), (c + 1) * kChunk);
                        for (Index k = c * kChunk; k < end; k += kPage) data[k] = 0.0;
                      });
                    });
}

/// dst[0, n) = src[0, n) with non-temporal stores where dst allows (x86-64: 16-byte aligned
/// pairs): a trace row is written once and read only when the file is written, so it should not
/// evict the state's planes from the cache, nor be read for ownership first.
void stream_copy(double* dst, const double* src, Index n) {
  Index c = 0;
#if defined(__SSE2__)
  // Rows shorter than a cache line would each be a partial write-combining flush, and share
  // lines with the neighbouring block's rows: cached stores there.
  if (n < 8) {
    std::copy(src, src + n, dst);
    return;
  }
  if ((reinterpret_cast<std::uintptr_t>(dst) & 15) != 0) {
    dst[0] = src[0];
    c = 1;
  }
  for (; c + 2 <= n; c += 2) _mm_stream_pd(dst + c, _mm_loadu_pd(src + c));
#endif
  for (; c < n; ++c) dst[c] = src[c];
}

/// Orders the non-temporal stores of stream_copy before whatever reads the trace later.
void stream_fence() {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

}  // namespace

TraceRecorder::TraceRecorder(const Simulator& sim, const comm::Shard& shard)
    : sim_(sim), shard_(shard), steps_(trace_steps(sim.options())) {
  const device::Device& dev = sim.device();
  Trace& t = trace_;
  t.dim = dev.dim();
  t.modes = dev.num_modes();
  for (int d : dev.dims()) t.levels = std::max<Index>(t.levels, d);
  t.columns = static_cast<Index>(sim.states().initial_indices().size());
  t.open = sim.options().open;
  const auto T = static_cast<Index>(steps_.size());
  t.has_populations = t.dim <= kMaxTraceDim &&
                      static_cast<double>(T) * static_cast<double>(t.dim) * static_cast<double>(t.columns) <=
                          kMaxTraceEntries;
  for (int s : steps_) t.time.push_back(s == sim.options().steps ? sim.options().duration : s * sim.options().dt());
  for (Index q = 0; q < shard.count; ++q) {
    const Index g = shard.first + q;
    expected_ += t.open ? (g % t.columns == g / t.columns ? 1 : 0) : 1;
  }
  if (t.has_populations)
    zeros_on_huge_pages(t.populations, static_cast<std::size_t>(T * t.dim * t.columns), sim.options().threads);
  t.mode_populations.assign(static_cast<std::size_t>(T * t.modes * t.levels * t.columns), 0.0);
  if (t.open) t.trace.assign(static_cast<std::size_t>(T * t.columns), 0.0);
  recorded_ = std::make_unique<std::atomic<Index>[]>(static_cast<std::size_t>(T));
  for (Index k = 0; k < T; ++k) recorded_[static_cast<std::size_t>(k)] = 0;
  // record_rows' split of the modes (basis index i = a B + b, mode 0 the most significant):
  // the fewest row additions, with the [B, w] sums over a (w <= 64) within 32 KiB.
  const std::vector<int> dims = dev.dims();
  double best = 0.0;
  for (Index s = t.modes; s >= 0; --s) {
    Index B = 1;
    for (Index m = s; m < t.modes; ++m) B *= dims[static_cast<std::size_t>(m)];
    if (B * 64 * static_cast<Index>(sizeof(double)) > (Index{32} << 10)) break;
    const double cost = static_cast<double>(t.dim / B * s + B * (t.modes - s));
    if (s == t.modes || cost < best) {
      best = cost;
      split_ = s;
      inner_ = B;
    }
  }
  level_of_.resize(static_cast<std::size_t>(t.modes * t.dim));
  for (Index i = 0; i < t.dim; ++i) {
    const std::vector<int> lv = dev.levels_of(i);
    for (Index m = 0; m < t.modes; ++m) level_of_[static_cast<std::size_t>(m * t.dim + i)] = lv[static_cast<std::size_t>(m)];
  }
}

StepObserver TraceRecorder::observer() {
  StepObserver o;
  o.state = [this](int step, const CMatrix& state) { record(step, state); };
  // Product basis, closed: a block of columns is all a boundary needs, so the gate executor
  // may hand its planes over without a pass over the whole state.
  if (!trace_.open && sim_.options().basis == Basis::product) {
    o.block = [this](int step, Index c0, Index w, const double* re, const double* im) {
      record_block(step, c0, w, re, im);
    };
    o.block_single = [this](int step, Index c0, Index w, const float* re, const float* im) {
      record_block(step, c0, w, re, im);
    };
  }
  return o;
}

std::size_t TraceRecorder::index_of(int step) const {
  const auto it = std::lower_bound(steps_.begin(), steps_.end(), step);
  if (it == steps_.end() || *it != step)
    throw std::logic_error("TraceRecorder: step " + std::to_string(step) + " was not asked for");
  return static_cast<std::size_t>(it - steps_.begin());
}

template <typename RowFn>
void TraceRecorder::record_rows(std::size_t t, Index first, Index w, RowFn&& row) {
  // One pass over the rows i = a B + b (a: the leading split_ modes, b: the others; B =
  // inner_): row i's populations p, made in L1, are streamed to /trace/populations and added
  // to pa (the sum over b of the current a) and to pb[b] (the sum over a). Each completed pa
  // gives the leading modes' marginals, the pb rows at the end the others': 2 D + A split_ +
  // B (M - split_) row additions instead of M D.
  const Index D = trace_.dim, n = trace_.columns, M = trace_.modes, L = trace_.levels, B = inner_;
  const auto T = static_cast<Index>(t);
  std::vector<double> sums(static_cast<std::size_t>(M * L * w), 0.0), p(static_cast<std::size_t>(w)),
      pa(static_cast<std::size_t>(w), 0.0), pb(static_cast<std::size_t>(B * w), 0.0);
  auto add_to_marginals = [&](Index k0, Index k1, Index i, const double* __restrict x) {
    for (Index k = k0; k < k1; ++k) {
      double* __restrict sum = sums.data() + (k * L + level_of_[static_cast<std::size_t>(k * D + i)]) * w;
      for (Index c = 0; c < w; ++c) sum[c] += x[c];
    }
  };
  for (Index i = 0; i < D; ++i) {
    row(i, p.data());
    const Index b = i % B;
    double* __restrict a_sum = pa.data();
    double* __restrict b_sum = pb.data() + b * w;
    const double* __restrict pi = p.data();
    for (Index c = 0; c < w; ++c) {
      a_sum[c] += pi[c];
      b_sum[c] += pi[c];
    }
    if (trace_.has_populations) stream_copy(trace_.populations.data() + (T * D + i) * n + first, pi, w);
    if (b + 1 == B) {
      add_to_marginals(0, split_, i, pa.data());
      std::fill(pa.begin(), pa.end(), 0.0);
    }
  }
  stream_fence();
  for (Index b = 0; b < B; ++b) add_to_marginals(split_, M, b, pb.data() + b * w);
  double* marginals = trace_.mode_populations.data() + T * M * L * n + first;
  for (Index r = 0; r < M * L; ++r)
    Eigen::Map<RVector>(marginals + r * n, w) += Eigen::Map<const RVector>(sums.data() + r * w, w);
  recorded_[t] += w;
}

template <typename Real>
void TraceRecorder::record_block(int step, Index c0, Index w, const Real* re, const Real* im) {
  record_rows(index_of(step), shard_.first + c0, w, [&](Index i, double* __restrict p) {
    const Real* __restrict r = re + i * w;
    const Real* __restrict m = im + i * w;
    for (Index c = 0; c < w; ++c)
      p[c] = static_cast<double>(r[c]) * static_cast<double>(r[c]) + static_cast<double>(m[c]) * static_cast<double>(m[c]);
  });
}

template void TraceRecorder::record_block<double>(int, Index, Index, const double*, const double*);
template void TraceRecorder::record_block<float>(int, Index, Index, const float*, const float*);

void TraceRecorder::record_columns(std::size_t t, const CMatrix& a) {
  // |a|^2 in tiles of 64 columns (a tile of a stays in L2 while its rows are read).
  constexpr Index kTile = 64;
  for (Index c0 = 0; c0 < a.cols(); c0 += kTile) {
    const Index w = std::min(a.cols() - c0, kTile);
    record_rows(t, shard_.first + c0, w, [&](Index i, double* p) {
      for (Index c = 0; c < w; ++c) p[c] = std::norm(a(i, c0 + c));
    });
  }
}

void TraceRecorder::add(std::size_t t, Index k, Index i, double p) {
  const Trace& tr = trace_;
  const auto T = static_cast<Index>(t);
  if (tr.has_populations) trace_.populations[static_cast<std::size_t>((T * tr.dim + i) * tr.columns + k)] = p;
  for (Index m = 0; m < tr.modes; ++m) {
    const Index l = level_of_[static_cast<std::size_t>(m * tr.dim + i)];
    trace_.mode_populations[static_cast<std::size_t>(((T * tr.modes + m) * tr.levels + l) * tr.columns + k)] += p;
  }
}

void TraceRecorder::record_density(std::size_t t, Index k, const Eigen::Map<const CMatrix>& rho) {
  const auto& dressed = sim_.dressed();
  double sum = 0.0;
  if (sim_.options().basis == Basis::dressed) {
    const CMatrix& W = dressed->transform;
    const CMatrix left = W.adjoint() * rho;  // diag(W^dag rho W)_i = sum_b left(i, b) W(b, i)
    for (Index i = 0; i < rho.rows(); ++i) {
      const double p = left.row(i).transpose().cwiseProduct(W.col(i)).sum().real();
      add(t, k, i, p);
      sum += p;
    }
  } else {
    for (Index i = 0; i < rho.rows(); ++i) {
      add(t, k, i, rho(i, i).real());
      sum += rho(i, i).real();
    }
  }
  trace_.trace[t * static_cast<std::size_t>(trace_.columns) + static_cast<std::size_t>(k)] = sum;
  recorded_[t] += 1;
}

void TraceRecorder::record(int step, const CMatrix& state) {
  const std::size_t t = index_of(step);
  const Index D = trace_.dim, n = trace_.columns;
  if (trace_.open) {
    for (Index q = 0; q < state.cols(); ++q) {
      const Index g = shard_.first + q, i = g % n, j = g / n;  // input i + n j
      if (i != j) continue;
      record_density(t, i, Eigen::Map<const CMatrix>(state.col(q).data(), D, D));
    }
    return;
  }
  if (sim_.options().basis == Basis::dressed)
    record_columns(t, sim_.dressed()->transform.adjoint() * state);
  else
    record_columns(t, state);
}

Trace TraceRecorder::finish(comm::Communicator& comm) {
  if (comm.size() > 1) {
    comm.allreduce_sum(std::span<double>(trace_.populations));
    comm.allreduce_sum(std::span<double>(trace_.mode_populations));
    comm.allreduce_sum(std::span<double>(trace_.trace));
  }
  // After the collective sums, so that a rank with a gap fails instead of leaving the others
  // waiting in them.
  for (std::size_t t = 0; t < steps_.size(); ++t)
    if (recorded_[t] != expected_)
      throw std::logic_error("TraceRecorder: boundary " + std::to_string(steps_[t]) + " recorded " +
                             std::to_string(recorded_[t].load()) + " of " + std::to_string(expected_) +
                             " columns");
  return std::move(trace_);
}

}  // namespace qevolve::solver
