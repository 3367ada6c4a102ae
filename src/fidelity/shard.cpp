// CompensationShard: partial sums of the compensation objective over a set of columns of U
// (docs/fidelity.md "The objective as column sums"). With A = U_t L_pre^dag and B = L_post U,
//   tau = Tr(U_t^dag L_post U L_pre) = sum_{i,k} conj(A_ik) B_ik,
// which splits by column k. Replacing the factor of a post site p (row bit) by O l_p gives
//   sum_{x,y} O(x,y) E_p(x,y),  E_p(x,y) = sum_k sum_{i: i_p = x} conj(A_ik) B_{i(p->y), k},
// and of a pre site q (column bit), since A -> A O_q^dag,
//   E_q(x,y) = sum_{k: k_q = x} sum_i conj(A_{i, k(q->y)}) B_ik.
// Both are sums over the columns k of B, so every shard contributes its own columns; A is
// computed from the replicated target (single_qubit needs its columns k(q->y) too).
#include <cmath>

#include "local_ops.hpp"
#include "qevolve/error.hpp"

namespace qevolve::fidelity {

using detail::pauli_matrix;
using detail::qubit_bit;
using detail::site_of;

// --- sums -------------------------------------------------------------------------------------

PartialSums& PartialSums::operator+=(const PartialSums& other) {
  if (env.empty()) env.assign(other.env.size(), Mat2::Zero());
  if (env.size() != other.env.size()) throw Error("PartialSums: site count mismatch");
  tau += other.tau;
  trace_uu += other.trace_uu;
  for (std::size_t s = 0; s < env.size(); ++s) env[s] += other.env[s];
  return *this;
}

PartialHessianSums& PartialHessianSums::operator+=(const PartialHessianSums& other) {
  if (env.empty()) env.assign(other.env.size(), Mat2::Zero());
  if (env2.empty()) env2.assign(other.env2.size(), Mat4::Zero());
  if (env.size() != other.env.size() || env2.size() != other.env2.size())
    throw Error("PartialHessianSums: site count mismatch");
  tau += other.tau;
  trace_uu += other.trace_uu;
  for (std::size_t s = 0; s < env.size(); ++s) env[s] += other.env[s];
  for (std::size_t s = 0; s < env2.size(); ++s) env2[s] += other.env2[s];
  return *this;
}

std::size_t PartialHessianSums::pair_index(int s, int t, int sites) {
  // Row-major upper triangle without the diagonal.
  const auto S = static_cast<std::size_t>(s), T = static_cast<std::size_t>(t);
  const auto n = static_cast<std::size_t>(sites);
  return S * n - S * (S + 1) / 2 + (T - S - 1);
}

StartSums& StartSums::operator+=(const StartSums& other) {
  if (row_sums.size() == 0) row_sums = CVector::Zero(other.row_sums.size());
  if (col_sums.size() == 0) col_sums = CVector::Zero(other.col_sums.size());
  if (pauli_u.empty()) pauli_u.assign(other.pauli_u.size(), 0.0);
  if (pauli_t.empty()) pauli_t.assign(other.pauli_t.size(), 0.0);
  if (pauli_u.size() != other.pauli_u.size() || pauli_t.size() != other.pauli_t.size())
    throw Error("StartSums: size mismatch");
  row_sums += other.row_sums;
  col_sums += other.col_sums;
  for (std::size_t i = 0; i < pauli_u.size(); ++i) pauli_u[i] += other.pauli_u[i];
  for (std::size_t i = 0; i < pauli_t.size(); ++i) pauli_t[i] += other.pauli_t[i];
  return *this;
}

namespace {

/// Runs at least this long go through vectorised dot products in row_environment.
constexpr Index kVectorRun = 8;

/// E(x,y) = sum_k sum_{i: i_bit = x} conj(a_ik) b_{i(bit->y), k} over aligned columns of a, b.
Mat2 row_environment(const Eigen::Ref<const CMatrix>& a, const Eigen::Ref<const CMatrix>& b,
                     Index bit, bool diagonal) {
  Mat2 e = Mat2::Zero();
  const Index d = a.rows();
  for (Index k = 0; k < b.cols(); ++k) {
    const cplx* pa = a.col(k).data();
    const cplx* pb = b.col(k).data();
    for (Index hi = 0; hi < d; hi += 2 * bit) {
      if (bit >= kVectorRun) {  // contiguous runs: Eigen's vectorised dot products
        const Eigen::Map<const CVector> a0(pa + hi, bit), a1(pa + hi + bit, bit);
        const Eigen::Map<const CVector> b0(pb + hi, bit), b1(pb + hi + bit, bit);
        e(0, 0) += a0.dot(b0);
        e(1, 1) += a1.dot(b1);
        if (!diagonal) {
          e(0, 1) += a0.dot(b1);
          e(1, 0) += a1.dot(b0);
        }
        continue;
      }
      for (Index i0 = hi; i0 < hi + bit; ++i0) {
        const cplx a0 = std::conj(pa[i0]), a1 = std::conj(pa[i0 + bit]);
        e(0, 0) += a0 * pb[i0];
        e(1, 1) += a1 * pb[i0 + bit];
        if (!diagonal) {
          e(0, 1) += a0 * pb[i0 + bit];
          e(1, 0) += a1 * pb[i0];
        }
      }
    }
  }
  return e;
}

/// Weight-1 Pauli transfer blocks of a d x d matrix X over the columns [first, first + b):
/// out[9 (p n + q) + 3 sb + sa] = (those columns' part of) Tr(s_sb^(p) X s_sa^(q) X^dag) / d.
std::vector<double> pauli_blocks(const CMatrix& full, Index first, Index b, int n) {
  const Index d = full.rows();
  std::vector<double> out(static_cast<std::size_t>(9 * n * n), 0.0);
  CMatrix w(d, b);
  for (int q = 0; q < n; ++q) {
    const Index bit = qubit_bit(q, n);
    for (int sa = 0; sa < 3; ++sa) {
      const Mat2 s = pauli_matrix(sa);
      // w[:, k] = (X s^(q))[:, k] = sum_c X[:, k(q->c)] s(c, k_q)
      for (Index k = 0; k < b; ++k) {
        const Index kg = first + k, kq = (kg & bit) ? 1 : 0;
        const Index k0 = kg & ~bit, k1 = kg | bit;
        w.col(k) = s(0, kq) * full.col(k0) + s(1, kq) * full.col(k1);
      }
      for (int p = 0; p < n; ++p) {
        const Mat2 e = row_environment(full.middleCols(first, b), w, qubit_bit(p, n), false);
        for (int sb = 0; sb < 3; ++sb)
          out[static_cast<std::size_t>(9 * (Index{p} * n + q) + Index{3} * sb + sa)] =
              detail::contract(pauli_matrix(sb), e).real() / static_cast<double>(d);
      }
    }
  }
  return out;
}

}  // namespace

// --- shard ------------------------------------------------------------------------------------

CompensationShard::CompensationShard(Compensation kind, CMatrix target, CMatrix columns,
                                     Index first_column)
    : kind_(kind), target_(std::move(target)), columns_(std::move(columns)), first_(first_column) {
  const Index d = target_.rows();
  if (d < 1 || target_.cols() != d || (d & (d - 1)) != 0)
    throw Error("compensation: the target must be square with a power-of-two size");
  if (columns_.rows() != d || first_ < 0 || first_ + columns_.cols() > d)
    throw Error("compensation: shard columns do not fit the target");
  while ((Index{1} << num_qubits_) < d) ++num_qubits_;
  trace_uu_ = columns_.squaredNorm();
  if (kind_ != Compensation::single_qubit) {
    // M = conj(U_t) o U on the shard's columns; its non-zeros are the target's (exact zeros of
    // a gate built from standard gates). Sparse when at most a quarter of the entries are used.
    const Index b = columns_.cols();
    const auto t = target_.middleCols(first_, b);
    Index nnz = 0;
    for (Index k = 0; k < b; ++k)
      for (Index i = 0; i < d; ++i) nnz += t(i, k) != cplx(0.0) ? 1 : 0;
    sparse_ = 4 * nnz <= d * b;
    if (sparse_) {
      m_entries_.reserve(static_cast<std::size_t>(nnz));
      for (Index k = 0; k < b; ++k)
        for (Index i = 0; i < d; ++i)
          if (t(i, k) != cplx(0.0))
            m_entries_.push_back({i, k, std::conj(t(i, k)) * columns_(i, k)});
    } else {
      m_dense_ = t.conjugate().cwiseProduct(columns_);
    }
  }
  set_angles(RVector::Zero(compensation_angle_count(kind_, num_qubits_)));
}

void CompensationShard::diagonal_sums(CVector& w, CVector* v, Index col_bit) const {
  const Index d = dim(), b = columns_.cols();
  CVector zp = z_pre_;
  if (col_bit != 0)
    for (Index k = 0; k < b; ++k)
      if (((first_ + k) & col_bit) == 0) zp(k) = 0.0;
  if (sparse_) {
    w = CVector::Zero(d);
    if (v != nullptr) *v = CVector::Zero(b);
    for (const Entry& e : m_entries_) {
      w(e.row) += e.value * zp(e.col);
      if (v != nullptr) (*v)(e.col) += e.value * z_post_(e.row);
    }
  } else {
    w = m_dense_ * zp;
    if (v != nullptr) *v = m_dense_.transpose() * z_post_;
  }
  w = w.cwiseProduct(z_post_);
  if (v != nullptr) *v = v->cwiseProduct(z_pre_);
}

void CompensationShard::set_angles(const RVector& angles) {
  const int n = num_qubits_, m = angles_per_site(kind_);
  if (angles.size() != compensation_angle_count(kind_, n))
    throw Error("compensation: wrong number of angles");
  angles_ = angles;
  factors_.assign(2 * static_cast<std::size_t>(n), Mat2::Identity());
  for (int s = 0; s < 2 * n && m > 0; ++s)
    factors_[static_cast<std::size_t>(s)] =
        detail::site_factor(kind_, angles_.data() + static_cast<Index>(m) * s);

  const Index d = dim(), b = columns_.cols();
  if (kind_ == Compensation::single_qubit) {
    a_ = target_;
    b_ = columns_;
    for (int q = 0; q < n; ++q) {
      detail::apply_cols(a_, factors_[static_cast<std::size_t>(q)].adjoint(), qubit_bit(q, n));
      detail::apply_rows(b_, factors_[static_cast<std::size_t>(n) + static_cast<std::size_t>(q)],
                         qubit_bit(q, n));
    }
    return;
  }
  // vz / none: diagonal layers z_pre(k) = prod_q l_q(k_q, k_q), z_post likewise over rows.
  z_pre_ = CVector::Ones(b);
  z_post_ = CVector::Ones(d);
  for (int q = 0; q < n && kind_ == Compensation::vz; ++q) {
    const Index bit = qubit_bit(q, n);
    const Mat2& lpre = factors_[static_cast<std::size_t>(q)];
    const Mat2& lpost = factors_[static_cast<std::size_t>(n) + static_cast<std::size_t>(q)];
    for (Index k = 0; k < b; ++k) z_pre_(k) *= ((first_ + k) & bit) ? lpre(1, 1) : lpre(0, 0);
    for (Index i = 0; i < d; ++i) z_post_(i) *= (i & bit) ? lpost(1, 1) : lpost(0, 0);
  }
}

void CompensationShard::set_site(int site, const RVector& site_angles) {
  const int n = num_qubits_, m = angles_per_site(kind_);
  if (site < 0 || site >= 2 * n || site_angles.size() != m)
    throw Error("compensation: bad site update");
  angles_.segment(static_cast<Index>(m) * site, m) = site_angles;
  Mat2& f = factors_[static_cast<std::size_t>(site)];
  const Mat2 f_new = detail::site_factor(kind_, site_angles.data());
  const Mat2 o = f_new * f.adjoint();  // l_new = O l_old
  f = f_new;
  const auto [q, post] = site_of(site, n);
  const Index bit = qubit_bit(q, n);
  if (kind_ != Compensation::single_qubit) {  // vz: diagonal O on the layer's bit
    if (post)
      for (Index i = 0; i < z_post_.size(); ++i) z_post_(i) *= (i & bit) ? o(1, 1) : o(0, 0);
    else
      for (Index k = 0; k < z_pre_.size(); ++k)
        z_pre_(k) *= ((first_ + k) & bit) ? o(1, 1) : o(0, 0);
  } else if (post) {
    detail::apply_rows(b_, o, bit);
  } else {
    detail::apply_cols(a_, o.adjoint(), bit);  // A = U_t L_pre^dag -> A O^dag
  }
}

Mat2 CompensationShard::site_environment(int site) const {
  const int n = num_qubits_;
  const auto [q, post] = site_of(site, n);
  const Index bit = qubit_bit(q, n), b = columns_.cols();
  Mat2 e = Mat2::Zero();
  if (kind_ != Compensation::single_qubit) {  // diagonal layers: row or column sums of M
    CVector w, v;
    diagonal_sums(w, post ? nullptr : &v);
    if (post)
      for (Index i = 0; i < w.size(); ++i) e((i & bit) ? 1 : 0, (i & bit) ? 1 : 0) += w(i);
    else
      for (Index k = 0; k < b; ++k)
        e(((first_ + k) & bit) ? 1 : 0, ((first_ + k) & bit) ? 1 : 0) += v(k);
    return e;
  }
  if (post) return row_environment(a_.middleCols(first_, b), b_, bit, false);
  for (Index k = 0; k < b; ++k) {
    const Index kg = first_ + k;
    const int x = (kg & bit) ? 1 : 0;
    e(x, x) += a_.col(kg).dot(b_.col(k));
    e(x, 1 - x) += a_.col(kg ^ bit).dot(b_.col(k));
  }
  return e;
}

PartialSums CompensationShard::sums() const {
  PartialSums out;
  const Index b = columns_.cols();
  out.trace_uu = trace_uu_;
  const int sites = kind_ == Compensation::none ? 0 : 2 * num_qubits_;
  out.env.assign(static_cast<std::size_t>(sites), Mat2::Zero());
  if (kind_ == Compensation::single_qubit) {
    // Column by column, so that A[:, k] and B[:, k] are read once from memory for every site.
    ColumnSums col;
    for (Index k = 0; k < b; ++k) add_column_sums(k, out, col);
    return out;
  }
  // Diagonal layers: w_i = sum_k conj(A_ik) B_ik (rows), v_k = sum_i conj(A_ik) B_ik (columns).
  CVector w, v;
  diagonal_sums(w, &v);
  out.tau = w.sum();
  const int n = num_qubits_;
  for (int q = 0; q < sites / 2; ++q) {
    const Index bit = qubit_bit(q, n);
    Mat2& pre = out.env[static_cast<std::size_t>(q)];
    Mat2& post = out.env[static_cast<std::size_t>(n) + static_cast<std::size_t>(q)];
    for (Index k = 0; k < b; ++k)
      pre(((first_ + k) & bit) ? 1 : 0, ((first_ + k) & bit) ? 1 : 0) += v(k);
    for (Index i = 0; i < w.size(); ++i) post((i & bit) ? 1 : 0, (i & bit) ? 1 : 0) += w(i);
  }
  return out;
}

StartSums CompensationShard::start_sums() const {
  StartSums out;
  const Index d = dim(), b = columns_.cols();
  const CMatrix m = target_.middleCols(first_, b).conjugate().cwiseProduct(columns_);
  out.row_sums = m.rowwise().sum();
  out.col_sums = CVector::Zero(d);
  out.col_sums.segment(first_, b) = m.colwise().sum().transpose();
  if (kind_ == Compensation::single_qubit) {
    // s^(q) on the input side pairs column k with k(q->y); the most significant qubit pairs
    // columns across any partial block, so only a shard holding all of U can do the U part.
    if (b != d)
      throw Error(
          "compensation: single_qubit start sums need all columns of U (a distributed "
          "caller gathers them once)");
    out.pauli_u = pauli_blocks(columns_, 0, d, num_qubits_);
    out.pauli_t = pauli_blocks(target_, 0, d, num_qubits_);
  }
  return out;
}

void CompensationShard::add_column_sums(Index k, PartialSums& out, ColumnSums& col) const {
  const int n = num_qubits_;
  const Index kg = first_ + k;
  const auto bk = b_.col(k);
  col.tau = a_.col(kg).dot(bk);
  col.flip.resize(static_cast<std::size_t>(n));
  col.post_env.resize(static_cast<std::size_t>(n));
  out.tau += col.tau;
  for (int q = 0; q < n; ++q) {
    const auto sq = static_cast<std::size_t>(q);
    const Index bit = qubit_bit(q, n);
    const int x = (kg & bit) ? 1 : 0;
    col.flip[sq] = a_.col(kg ^ bit).dot(bk);
    col.post_env[sq] = row_environment(a_.col(kg), bk, bit, false);
    Mat2& pre = out.env[sq];
    pre(x, x) += col.tau;
    pre(x, 1 - x) += col.flip[sq];
    out.env[static_cast<std::size_t>(n + q)] += col.post_env[sq];
  }
}

PartialHessianSums CompensationShard::hessian_sums() const {
  // single_qubit collects the first-order sums in its own pass over the columns (below).
  const bool single = kind_ == Compensation::single_qubit;
  const PartialSums one = single ? PartialSums{} : sums();
  PartialHessianSums out;
  out.tau = one.tau;
  out.trace_uu = trace_uu_;
  out.env = one.env;
  const int n = num_qubits_, sites = kind_ == Compensation::none ? 0 : 2 * n;
  if (sites < 2) return out;
  out.env2.assign(static_cast<std::size_t>(sites * (sites - 1) / 2), Mat4::Zero());

  if (single)
    single_qubit_hessian(out);
  else
    diagonal_hessian(out);
  return out;
}

void CompensationShard::diagonal_hessian(PartialHessianSums& out) const {
  const int n = num_qubits_, sites = 2 * n;
  const Index d = dim(), b = columns_.cols();
  // Diagonal layers: only x = y entries. Rows: w; columns: v; mixed: w restricted to
  // columns with k_q = 1 (and the rest).
  CVector w, v;
  diagonal_sums(w, &v);
  std::vector<CVector> w1_of(static_cast<std::size_t>(n));  // per pre qubit, built on first use
  for (int s = 0; s < sites; ++s) {
    for (int t = s + 1; t < sites; ++t) {
      Mat4& e = out.env2[PartialHessianSums::pair_index(s, t, sites)];
      const auto [qs, post_s] = site_of(s, n);
      const auto [qt, post_t] = site_of(t, n);
      const Index bs = qubit_bit(qs, n), bt = qubit_bit(qt, n);
      auto put = [&e](Index xs, Index xt, cplx val) { e(3 * xs, 3 * xt) += val; };
      if (!post_s && !post_t) {
        for (Index k = 0; k < b; ++k)
          put(((first_ + k) & bs) ? 1 : 0, ((first_ + k) & bt) ? 1 : 0, v(k));
      } else if (post_s && post_t) {
        for (Index i = 0; i < d; ++i) put((i & bs) ? 1 : 0, (i & bt) ? 1 : 0, w(i));
      } else {  // s pre (column bit bs), t post (row bit bt)
        CVector& w1 = w1_of[static_cast<std::size_t>(qs)];
        if (w1.size() == 0) diagonal_sums(w1, nullptr, bs);
        for (Index i = 0; i < d; ++i) {
          const Index xt = (i & bt) ? 1 : 0;
          put(1, xt, w1(i));
          put(0, xt, w(i) - w1(i));
        }
      }
    }
  }
}

void CompensationShard::single_qubit_hessian(PartialHessianSums& out) const {
  const int n = num_qubits_, sites = 2 * n;
  const Index d = dim(), b = columns_.cols();
  // single_qubit, column by column (A[:, k] and B[:, k] stay in cache for all pairs). Sites
  // s < t: pre sites (column bits) come before post sites (row bits), so a mixed pair has s pre
  // and t post. Per column: 4 d products per post pair, 2 d per mixed pair, d per pre pair.
  PartialSums first;
  first.env.assign(static_cast<std::size_t>(sites), Mat2::Zero());
  ColumnSums col;
  std::vector<Mat2> moved_env(static_cast<std::size_t>(n));  // row environments of A[:, k ^ bit_s]
  for (Index k = 0; k < b; ++k) {
    const Index kg = first_ + k;
    const auto ak = a_.col(kg);
    const auto bk = b_.col(k);
    add_column_sums(k, first, col);
    const cplx t0 = col.tau;
    const std::vector<cplx>& flip = col.flip;
    const std::vector<Mat2>& post_env = col.post_env;
    for (int qs = 0; qs < n; ++qs) {
      const Index bs = qubit_bit(qs, n);
      const Index xs = (kg & bs) ? 1 : 0;
      // Both columns: sum_{k(xs,xt)} <A[:, k(ys,yt)], B[:, k]>.
      for (int qt = qs + 1; qt < n; ++qt) {
        const Index bt = qubit_bit(qt, n);
        const Index xt = (kg & bt) ? 1 : 0;
        Mat4& e = out.env2[PartialHessianSums::pair_index(qs, qt, sites)];
        e(2 * xs + xs, 2 * xt + xt) += t0;
        e(2 * xs + (1 - xs), 2 * xt + xt) += flip[static_cast<std::size_t>(qs)];
        e(2 * xs + xs, 2 * xt + (1 - xt)) += flip[static_cast<std::size_t>(qt)];
        e(2 * xs + (1 - xs), 2 * xt + (1 - xt)) += a_.col(kg ^ bs ^ bt).dot(bk);
      }
      // s pre, t post: ys = xs uses A[:, k] itself, ys != xs the column k ^ bit_s.
      const auto moved = a_.col(kg ^ bs);
      for (int qt = 0; qt < n; ++qt)
        moved_env[static_cast<std::size_t>(qt)] =
            row_environment(moved, bk, qubit_bit(qt, n), false);
      for (int qt = 0; qt < n; ++qt) {
        Mat4& e = out.env2[PartialHessianSums::pair_index(qs, n + qt, sites)];
        for (Index xt = 0; xt < 2; ++xt)
          for (Index yt = 0; yt < 2; ++yt) {
            e(2 * xs + xs, 2 * xt + yt) += post_env[static_cast<std::size_t>(qt)](xt, yt);
            e(2 * xs + (1 - xs), 2 * xt + yt) += moved_env[static_cast<std::size_t>(qt)](xt, yt);
          }
      }
    }
    // Both rows: E[(xs ys),(xt yt)] = sum conj(A_{i(xs,xt),k}) B_{i(ys,yt),k}.
    const cplx* pa = ak.data();
    const cplx* pb = bk.data();
    for (int qs = 0; qs < n; ++qs) {
      for (int qt = qs + 1; qt < n; ++qt) {
        const Index bs = qubit_bit(qs, n), bt = qubit_bit(qt, n);
        Mat4& e = out.env2[PartialHessianSums::pair_index(n + qs, n + qt, sites)];
        for (Index r = 0; r < d; ++r) {
          if (r & (bs | bt)) continue;
          const Index idx[4] = {r, r | bt, r | bs, r | bs | bt};  // (x_s, x_t) = 00 01 10 11
          cplx av[4], bv[4];
          for (int j = 0; j < 4; ++j) {
            av[j] = std::conj(pa[idx[j]]);
            bv[j] = pb[idx[j]];
          }
          for (int xj = 0; xj < 4; ++xj)
            for (int yj = 0; yj < 4; ++yj)
              e(2 * (xj >> 1) + (yj >> 1), 2 * (xj & 1) + (yj & 1)) += av[xj] * bv[yj];
        }
      }
    }
  }
  out.tau = first.tau;
  out.env = first.env;
}

SerialObjective::SerialObjective(Compensation kind, const CMatrix& u, const CMatrix& target)
    : shard_(kind, target, u, 0) {}

}  // namespace qevolve::fidelity
