// The CUDA adjoint executor (backend/cuda.hpp): psi and lambda resident on the device as one
// block each (split planes); per chunk the host-computed adjoint gates are copied over and, per
// step from the last to the first and per gate from the last to the first, three kernels run
// the CPU executor's fused sequence
//   psi <- g^dag psi (ApplyGate),  env += psi lambda^dag (EnvironmentSum),  lambda <- g^dag lambda
// on one stream. The chunk's environments are summed on the device and copied back once.
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "device_buffer.hpp"
#include "impl.hpp"
#include "kernels.hpp"
#include "qevolve/backend/block_layout.hpp"

namespace qevolve::backend::cuda::impl {
namespace {

class CudaAdjointExecutor final : public AdjointExecutor {
 public:
  CudaAdjointExecutor(const GateSchedule& schedule, std::vector<bool> environment, Index columns,
                      int max_chunk_steps)
      : schedule_(schedule),
        environment_(std::move(environment)),
        dim_(schedule.dim()),
        columns_(columns),
        max_chunk_steps_(max_chunk_steps),
        geo_(make_block_layout(schedule, columns, columns).geo_full),
        psi_re_(static_cast<std::size_t>(dim_ * columns)),
        psi_im_(psi_re_.size()),
        lam_re_(psi_re_.size()),
        lam_im_(psi_re_.size()),
        gates_(schedule.step_size * static_cast<std::size_t>(max_chunk_steps)),
        env_(gates_.size()),
        host_re_(psi_re_.size()),
        host_im_(psi_re_.size()),
        host_env_(gates_.size()) {
    if (max_chunk_steps < 1) throw std::invalid_argument("cuda::make_adjoint_executor: max_chunk_steps < 1");
    if (environment_.size() != schedule.gates.size())
      throw std::invalid_argument("AdjointExecutor: one environment flag per gate");
  }

  void upload(CMatrix& psi, CMatrix& lambda) override {
    if (psi.rows() != dim_ || psi.cols() != columns_ || lambda.rows() != dim_ || lambda.cols() != columns_)
      throw std::invalid_argument("AdjointExecutor::upload: the states do not match the executor");
    to_device(psi, psi_re_, psi_im_, "psi");
    to_device(lambda, lam_re_, lam_im_, "lambda");
    psi_ = &psi;
    lambda_ = &lambda;
  }

  void apply(const double* adjoint_gates, int s0, int s1, double* env) override {
    if (psi_ == nullptr) throw std::logic_error("AdjointExecutor::apply before upload");
    if (s1 - s0 > max_chunk_steps_ || s1 < s0)
      throw std::invalid_argument("AdjointExecutor::apply: " + std::to_string(s1 - s0) +
                                  " steps in a chunk (at most " + std::to_string(max_chunk_steps_) + ")");
    const std::size_t per_step = schedule_.step_size;
    const std::size_t count = per_step * static_cast<std::size_t>(s1 - s0);
    check(cudaMemcpyAsync(gates_.get(), adjoint_gates, count * sizeof(double), cudaMemcpyHostToDevice, stream_.get()),
          "cudaMemcpyAsync host -> device (adjoint gates of steps " + std::to_string(s0) + ".." +
              std::to_string(s1 - 1) + ")");
    check(cudaMemsetAsync(env_.get(), 0, count * sizeof(double), stream_.get()), "cudaMemsetAsync (environments)");
    for (int s = s1 - 1; s >= s0; --s) {
      const std::size_t base = per_step * static_cast<std::size_t>(s - s0);
      for (int k = schedule_.num_gates() - 1; k >= 0; --k) {
        const auto kk = static_cast<std::size_t>(k);
        const std::size_t at = base + schedule_.gates[kk].offset;
        const GateGeometry& geo = geo_[kk];
        launch_apply_gate(psi_re_.get(), psi_im_.get(), geo, gates_.get() + at, stream_.get());
        if (environment_[kk])
          launch_accumulate_environment(psi_re_.get(), psi_im_.get(), lam_re_.get(), lam_im_.get(), geo,
                                        env_.get() + at, stream_.get());
        launch_apply_gate(lam_re_.get(), lam_im_.get(), geo, gates_.get() + at, stream_.get());
      }
    }
    check(cudaMemcpyAsync(host_env_.data(), env_.get(), count * sizeof(double), cudaMemcpyDeviceToHost, stream_.get()),
          "cudaMemcpyAsync device -> host (environments)");
    stream_.synchronize("adjoint kernels of steps " + std::to_string(s0) + ".." + std::to_string(s1 - 1));
    for (std::size_t i = 0; i < count; ++i) env[i] += host_env_[i];
  }

  void download(CMatrix& psi, CMatrix& lambda) override {
    if (&psi != psi_ || &lambda != lambda_)
      throw std::logic_error("AdjointExecutor::download: not the uploaded matrices");
    to_host(psi, psi_re_, psi_im_, "psi");
    to_host(lambda, lam_re_, lam_im_, "lambda");
    psi_ = lambda_ = nullptr;
  }

 private:
  void to_device(const CMatrix& m, DeviceBuffer<double>& re, DeviceBuffer<double>& im, const std::string& what) {
    load_block(m, 0, columns_, host_re_.data(), host_im_.data());
    check(cudaMemcpyAsync(re.get(), host_re_.data(), re.bytes(), cudaMemcpyHostToDevice, stream_.get()),
          "cudaMemcpyAsync host -> device (" + what + ", real plane)");
    check(cudaMemcpyAsync(im.get(), host_im_.data(), im.bytes(), cudaMemcpyHostToDevice, stream_.get()),
          "cudaMemcpyAsync host -> device (" + what + ", imaginary plane)");
    stream_.synchronize(what + " upload");  // the staging planes are reused next
  }
  void to_host(CMatrix& m, const DeviceBuffer<double>& re, const DeviceBuffer<double>& im, const std::string& what) {
    check(cudaMemcpyAsync(host_re_.data(), re.get(), re.bytes(), cudaMemcpyDeviceToHost, stream_.get()),
          "cudaMemcpyAsync device -> host (" + what + ", real plane)");
    check(cudaMemcpyAsync(host_im_.data(), im.get(), im.bytes(), cudaMemcpyDeviceToHost, stream_.get()),
          "cudaMemcpyAsync device -> host (" + what + ", imaginary plane)");
    stream_.synchronize(what + " download");
    store_block(m, 0, columns_, host_re_.data(), host_im_.data());
  }

  GateSchedule schedule_;
  std::vector<bool> environment_;
  Index dim_, columns_;
  int max_chunk_steps_;
  std::vector<GateGeometry> geo_;  // one block of width `columns`
  Stream stream_;
  DeviceBuffer<double> psi_re_, psi_im_, lam_re_, lam_im_, gates_, env_;
  std::vector<double> host_re_, host_im_, host_env_;
  CMatrix* psi_ = nullptr;
  CMatrix* lambda_ = nullptr;
};

}  // namespace

std::unique_ptr<AdjointExecutor> make_adjoint_executor(const GateSchedule& schedule, std::vector<bool> environment,
                                                       Index columns, int max_chunk_steps) {
  return std::make_unique<CudaAdjointExecutor>(schedule, std::move(environment), columns, max_chunk_steps);
}

}  // namespace qevolve::backend::cuda::impl
