// The distributed compensation objective (docs/distributed.md "What is communicated"): each rank holds the columns of U
// of its shard; every quantity the solver asks for is the local shard's partial sum,
// all-reduced. vz reduces 2N + 1 complex numbers (the diagonal environments and tau) per
// evaluation, single_qubit 8N + 1; Tr(U^dag U) once. Only single_qubit's analytic Pauli start
// needs all of U: rank 0 gathers it once per solve, computes the start sums and broadcasts them.
#include <string>

#include "qevolve/error.hpp"
#include "qevolve/fidelity.hpp"

namespace qevolve::fidelity {
namespace {

void put(std::vector<double>& out, cplx v) {
  out.push_back(v.real());
  out.push_back(v.imag());
}
cplx take(const std::vector<double>& in, std::size_t& at) {
  const cplx v(in[at], in[at + 1]);
  at += 2;
  return v;
}

/// Packs the filled entries of a 2x2 (vz: the diagonal) or 4x4 (vz: x = y entries) environment.
template <typename M>
void put_env(std::vector<double>& out, const M& e, bool diagonal) {
  constexpr int n = M::RowsAtCompileTime;
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c)
      if (!diagonal || (n == 2 ? r == c : (r % 3 == 0 && c % 3 == 0))) put(out, e(r, c));
}
template <typename M>
void take_env(const std::vector<double>& in, std::size_t& at, M& e, bool diagonal) {
  constexpr int n = M::RowsAtCompileTime;
  e.setZero();
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c)
      if (!diagonal || (n == 2 ? r == c : (r % 3 == 0 && c % 3 == 0))) e(r, c) = take(in, at);
}

/// tau, Tr(U^dag U) and the one-site environments, in the order the reduction carries them.
std::vector<double> pack_head(const cplx& tau, double trace_uu, const std::vector<Mat2>& env, bool diag) {
  std::vector<double> buf;
  put(buf, tau);
  buf.push_back(trace_uu);
  for (const Mat2& e : env) put_env(buf, e, diag);
  return buf;
}
void take_head(const std::vector<double>& buf, std::size_t& at, cplx& tau, double& trace_uu, std::vector<Mat2>& env,
               std::size_t sites, bool diag) {
  tau = take(buf, at);
  trace_uu = buf[at++];
  env.resize(sites);
  for (Mat2& e : env) take_env(buf, at, e, diag);
}

}  // namespace

DistributedObjective::DistributedObjective(Compensation kind, const CMatrix& target, const CMatrix& columns,
                                           Index first_column, comm::Communicator& comm)
    : shard_(kind, target, columns, first_column), comm_(comm) {}

PartialSums DistributedObjective::sums() {
  const PartialSums local = shard_.sums();
  const bool diag = kind() != Compensation::single_qubit;
  std::vector<double> buf = pack_head(local.tau, local.trace_uu, local.env, diag);
  comm_.allreduce_sum(std::span<double>(buf));
  PartialSums out;
  std::size_t at = 0;
  take_head(buf, at, out.tau, out.trace_uu, out.env, local.env.size(), diag);
  return out;
}

Mat2 DistributedObjective::site_environment(int site) {
  Mat2 e = shard_.site_environment(site);
  comm_.allreduce_sum(std::span<cplx>(e.data(), 4));
  return e;
}

PartialHessianSums DistributedObjective::hessian_sums() {
  const PartialHessianSums local = shard_.hessian_sums();
  const bool diag = kind() != Compensation::single_qubit;
  std::vector<double> buf = pack_head(local.tau, local.trace_uu, local.env, diag);
  for (const Mat4& e : local.env2) put_env(buf, e, diag);
  comm_.allreduce_sum(std::span<double>(buf));
  PartialHessianSums out;
  std::size_t at = 0;
  take_head(buf, at, out.tau, out.trace_uu, out.env, local.env.size(), diag);
  out.env2.resize(local.env2.size());
  for (Mat4& e : out.env2) take_env(buf, at, e, diag);
  return out;
}

StartSums DistributedObjective::start_sums() {
  StartSums out;
  if (kind() != Compensation::single_qubit) {
    out = shard_.start_sums();
    comm_.allreduce_sum(std::span<cplx>(out.row_sums.data(), static_cast<std::size_t>(out.row_sums.size())));
    comm_.allreduce_sum(std::span<cplx>(out.col_sums.data(), static_cast<std::size_t>(out.col_sums.size())));
    return out;
  }
  // The Pauli start pairs columns k and k(q->y) across shards: rank 0 gathers U once.
  const CMatrix u = comm_.gather_columns(shard_.columns(), dim(), 0);
  std::vector<double> buf;
  if (comm_.is_root()) {
    const StartSums all = CompensationShard(kind(), shard_.target(), u, 0).start_sums();
    for (Index i = 0; i < dim(); ++i) put(buf, all.row_sums(i));
    for (Index i = 0; i < dim(); ++i) put(buf, all.col_sums(i));
    buf.insert(buf.end(), all.pauli_u.begin(), all.pauli_u.end());
    buf.insert(buf.end(), all.pauli_t.begin(), all.pauli_t.end());
  }
  const std::size_t pauli = 9 * static_cast<std::size_t>(num_qubits() * num_qubits());
  buf.resize(4 * static_cast<std::size_t>(dim()) + 2 * pauli);
  comm_.broadcast(std::span<double>(buf), 0);
  std::size_t at = 0;
  out.row_sums.resize(dim());
  out.col_sums.resize(dim());
  for (Index i = 0; i < dim(); ++i) out.row_sums(i) = take(buf, at);
  for (Index i = 0; i < dim(); ++i) out.col_sums(i) = take(buf, at);
  out.pauli_u.assign(buf.begin() + static_cast<std::ptrdiff_t>(at), buf.begin() + static_cast<std::ptrdiff_t>(at + pauli));
  out.pauli_t.assign(buf.begin() + static_cast<std::ptrdiff_t>(at + pauli), buf.end());
  return out;
}

FidelityResult evaluate_fidelity(const CMatrix& columns, Index first_column, const CMatrix& target,
                                 Compensation kind, comm::Communicator& comm,
                                 const CompensationOptions& options) {
  const Index d = target.rows();
  if (d < 1 || (d & (d - 1)) != 0 || target.cols() != d)
    throw Error("fidelity: the target must be square with a power-of-two size, got " + std::to_string(d));
  if (columns.cols() > 0 && (columns.rows() != d || first_column < 0 || first_column + columns.cols() > d))
    throw Error("fidelity: the shard's columns do not fit the target");
  // Collective checks, so that no rank waits in a reduction another rank has left.
  const double bad = comm.allreduce_sum(columns.allFinite() ? 0.0 : 1.0);
  if (bad > 0) throw NumericalError("fidelity: the propagator contains NaN or inf");
  if (!target.allFinite()) throw Error("fidelity: the target contains NaN or inf");
  if (comm.allreduce_sum(static_cast<double>(columns.cols())) != static_cast<double>(d))
    throw Error("fidelity: the shards do not hold the d columns of U");

  const double norm = static_cast<double>(d) * static_cast<double>(d + 1);
  cplx sums[2] = {target.middleCols(first_column, columns.cols()).conjugate().cwiseProduct(columns).sum(),
                  cplx(columns.squaredNorm(), 0.0)};
  comm.allreduce_sum(std::span<cplx>(sums, 2));
  FidelityResult out;
  out.compensation = kind;
  out.fidelity_uncompensated = (sums[1].real() + std::norm(sums[0])) / norm;
  out.leakage = 1.0 - sums[1].real() / static_cast<double>(d);
  out.fidelity = out.fidelity_uncompensated;
  if (kind == Compensation::none) return out;
  int n = 0;
  while ((Index{1} << n) < d) ++n;
  DistributedObjective obj(kind, target, columns, first_column, comm);
  const CompensationSolution sol = solve_compensation(obj, options);
  out.angles = sol.angles;
  out.pre_factors = layer_factors(kind, sol.angles, n, false);
  out.post_factors = layer_factors(kind, sol.angles, n, true);
  obj.set_angles(sol.angles);
  out.fidelity = objective(kind, d, sol.angles, obj.sums()).fidelity;
  return out;
}

}  // namespace qevolve::fidelity
