// The CPU Chebyshev adjoint executor (backend.hpp): the series' adjoint step
// (chebyshev_step_back) on the uploaded psi and lambda, one block of all columns.
#include <memory>
#include <stdexcept>

#include "qevolve/backend/backend.hpp"
#include "qevolve/backend/chebyshev_series.hpp"
#include "resident_pair.hpp"

namespace qevolve::backend {
namespace {

class CpuChebyshevAdjointExecutor final : public ChebyshevAdjointExecutor {
 public:
  void upload(CMatrix& psi, CMatrix& lambda) override {
    states_.upload(psi, lambda, psi.rows() == lambda.rows() && psi.cols() == lambda.cols(),
                   "psi and lambda differ in shape");
  }
  void step_back(const ChebyshevSeries& series, const ChebyshevGenerator& H,
                 const ChebyshevAccumulate& accumulate) override {
    chebyshev_step_back(series, H, states_.psi("step_back"), states_.lambda(), work_, accumulate);
  }
  void download(CMatrix& psi, CMatrix& lambda) override {
    states_.download(psi, lambda);
  }

 private:
  ResidentPair states_{"ChebyshevAdjointExecutor"};
  ChebyshevWork work_;
};

}  // namespace

std::unique_ptr<ChebyshevAdjointExecutor> make_cpu_chebyshev_adjoint_executor() {
  return std::make_unique<CpuChebyshevAdjointExecutor>();
}

}  // namespace qevolve::backend
