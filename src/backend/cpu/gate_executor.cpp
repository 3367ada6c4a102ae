// The CPU gate executor (backend.hpp): column blocks in cache-sized split planes, one OpenMP
// thread per block through a whole chunk of steps (docs/solvers.md "Blocking and threads").
#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

#include "qevolve/backend/backend.hpp"
#include "qevolve/backend/block_layout.hpp"
#include "qevolve/backend/parallel.hpp"
#include "qevolve/backend/local_gate.hpp"

namespace qevolve::backend {
namespace {

template <typename Real>
class CpuGateExecutor final : public GateExecutor<Real> {
 public:
  CpuGateExecutor(const GateSchedule& schedule, Index columns, Index block_width, int threads)
      : schedule_(schedule),
        layout_(make_block_layout(schedule, columns, block_width)),
        threads_(std::max(1, threads)),
        dim_(schedule.dim()),
        columns_(columns) {
    // Flops of one step on all columns: a chunk runs on a team when worth_threads says so.
    for (int k = 0; k < schedule.num_gates() - schedule.boundary; ++k)
      step_flops_ += 8.0 * static_cast<double>(dim_ * columns) * schedule.work(k);
    const auto plane = static_cast<std::size_t>(dim_ * layout_.width);
    planes_.resize(static_cast<std::size_t>(threads_), std::vector<Real>(2 * plane + kImShift + kAlign));
    make_block_gates();
  }

  void upload(CMatrix& state) override {
    if (state.rows() != dim_ || state.cols() != columns_)
      throw std::invalid_argument("GateExecutor::upload: the state does not match the executor");
    state_ = &state;
  }

  void apply(const Real* gates, int s0, int s1) override {
    if (state_ == nullptr) throw std::logic_error("GateExecutor::apply before upload");
    CMatrix& state = *state_;
    pack_blocks(gates, s1 - s0);
    const bool parallel = worth_threads(threads_, step_flops_ * (s1 - s0), layout_.num_blocks);
    const Index plane = dim_ * layout_.width;
    run_team(threads_, parallel, [&](Team& team) {
      Real* re = aligned(planes_[static_cast<std::size_t>(team.thread())].data());
      Real* im = re + plane + kImShift;
      team.for_dynamic(0, layout_.num_blocks, [&](Index b) {
        const Index c0 = layout_.first_column(b), w = layout_.columns(b);
        const auto& geo = layout_.geometry(b);
        load_block(state, c0, w, re, im);
        for (int s = s0; s < s1; ++s) {
          const Real* step_gates = gates + schedule_.step_size * static_cast<std::size_t>(s - s0);
          const Real* step_blocks =
              packed_.data() + packed_step_ * static_cast<std::size_t>(s - s0);
          const int last = schedule_.applied(s);
          for (int k = 0; k < last; ++k) {
            const auto& sub = block_gates_[static_cast<std::size_t>(k)];
            if (sub.empty()) {
              const auto& gate = schedule_.gates[static_cast<std::size_t>(k)];
              apply_gate(re, im, geo[static_cast<std::size_t>(k)], (gate.fixed ? gates : step_gates) + gate.offset);
              continue;
            }
            for (const BlockGate& bg : sub) {
              const GateGeometry& g = b + 1 == layout_.num_blocks ? bg.geo_last : bg.geo_full;
              const Real* packed = step_blocks + bg.packed_offset;
              if (bg.factored)
                apply_factored_gate(re, im, g, packed, bg.position, bg.kind);
              else
                apply_gate_blocks(re, im, g, packed, bg.size, bg.count);
            }
          }
          if (!observer_.at.empty() && std::binary_search(observer_.at.begin(), observer_.at.end(), s + 1))
            observer_.call(s + 1, c0, w, re, im);
        }
        store_block(state, c0, w, re, im);
      });
    });
  }

  bool observe_blocks(BlockObserver<Real> observer) override {
    observer_ = std::move(observer);
    return true;
  }

  void download(CMatrix& state) override {
    if (&state != state_) throw std::logic_error("GateExecutor::download: not the uploaded matrix");
    state_ = nullptr;
  }

 private:
  /// Groups of equal size of a block-structured gate (GateSchedule::Gate::blocks), applied in
  /// one sweep by apply_gate_blocks: the gate's geometry with the groups' offsets one group
  /// after another, and their size x size matrices packed per step at packed_offset. A gate
  /// whose groups differ in size gets one BlockGate per group.
  struct BlockGate {
    std::vector<std::vector<int>> groups;  ///< gate basis states of each group
    int size = 0, count = 0;
    GateGeometry geo_full, geo_last;
    std::size_t packed_offset = 0;
    /// A factored gate (GateSchedule::Gate::factor_position; two 2-level modes, the parity
    /// groups {0, 3}, {1, 2}): the groups are its static part's, followed in the packed data
    /// by the drive factor's kDriveFactorSize numbers.
    bool factored = false;
    int kind = 2, position = 0;
  };

  /// True when gate k is factored in the shape apply_factored_gate handles (construction only).
  bool factored(std::size_t k) const {
    const auto& gate = schedule_.gates[k];
    const std::vector<std::vector<int>> parity{{0, 3}, {1, 2}};
    return gate.factor_position >= 0 && schedule_.size(static_cast<int>(k)) == 4 &&
           schedule_.dims[static_cast<std::size_t>(gate.mode_a)] == 2 && gate.blocks == parity;
  }

  void make_block_gates() {
    block_gates_.resize(schedule_.gates.size());
    for (std::size_t k = 0; k < schedule_.gates.size(); ++k) {
      const auto& blocks = schedule_.gates[k].blocks;
      // A factored gate's blocks are its static part's: without the factored kernel it is
      // applied dense.
      if (blocks.empty() || (schedule_.gates[k].factor_position >= 0 && !factored(k))) continue;
      const bool equal = std::all_of(blocks.begin(), blocks.end(), [&](const auto& b) {
        return b.size() == blocks.front().size();
      });
      std::vector<std::vector<std::vector<int>>> sweeps;
      if (equal)
        sweeps.push_back(blocks);
      else
        for (const auto& b : blocks) sweeps.push_back({b});
      for (auto& groups : sweeps) {
        BlockGate bg;
        bg.size = static_cast<int>(groups.front().size());
        bg.count = static_cast<int>(groups.size());
        auto restrict = [&](GateGeometry geo) {
          const GateGeometry full = geo;
          int j = 0;
          for (const auto& group : groups)
            for (int state : group) geo.offset[j++] = full.offset[state];
          return geo;
        };
        bg.geo_full = restrict(layout_.geo_full[k]);
        bg.geo_last = restrict(layout_.geo_last[k]);
        bg.groups = std::move(groups);
        bg.packed_offset = packed_step_;
        packed_step_ += 2 * static_cast<std::size_t>(bg.size * bg.size * bg.count);
        if (factored(k)) {
          bg.factored = true;
          bg.kind = schedule_.gates[k].factor_kind;
          bg.position = schedule_.gates[k].factor_position;
          packed_step_ += kDriveFactorSize;
        }
        block_gates_[k].push_back(std::move(bg));
      }
    }
  }

  /// Copies every group's sub-matrix of `steps` step buffers into packed_.
  void pack_blocks(const Real* gates, int steps) {
    if (packed_step_ == 0) return;
    packed_.resize(packed_step_ * static_cast<std::size_t>(steps));
    for (int s = 0; s < steps; ++s)
      for (std::size_t k = 0; k < block_gates_.size(); ++k) {
        if (block_gates_[k].empty()) continue;
        // A factored gate (one BlockGate) has its static part and drive factor in its factor
        // region.
        const bool in_factors = block_gates_[k].front().factored;
        const Real* full =
            gates + schedule_.step_size * static_cast<std::size_t>(s) +
            (in_factors ? schedule_.gates[k].factor_offset : schedule_.gates[k].offset);
        const int g = schedule_.size(static_cast<int>(k));
        for (const BlockGate& bg : block_gates_[k]) {
          Real* out =
              packed_.data() + packed_step_ * static_cast<std::size_t>(s) + bg.packed_offset;
          const int n = bg.size;
          for (const auto& group : bg.groups) {
            for (int i = 0; i < n; ++i)
              for (int j = 0; j < n; ++j) {
                const int src =
                    group[static_cast<std::size_t>(i)] * g + group[static_cast<std::size_t>(j)];
                out[i * n + j] = full[src];
                out[n * n + i * n + j] = full[g * g + src];
              }
            out += 2 * n * n;
          }
          if (bg.factored) std::copy(full + 2 * g * g, full + 2 * g * g + kDriveFactorSize, out);
        }
      }
  }

  GateSchedule schedule_;
  BlockLayout layout_;
  int threads_;
  Index dim_, columns_;
  double step_flops_ = 0.0;
  /// The imaginary plane starts 2 KiB after the real one ends: both planes' sizes are powers
  /// of two, so without the gap an amplitude's real and imaginary parts, and those of every
  /// level of a gate's modes, would fall into the same L1 set (addresses 4 KiB apart; 8 ways
  /// for the 8 streams of a two-qubit gate). Measured N = 9, standard workload: 0.363-0.376 s
  /// with the gap, 0.377-0.396 s without (alternating runs).
  static constexpr std::size_t kImShift = 2048 / sizeof(Real);
  // The planes start on a 64-byte boundary (a cache line, one AVX-512 vector), whatever the
  // allocator returned: the kernels' vector loads then never straddle lines, and the speed does
  // not depend on where malloc happened to put the buffer.
  static constexpr std::size_t kAlign = 64 / sizeof(Real);
  static Real* aligned(Real* p) {
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    return reinterpret_cast<Real*>((a + 63) & ~static_cast<std::uintptr_t>(63));
  }
  std::vector<std::vector<Real>> planes_;            // per thread: re, a gap, then im of one block
  std::vector<std::vector<BlockGate>> block_gates_;  // per gate; empty: applied dense
  std::size_t packed_step_ = 0;                      // packed numbers per step
  std::vector<Real> packed_;                         // the chunk's packed group matrices
  CMatrix* state_ = nullptr;
  BlockObserver<Real> observer_;  // output.trace (empty: none)
};

}  // namespace

template <typename Real>
std::unique_ptr<GateExecutor<Real>> make_cpu_gate_executor(const GateSchedule& schedule,
                                                           Index columns, Index block_width,
                                                           int threads) {
  return std::make_unique<CpuGateExecutor<Real>>(schedule, columns, block_width, threads);
}

template std::unique_ptr<GateExecutor<double>> make_cpu_gate_executor<double>(const GateSchedule&,
                                                                              Index, Index, int);
template std::unique_ptr<GateExecutor<float>> make_cpu_gate_executor<float>(const GateSchedule&,
                                                                            Index, Index, int);

}  // namespace qevolve::backend
