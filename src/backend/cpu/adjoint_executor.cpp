// The CPU adjoint executor (backend.hpp): the closed adjoint's block sweep. Each thread of the
// team (backend/parallel.hpp) takes its fixed share of the column blocks, loads psi and lambda
// into four split planes, steps them back through the chunk with adjoint_gate, and adds its summed
// environments to the caller's once per chunk, in thread order (the same bits on every run).
#include <algorithm>
#include <stdexcept>
#include <vector>

#include "qevolve/backend/backend.hpp"
#include "qevolve/backend/block_layout.hpp"
#include "qevolve/backend/local_gate.hpp"
#include "qevolve/backend/parallel.hpp"
#include "resident_pair.hpp"

namespace qevolve::backend {
namespace {

class CpuAdjointExecutor final : public AdjointExecutor {
 public:
  CpuAdjointExecutor(const GateSchedule& schedule, std::vector<bool> environment, Index columns,
                     Index block_width, int threads)
      : schedule_(schedule),
        environment_(std::move(environment)),
        layout_(make_block_layout(schedule, columns, block_width)),
        threads_(std::max(1, threads)),
        dim_(schedule.dim()),
        columns_(columns) {
    if (environment_.size() != schedule.gates.size())
      throw std::invalid_argument("AdjointExecutor: one environment flag per gate");
    // Flops of one step on all columns (three gate-sized sweeps: psi, env, lambda).
    for (int k = 0; k < schedule.num_gates(); ++k)
      step_flops_ += 24.0 * static_cast<double>(dim_ * columns) * schedule.size(k);
  }

  void upload(CMatrix& psi, CMatrix& lambda) override {
    states_.upload(psi, lambda,
                   psi.rows() == dim_ && psi.cols() == columns_ && lambda.rows() == dim_ && lambda.cols() == columns_,
                   "the states do not match the executor");
  }

  void apply(const double* adjoint_gates, int s0, int s1, double* env) override {
    CMatrix& psi = states_.psi("apply");
    CMatrix& lambda = states_.lambda();
    const std::size_t per_step = schedule_.step_size;
    const std::size_t env_size = per_step * static_cast<std::size_t>(s1 - s0);
    const bool parallel = worth_threads(threads_, step_flops_ * (s1 - s0));
    run_team(threads_, parallel, [&](Team& team) {
      std::vector<double> local_env(env_size, 0.0);
      AdjointPlanes planes(static_cast<std::size_t>(dim_ * layout_.width));
      double* pr = planes.plane(0);
      double* pi = planes.plane(1);
      double* lr = planes.plane(2);
      double* li = planes.plane(3);
      team.for_static(0, layout_.num_blocks, [&](Index b) {
        const Index c0 = layout_.first_column(b), w = layout_.columns(b);
        const auto& geo = layout_.geometry(b);
        load_block(psi, c0, w, pr, pi);
        load_block(lambda, c0, w, lr, li);
        for (int s = s1 - 1; s >= s0; --s) {
          const std::size_t base = per_step * static_cast<std::size_t>(s - s0);
          for (int k = schedule_.num_gates() - 1; k >= 0; --k) {
            const std::size_t at = base + schedule_.gates[static_cast<std::size_t>(k)].offset;
            const double* gd = adjoint_gates + at;
            double* e = environment_[static_cast<std::size_t>(k)] ? local_env.data() + at : nullptr;
            adjoint_gate(pr, pi, lr, li, geo[static_cast<std::size_t>(k)], gd, gd, e);
          }
        }
        store_block(psi, c0, w, pr, pi);
        store_block(lambda, c0, w, lr, li);
      });
      team.in_order([&] {  // fixed shares, merged in thread order: the same bits every run
        for (std::size_t i = 0; i < env_size; ++i) env[i] += local_env[i];
      });
    });
  }

  void download(CMatrix& psi, CMatrix& lambda) override {
    states_.download(psi, lambda);
  }

 private:
  GateSchedule schedule_;
  std::vector<bool> environment_;
  BlockLayout layout_;
  int threads_;
  Index dim_, columns_;
  double step_flops_ = 0.0;
  ResidentPair states_{"AdjointExecutor"};
};

}  // namespace

std::unique_ptr<AdjointExecutor> make_cpu_adjoint_executor(const GateSchedule& schedule,
                                                           std::vector<bool> environment, Index columns,
                                                           Index block_width, int threads) {
  return std::make_unique<CpuAdjointExecutor>(schedule, std::move(environment), columns, block_width,
                                              threads);
}

}  // namespace qevolve::backend
