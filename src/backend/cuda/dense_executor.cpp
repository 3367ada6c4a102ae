// The CUDA dense executor (backend/cuda.hpp): the `expm` step on the device with cuSOLVER
// (zheevd), the PhaseColumns kernel and cuBLAS zgemm.
#include <climits>
#include <complex>
#include <memory>
#include <stdexcept>
#include <string>

#include "device_buffer.hpp"
#include "kernels.hpp"
#include "impl.hpp"
#include "qevolve/error.hpp"

namespace qevolve::backend::cuda::impl {
namespace {

const cuDoubleComplex kOne{1.0, 0.0}, kMinusOne{-1.0, 0.0}, kHalf{0.5, 0.0}, kZero{0.0, 0.0};

const cuDoubleComplex* as_device(const cplx* p) { return reinterpret_cast<const cuDoubleComplex*>(p); }
cuDoubleComplex* as_device(cplx* p) { return reinterpret_cast<cuDoubleComplex*>(p); }

class CudaDenseExecutor final : public DenseExecutor {
 public:
  CudaDenseExecutor(Index dim, Index columns)
      : dim_(dim),
        columns_(columns),
        d_(checked_int(dim, "dimension")),
        n_(checked_int(columns, "number of columns")),
        blas_(stream_.get()),
        solver_(stream_.get()),
        a_(square()),
        v_(square()),
        w_(square()),
        defect_(square()),
        identity_(square()),
        state_(static_cast<std::size_t>(dim * columns)),
        tmp_(state_.size()),
        lambda_(static_cast<std::size_t>(dim)),
        info_(1),
        status_(2) {
    int lwork = 0;
    check(cusolverDnZheevd_bufferSize(solver_.get(), CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER,
                                      d_, a_.get(), d_, lambda_.get(), &lwork),
          "cusolverDnZheevd_bufferSize");
    work_ = DeviceBuffer<cuDoubleComplex>(static_cast<std::size_t>(lwork > 0 ? lwork : 1));
    lwork_ = lwork;
    const CMatrix I = CMatrix::Identity(dim, dim);
    check(cudaMemcpy(identity_.get(), I.data(), identity_.bytes(), cudaMemcpyHostToDevice),
          "cudaMemcpy host -> device (identity)");
    const int no_failure[2] = {-1, 0};
    check(cudaMemcpy(status_.get(), no_failure, sizeof no_failure, cudaMemcpyHostToDevice),
          "cudaMemcpy host -> device (eigensolver status)");
  }

  void upload(CMatrix& state) override {
    if (state.rows() != dim_ || state.cols() != columns_)
      throw std::invalid_argument("DenseExecutor::upload: the state does not match the executor");
    check(cudaMemcpyAsync(state_.get(), as_device(state.data()), state_.bytes(), cudaMemcpyHostToDevice,
                          stream_.get()),
          "cudaMemcpyAsync host -> device (state)");
    uploaded_ = &state;
  }

  void apply_exponential(const CMatrix& H, double scale) override {
    if (uploaded_ == nullptr) throw std::logic_error("DenseExecutor::apply_exponential before upload");
    if (H.rows() != dim_ || H.cols() != dim_)
      throw std::invalid_argument("DenseExecutor::apply_exponential: H is not D x D");
    cudaStream_t s = stream_.get();
    // From pageable memory: returns once H is staged (the caller's temporary may go).
    check(cudaMemcpyAsync(a_.get(), as_device(H.data()), a_.bytes(), cudaMemcpyHostToDevice, s),
          "cudaMemcpyAsync host -> device (H)");
    // H = V diag(lambda) V^dag; V overwrites a_ (column-major, lower triangle of H read).
    check(cusolverDnZheevd(solver_.get(), CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, d_, a_.get(),
                           d_, lambda_.get(), work_.get(), lwork_, info_.get()),
          "cusolverDnZheevd");
    launch_record_info(info_.get(), status_.get(), step_, s);
    // One Newton step towards the unitary polar factor (linalg::refine_unitary):
    // defect = I - V^dag V, V <- V + V defect / 2.
    check(cudaMemcpyAsync(defect_.get(), identity_.get(), defect_.bytes(), cudaMemcpyDeviceToDevice, s),
          "cudaMemcpyAsync device -> device (identity)");
    gemm(CUBLAS_OP_C, d_, d_, kMinusOne, a_.get(), a_.get(), kOne, defect_.get(), "cublasZgemm (V^dag V)");
    check(cudaMemcpyAsync(v_.get(), a_.get(), v_.bytes(), cudaMemcpyDeviceToDevice, s),
          "cudaMemcpyAsync device -> device (V)");
    gemm(CUBLAS_OP_N, d_, d_, kHalf, a_.get(), defect_.get(), kOne, v_.get(), "cublasZgemm (V defect)");
    // W = V diag(exp(-i scale lambda)), then psi <- W (V^dag psi).
    launch_apply_phases(reinterpret_cast<const double*>(v_.get()), reinterpret_cast<double*>(w_.get()),
                        lambda_.get(), scale, d_, d_, s);
    gemm(CUBLAS_OP_C, d_, n_, kOne, v_.get(), state_.get(), kZero, tmp_.get(), "cublasZgemm (V^dag psi)");
    gemm(CUBLAS_OP_N, d_, n_, kOne, w_.get(), tmp_.get(), kZero, state_.get(), "cublasZgemm (W V^dag psi)");
    ++step_;
  }

  void download(CMatrix& state) override {
    if (&state != uploaded_) throw std::logic_error("DenseExecutor::download: not the uploaded matrix");
    int status[2] = {-1, 0};
    check(cudaMemcpyAsync(as_device(state.data()), state_.get(), state_.bytes(), cudaMemcpyDeviceToHost,
                          stream_.get()),
          "cudaMemcpyAsync device -> host (state)");
    check(cudaMemcpyAsync(status, status_.get(), sizeof status, cudaMemcpyDeviceToHost, stream_.get()),
          "cudaMemcpyAsync device -> host (eigensolver status)");
    stream_.synchronize("dense steps and state download");
    uploaded_ = nullptr;
    if (status[0] >= 0)
      throw NumericalError("cusolverDnZheevd failed at step " + std::to_string(status[0]) + " with info " +
                           std::to_string(status[1]));
  }

 private:
  static int checked_int(Index v, const char* what) {
    if (v < 0 || v > INT_MAX) throw std::invalid_argument(std::string("cuda dense executor: ") + what + " too large");
    return static_cast<int>(v);
  }
  [[nodiscard]] std::size_t square() const { return static_cast<std::size_t>(dim_ * dim_); }

  /// C <- alpha op(A) B + beta C with A D x D (op: N or C), B D x cols, C D x cols.
  void gemm(cublasOperation_t op_a, int rows, int cols, const cuDoubleComplex& alpha, const cuDoubleComplex* A,
            const cuDoubleComplex* B, const cuDoubleComplex& beta, cuDoubleComplex* C, const char* call) {
    check(cublasZgemm(blas_.get(), op_a, CUBLAS_OP_N, rows, cols, rows, &alpha, A, rows, B, rows, &beta, C, rows),
          call);
  }

  Index dim_, columns_;
  int d_, n_;
  Stream stream_;
  BlasHandle blas_;
  SolverHandle solver_;
  DeviceBuffer<cuDoubleComplex> a_, v_, w_, defect_, identity_, state_, tmp_, work_;
  DeviceBuffer<double> lambda_;
  DeviceBuffer<int> info_, status_;
  int lwork_ = 0;
  int step_ = 0;
  CMatrix* uploaded_ = nullptr;
};

}  // namespace

std::unique_ptr<DenseExecutor> make_dense_executor(Index dim, Index columns) {
  return std::make_unique<CudaDenseExecutor>(dim, columns);
}

}  // namespace qevolve::backend::cuda::impl
