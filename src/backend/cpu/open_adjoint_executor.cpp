// The CPU open-system adjoint executor (backend.hpp OpenAdjointExecutor): the Lindblad adjoint's
// block sweep. Each thread of the team (backend/parallel.hpp) takes its fixed share of the blocks
// of lambda's columns and steps each back through the segment with adjoint_gate, loading the state
// after every step from the caller's recomputation; it adds its summed environments to the
// caller's once per segment, in thread order (the same bits on every run).
#include <algorithm>
#include <stdexcept>
#include <vector>

#include "qevolve/backend/backend.hpp"
#include "qevolve/backend/block_layout.hpp"
#include "qevolve/backend/local_gate.hpp"
#include "qevolve/backend/parallel.hpp"

namespace qevolve::backend {
namespace {

class CpuOpenAdjointExecutor final : public OpenAdjointExecutor {
 public:
  CpuOpenAdjointExecutor(const OpenAdjointSchedule& schedule, Index columns, Index block_width, int threads)
      : schedule_(schedule),
        layout_(make_block_layout(schedule.gates, columns, block_width)),
        threads_(std::max(1, threads)),
        dim_(schedule.gates.dim()),
        columns_(columns) {
    if (schedule_.fixed.size() != schedule_.gates.gates.size() ||
        schedule_.fixed_adjoint.size() != schedule_.fixed_inverse.size())
      throw std::invalid_argument("OpenAdjointExecutor: one fixed flag per gate, an adjoint per inverse");
    // Flops of one step's reverse sweep on all columns: the state undone and the cotangent
    // carried (two gate-sized sweeps of 8 flops per complex multiply-add).
    for (int k = 0; k < schedule_.gates.num_gates(); ++k)
      step_flops_ += 2.0 * 8.0 * static_cast<double>(dim_ * columns) * schedule_.gates.size(k);
  }

  void upload(CMatrix& lambda) override {
    if (lambda.rows() != dim_ || lambda.cols() != columns_)
      throw std::invalid_argument("OpenAdjointExecutor::upload: the cotangent does not match the executor");
    lambda_ = &lambda;
  }

  void apply(const std::vector<const CMatrix*>& after, const double* adjoint_gates, int s0, int s1, double* env,
             double* fixed_env) override {
    if (lambda_ == nullptr) throw std::logic_error("OpenAdjointExecutor::apply before upload");
    if (after.size() != static_cast<std::size_t>(s1 - s0))
      throw std::invalid_argument("OpenAdjointExecutor::apply: one state per step");
    const GateSchedule& s = schedule_.gates;
    const std::size_t per_step = s.step_size, fixed_size = schedule_.fixed_inverse.size();
    const auto num_gates = static_cast<std::size_t>(s.num_gates());
    const bool parallel = worth_threads(threads_, step_flops_ * (s1 - s0), layout_.num_blocks);
    run_team(threads_, parallel, [&](Team& team) {
      std::vector<double> local_env(per_step * static_cast<std::size_t>(s1 - s0), 0.0);
      std::vector<double> local_fixed(fixed_size, 0.0);
      AdjointPlanes planes(static_cast<std::size_t>(dim_ * layout_.width));
      double* xr = planes.plane(0);
      double* xi = planes.plane(1);
      double* lr = planes.plane(2);
      double* li = planes.plane(3);
      team.for_static(0, layout_.num_blocks, [&](Index b) {
        const Index c0 = layout_.first_column(b), w = layout_.columns(b);
        const auto& geo = layout_.geometry(b);
        load_block(*lambda_, c0, w, lr, li);
        for (int step = s1 - 1; step >= s0; --step) {
          const auto at = static_cast<std::size_t>(step - s0);
          load_block(*after[at], c0, w, xr, xi);
          const double* adj = adjoint_gates + per_step * at;
          for (std::size_t k = num_gates; k-- > 0;) {
            const std::size_t off = s.gates[k].offset;
            if (schedule_.fixed[k]) {
              adjoint_gate(xr, xi, lr, li, geo[k], schedule_.fixed_inverse.data() + off,
                           schedule_.fixed_adjoint.data() + off, local_fixed.data() + off);
            } else {
              const double* adjoint = adj + off;
              adjoint_gate(xr, xi, lr, li, geo[k], adjoint, adjoint, local_env.data() + per_step * at + off);
            }
          }
        }
        store_block(*lambda_, c0, w, lr, li);
      });
      team.in_order([&] {  // fixed shares, merged in thread order: the same bits every run
        for (std::size_t i = 0; i < local_env.size(); ++i) env[i] += local_env[i];
        for (std::size_t i = 0; i < fixed_size; ++i) fixed_env[i] += local_fixed[i];
      });
    });
  }

  void download(CMatrix& lambda) override {
    if (&lambda != lambda_) throw std::logic_error("OpenAdjointExecutor::download: not the uploaded matrix");
    lambda_ = nullptr;
  }

 private:
  OpenAdjointSchedule schedule_;
  BlockLayout layout_;
  int threads_;
  Index dim_, columns_;
  double step_flops_ = 0.0;
  CMatrix* lambda_ = nullptr;
};

}  // namespace

std::unique_ptr<OpenAdjointExecutor> make_cpu_open_adjoint_executor(const OpenAdjointSchedule& schedule,
                                                                    Index columns, Index block_width, int threads) {
  return std::make_unique<CpuOpenAdjointExecutor>(schedule, columns, block_width, threads);
}

}  // namespace qevolve::backend
