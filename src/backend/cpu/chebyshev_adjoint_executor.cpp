// The CPU Chebyshev adjoint executor (backend.hpp): the series' adjoint step
// (chebyshev_step_back) on the uploaded psi and lambda, one block of all columns.
#include <memory>
#include <stdexcept>

#include "qevolve/backend/backend.hpp"
#include "qevolve/backend/chebyshev_series.hpp"

namespace qevolve::backend {
namespace {

class CpuChebyshevAdjointExecutor final : public ChebyshevAdjointExecutor {
 public:
  void upload(CMatrix& psi, CMatrix& lambda) override {
    if (psi.rows() != lambda.rows() || psi.cols() != lambda.cols())
      throw std::invalid_argument("ChebyshevAdjointExecutor::upload: psi and lambda differ in shape");
    psi_ = &psi;
    lambda_ = &lambda;
  }
  void step_back(const ChebyshevSeries& series, const ChebyshevGenerator& H,
                 const ChebyshevAccumulate& accumulate) override {
    if (psi_ == nullptr) throw std::logic_error("ChebyshevAdjointExecutor::step_back before upload");
    chebyshev_step_back(series, H, *psi_, *lambda_, work_, accumulate);
  }
  void download(CMatrix& psi, CMatrix& lambda) override {
    if (&psi != psi_ || &lambda != lambda_)
      throw std::logic_error("ChebyshevAdjointExecutor::download: not the uploaded matrices");
    psi_ = lambda_ = nullptr;
  }

 private:
  CMatrix* psi_ = nullptr;
  CMatrix* lambda_ = nullptr;
  ChebyshevWork work_;
};

}  // namespace

std::unique_ptr<ChebyshevAdjointExecutor> make_cpu_chebyshev_adjoint_executor() {
  return std::make_unique<CpuChebyshevAdjointExecutor>();
}

}  // namespace qevolve::backend
