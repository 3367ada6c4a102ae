// The fidelity layer (docs/fidelity.md): target unitaries from
// `target.gates`, the leakage-aware average gate fidelity, and VZ / single-qubit compensation
// with canonical angles.
//
// Conventions used throughout (docs/fidelity.md "Conventions"):
// - The computational block U is d x d, d = 2^N, N = number of qubits (resonators excluded).
//   Qubit 0 is the most significant bit of the flat index (np.kron order); row = output,
//   column = input.
// - F = (Tr(U^dag U) + |Tr(U_t^dag U)|^2) / (d (d + 1)),  leakage = 1 - Tr(U^dag U) / d.
// - Compensation: U' = L_post U L_pre with L = (x)_q l_q. `vz`: l_q = diag(e^{i th}, e^{-i th});
//   `single_qubit`: l_q = RZ(alpha) RY(beta) RZ(gamma). Angle vector layout (docs/output.md
//   /compensation/angles): vz: pre-q0 ... pre-q(N-1), post-q0 ...; single_qubit: (alpha, beta,
//   gamma) per qubit, pre then post. Equivalently: "site" s = 0..2N-1 (pre q0.., post q0..)
//   owns angles [m s, m s + m), m = 1 (vz) or 3 (single_qubit).
//
// The compensation objective is written for sharded columns (docs/fidelity.md "The objective as column sums"): a
// CompensationShard holds some columns of U and produces PartialSums (Tr(U_t^dag U') restricted
// to its columns plus one 2x2 "environment" per site); PartialSums of all shards add up to the
// global sums, from which objective() gives F and its exact gradient. The serial path uses a
// single shard holding every column.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "qevolve/gates.hpp"
#include "qevolve/comm.hpp"
#include "qevolve/config.hpp"
#include "qevolve/types.hpp"

namespace qevolve::fidelity {

using Mat2 = Eigen::Matrix2cd;
using Mat4 = Eigen::Matrix4cd;

// ---------------------------------------------------------------------------------------------
// Gates and targets
// ---------------------------------------------------------------------------------------------

/// The gate name table (include/qevolve/gates.hpp).
using qevolve::gate_arity;
using qevolve::gate_takes_angle;

/// The matrix of a named gate (2x2 or 4x4; a two-qubit gate's first qubit is the most
/// significant bit, so CNOT = |0><0| (x) I + |1><1| (x) X with the control first).
/// RX/RY/RZ(angle) = exp(-i angle sigma / 2); SX = 1/2 [[1+i, 1-i], [1-i, 1+i]];
/// SQRT_ISWAP is the principal square root of ISWAP. An unknown name is a precondition failure
/// (std::logic_error): the resolution stage refuses it (UnknownGate).
[[nodiscard]] CMatrix standard_gate(const std::string& name, double angle = 0.0);

/// u <- G_embedded u, where `gate` (2^k x 2^k) acts on the listed qubit positions (the first
/// listed is the gate's most significant bit) of an N-qubit register, identity elsewhere.
/// Cost O(rows(u) * cols(u) * 2^k); no d x d gate matrix is formed.
void apply_gate(CMatrix& u, const CMatrix& gate, const std::vector<int>& qubits, int num_qubits);

/// The target unitary U_t = G_n ... G_1 of `target.gates` (list order = time order, the first
/// listed acts first), identity on unlisted qubits. `qubit_names` are the device's qubit modes
/// in mode order (resonators excluded); d = 2^qubit_names.size(). `file_gates[k]` is the matrix
/// of gate k when it is a `matrix_file` gate (2^k x 2^k for its k listed qubits, read and
/// checked by the resolution stage: io::target_unitary), empty otherwise; may be empty when no
/// gate is one. The gates' names, angles and qubits are the stage's checks (io::resolve); a
/// qubit that is not a qubit of the device, a wrong number of qubits or an unknown gate is a
/// precondition failure here (std::logic_error).
[[nodiscard]] CMatrix target_unitary(const TargetSpec& target, const std::vector<std::string>& qubit_names,
                                     const std::vector<CMatrix>& file_gates = {});

// ---------------------------------------------------------------------------------------------
// Fidelity
// ---------------------------------------------------------------------------------------------

/// F = (Tr(U^dag U) + |Tr(U_t^dag U)|^2) / (d (d + 1)) for a d x d block U (not necessarily
/// unitary) and a d x d target. Throws qevolve::Error on a size mismatch.
[[nodiscard]] double average_gate_fidelity(const CMatrix& u, const CMatrix& target);

/// leakage = 1 - Tr(U^dag U) / d.
[[nodiscard]] double leakage(const CMatrix& u);

// ---------------------------------------------------------------------------------------------
// Compensation layers
// ---------------------------------------------------------------------------------------------

/// Angles per qubit and layer: 0 (none), 1 (vz), 3 (single_qubit).
[[nodiscard]] int angles_per_site(Compensation kind);
/// Total number of compensation angles for N qubits: 0, 2N or 6N.
[[nodiscard]] int compensation_angle_count(Compensation kind, int num_qubits);

/// diag(e^{i theta}, e^{-i theta}).
[[nodiscard]] Mat2 vz_factor(double theta);
/// RZ(alpha) RY(beta) RZ(gamma).
[[nodiscard]] Mat2 euler_factor(double alpha, double beta, double gamma);

/// The per-qubit factors l_q of the pre (post = false) or post layer, qubit 0 first.
[[nodiscard]] std::vector<Mat2> layer_factors(Compensation kind, const RVector& angles,
                                              int num_qubits, bool post);
/// The dense 2^N x 2^N matrix (x)_q factors[q] (qubit 0 most significant). O(4^N) memory.
[[nodiscard]] CMatrix dense_layer(const std::vector<Mat2>& factors);
/// U' = L_post U L_pre, applied qubit by qubit (O(N d^2), no dense layer formed).
[[nodiscard]] CMatrix apply_compensation(Compensation kind, const CMatrix& u,
                                         const RVector& angles);

// ---------------------------------------------------------------------------------------------
// The sharded objective (docs/fidelity.md "The objective as column sums")
// ---------------------------------------------------------------------------------------------

/// Sums over a set of columns k of U, at given angles. With A = U_t L_pre^dag and
/// B = L_post U: tau = sum_{i,k} conj(A_ik) B_ik = Tr(U_t^dag U'). env[s] is the 2x2
/// environment of site s: replacing its factor l_s by O l_s turns tau into
/// sum_{x,y} O(x,y) env[s](x,y). For vz only the diagonal of env is filled (that is all the
/// gradient needs). Sums of all shards add up (operator+=) to the global sums.
struct PartialSums {
  cplx tau{0.0, 0.0};
  double trace_uu = 0.0;  ///< sum over the columns of |U_ik|^2 (angle independent)
  std::vector<Mat2> env;  ///< 2N environments, site order pre q0.., post q0..
  PartialSums& operator+=(const PartialSums& other);
};

/// Second-order sums for the exact Hessian: tau, the 2N one-site environments, and for every
/// pair of sites s < t a 4x4 two-site environment env2[pair_index(s, t)] with entry
/// (2 x_s + y_s, 2 x_t + y_t) = coefficient of O_s(x_s, y_s) O_t(x_t, y_t). vz: only the
/// entries with x = y are filled.
struct PartialHessianSums {
  cplx tau{0.0, 0.0};
  double trace_uu = 0.0;
  std::vector<Mat2> env;
  std::vector<Mat4> env2;
  PartialHessianSums& operator+=(const PartialHessianSums& other);
  /// Index of the pair (s, t), s < t < sites, in env2.
  [[nodiscard]] static std::size_t pair_index(int s, int t, int sites);
};

/// Angle-independent data for the analytic starts, all additive over shards:
/// - with M_ik = conj(U_t,ik) U_ik: row_sums_i = sum_k M_ik over the shard's columns and
///   col_sums_k = sum_i M_ik for the shard's columns (zero elsewhere), both length d;
/// - single_qubit only: the weight-1 Pauli transfer blocks
///   pauli_u[9 (p N + q) + 3 b + a] = Tr(s_b^(p) U s_a^(q) U^dag) / d (s = X, Y, Z on qubits
///   p, q) and pauli_t the same for U_t. s_a^(q) on the input side pairs column k with
///   k(q->y), which for the most significant qubit lies outside any partial column block: a
///   single_qubit shard must hold all columns of U for start_sums() (a distributed caller
///   gathers U once for the start); otherwise it throws.
struct StartSums {
  CVector row_sums;
  CVector col_sums;
  std::vector<double> pauli_u;
  std::vector<double> pauli_t;
  StartSums& operator+=(const StartSums& other);
};

/// The columns [first_column, first_column + columns.cols()) of U, the full target, and the
/// current angles. vz and none: with diagonal layers tau and every environment depend on U only
/// through M = conj(U_t) o U (elementwise, fixed), kept sparse when the target is (a monomial
/// target such as X, CNOT, CZ, SWAP or the identity has d non-zeros): per set_angles + sums()
/// O(nnz(M) + d), per set_site O(d); hessian_sums() O(N (nnz(M) + d)). single_qubit: O(N d^2)
/// for the replicated A = U_t L_pre^dag plus O(N d b) for B and the environments (b = number of
/// columns); hessian_sums() O(N^2 d b).
class CompensationShard {
 public:
  CompensationShard(Compensation kind, CMatrix target, CMatrix columns, Index first_column);

  [[nodiscard]] Compensation kind() const { return kind_; }
  [[nodiscard]] int num_qubits() const { return num_qubits_; }
  [[nodiscard]] Index dim() const { return target_.rows(); }
  [[nodiscard]] const RVector& angles() const { return angles_; }
  [[nodiscard]] const CMatrix& columns() const { return columns_; }
  [[nodiscard]] const CMatrix& target() const { return target_; }
  [[nodiscard]] Index first_column() const { return first_; }

  /// Sets all angles (recomputes the layers).
  void set_angles(const RVector& angles);
  /// Changes the angles of one site only, updating the layers incrementally.
  void set_site(int site, const RVector& site_angles);

  [[nodiscard]] PartialSums sums() const;
  /// The environment of one site only (the same as sums().env[site]).
  [[nodiscard]] Mat2 site_environment(int site) const;
  [[nodiscard]] PartialHessianSums hessian_sums() const;
  [[nodiscard]] StartSums start_sums() const;

 private:
  Compensation kind_;
  int num_qubits_ = 0;
  CMatrix target_;   // d x d, replicated
  CMatrix columns_;  // U[:, first .. first + b)
  Index first_ = 0;
  RVector angles_;
  std::vector<Mat2> factors_;  // 2N current site factors
  double trace_uu_ = 0.0;      // |U[:, shard columns]|^2, angle independent
  // single_qubit: A = U_t L_pre^dag (all d columns) and B = L_post U[:, shard columns].
  CMatrix a_;
  CMatrix b_;
  // vz / none: M = conj(U_t) o U on the shard's columns, dense (d x b) or as its non-zeros,
  // and the diagonal layers z_pre(k) (shard columns) and z_post(i) (all rows), so that
  // conj(A_ik) B_ik = z_post(i) M_ik z_pre(k).
  struct Entry {
    Index row, col;
    cplx value;
  };
  bool sparse_ = false;
  CMatrix m_dense_;
  std::vector<Entry> m_entries_;
  CVector z_pre_, z_post_;
  /// w_i = z_post(i) sum_k M_ik z_pre(k) mask(k) and v_k = z_pre(k) sum_i M_ik z_post(i), where
  /// mask(k) keeps only columns whose global index has `col_bit` set (col_bit 0: all columns).
  void diagonal_sums(CVector& w, CVector* v, Index col_bit = 0) const;
  /// single_qubit, one column k: tau = <A[:, first + k], B[:, k]>, flip[q] = the same with
  /// column k ^ bit_q of A, post_env[q] = the row environment of qubit q (buffers reused).
  struct ColumnSums {
    cplx tau;
    std::vector<cplx> flip;
    std::vector<Mat2> post_env;
  };
  /// Computes `col` for column k and adds its share of tau and of every site environment to
  /// `out` (the Hessian reuses col for the pair environments).
  void add_column_sums(Index k, PartialSums& out, ColumnSums& col) const;
  /// hessian_sums' pair environments (out.env2, allocated): vz / none from the diagonal
  /// layers; single_qubit column by column, with the first-order sums (out.tau, out.env).
  void diagonal_hessian(PartialHessianSums& out) const;
  void single_qubit_hessian(PartialHessianSums& out) const;
};

/// F and its exact gradient dF/d(angles), from the global sums.
struct ObjectiveValue {
  double fidelity = 0.0;
  RVector gradient;
};
[[nodiscard]] ObjectiveValue objective(Compensation kind, Index dim, const RVector& angles,
                                       const PartialSums& total);
/// The exact Hessian d^2F / d(angles)^2 from the global second-order sums.
[[nodiscard]] RMatrix objective_hessian(Compensation kind, Index dim, const RVector& angles,
                                        const PartialHessianSums& total);

/// What the solver needs from the (possibly distributed) set of shards: every call returns
/// the global (reduced) quantity. A distributed implementation calls the same method on its
/// local shard and all-reduces the result; SerialObjective uses one shard with every column.
class CompensationObjective {
 public:
  virtual ~CompensationObjective() = default;
  [[nodiscard]] virtual Compensation kind() const = 0;
  [[nodiscard]] virtual int num_qubits() const = 0;
  [[nodiscard]] virtual Index dim() const = 0;
  virtual void set_angles(const RVector& angles) = 0;
  virtual void set_site(int site, const RVector& site_angles) = 0;
  [[nodiscard]] virtual PartialSums sums() = 0;
  [[nodiscard]] virtual Mat2 site_environment(int site) = 0;
  [[nodiscard]] virtual PartialHessianSums hessian_sums() = 0;
  [[nodiscard]] virtual StartSums start_sums() = 0;
};

/// The single-process objective: one shard holding all columns of U.
class SerialObjective final : public CompensationObjective {
 public:
  SerialObjective(Compensation kind, const CMatrix& u, const CMatrix& target);
  [[nodiscard]] Compensation kind() const override { return shard_.kind(); }
  [[nodiscard]] int num_qubits() const override { return shard_.num_qubits(); }
  [[nodiscard]] Index dim() const override { return shard_.dim(); }
  void set_angles(const RVector& angles) override { shard_.set_angles(angles); }
  void set_site(int site, const RVector& a) override { shard_.set_site(site, a); }
  [[nodiscard]] PartialSums sums() override { return shard_.sums(); }
  [[nodiscard]] Mat2 site_environment(int site) override { return shard_.site_environment(site); }
  [[nodiscard]] PartialHessianSums hessian_sums() override { return shard_.hessian_sums(); }
  [[nodiscard]] StartSums start_sums() override { return shard_.start_sums(); }

 private:
  CompensationShard shard_;
};

/// The distributed objective (src/fidelity/distributed.cpp): this rank's shard of columns;
/// every sum is all-reduced over `comm` (a few dozen numbers per call; single_qubit's Pauli
/// start gathers U on rank 0 once per solve). Every rank must make the same calls in the same
/// order (the solver does: the reduced values are identical on all ranks).
class DistributedObjective final : public CompensationObjective {
 public:
  DistributedObjective(Compensation kind, const CMatrix& target, const CMatrix& columns, Index first_column,
                       comm::Communicator& comm);
  [[nodiscard]] Compensation kind() const override { return shard_.kind(); }
  [[nodiscard]] int num_qubits() const override { return shard_.num_qubits(); }
  [[nodiscard]] Index dim() const override { return shard_.dim(); }
  void set_angles(const RVector& angles) override { shard_.set_angles(angles); }
  void set_site(int site, const RVector& a) override { shard_.set_site(site, a); }
  [[nodiscard]] PartialSums sums() override;
  [[nodiscard]] Mat2 site_environment(int site) override;
  [[nodiscard]] PartialHessianSums hessian_sums() override;
  [[nodiscard]] StartSums start_sums() override;

 private:
  CompensationShard shard_;
  comm::Communicator& comm_;
};

// ---------------------------------------------------------------------------------------------
// The solver
// ---------------------------------------------------------------------------------------------

struct CompensationOptions {
  /// Random restarts (deterministic: derived from `seed`) on top of the analytic starts.
  int restarts = 8;
  std::uint64_t seed = 20240601;
  /// An extra start tried first (e.g. the previous optimum during an outer optimisation).
  std::optional<RVector> initial_angles;
  /// Canonical angles (docs/fidelity.md "Gauge and canonical angles"): Newton polish, minimum-norm along zero-curvature
  /// directions, reduced ranges. Costs a few exact Hessians; off: only the reduction.
  bool canonicalize = true;
};

/// The optimal angles and the fidelity they give.
struct CompensationSolution {
  RVector angles;
  double fidelity = 0.0;
  int candidates = 0;  ///< local optima within the tie tolerance of the best
};

/// Maximises F over the compensation angles: analytic starts (diagonal phases; single_qubit
/// also Pauli-frame fits), `restarts` random starts, exact site sweeps (single_qubit: 2x2
/// Procrustes updates), BFGS with exact gradients, then (canonicalize) the canonical
/// representative: the least-norm canonical point among the optima reached
/// (docs/fidelity.md, "Gauge and canonical angles", for what is and is not guaranteed).
[[nodiscard]] CompensationSolution solve_compensation(CompensationObjective& objective,
                                                      const CompensationOptions& options = {});

/// Everything a run reports about fidelity.
struct FidelityResult {
  Compensation compensation = Compensation::none;
  double fidelity_uncompensated = 0.0;
  double fidelity = 0.0;  ///< after compensation (= uncompensated for `none`)
  double leakage = 0.0;
  RVector angles;                            ///< canonical angles, layout as /compensation/angles
  CMatrix unitary_compensated;               ///< U' = L_post U L_pre
  CMatrix superoperator_compensated;         ///< open systems: the compensated channel block
  std::vector<Mat2> pre_factors;             ///< per-qubit factors of L_pre (empty for `none`)
  std::vector<Mat2> post_factors;            ///< per-qubit factors of L_post
  [[nodiscard]] CMatrix pre_layer() const;   ///< dense L_pre (identity for `none`)
  [[nodiscard]] CMatrix post_layer() const;  ///< dense L_post
};


/// Open systems (docs/fidelity.md "Channels"; src/fidelity/channel.cpp): F = (Tr E(I) +
/// Tr(S_t^dag S_E)) / (d (d + 1)) with S_t = conj(U_t) (x) U_t, from the computational block S_E
/// of the channel (d^2 x d^2, column stacking, S_E(a + d b, i + d j) = <a| E(|i><j|) |b>);
/// leakage 1 - Tr E(I) / d. Reduces to average_gate_fidelity for E(rho) = U rho U^dag.
[[nodiscard]] double channel_fidelity(const CMatrix& superoperator, const CMatrix& target);
[[nodiscard]] double channel_leakage(const CMatrix& superoperator);
/// Kraus operators of the channel block (descending weight) from its Choi matrix.
[[nodiscard]] std::vector<CMatrix> kraus_operators(const CMatrix& superoperator);
/// Fidelity, leakage and compensation of a channel: the compensated channel is
/// (L_post . L_post^dag) o E o (L_pre . L_pre^dag); the angles maximise the sum of the closed
/// objectives of its Kraus operators (closed solver on the dominant one, Newton polish on the
/// sum). unitary_compensated stays empty; superoperator_compensated is set.
[[nodiscard]] FidelityResult evaluate_channel_fidelity(const CMatrix& superoperator, const CMatrix& target,
                                                       Compensation kind = Compensation::none,
                                                       const CompensationOptions& options = {});

/// Fidelity, leakage and compensation of a computational block `u` against `target` (both
/// d x d, d a power of two). Throws NumericalError if u contains NaN or inf, qevolve::Error if
/// the sizes do not match.
[[nodiscard]] FidelityResult evaluate_fidelity(const CMatrix& u, const CMatrix& target,
                                               Compensation kind,
                                               const CompensationOptions& options = {});

/// The distributed evaluation: this rank holds columns [first_column, first_column + b) of the
/// computational block (d x b); every rank calls it with its shard and gets the same result.
/// Fidelities, leakage, angles and layer factors are set; unitary_compensated is left empty
/// (the caller that gathers U for output applies the layers: apply_compensation).
[[nodiscard]] FidelityResult evaluate_fidelity(const CMatrix& columns, Index first_column, const CMatrix& target,
                                               Compensation kind, comm::Communicator& comm,
                                               const CompensationOptions& options = {});

// ---------------------------------------------------------------------------------------------
// The objective of `run` and the gradient layer, with its cotangent (src/fidelity/cotangent.cpp)
// ---------------------------------------------------------------------------------------------

/// What the objective is: the target, the compensation, and what to compute besides F.
struct ObjectiveSpec {
  CMatrix target;                                  ///< d x d
  Compensation compensation = Compensation::none;
  std::vector<Index> computational;                ///< closed: rows of the output columns forming U
  std::optional<RVector> angles;                   ///< compensation at these angles (trainable,
                                                   ///< closed only) instead of re-optimised
  CompensationOptions options;                     ///< the compensation solve (warm start)
  bool cotangent = false;                          ///< also the cotangent of the final columns
  /// w of the objective (1 - F) + w leakage (`optimize.leakage_weight`): the cotangent and
  /// angle gradient are those of this objective (0: of 1 - F alone).
  double leakage_weight = 0.0;
};

/// The final columns of one evaluation. Closed: `local` are this rank's output columns
/// (D x |J|, basis and frame of the run, initial states `shard`); open: this rank's columns of
/// the channel block (n^2 x |J|, inputs `shard`). `gathered`: rank 0 only, all of them.
struct FinalColumns {
  const CMatrix* local = nullptr;
  const CMatrix* gathered = nullptr;
  comm::Shard shard;
  bool open = false;
};

struct ObjectiveEvaluation {
  FidelityResult fidelity;  ///< every rank; unitary_compensated (closed) and
                            ///< superoperator_compensated (open) on rank 0 only
  CMatrix unitary;          ///< closed, rank 0: the computational block of the gathered columns
  CMatrix cotangent;        ///< with spec.cotangent: d(obj)/d(conj) of this rank's final columns,
                            ///< obj = (1 - F) + w leakage (same shape as FinalColumns::local), so
                            ///< that d(obj) = 2 Re Tr(cotangent^dag d(columns))
  RVector angle_gradient;   ///< with spec.angles and spec.cotangent: d(1 - F)/d(angles)
};

/// The one evaluation of the objective for `run` and GradientProblem: the leakage-aware fidelity
/// (compensation re-optimised, or at spec.angles) and, with spec.cotangent, its cotangent.
/// Collective over `comm`: every rank gets the same fidelity, angles and layer factors.
[[nodiscard]] ObjectiveEvaluation evaluate_with_cotangent(const FinalColumns& columns,
                                                          const ObjectiveSpec& spec,
                                                          comm::Communicator& comm);

}  // namespace qevolve::fidelity
