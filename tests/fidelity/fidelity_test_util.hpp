// Independent references for the fidelity tests: Kronecker products, gates from their
// textbook definitions (matrix exponentials of Pauli matrices), random unitaries, and dense
// compensation layers -- none of them use qevolve's fidelity code. The bodies are compiled once
// (fidelity_test_util.cpp): their Eigen instantiations (QR, general exp) cost seconds per file.
#pragma once

#include <cmath>
#include <complex>
#include <random>
#include <vector>

#include <Eigen/Dense>

#include "qevolve/types.hpp"

namespace qevolve::fidelity::testing {

inline const cplx kI{0.0, 1.0};

CMatrix pauli(char p);

/// a (x) b with a's index the most significant (np.kron).
CMatrix kron(const CMatrix& a, const CMatrix& b);

CMatrix kron_all(const std::vector<CMatrix>& ms);

/// Eigen's general matrix exponential, principal square root and real power
/// (unsupported/MatrixFunctions).
CMatrix expm(const CMatrix& a);
CMatrix sqrtm(const CMatrix& a);
CMatrix powm(const CMatrix& a, double p);

/// exp(-i theta P / 2) by Eigen's general matrix exponential.
CMatrix rotation(char p, double theta);

/// RZ(a) RY(b) RZ(g).
CMatrix euler(double a, double b, double g);

CMatrix vz(double theta);

/// Dense pre or post layer from a qevolve angle vector (layout of docs/output.md `/compensation/angles`).
CMatrix layer(bool single_qubit, const Eigen::VectorXd& angles, int n, bool post);

/// F = (Tr(U^dag U) + |Tr(U_t^dag U)|^2) / (d(d+1)), written out with dense traces.
double reference_fidelity(const CMatrix& u, const CMatrix& ut);

double compensated_fidelity(bool single_qubit, const CMatrix& u, const CMatrix& ut,
                            const Eigen::VectorXd& angles, int n);

/// Haar-random unitary: QR of a complex Gaussian matrix with the phases of R's diagonal fixed.
CMatrix random_unitary(Index d, std::mt19937_64& rng);

Eigen::VectorXd random_angles(Index count, double range, std::mt19937_64& rng);

/// RZ(a) RY(b) RZ(g) from the closed-form textbook factors (fast, for brute-force searches).
inline Eigen::Matrix2cd euler_fast(double a, double b, double g) {
  Eigen::Matrix2cd rza, ry, rzg;
  rza << std::exp(-kI * (0.5 * a)), 0.0, 0.0, std::exp(kI * (0.5 * a));
  ry << std::cos(0.5 * b), -std::sin(0.5 * b), std::sin(0.5 * b), std::cos(0.5 * b);
  rzg << std::exp(-kI * (0.5 * g)), 0.0, 0.0, std::exp(kI * (0.5 * g));
  return rza * ry * rzg;
}

}  // namespace qevolve::fidelity::testing
