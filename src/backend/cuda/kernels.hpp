// Launchers of the CUDA kernels (kernels.cu): each runs a backend functor over its index
// space on `stream` and checks the launch.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "qevolve/backend/local_gate.hpp"

namespace qevolve::backend::cuda::impl {

/// ApplyGate<Real, g> (compile-time g as on the CPU, ApplyGateDynamic otherwise) over every
/// (l, m, n) of `geo`; re, im, gate are device pointers.
template <typename Real>
void launch_apply_gate(Real* re, Real* im, const GateGeometry& geo, const Real* gate,
                       cudaStream_t stream);

/// env += the gate environment of psi and lambda (accumulate_environment's definition): every
/// (b, a) pair split over threads (EnvironmentSum with a stride), partial sums added with
/// atomicAdd; env is 2 g^2 device doubles (real parts, then imaginary parts).
void launch_accumulate_environment(const double* psi_re, const double* psi_im, const double* lam_re,
                                   const double* lam_im, const GateGeometry& geo, double* env,
                                   cudaStream_t stream);

/// PhaseColumns<double> over every (i, k) of a rows x cols matrix (device pointers).
void launch_apply_phases(const double* v, double* w, const double* lambda, double scale,
                         std::ptrdiff_t rows, std::ptrdiff_t cols, cudaStream_t stream);

/// If *info != 0 and no failure is recorded yet (status[0] < 0): status = {step, *info}.
/// Keeps the eigensolver's result on the device, so the steps need not wait for it.
void launch_record_info(const int* info, int* status, int step, cudaStream_t stream);

}  // namespace qevolve::backend::cuda::impl
