// One-off kernel runs on host arrays (backend/cuda.hpp): the functor tests on the GPU.
#include <string>

#include "device_buffer.hpp"
#include "kernels.hpp"
#include "impl.hpp"

namespace qevolve::backend::cuda::impl {
namespace {

template <typename T>
DeviceBuffer<T> to_device(const T* host, std::size_t count, const Stream& stream, const char* what) {
  DeviceBuffer<T> d(count);
  check(cudaMemcpyAsync(d.get(), host, d.bytes(), cudaMemcpyHostToDevice, stream.get()),
        std::string("cudaMemcpyAsync host -> device (") + what + ")");
  return d;
}

template <typename T>
void to_host(T* host, const DeviceBuffer<T>& d, const Stream& stream, const char* what) {
  check(cudaMemcpyAsync(host, d.get(), d.bytes(), cudaMemcpyDeviceToHost, stream.get()),
        std::string("cudaMemcpyAsync device -> host (") + what + ")");
}

}  // namespace

template <typename Real>
void run_apply_gate(Real* re, Real* im, std::size_t size, const GateGeometry& geo, const Real* gate) {
  const Stream stream;
  const auto gg = static_cast<std::size_t>(2 * geo.size() * geo.size());
  DeviceBuffer<Real> dre = to_device(re, size, stream, "real plane");
  DeviceBuffer<Real> dim = to_device(im, size, stream, "imaginary plane");
  const DeviceBuffer<Real> dgate = to_device(gate, gg, stream, "gate");
  launch_apply_gate(dre.get(), dim.get(), geo, dgate.get(), stream.get());
  to_host(re, dre, stream, "real plane");
  to_host(im, dim, stream, "imaginary plane");
  stream.synchronize("run_apply_gate");
}

void run_accumulate_environment(const double* psi_re, const double* psi_im, const double* lam_re,
                                const double* lam_im, std::size_t size, const GateGeometry& geo, double* env) {
  const Stream stream;
  const auto gg = static_cast<std::size_t>(2 * geo.size() * geo.size());
  const DeviceBuffer<double> dpr = to_device(psi_re, size, stream, "psi real plane");
  const DeviceBuffer<double> dpi = to_device(psi_im, size, stream, "psi imaginary plane");
  const DeviceBuffer<double> dlr = to_device(lam_re, size, stream, "lambda real plane");
  const DeviceBuffer<double> dli = to_device(lam_im, size, stream, "lambda imaginary plane");
  DeviceBuffer<double> denv = to_device(env, gg, stream, "environment");
  launch_accumulate_environment(dpr.get(), dpi.get(), dlr.get(), dli.get(), geo, denv.get(), stream.get());
  to_host(env, denv, stream, "environment");
  stream.synchronize("run_accumulate_environment");
}

void run_apply_phases(const double* v, double* w, const double* lambda, double scale,
                      std::ptrdiff_t rows, std::ptrdiff_t cols) {
  const Stream stream;
  const auto size = static_cast<std::size_t>(2 * rows * cols);
  const DeviceBuffer<double> dv = to_device(v, size, stream, "v");
  const DeviceBuffer<double> dlambda = to_device(lambda, static_cast<std::size_t>(cols), stream, "lambda");
  const DeviceBuffer<double> dw(size);
  launch_apply_phases(dv.get(), dw.get(), dlambda.get(), scale, rows, cols, stream.get());
  to_host(w, dw, stream, "w");
  stream.synchronize("run_apply_phases");
}

template void run_apply_gate<double>(double*, double*, std::size_t, const GateGeometry&, const double*);
template void run_apply_gate<float>(float*, float*, std::size_t, const GateGeometry&, const float*);

}  // namespace qevolve::backend::cuda::impl
