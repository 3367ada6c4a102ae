// The caller's psi and lambda as a CPU adjoint executor holds them between upload and download:
// the CPU works in the uploaded matrices themselves (no device copy), so holding them is keeping
// their addresses and refusing misuse. Shared by the closed, dense and Chebyshev adjoint
// executors (backend.hpp); `owner` names the executor in the messages.
#pragma once

#include <stdexcept>
#include <string>

#include "qevolve/types.hpp"

namespace qevolve::backend {

class ResidentPair {
 public:
  explicit ResidentPair(const char* owner) : owner_(owner) {}

  /// Holds psi and lambda; `fits` false: std::invalid_argument "OWNER::upload: MISFIT".
  void upload(CMatrix& psi, CMatrix& lambda, bool fits, const char* misfit) {
    if (!fits) throw std::invalid_argument(std::string(owner_) + "::upload: " + misfit);
    psi_ = &psi;
    lambda_ = &lambda;
  }
  /// The held matrices; std::logic_error "OWNER::CALL before upload" without an upload.
  [[nodiscard]] CMatrix& psi(const char* call) const {
    if (psi_ == nullptr) throw std::logic_error(std::string(owner_) + "::" + call + " before upload");
    return *psi_;
  }
  [[nodiscard]] CMatrix& lambda() const { return *lambda_; }
  /// Lets them go; they must be the uploaded ones.
  void download(CMatrix& psi, CMatrix& lambda) {
    if (&psi != psi_ || &lambda != lambda_)
      throw std::logic_error(std::string(owner_) + "::download: not the uploaded matrices");
    psi_ = lambda_ = nullptr;
  }

 private:
  const char* owner_;
  CMatrix* psi_ = nullptr;
  CMatrix* lambda_ = nullptr;
};

}  // namespace qevolve::backend
