// The CUDA gate executor (backend/cuda.hpp): every column resident on the device as one block
// of split planes; per chunk the host-computed gates are copied over and one kernel per gate
// applies them.
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "device_buffer.hpp"
#include "kernels.hpp"
#include "qevolve/backend/block_layout.hpp"
#include "impl.hpp"

namespace qevolve::backend::cuda::impl {
namespace {

template <typename Real>
class CudaGateExecutor final : public GateExecutor<Real> {
 public:
  CudaGateExecutor(const GateSchedule& schedule, Index columns, int max_chunk_steps)
      : schedule_(schedule),
        dim_(schedule.dim()),
        columns_(columns),
        max_chunk_steps_(max_chunk_steps),
        geo_(make_block_layout(schedule, columns, columns).geo_full),
        re_(static_cast<std::size_t>(dim_ * columns)),
        im_(re_.size()),
        gates_(schedule.step_size * static_cast<std::size_t>(max_chunk_steps)),
        host_re_(re_.size()),
        host_im_(re_.size()) {
    if (max_chunk_steps < 1) throw std::invalid_argument("cuda::make_gate_executor: max_chunk_steps < 1");
  }

  void upload(CMatrix& state) override {
    if (state.rows() != dim_ || state.cols() != columns_)
      throw std::invalid_argument("GateExecutor::upload: the state does not match the executor");
    load_block(state, 0, columns_, host_re_.data(), host_im_.data());
    copy_to_device(re_.get(), host_re_.data(), re_.bytes(), "state (real plane)");
    copy_to_device(im_.get(), host_im_.data(), im_.bytes(), "state (imaginary plane)");
    uploaded_ = &state;
  }

  void apply(const Real* gates, int s0, int s1) override {
    if (uploaded_ == nullptr) throw std::logic_error("GateExecutor::apply before upload");
    if (s1 - s0 > max_chunk_steps_ || s1 < s0)
      throw std::invalid_argument("GateExecutor::apply: " + std::to_string(s1 - s0) +
                                  " steps in a chunk (at most " + std::to_string(max_chunk_steps_) + ")");
    // From pageable memory: returns once the buffer is staged, so the caller may reuse it.
    copy_to_device(gates_.get(), gates, schedule_.step_size * static_cast<std::size_t>(s1 - s0) * sizeof(Real),
                   "gates of steps " + std::to_string(s0) + ".." + std::to_string(s1 - 1));
    for (int s = s0; s < s1; ++s) {
      const Real* step_gates = gates_.get() + schedule_.step_size * static_cast<std::size_t>(s - s0);
      const int last = schedule_.applied(s);
      for (int k = 0; k < last; ++k)
        launch_apply_gate(re_.get(), im_.get(), geo_[static_cast<std::size_t>(k)],
                          step_gates + schedule_.gates[static_cast<std::size_t>(k)].offset, stream_.get());
    }
  }

  void download(CMatrix& state) override {
    if (&state != uploaded_) throw std::logic_error("GateExecutor::download: not the uploaded matrix");
    copy_to_host(host_re_.data(), re_.get(), re_.bytes(), "state (real plane)");
    copy_to_host(host_im_.data(), im_.get(), im_.bytes(), "state (imaginary plane)");
    stream_.synchronize("gate kernels and state download");
    store_block(state, 0, columns_, host_re_.data(), host_im_.data());
    uploaded_ = nullptr;
  }

 private:
  void copy_to_device(void* dst, const void* src, std::size_t bytes, const std::string& what) {
    check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream_.get()),
          "cudaMemcpyAsync host -> device (" + what + ")");
  }
  void copy_to_host(void* dst, const void* src, std::size_t bytes, const std::string& what) {
    check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, stream_.get()),
          "cudaMemcpyAsync device -> host (" + what + ")");
  }

  GateSchedule schedule_;
  Index dim_, columns_;
  int max_chunk_steps_;
  std::vector<GateGeometry> geo_;  // one block of width `columns`
  Stream stream_;
  DeviceBuffer<Real> re_, im_, gates_;
  std::vector<Real> host_re_, host_im_;  // staging of the split planes
  CMatrix* uploaded_ = nullptr;
};

}  // namespace

template <typename Real>
std::unique_ptr<GateExecutor<Real>> make_gate_executor(const GateSchedule& schedule, Index columns,
                                                       int max_chunk_steps) {
  return std::make_unique<CudaGateExecutor<Real>>(schedule, columns, max_chunk_steps);
}

template std::unique_ptr<GateExecutor<double>> make_gate_executor<double>(const GateSchedule&, Index, int);
template std::unique_ptr<GateExecutor<float>> make_gate_executor<float>(const GateSchedule&, Index, int);

}  // namespace qevolve::backend::cuda::impl
