// The CPU dense adjoint executor (backend.hpp): the dense path's adjoint step in the step's
// eigenbasis, on the uploaded psi and lambda, all columns at once. The products are the Eigen
// expressions the solver used inline before (solver/adjoint_dense.cpp), the phases of psi
// rounded as they were there (phase_rows), so results are bitwise unchanged.
#include <cmath>
#include <memory>
#include <stdexcept>

#include "qevolve/backend/backend.hpp"
#include "resident_pair.hpp"

namespace qevolve::backend {
namespace {

/// X <- diag(back) X, each product rounded as Eigen's packet complex product pmul(x, b) rounds
/// it (fmaddsub: re = fma(x_re, b_re, -(x_im b_im)), im = fma(x_re, b_im, x_im b_re)), the
/// way `back.asDiagonal() * X` was evaluated when this step was inline in the solver. Eigen's
/// expression, compiled here, contracted other products into FMAs and moved results by ulps.
void phase_rows(const CVector& back, CMatrix& X) {
  for (Index j = 0; j < X.cols(); ++j)
    for (Index i = 0; i < X.rows(); ++i) {
      const cplx x = X(i, j), b = back(i);
      X(i, j) = {std::fma(x.real(), b.real(), -(x.imag() * b.imag())),
                 std::fma(x.real(), b.imag(), x.imag() * b.real())};
    }
}

class CpuDenseAdjointExecutor final : public DenseAdjointExecutor {
 public:
  void upload(CMatrix& psi, CMatrix& lambda) override {
    states_.upload(psi, lambda, psi.rows() == lambda.rows() && psi.cols() == lambda.cols(),
                   "psi and lambda differ in shape");
  }
  CMatrix step_back(const CMatrix& W, const CVector& back) override {
    CMatrix& psi = states_.psi("step_back");
    CMatrix& lambda = states_.lambda();
    if (W.rows() != psi.rows() || W.cols() != psi.rows() || back.size() != psi.rows())
      throw std::invalid_argument("DenseAdjointExecutor::step_back: W or back does not fit the state");
    CMatrix X = W.adjoint() * psi;           // W^dag psi_{s+1}
    phase_rows(back, X);                     // diag(back) W^dag psi_{s+1} = W^dag psi_s
    const CMatrix Y = W.adjoint() * lambda;  // W^dag lambda_{s+1}
    psi = W * X;
    lambda = W * (back.asDiagonal() * Y);
    return X * Y.adjoint();  // W^dag (psi_s lambda_{s+1}^dag) W
  }
  void download(CMatrix& psi, CMatrix& lambda) override {
    states_.download(psi, lambda);
  }

 private:
  ResidentPair states_{"DenseAdjointExecutor"};
};

}  // namespace

std::unique_ptr<DenseAdjointExecutor> make_cpu_dense_adjoint_executor() {
  return std::make_unique<CpuDenseAdjointExecutor>();
}

}  // namespace qevolve::backend
