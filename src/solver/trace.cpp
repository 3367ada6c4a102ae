// The trace recorder (qevolve/trace.hpp): at each observed step boundary the forward pass's
// product-basis lab-frame state is taken to the basis of /propagator (dressed: W^dag psi,
// W^dag rho W) and its populations are added to the full-size arrays; ranks fill their own
// columns and a sum over the ranks assembles the whole trace.
#include "qevolve/trace.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <complex>
#include <span>
#include <stdexcept>
#include <string>

namespace qevolve::solver {
namespace {

/// `v` = `count` zeros, its memory advised for transparent huge pages first: a trace of
/// tens of MiB is otherwise zeroed 4 KiB page fault by page fault, which at N = 8 cost as
/// much as recording it (measured: ~6 % of the forward pass at every: 10).
void zeros_on_huge_pages(std::vector<double>& v, std::size_t count) {
  constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
  v.reserve(count);
  const auto begin = reinterpret_cast<std::uintptr_t>(v.data());
  const std::uintptr_t first = (begin + kHuge - 1) & ~(kHuge - 1);
  const std::uintptr_t last = (begin + count * sizeof(double)) & ~(kHuge - 1);
  if (last > first) (void)madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
  v.assign(count, 0.0);
}

}  // namespace

TraceRecorder::TraceRecorder(const Simulator& sim, const comm::Shard& shard)
    : sim_(sim), shard_(shard), steps_(sim.trace_steps()) {
  const device::Device& dev = sim.device();
  Trace& t = trace_;
  t.dim = dev.dim();
  t.modes = dev.num_modes();
  for (int d : dev.dims()) t.levels = std::max<Index>(t.levels, d);
  t.columns = static_cast<Index>(sim.initial_indices().size());
  t.open = sim.is_open();
  const auto T = static_cast<Index>(steps_.size());
  t.has_populations = t.dim <= kMaxTraceDim &&
                      static_cast<double>(T) * static_cast<double>(t.dim) * static_cast<double>(t.columns) <=
                          kMaxTraceEntries;
  for (int s : steps_) t.time.push_back(s == sim.options().steps ? sim.options().duration : s * sim.dt());
  if (t.has_populations) zeros_on_huge_pages(t.populations, static_cast<std::size_t>(T * t.dim * t.columns));
  t.mode_populations.assign(static_cast<std::size_t>(T * t.modes * t.levels * t.columns), 0.0);
  if (t.open) t.trace.assign(static_cast<std::size_t>(T * t.columns), 0.0);
  if (!t.has_populations && !t.open) scratch_.assign(static_cast<std::size_t>(t.dim * t.columns), 0.0);
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

void TraceRecorder::add_marginals(std::size_t t, const double* block, Index c0, Index w) {
  const Index D = trace_.dim, n = trace_.columns, first = shard_.first + c0;
  const auto T = static_cast<Index>(t);
  for (Index m = 0; m < trace_.modes; ++m) {
    double* marginal = trace_.mode_populations.data() + (T * trace_.modes + m) * trace_.levels * n;
    const int* level = level_of_.data() + m * D;
    for (Index i = 0; i < D; ++i)
      Eigen::Map<RVector>(marginal + level[i] * n + first, w) += Eigen::Map<const RVector>(block + i * n + first, w);
  }
}

template <typename Real>
void TraceRecorder::record_block(int step, Index c0, Index w, const Real* re, const Real* im) {
  const std::size_t t = index_of(step);
  const Index D = trace_.dim, n = trace_.columns, first = shard_.first + c0;
  double* block = trace_.has_populations ? trace_.populations.data() + static_cast<Index>(t) * D * n : scratch_.data();
  for (Index i = 0; i < D; ++i) {
    double* row = block + i * n + first;
    const Real* r = re + i * w;
    const Real* m = im + i * w;
    for (Index c = 0; c < w; ++c)
      row[c] = static_cast<double>(r[c]) * static_cast<double>(r[c]) + static_cast<double>(m[c]) * static_cast<double>(m[c]);
  }
  add_marginals(t, block, c0, w);
}

template void TraceRecorder::record_block<double>(int, Index, Index, const double*, const double*);
template void TraceRecorder::record_block<float>(int, Index, Index, const float*, const float*);

void TraceRecorder::add(std::size_t t, Index k, Index i, double p) {
  const Trace& tr = trace_;
  const auto T = static_cast<Index>(t);
  if (tr.has_populations) trace_.populations[static_cast<std::size_t>((T * tr.dim + i) * tr.columns + k)] = p;
  for (Index m = 0; m < tr.modes; ++m) {
    const Index l = level_of_[static_cast<std::size_t>(m * tr.dim + i)];
    trace_.mode_populations[static_cast<std::size_t>(((T * tr.modes + m) * tr.levels + l) * tr.columns + k)] += p;
  }
}

void TraceRecorder::record_columns(std::size_t t, const CMatrix& a) {
  // |a|^2 into a [D, n] block (this time's /trace/populations, or scratch), in tiles of 16
  // columns so that reads and writes both stay in cache, then the marginals.
  constexpr Index kTile = 16;
  const Index D = trace_.dim, n = trace_.columns, first = shard_.first, count = a.cols();
  double* block = trace_.has_populations ? trace_.populations.data() + static_cast<Index>(t) * D * n : scratch_.data();
  for (Index c0 = 0; c0 < count; c0 += kTile) {
    const Index c1 = std::min(count, c0 + kTile);
    for (Index i = 0; i < D; ++i) {
      double* row = block + i * n + first;
      for (Index c = c0; c < c1; ++c) row[c] = std::norm(a(i, c));
    }
  }
  add_marginals(t, block, 0, count);
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
  return std::move(trace_);
}

}  // namespace qevolve::solver
