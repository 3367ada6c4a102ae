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

/// 2*pi, the factor between the GHz energies of the config and angular frequency in rad/ns.
inline constexpr double kTwoPi = 6.283185307179586476925286766559;
inline constexpr double kPi = 3.141592653589793238462643383279;

}  // namespace qevolve
