// Basic numeric types shared by every layer of qevolve.
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>

#include <Eigen/Dense>

namespace qevolve {

using cplx = std::complex<double>;
using Index = std::ptrdiff_t;

using RVector = Eigen::VectorXd;
using CVector = Eigen::VectorXcd;
using RMatrix = Eigen::MatrixXd;
using CMatrix = Eigen::MatrixXcd;

/// Uninitialised stack storage for N complex numbers. `cplx buf[N]` value-initialises every
/// element (std::complex's constructor zeroes it), which for the per-step scratch buffers of the
/// gate arithmetic was a memset of up to 64 KiB per gate and step. std::complex<double> is an
/// implicit-lifetime type, so the byte array provides its objects (C++20, P0593).
template <std::size_t N>
struct CplxScratch {
  alignas(cplx) unsigned char raw[N * sizeof(cplx)];
  [[nodiscard]] cplx* data() { return reinterpret_cast<cplx*>(raw); }
};

/// 2*pi, the factor between the GHz energies of the config and angular frequency in rad/ns.
inline constexpr double kTwoPi = 6.283185307179586476925286766559;
inline constexpr double kPi = 3.141592653589793238462643383279;

}  // namespace qevolve
