// Bodies of fidelity_test_util.hpp, compiled once for the test executables that use them.
#include "fidelity_test_util.hpp"

#include <unsupported/Eigen/MatrixFunctions>

namespace qevolve::fidelity::testing {

CMatrix expm(const CMatrix& a) { return a.exp(); }

CMatrix sqrtm(const CMatrix& a) { return a.sqrt(); }

CMatrix powm(const CMatrix& a, double p) { return a.pow(p); }

CMatrix pauli(char p) {
  CMatrix m(2, 2);
  switch (p) {
    case 'X':
      m << 0, 1, 1, 0;
      break;
    case 'Y':
      m << 0, -kI, kI, 0;
      break;
    case 'Z':
      m << 1, 0, 0, -1;
      break;
    default:
      m << 1, 0, 0, 1;
      break;
  }
  return m;
}

/// a (x) b with a's index the most significant (np.kron).
CMatrix kron(const CMatrix& a, const CMatrix& b) {
  CMatrix out(a.rows() * b.rows(), a.cols() * b.cols());
  for (Index i = 0; i < a.rows(); ++i)
    for (Index j = 0; j < a.cols(); ++j)
      out.block(i * b.rows(), j * b.cols(), b.rows(), b.cols()) = a(i, j) * b;
  return out;
}

CMatrix kron_all(const std::vector<CMatrix>& ms) {
  CMatrix out = CMatrix::Identity(1, 1);
  for (const auto& m : ms) out = kron(out, m);
  return out;
}

/// exp(-i theta P / 2) by Eigen's general matrix exponential.
CMatrix rotation(char p, double theta) {
  const CMatrix a = (-kI * 0.5 * theta) * pauli(p);
  return expm(a);
}

/// RZ(a) RY(b) RZ(g).
CMatrix euler(double a, double b, double g) {
  return rotation('Z', a) * rotation('Y', b) * rotation('Z', g);
}

CMatrix vz(double theta) {
  CMatrix m = CMatrix::Zero(2, 2);
  m(0, 0) = std::exp(kI * theta);
  m(1, 1) = std::exp(-kI * theta);
  return m;
}

/// Dense pre or post layer from a qevolve angle vector (layout of docs/output.md `/compensation/angles`).
CMatrix layer(bool single_qubit, const Eigen::VectorXd& angles, int n, bool post) {
  std::vector<CMatrix> f;
  for (int q = 0; q < n; ++q) {
    const int s = post ? n + q : q;
    if (single_qubit)
      f.push_back(euler(angles(3 * s), angles(3 * s + 1), angles(3 * s + 2)));
    else
      f.push_back(vz(angles(s)));
  }
  return kron_all(f);
}

/// F = (Tr(U^dag U) + |Tr(U_t^dag U)|^2) / (d(d+1)), written out with dense traces.
double reference_fidelity(const CMatrix& u, const CMatrix& ut) {
  const double d = static_cast<double>(u.rows());
  const cplx tr_uu = (u.adjoint() * u).trace();
  const cplx tr_tu = (ut.adjoint() * u).trace();
  return (tr_uu.real() + std::norm(tr_tu)) / (d * (d + 1.0));
}

double compensated_fidelity(bool single_qubit, const CMatrix& u, const CMatrix& ut,
                            const Eigen::VectorXd& angles, int n) {
  const CMatrix up =
      layer(single_qubit, angles, n, true) * u * layer(single_qubit, angles, n, false);
  return reference_fidelity(up, ut);
}

/// Haar-random unitary: QR of a complex Gaussian matrix with the phases of R's diagonal fixed.
CMatrix random_unitary(Index d, std::mt19937_64& rng) {
  std::normal_distribution<double> g(0.0, 1.0);
  CMatrix z(d, d);
  for (Index i = 0; i < d; ++i)
    for (Index j = 0; j < d; ++j) z(i, j) = cplx(g(rng), g(rng));
  Eigen::HouseholderQR<CMatrix> qr(z);
  CMatrix q = qr.householderQ() * CMatrix::Identity(d, d);
  const CMatrix r = qr.matrixQR().triangularView<Eigen::Upper>();
  for (Index j = 0; j < d; ++j) q.col(j) *= r(j, j) / std::abs(r(j, j));
  return q;
}

Eigen::VectorXd random_angles(Index count, double range, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-range, range);
  Eigen::VectorXd a(count);
  for (Index i = 0; i < count; ++i) a(i) = u(rng);
  return a;
}

}  // namespace qevolve::fidelity::testing
