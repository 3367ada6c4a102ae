// The objective of `run` and of the gradient layer, and its cotangent (docs/fidelity.md "The
// objective and its cotangent"): the leakage-aware fidelity of the final columns (compensation
// re-optimised, or at given angles) and d(1 - F)/d(conj) of this rank's final columns.
//
// Closed systems, with U the computational rows of the output columns:
//   F      = (Tr(U^dag U) + |tau|^2) / (d (d + 1)),  tau = Tr(T_eff^dag U),
//   T_eff  = L_post^dag U_t L_pre^dag (compensation layers at their optimum or given angles),
//   Lambda = dF/dU^* = (U + tau T_eff) / (d (d + 1)); the cotangent of the output columns for
//   1 - F is -Lambda on the computational rows, zero elsewhere.
// Open systems: F = (Tr E(I) + Tr(S_t^dag S)) / (d (d + 1)) is real-linear in the channel block
// S, dF = Re sum conj(w) dS / (d (d + 1)) with w(a + d b, i + d j) = T(a, i) conj(T(b, j)) +
// [a = b, i = j] (T = T_eff: envelope theorem at the optimum), so the cotangent of S for 1 - F
// is -w / (2 d (d + 1)).
// Leakage term (optimize.leakage_weight = lw): the objective (1 - F) + lw L. Closed,
// L = 1 - Tr(U^dag U) / d, so dL/dU^* = -U / d; open, L = 1 - Tr E(I) / d with
// Tr E(I) = sum_{a,i} S(a + d a, i + d i), whose cotangent is -[a = b, i = j] / (2 d).
#include <stdexcept>
#include <utility>
#include <vector>

#include "qevolve/error.hpp"
#include "qevolve/fidelity.hpp"

namespace qevolve::fidelity {
namespace {

/// The computational rows of `columns`, in the order of `rows`.
CMatrix rows_of(const CMatrix& columns, const std::vector<Index>& rows) {
  const auto d = static_cast<Index>(rows.size());
  CMatrix u(d, columns.cols());
  for (Index r = 0; r < d; ++r) u.row(r) = columns.row(rows[static_cast<std::size_t>(r)]);
  return u;
}

/// The matrix with `total_rows` rows whose rows `rows` are those of `block`, zero elsewhere (the
/// adjoint of rows_of).
CMatrix scatter_rows(const CMatrix& block, const std::vector<Index>& rows, Index total_rows) {
  CMatrix out = CMatrix::Zero(total_rows, block.cols());
  for (Index r = 0; r < block.rows(); ++r) out.row(rows[static_cast<std::size_t>(r)]) = block.row(r);
  return out;
}

/// The per-qubit layer factors of the result's angles (every rank needs them for T_eff).
void set_factors(FidelityResult& f, int num_qubits) {
  f.pre_factors = layer_factors(f.compensation, f.angles, num_qubits, false);
  f.post_factors = layer_factors(f.compensation, f.angles, num_qubits, true);
}

int qubits_of(Index d) {
  int n = 0;
  while ((Index{1} << n) < d) ++n;
  return n;
}

/// Closed systems: F of the computational block, the compensated unitary on rank 0, and with
/// spec.cotangent the cotangent of this rank's output columns.
ObjectiveEvaluation closed(const FinalColumns& in, const ObjectiveSpec& spec, comm::Communicator& comm) {
  ObjectiveEvaluation e;
  const CMatrix& target = spec.target;
  const auto d = static_cast<Index>(spec.computational.size());
  const comm::Shard& shard = in.shard;
  const CMatrix U = rows_of(*in.local, spec.computational);  // d x |J|
  if (comm.is_root()) e.unitary = rows_of(*in.gathered, spec.computational);
  FidelityResult& f = e.fidelity;
  if (spec.angles) {
    // At the given (trainable) angles: F and its exact angle gradient from the reduced sums.
    const RVector& angles = *spec.angles;
    const FidelityResult plain = evaluate_fidelity(U, shard.first, target, Compensation::none, comm);
    f.compensation = spec.compensation;
    f.fidelity_uncompensated = plain.fidelity_uncompensated;
    f.leakage = plain.leakage;
    f.angles = angles;
    set_factors(f, qubits_of(d));
    DistributedObjective obj(spec.compensation, target, U, shard.first, comm);
    obj.set_angles(angles);
    const ObjectiveValue value = objective(spec.compensation, d, angles, obj.sums());
    f.fidelity = value.fidelity;
    if (spec.cotangent) e.angle_gradient = -value.gradient;
  } else {
    f = evaluate_fidelity(U, shard.first, target, spec.compensation, comm, spec.options);
  }
  if (comm.is_root())
    f.unitary_compensated = spec.compensation == Compensation::none
                                ? e.unitary
                                : apply_compensation(spec.compensation, e.unitary, f.angles);
  if (!spec.cotangent) return e;
  // Only this rank's columns of T_eff: O(d^2 |J|), not the O(d^3) whole product; tau is the
  // global overlap.
  const CMatrix T_eff =
      spec.compensation == Compensation::none
          ? CMatrix(target.middleCols(shard.first, shard.count))
          : CMatrix(dense_layer(f.post_factors).adjoint() *
                    (target * dense_layer(f.pre_factors).adjoint().middleCols(shard.first, shard.count)));
  const cplx tau = comm.allreduce_sum(cplx(T_eff.conjugate().cwiseProduct(U).sum()));
  const CMatrix Lambda = (U + tau * T_eff) / static_cast<double>(d * (d + 1));
  CMatrix block = -Lambda;
  if (spec.leakage_weight != 0.0) block -= (spec.leakage_weight / static_cast<double>(d)) * U;
  e.cotangent = scatter_rows(block, spec.computational, in.local->rows());
  return e;
}

/// Open systems: the channel's compensation needs its whole Choi matrix, so rank 0 (which holds
/// the gathered block) solves and broadcasts the angles and fidelities.
ObjectiveEvaluation open(const FinalColumns& in, const ObjectiveSpec& spec, comm::Communicator& comm) {
  ObjectiveEvaluation e;
  FidelityResult& f = e.fidelity;
  RVector summary(3);
  RVector angles;
  if (comm.is_root()) {
    f = evaluate_channel_fidelity(*in.gathered, spec.target, spec.compensation, spec.options);
    summary << f.fidelity, f.fidelity_uncompensated, f.leakage;
    angles = f.angles;
  }
  if (comm.size() > 1) {
    comm.broadcast(summary, 0);
    comm.broadcast(angles, 0);
    if (!comm.is_root()) {
      f.compensation = spec.compensation;
      f.fidelity = summary(0);
      f.fidelity_uncompensated = summary(1);
      f.leakage = summary(2);
      f.angles = angles;
      if (spec.compensation != Compensation::none) set_factors(f, qubits_of(spec.target.rows()));
    }
  }
  if (!spec.cotangent) return e;
  const Index d = spec.target.rows();
  const CMatrix T = spec.compensation == Compensation::none
                        ? spec.target
                        : CMatrix(dense_layer(f.post_factors).adjoint() * spec.target *
                                  dense_layer(f.pre_factors).adjoint());
  const comm::Shard& shard = in.shard;
  CMatrix w(d * d, shard.count);  // this rank's inputs k = i + d j
  for (Index k = 0; k < shard.count; ++k) {
    const Index i = (shard.first + k) % d, j = (shard.first + k) / d;
    for (Index b = 0; b < d; ++b)
      for (Index a = 0; a < d; ++a)
        w(a + d * b, k) = T(a, i) * std::conj(T(b, j)) + (a == b && i == j ? 1.0 : 0.0);
  }
  e.cotangent = -w / (2.0 * static_cast<double>(d * (d + 1)));
  if (spec.leakage_weight != 0.0)
    for (Index k = 0; k < shard.count; ++k) {
      const Index i = (shard.first + k) % d, j = (shard.first + k) / d;
      if (i != j) continue;
      for (Index a = 0; a < d; ++a) e.cotangent(a + d * a, k) -= spec.leakage_weight / (2.0 * static_cast<double>(d));
    }
  return e;
}

}  // namespace

ObjectiveEvaluation evaluate_with_cotangent(const FinalColumns& columns, const ObjectiveSpec& spec,
                                            comm::Communicator& comm) {
  if (columns.local == nullptr || (comm.is_root() && columns.gathered == nullptr))
    throw std::logic_error("evaluate_with_cotangent: the final columns are missing");
  precondition(!(spec.angles && columns.open), "evaluate_with_cotangent", "target.compensation_trainable",
               "trainable compensation angles with an open system");
  return columns.open ? open(columns, spec, comm) : closed(columns, spec, comm);
}

}  // namespace qevolve::fidelity
