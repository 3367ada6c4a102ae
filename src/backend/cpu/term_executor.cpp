// The CPU term executor (backend.hpp TermExecutor): the adaptive integrator's column blocks. Each
// block is loaded into one vector (real plane, then imaginary plane) and handed to the
// integrator on one thread of the team (backend/parallel.hpp, blocks taken dynamically); the
// generator's product is one accumulate_gate sweep per local term (backend/local_gate.hpp).
#include <algorithm>
#include <atomic>
#include <exception>
#include <limits>
#include <stdexcept>
#include <vector>

#include "qevolve/backend/backend.hpp"
#include "qevolve/backend/block_layout.hpp"
#include "qevolve/backend/local_gate.hpp"
#include "qevolve/backend/parallel.hpp"

namespace qevolve::backend {
namespace {

/// The terms' modes as a gate schedule (their geometries per block width: make_block_layout).
GateSchedule term_modes(const TermSchedule& schedule) {
  GateSchedule s;
  s.dims = schedule.dims;
  for (const TermSchedule::Term& t : schedule.terms) {
    GateSchedule::Gate& g = s.gates.emplace_back();
    g.mode_a = t.mode_a;
    g.mode_b = t.mode_b;
  }
  return s;
}

class CpuTermBlock final : public TermBlock {
 public:
  CpuTermBlock(const TermSchedule& schedule, const std::vector<GateGeometry>& geo, Index dim, Index w)
      : schedule_(schedule), geo_(geo), n_(dim * w), w_(w), state_(2 * static_cast<std::size_t>(n_), 0.0) {}

  [[nodiscard]] Index columns() const override { return w_; }
  [[nodiscard]] std::vector<double>& state() override { return state_; }

  void derivative(const std::vector<double>& c, const double* y, double* k) const override {
    std::fill(k, k + 2 * n_, 0.0);
    const double* yr = y;
    const double* yi = y + n_;
    double* kr = k;
    double* ki = k + n_;
    for (std::size_t j = 0; j < schedule_.terms.size(); ++j) {
      const TermSchedule::Term& t = schedule_.terms[j];
      const double cj = t.channel < 0 ? 1.0 : c[static_cast<std::size_t>(t.channel)];
      if (cj == 0.0) continue;
      const cplx a = t.alpha * cj;
      accumulate_gate(yr, yi, kr, ki, geo_[j], t.matrix.data(), a.real(), a.imag());
    }
  }

 private:
  const TermSchedule& schedule_;
  const std::vector<GateGeometry>& geo_;
  Index n_, w_;
  std::vector<double> state_;
};

class CpuTermExecutor final : public TermExecutor {
 public:
  CpuTermExecutor(const TermSchedule& schedule, Index columns, Index block_width, int threads)
      : schedule_(schedule),
        layout_(make_block_layout(term_modes(schedule), columns, block_width)),
        threads_(std::max(1, threads)),
        dim_(term_modes(schedule).dim()),
        columns_(columns) {}

  void upload(CMatrix& state) override {
    if (state.rows() != dim_ || state.cols() != columns_)
      throw std::invalid_argument("TermExecutor::upload: the state does not match the executor");
    state_ = &state;
  }

  void run(const std::function<void(TermBlock&)>& integrate, const std::function<void(Index)>& done) override {
    if (state_ == nullptr) throw std::logic_error("TermExecutor::run before upload");
    CMatrix& state = *state_;
    std::atomic<Index> finished{0};
    std::exception_ptr failure;
    // The work of an integration is not known before it ends: the blocks decide (one block, one
    // thread).
    const bool parallel = worth_threads(threads_, std::numeric_limits<double>::infinity(), layout_.num_blocks);
    run_team(threads_, parallel, [&](Team& team) {
      team.for_dynamic(0, layout_.num_blocks, [&](Index b) {
        try {
          const Index c0 = layout_.first_column(b), w = layout_.columns(b);
          CpuTermBlock block(schedule_, layout_.geometry(b), dim_, w);
          std::vector<double>& y = block.state();
          load_block(state, c0, w, y.data(), y.data() + dim_ * w);
          integrate(block);
          store_block(state, c0, w, block.state().data(), block.state().data() + dim_ * w);
          const Index n = ++finished;
          if (done && team.thread() == 0) done(n);
        } catch (...) {
          team.critical([&] { failure = std::current_exception(); });
        }
      });
    });
    if (failure) std::rethrow_exception(failure);
  }

  void download(CMatrix& state) override {
    if (&state != state_) throw std::logic_error("TermExecutor::download: not the uploaded matrix");
    state_ = nullptr;
  }

 private:
  TermSchedule schedule_;
  BlockLayout layout_;
  int threads_;
  Index dim_, columns_;
  CMatrix* state_ = nullptr;
};

}  // namespace

std::unique_ptr<TermExecutor> make_cpu_term_executor(const TermSchedule& schedule, Index columns, Index block_width,
                                                     int threads) {
  return std::make_unique<CpuTermExecutor>(schedule, columns, block_width, threads);
}

}  // namespace qevolve::backend
