// The CPU propagator executor (backend.hpp): state <- M state for a host-computed general matrix
// M (the dense Liouvillian's exponential), one BLAS product per step.
#include <memory>
#include <stdexcept>

#include "qevolve/backend/backend.hpp"

namespace qevolve::backend {
namespace {

class CpuPropagatorExecutor final : public PropagatorExecutor {
 public:
  void upload(CMatrix& state) override { state_ = &state; }
  void apply(const CMatrix& M) override {
    if (state_ == nullptr) throw std::logic_error("PropagatorExecutor::apply before upload");
    if (M.cols() != state_->rows()) throw std::invalid_argument("PropagatorExecutor::apply: M does not fit the state");
    *state_ = M * *state_;  // Eigen takes the product as aliased: evaluated into a temporary
  }
  void download(CMatrix& state) override {
    if (&state != state_) throw std::logic_error("PropagatorExecutor::download: not the uploaded matrix");
    state_ = nullptr;
  }

 private:
  CMatrix* state_ = nullptr;
};

}  // namespace

std::unique_ptr<PropagatorExecutor> make_cpu_propagator_executor() {
  return std::make_unique<CpuPropagatorExecutor>();
}

}  // namespace qevolve::backend
