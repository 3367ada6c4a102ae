// The phase factor of a dense exponential step: with H = V diag(lambda) V^dag,
// exp(-i scale H) = W V^dag with W = V diag(exp(-i scale lambda)). W is computed per element
// (i, k) by a host/device functor: the CUDA dense executor runs it on the GPU after cuSOLVER's
// eigendecomposition, and the CPU driver below runs the same functor (tests).
#pragma once

#include <cmath>
#include <cstddef>

#include "qevolve/backend/host_device.hpp"

namespace qevolve::backend {

/// w(i, k) = v(i, k) * exp(-i scale lambda_k) for column-major complex matrices stored as
/// interleaved (re, im) pairs, `rows` rows. v and w may be the same array.
template <typename Real>
struct PhaseColumns {
  const Real* v;
  Real* w;
  const Real* lambda;
  Real scale;
  std::ptrdiff_t rows;

  QEVOLVE_HOST_DEVICE void operator()(std::ptrdiff_t i, std::ptrdiff_t k) const {
    const Real angle = -scale * lambda[k];
    const Real c = std::cos(angle), s = std::sin(angle);
    const std::ptrdiff_t e = 2 * (k * rows + i);
    const Real vr = v[e], vi = v[e + 1];
    w[e] = vr * c - vi * s;
    w[e + 1] = vr * s + vi * c;
  }
};

/// The CPU driver: PhaseColumns over every (i, k) of a rows x cols matrix.
void apply_phases(const double* v, double* w, const double* lambda, double scale,
                  std::ptrdiff_t rows, std::ptrdiff_t cols);

}  // namespace qevolve::backend
