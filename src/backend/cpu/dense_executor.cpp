// The CPU dense executor (backend.hpp): the `expm` step exp(-i scale H) psi with LAPACK and BLAS.
#include <memory>
#include <stdexcept>

#include "qevolve/backend/backend.hpp"
#include "qevolve/linalg.hpp"

namespace qevolve::backend {
namespace {

class CpuDenseExecutor final : public DenseExecutor {
 public:
  void upload(CMatrix& state) override { state_ = &state; }
  void apply_exponential(const CMatrix& H, double scale) override {
    if (state_ == nullptr) throw std::logic_error("DenseExecutor::apply_exponential before upload");
    linalg::apply_expm_hermitian_rephased(H, scale, *state_);
  }
  void download(CMatrix& state) override {
    if (&state != state_) throw std::logic_error("DenseExecutor::download: not the uploaded matrix");
    state_ = nullptr;
  }

 private:
  CMatrix* state_ = nullptr;
};

}  // namespace

std::unique_ptr<DenseExecutor> make_cpu_dense_executor() { return std::make_unique<CpuDenseExecutor>(); }

}  // namespace qevolve::backend
