// The truncation check (qevolve/truncation.hpp): at each observed boundary, per mode, the sum
// of |psi_i|^2 (closed) or rho_ii (open) over the basis states i whose digit of that mode is its
// top level, per column, kept as a running maximum. O(D w) per block and boundary against the
// O(D w g) of a step's gates.
#include "qevolve/truncation.hpp"

#include <algorithm>
#include <iterator>
#include <limits>
#include <memory>
#include <span>

namespace qevolve::solver {

std::vector<int> truncation_steps(const Simulator& sim) {
  const Options& o = sim.options();
  const int steps = o.steps;
  if (o.solver == Solver::adaptive) return {0, steps};
  const int stride = o.device == ComputeDevice::cuda ? std::max(1, (steps + 99) / 100) : 1;
  std::vector<int> out;
  for (int s = 0; s < steps; s += stride) out.push_back(s);
  out.push_back(steps);
  return out;
}

TruncationMonitor::TruncationMonitor(const Simulator& sim, const comm::Shard& shard)
    : open_(sim.options().open),
      dim_(sim.device().dim()),
      columns_(static_cast<Index>(sim.states().initial_indices().size())),
      shard_(shard),
      steps_(truncation_steps(sim)) {
  const std::vector<int>& dims = sim.device().dims();
  Index stride = 1;
  slices_.resize(dims.size());
  for (std::size_t k = dims.size(); k-- > 0;) {
    const Index d = dims[k];
    slices_[k] = {dim_ / (d * stride), stride, d * stride};
    stride *= d;
  }
  // A column that starts in a mode's top level (initial_states: all) says nothing about that
  // mode's truncation: it is left out of that mode's maximum.
  const Index local = shard.count;
  starts_top_.assign(dims.size(), std::vector<char>(static_cast<std::size_t>(local), 0));
  for (Index q = 0; q < local; ++q) {
    const Index g = shard.first + q;
    const Index i = open_ ? g % columns_ : g;  // open: input i + n j starts in |v_i><v_j|
    const Index j = open_ ? g / columns_ : g;
    const std::vector<int> li = sim.device().levels_of(sim.states().initial_indices()[static_cast<std::size_t>(i)]);
    const std::vector<int> lj = sim.device().levels_of(sim.states().initial_indices()[static_cast<std::size_t>(j)]);
    for (std::size_t k = 0; k < dims.size(); ++k)
      starts_top_[k][static_cast<std::size_t>(q)] = li[k] == dims[k] - 1 || lj[k] == dims[k] - 1;
  }
  // A two-level qubit's top level is its |1>, inside the computational space: not checked.
  for (const auto& mode : sim.device().modes()) checked_.push_back(!(mode.levels() <= 2 && mode.is_qubit()));
  top_ = std::make_unique<std::atomic<double>[]>(dims.size());
  for (std::size_t k = 0; k < dims.size(); ++k) top_[k] = 0.0;
}

void TruncationMonitor::raise(std::size_t mode, double p) {
  std::atomic<double>& top = top_[mode];
  double seen = top.load(std::memory_order_relaxed);
  while (p > seen && !top.compare_exchange_weak(seen, p, std::memory_order_relaxed)) {
  }
}

namespace {

/// acc[c] += sum over the top-level rows of one mode (`outer` runs of `stride` consecutive rows,
/// `period` rows apart, starting at row period - stride) of |x_rc|^2, rows of w numbers. With w
/// a compile-time W the accumulators stay in registers through all runs (no store per row).
template <int W, typename Real>
void add_top_rows(const Real* __restrict re, const Real* __restrict im, Index outer, Index stride, Index period,
                  Index w, double* acc) {
  const Index width = W > 0 ? W : w;
  double a[W > 0 ? W : 1] = {};
  for (Index o = 0; o < outer; ++o) {
    const Index first = (o * period + period - stride) * width;
    const Real* __restrict r = re + first;
    const Real* __restrict m = im + first;
    if constexpr (W > 0) {
      for (Index e = 0; e < stride; ++e)
        for (int c = 0; c < W; ++c) {
          const auto x = static_cast<double>(r[e * W + c]), y = static_cast<double>(m[e * W + c]);
          a[c] += x * x + y * y;
        }
    } else {
      for (Index e = 0; e < stride; ++e)
        for (Index c = 0; c < w; ++c) {
          const auto x = static_cast<double>(r[e * w + c]), y = static_cast<double>(m[e * w + c]);
          acc[c] += x * x + y * y;
        }
    }
  }
  if constexpr (W > 0)
    for (int c = 0; c < W; ++c) acc[c] += a[c];
}

}  // namespace

template <typename Real>
void TruncationMonitor::block(Index c0, Index w, const Real* re, const Real* im) {
  // Per mode, its top-level rows come in runs of `stride` consecutive rows, each summed into
  // per-column accumulators (measured faster than one pass with every mode's sums in L1).
  auto add = w == 8 ? add_top_rows<8, Real> : w == 16 ? add_top_rows<16, Real> : w == 32 ? add_top_rows<32, Real>
           : w == 64 ? add_top_rows<64, Real> : w == 4 ? add_top_rows<4, Real> : add_top_rows<0, Real>;
  thread_local std::vector<double> sums;
  sums.resize(static_cast<std::size_t>(w));
  for (std::size_t k = 0; k < slices_.size(); ++k) {
    if (!checked_[k]) continue;
    const Slice& s = slices_[k];
    std::fill(sums.begin(), sums.end(), 0.0);
    add(re, im, s.outer, s.stride, s.period, w, sums.data());
    const char* skip = starts_top_[k].data() + c0;
    double worst = 0.0;
    for (Index c = 0; c < w; ++c)
      if (skip[c] == 0) worst = std::max(worst, sums[static_cast<std::size_t>(c)]);
    raise(k, worst);
  }
}

void TruncationMonitor::state(const CMatrix& state) {
  for (Index q = 0; q < state.cols(); ++q) {
    const Index g = shard_.first + q;
    if (open_ && g % columns_ != g / columns_) continue;  // input i + n j: only |k><k|
    const cplx* x = state.col(q).data();
    const Index step = open_ ? dim_ + 1 : 1;  // open: rho_aa at a + D a (column stacking)
    for (std::size_t k = 0; k < slices_.size(); ++k) {
      if (!checked_[k] || starts_top_[k][static_cast<std::size_t>(q)] != 0) continue;
      const Slice& s = slices_[k];
      double p = 0.0;
      for (Index o = 0; o < s.outer; ++o)
        for (Index r = 0; r < s.stride; ++r) {
          const cplx v = x[(o * s.period + s.period - s.stride + r) * step];
          p += open_ ? v.real() : std::norm(v);
        }
      raise(k, p);
    }
  }
}

void TruncationMonitor::density_block(Index c0, Index w, const double* re, const double* /*im*/) {
  // rho_aa of column c at row a (D + 1) (column stacking), for the inputs |k><k| only.
  for (Index c = 0; c < w; ++c) {
    const Index g = shard_.first + c0 + c;
    if (g % columns_ != g / columns_) continue;
    for (std::size_t k = 0; k < slices_.size(); ++k) {
      if (!checked_[k] || starts_top_[k][static_cast<std::size_t>(c0 + c)] != 0) continue;
      const Slice& s = slices_[k];
      double p = 0.0;
      for (Index o = 0; o < s.outer; ++o)
        for (Index r = 0; r < s.stride; ++r) p += re[(o * s.period + s.period - s.stride + r) * (dim_ + 1) * w + c];
      raise(k, p);
    }
  }
}

StepObserver TruncationMonitor::observer() {
  StepObserver o;
  o.steps = steps_;
  o.exact = std::vector<int>{};  // the state inside a fused step boundary will do
  o.state = [this](int /*step*/, const CMatrix& s) { state(s); };
  if (open_)
    o.density_block = [this](int /*step*/, Index c0, Index w, const double* re, const double* im) {
      density_block(c0, w, re, im);
    };
  else {
    o.block = [this](int /*step*/, Index c0, Index w, const double* re, const double* im) { block(c0, w, re, im); };
    o.block_single = [this](int /*step*/, Index c0, Index w, const float* re, const float* im) {
      block(c0, w, re, im);
    };
  }
  return o;
}

std::vector<double> TruncationMonitor::finish(comm::Communicator& comm) {
  std::vector<double> out(slices_.size());
  for (std::size_t k = 0; k < out.size(); ++k) out[k] = top_[k].load();
  if (comm.size() > 1) comm.allreduce_max(std::span<double>(out));
  for (std::size_t k = 0; k < out.size(); ++k)
    if (!checked_[k]) out[k] = std::numeric_limits<double>::quiet_NaN();
  return out;
}

StepObserver combine_observers(const Simulator& sim, StepObserver a, StepObserver b) {
  if (!a) return b;
  if (!b) return a;
  const auto at_a = std::make_shared<const std::vector<int>>(observed_steps(sim.options(), a));
  const auto at_b = std::make_shared<const std::vector<int>>(observed_steps(sim.options(), b));
  StepObserver o;
  std::set_union(at_a->begin(), at_a->end(), at_b->begin(), at_b->end(), std::back_inserter(o.steps));
  const std::vector<int>& exact_a = a.exact ? *a.exact : *at_a;
  const std::vector<int>& exact_b = b.exact ? *b.exact : *at_b;
  o.exact.emplace();
  std::set_union(exact_a.begin(), exact_a.end(), exact_b.begin(), exact_b.end(), std::back_inserter(*o.exact));
  auto in = [](const std::vector<int>& at, int s) { return std::binary_search(at.begin(), at.end(), s); };
  o.state = [a, b, at_a, at_b, in](int s, const CMatrix& x) {
    if (in(*at_a, s)) a.state(s, x);
    if (in(*at_b, s)) b.state(s, x);
  };
  if (a.block && b.block)
    o.block = [a, b, at_a, at_b, in](int s, Index c0, Index w, const double* re, const double* im) {
      if (in(*at_a, s)) a.block(s, c0, w, re, im);
      if (in(*at_b, s)) b.block(s, c0, w, re, im);
    };
  if (a.density_block && b.density_block)
    o.density_block = [a, b, at_a, at_b, in](int s, Index c0, Index w, const double* re, const double* im) {
      if (in(*at_a, s)) a.density_block(s, c0, w, re, im);
      if (in(*at_b, s)) b.density_block(s, c0, w, re, im);
    };
  if (a.block_single && b.block_single)
    o.block_single = [a, b, at_a, at_b, in](int s, Index c0, Index w, const float* re, const float* im) {
      if (in(*at_a, s)) a.block_single(s, c0, w, re, im);
      if (in(*at_b, s)) b.block_single(s, c0, w, re, im);
    };
  return o;
}

template void TruncationMonitor::block<double>(Index, Index, const double*, const double*);
template void TruncationMonitor::block<float>(Index, Index, const float*, const float*);

}  // namespace qevolve::solver
