// The CPU Chebyshev executor (backend.hpp ChebyshevExecutor): splitting: chebyshev's column
// blocks. Columns are independent, so each thread of the team (backend/parallel.hpp) carries one
// block through all the steps of an apply() with no barrier per step, filling its own step data
// through the solver's callback and applying the series (backend/chebyshev_series.hpp).
#include <algorithm>
#include <exception>
#include <stdexcept>
#include <vector>

#include "qevolve/backend/backend.hpp"
#include "qevolve/backend/block_layout.hpp"
#include "qevolve/backend/chebyshev_series.hpp"
#include "qevolve/backend/parallel.hpp"

namespace qevolve::backend {
namespace {

class CpuChebyshevExecutor final : public ChebyshevExecutor {
 public:
  CpuChebyshevExecutor(Index dim, Index columns, Index block_width, int threads, double run_flops)
      : dim_(dim), columns_(columns), threads_(std::max(1, threads)) {
    width_ = std::max<Index>(1, std::min(block_width, columns));
    num_blocks_ = (columns + width_ - 1) / width_;
    // One decision for the whole run: its segments (between observation points) all run on a
    // team when the run's work is worth one.
    parallel_ = worth_threads(threads_, run_flops, num_blocks_);
  }

  void upload(CMatrix& state) override {
    if (state.rows() != dim_ || state.cols() != columns_)
      throw std::invalid_argument("ChebyshevExecutor::upload: the state does not match the executor");
    state_ = &state;
  }

  void apply(int u0, int u1, const std::function<void(int, ChebyshevStep&)>& step,
             const std::function<void(int)>& done) override {
    if (state_ == nullptr) throw std::logic_error("ChebyshevExecutor::apply before upload");
    CMatrix& state = *state_;
    std::exception_ptr failure;
    run_team(threads_, parallel_, [&](Team& team) {
      team.for_dynamic(0, num_blocks_, [&](Index b) {
        try {
          const Index c0 = b * width_, w = std::min(width_, columns_ - c0);
          PlanarBlock x;
          x.resize(dim_, w);
          load_block(state, c0, w, x.re.data(), x.im.data());
          ChebyshevStep data;
          ChebyshevWork work;
          for (int u = u0; u < u1; ++u) {
            step(u, data);
            apply_chebyshev(data.series, data.h, x, work);
            if (!observer_.at.empty() && std::binary_search(observer_.at.begin(), observer_.at.end(), u + 1))
              observer_.call(u + 1, c0, w, x.re.data(), x.im.data());
            // The calling thread reports: each block covers all the steps, so its step is the
            // run's.
            if (team.thread() == 0 && done) done(u);
          }
          store_block(state, c0, w, x.re.data(), x.im.data());
        } catch (...) {
          team.critical([&] { failure = std::current_exception(); });
        }
      });
    });
    if (failure) std::rethrow_exception(failure);
  }

  bool observe_blocks(BlockObserver<double> observer) override {
    observer_ = std::move(observer);
    return true;
  }

  void download(CMatrix& state) override {
    if (&state != state_) throw std::logic_error("ChebyshevExecutor::download: not the uploaded matrix");
    state_ = nullptr;
  }

 private:
  Index dim_, columns_;
  int threads_;
  bool parallel_ = false;
  Index width_ = 1, num_blocks_ = 0;
  CMatrix* state_ = nullptr;
  BlockObserver<double> observer_;
};

}  // namespace

std::unique_ptr<ChebyshevExecutor> make_cpu_chebyshev_executor(Index dim, Index columns, Index block_width,
                                                               int threads, double run_flops) {
  return std::make_unique<CpuChebyshevExecutor>(dim, columns, block_width, threads, run_flops);
}

}  // namespace qevolve::backend
