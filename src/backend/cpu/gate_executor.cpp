// The CPU gate executor (backend.hpp): column blocks in cache-sized split planes, one OpenMP
// thread per block through a whole chunk of steps (algorithms.md §4).
#include <omp.h>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <vector>

#include "qevolve/backend/backend.hpp"
#include "qevolve/backend/block_layout.hpp"
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
    // Flops of one step on all columns; a chunk below ~1e7 flops (a fraction of a millisecond)
    // runs on one thread, where waking a team would cost more than it saves.
    for (int k = 0; k < schedule.num_gates() - schedule.boundary; ++k)
      step_flops_ += 8.0 * static_cast<double>(dim_ * columns) * schedule.size(k);
    const auto plane = static_cast<std::size_t>(dim_ * layout_.width);
    planes_.resize(static_cast<std::size_t>(threads_), std::vector<Real>(2 * plane));
  }

  void upload(CMatrix& state) override {
    if (state.rows() != dim_ || state.cols() != columns_)
      throw std::invalid_argument("GateExecutor::upload: the state does not match the executor");
    state_ = &state;
  }

  void apply(const Real* gates, int s0, int s1) override {
    if (state_ == nullptr) throw std::logic_error("GateExecutor::apply before upload");
    CMatrix& state = *state_;
    const bool parallel = threads_ > 1 && step_flops_ * (s1 - s0) > 1e7;
    const Index plane = dim_ * layout_.width;
#pragma omp parallel num_threads(threads_) if (parallel)
    {
      Real* re = planes_[static_cast<std::size_t>(omp_get_thread_num())].data();
      Real* im = re + plane;
#pragma omp for schedule(dynamic, 1)
      for (Index b = 0; b < layout_.num_blocks; ++b) {
        const Index c0 = layout_.first_column(b), w = layout_.columns(b);
        const auto& geo = layout_.geometry(b);
        load_block(state, c0, w, re, im);
        for (int s = s0; s < s1; ++s) {
          const Real* step_gates = gates + schedule_.step_size * static_cast<std::size_t>(s - s0);
          const int last = schedule_.applied(s);
          for (int k = 0; k < last; ++k)
            apply_gate(re, im, geo[static_cast<std::size_t>(k)],
                       step_gates + schedule_.gates[static_cast<std::size_t>(k)].offset);
        }
        store_block(state, c0, w, re, im);
      }
    }
  }

  void download(CMatrix& state) override {
    if (&state != state_) throw std::logic_error("GateExecutor::download: not the uploaded matrix");
    state_ = nullptr;
  }

 private:
  GateSchedule schedule_;
  BlockLayout layout_;
  int threads_;
  Index dim_, columns_;
  double step_flops_ = 0.0;
  std::vector<std::vector<Real>> planes_;  // per thread: re then im of one block
  CMatrix* state_ = nullptr;
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
