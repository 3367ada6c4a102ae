// Leakage-aware average gate fidelity and the serial fidelity evaluation (docs/fidelity.md
// "Conventions").
#include <string>

#include "qevolve/error.hpp"
#include "qevolve/fidelity.hpp"

namespace qevolve::fidelity {
namespace {

void check_pair(const CMatrix& u, const CMatrix& target) {
  if (u.rows() != u.cols() || target.rows() != u.rows() || target.cols() != u.cols())
    throw Error("fidelity: the block (" + std::to_string(u.rows()) + " x " +
                std::to_string(u.cols()) + ") and the target (" + std::to_string(target.rows()) +
                " x " + std::to_string(target.cols()) + ") must be square of the same size");
}

}  // namespace

double average_gate_fidelity(const CMatrix& u, const CMatrix& target) {
  check_pair(u, target);
  const double d = static_cast<double>(u.rows());
  // Tr(U_t^dag U) = sum_ij conj(U_t,ij) U_ij; Tr(U^dag U) = ||U||_F^2.
  const cplx overlap = target.conjugate().cwiseProduct(u).sum();
  return (u.squaredNorm() + std::norm(overlap)) / (d * (d + 1.0));
}

double leakage(const CMatrix& u) {
  return 1.0 - u.squaredNorm() / static_cast<double>(u.rows());
}

CMatrix FidelityResult::pre_layer() const {
  if (pre_factors.empty())
    return CMatrix::Identity(unitary_compensated.rows(), unitary_compensated.cols());
  return dense_layer(pre_factors);
}

CMatrix FidelityResult::post_layer() const {
  if (post_factors.empty())
    return CMatrix::Identity(unitary_compensated.rows(), unitary_compensated.cols());
  return dense_layer(post_factors);
}

FidelityResult evaluate_fidelity(const CMatrix& u, const CMatrix& target, Compensation kind,
                                 const CompensationOptions& options) {
  check_pair(u, target);
  const Index d = u.rows();
  if (d < 1 || (d & (d - 1)) != 0)
    throw Error("fidelity: the computational block must have a power-of-two size, got " +
                std::to_string(d));
  if (!u.allFinite()) throw NumericalError("fidelity: the propagator contains NaN or inf");
  if (!target.allFinite()) throw Error("fidelity: the target contains NaN or inf");

  FidelityResult out;
  out.compensation = kind;
  out.fidelity_uncompensated = average_gate_fidelity(u, target);
  out.leakage = leakage(u);
  if (kind == Compensation::none) {
    out.fidelity = out.fidelity_uncompensated;
    out.unitary_compensated = u;
    return out;
  }
  int n = 0;
  while ((Index{1} << n) < d) ++n;
  SerialObjective obj(kind, u, target);
  const CompensationSolution sol = solve_compensation(obj, options);
  out.angles = sol.angles;
  out.pre_factors = layer_factors(kind, sol.angles, n, false);
  out.post_factors = layer_factors(kind, sol.angles, n, true);
  out.unitary_compensated = apply_compensation(kind, u, sol.angles);
  out.fidelity = average_gate_fidelity(out.unitary_compensated, target);
  return out;
}

}  // namespace qevolve::fidelity
