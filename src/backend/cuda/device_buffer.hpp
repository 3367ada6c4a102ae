// Owning handles of device memory, a stream, and the cuBLAS / cuSOLVER handles (created and
// checked in the constructor, released in the destructor).
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cusolverDn.h>

#include <cstddef>
#include <string>
#include <utility>

#include "cuda_check.hpp"

namespace qevolve::backend::cuda::impl {

/// `count` elements of T on the current device (uninitialised).
template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    if (count == 0) return;
    void* p = nullptr;
    check(cudaMalloc(&p, count * sizeof(T)), "cudaMalloc(" + std::to_string(count * sizeof(T)) + " bytes)");
    data_ = static_cast<T*>(p);
  }
  ~DeviceBuffer() {
    if (data_ != nullptr) cudaFree(data_);  // a failure here cannot be reported (destructor)
  }
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), count_(std::exchange(o.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(count_, o.count_);
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  [[nodiscard]] T* get() const { return data_; }
  [[nodiscard]] std::size_t size() const { return count_; }
  [[nodiscard]] std::size_t bytes() const { return count_ * sizeof(T); }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

/// A non-blocking stream: the executors queue copies and kernels on it and wait only in
/// download().
class Stream {
 public:
  Stream() { check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreateWithFlags"); }
  ~Stream() { cudaStreamDestroy(stream_); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  [[nodiscard]] cudaStream_t get() const { return stream_; }
  void synchronize(const std::string& what) const {
    check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize (" + what + ")");
  }

 private:
  cudaStream_t stream_ = nullptr;
};

/// A cuBLAS handle bound to a stream.
class BlasHandle {
 public:
  explicit BlasHandle(cudaStream_t stream) {
    check(cublasCreate(&handle_), "cublasCreate");
    const cublasStatus_t s = cublasSetStream(handle_, stream);
    if (s != CUBLAS_STATUS_SUCCESS) cublasDestroy(handle_);
    check(s, "cublasSetStream");
  }
  ~BlasHandle() { cublasDestroy(handle_); }
  BlasHandle(const BlasHandle&) = delete;
  BlasHandle& operator=(const BlasHandle&) = delete;
  [[nodiscard]] cublasHandle_t get() const { return handle_; }

 private:
  cublasHandle_t handle_ = nullptr;
};

/// A cuSOLVER dense handle bound to a stream.
class SolverHandle {
 public:
  explicit SolverHandle(cudaStream_t stream) {
    check(cusolverDnCreate(&handle_), "cusolverDnCreate");
    const cusolverStatus_t s = cusolverDnSetStream(handle_, stream);
    if (s != CUSOLVER_STATUS_SUCCESS) cusolverDnDestroy(handle_);
    check(s, "cusolverDnSetStream");
  }
  ~SolverHandle() { cusolverDnDestroy(handle_); }
  SolverHandle(const SolverHandle&) = delete;
  SolverHandle& operator=(const SolverHandle&) = delete;
  [[nodiscard]] cusolverDnHandle_t get() const { return handle_; }

 private:
  cusolverDnHandle_t handle_ = nullptr;
};

}  // namespace qevolve::backend::cuda::impl
