// Fidelity and compensation of a channel (open systems; docs/fidelity.md "Channels").
//
// With the channel's Kraus operators K_k (E(rho) = sum_k K_k rho K_k^dag), Tr E(I) =
// sum_k Tr(K_k^dag K_k) and Tr(S_t^dag S_E) = sum_k |Tr(U_t^dag K_k)|^2, so the open fidelity is
// the sum over k of the closed formula applied to K_k:
//     F(E) = sum_k (Tr(K_k^dag K_k) + |Tr(U_t^dag K_k)|^2) / (d (d + 1)),
// and compensation layers act on every K_k alike (K_k -> L_post K_k L_pre). The compensation of
// a channel therefore maximises a sum of closed objectives: the closed solver on the dominant
// Kraus operator gives the start (its analytic starts, restarts and canonical angles), and a
// Newton polish on the sum (exact gradients and Hessians of every term, minimum-norm steps so
// that zero-curvature directions keep the start's canonical components) finds the optimum.
#include <algorithm>
#include <cmath>
#include <string>

#include "qevolve/error.hpp"
#include "qevolve/fidelity.hpp"
#include "qevolve/linalg.hpp"

namespace qevolve::fidelity {
namespace {

Index channel_dim(const CMatrix& s) {
  Index d = 0;
  while (d * d < s.rows()) ++d;
  if (s.rows() != s.cols() || d * d != s.rows())
    throw Error("fidelity: a superoperator must be d^2 x d^2, got " + std::to_string(s.rows()) +
                " x " + std::to_string(s.cols()));
  return d;
}

double trace_of_identity_image(const CMatrix& s, Index d) {
  // Tr E(I) = sum_i sum_a <a| E(|i><i|) |a>.
  cplx t = 0.0;
  for (Index i = 0; i < d; ++i)
    for (Index a = 0; a < d; ++a) t += s(a + d * a, i + d * i);
  return t.real();
}

/// The superoperator of rho -> L rho L^dag in column stacking: conj(L) (x) L.
CMatrix superoperator_of(const CMatrix& L) { return linalg::kron(L.conjugate(), L); }

/// Wraps angles into the reported ranges (docs/fidelity.md "Gauge and canonical angles"): vz (-pi/2, pi/2], single_qubit (-pi, pi]
/// (both shifts leave every channel unchanged: they flip the sign of a layer factor).
RVector wrap(Compensation kind, RVector a) {
  const double period = kind == Compensation::vz ? kPi : kTwoPi;
  for (Index i = 0; i < a.size(); ++i) {
    double x = std::fmod(a(i), period);
    if (x > period / 2) x -= period;
    if (x <= -period / 2) x += period;
    a(i) = x;
  }
  return a;
}

}  // namespace

double channel_fidelity(const CMatrix& s, const CMatrix& target) {
  const Index d = channel_dim(s);
  if (target.rows() != d || target.cols() != d)
    throw Error("fidelity: the channel acts on dimension " + std::to_string(d) + " but the target is " +
                std::to_string(target.rows()) + " x " + std::to_string(target.cols()));
  // Tr(S_t^dag S_E) = sum conj(U_t(a, i)) U_t(b, j) S_E(a + d b, i + d j).
  cplx overlap = 0.0;
  for (Index j = 0; j < d; ++j)
    for (Index i = 0; i < d; ++i)
      for (Index b = 0; b < d; ++b)
        for (Index a = 0; a < d; ++a)
          overlap += std::conj(target(a, i)) * target(b, j) * s(a + d * b, i + d * j);
  const double dd = static_cast<double>(d);
  return (trace_of_identity_image(s, d) + overlap.real()) / (dd * (dd + 1.0));
}

double channel_leakage(const CMatrix& s) {
  const Index d = channel_dim(s);
  return 1.0 - trace_of_identity_image(s, d) / static_cast<double>(d);
}

std::vector<CMatrix> kraus_operators(const CMatrix& s) {
  const Index d = channel_dim(s);
  // Choi matrix J(a + d i, b + d j) = <a| E(|i><j|) |b> = sum_k vec(K_k) vec(K_k)^dag.
  CMatrix J(d * d, d * d);
  for (Index j = 0; j < d; ++j)
    for (Index i = 0; i < d; ++i)
      for (Index b = 0; b < d; ++b)
        for (Index a = 0; a < d; ++a) J(a + d * i, b + d * j) = s(a + d * b, i + d * j);
  J = 0.5 * (J + J.adjoint());
  RVector w;
  CMatrix V;
  linalg::hermitian_eigen(J, w, V);
  const double top = w.size() > 0 ? w.maxCoeff() : 0.0;
  std::vector<CMatrix> out;
  for (Index k = w.size() - 1; k >= 0; --k) {  // descending
    if (!(w(k) > 1e-14 * std::max(top, 1.0))) continue;
    CMatrix K(d, d);
    for (Index i = 0; i < d; ++i)
      for (Index a = 0; a < d; ++a) K(a, i) = std::sqrt(w(k)) * V(a + d * i, k);
    out.push_back(std::move(K));
  }
  return out;
}

FidelityResult evaluate_channel_fidelity(const CMatrix& s, const CMatrix& target, Compensation kind,
                                         const CompensationOptions& options) {
  if (!s.allFinite()) throw NumericalError("fidelity: the channel contains NaN or inf");
  const Index d = channel_dim(s);
  FidelityResult out;
  out.compensation = kind;
  out.fidelity_uncompensated = channel_fidelity(s, target);
  out.leakage = channel_leakage(s);
  if (kind == Compensation::none) {
    out.fidelity = out.fidelity_uncompensated;
    out.superoperator_compensated = s;
    return out;
  }
  int n = 0;
  while ((Index{1} << n) < d) ++n;
  const std::vector<CMatrix> kraus = kraus_operators(s);
  if (kraus.empty()) throw NumericalError("fidelity: the channel is zero on the computational subspace");
  std::vector<SerialObjective> terms;
  for (const CMatrix& K : kraus) terms.emplace_back(kind, K, target);
  auto value = [&](const RVector& x, RVector* grad, RMatrix* hess) {
    double f = 0.0;
    if (grad) *grad = RVector::Zero(x.size());
    if (hess) *hess = RMatrix::Zero(x.size(), x.size());
    for (auto& t : terms) {
      t.set_angles(x);
      const ObjectiveValue v = objective(kind, d, x, t.sums());
      f += v.fidelity;
      if (grad) *grad += v.gradient;
      if (hess) *hess += objective_hessian(kind, d, x, t.hessian_sums());
    }
    return f;
  };
  // Start: the closed optimum of the dominant Kraus operator (and the caller's start, if any).
  std::vector<RVector> starts;
  if (options.initial_angles && options.initial_angles->size() == compensation_angle_count(kind, n))
    starts.push_back(*options.initial_angles);
  SerialObjective dominant(kind, kraus.front(), target);
  starts.push_back(solve_compensation(dominant, options).angles);
  RVector best;
  double best_f = -1.0;
  for (RVector x : starts) {
    double f = value(x, nullptr, nullptr);
    for (int it = 0; it < 60; ++it) {
      RVector g;
      RMatrix H;
      value(x, &g, &H);
      if (g.norm() < 1e-14) break;
      // Minimum-norm Newton step on the concave part; gradient step where H is not negative.
      Eigen::SelfAdjointEigenSolver<RMatrix> es(H);
      const RVector& ev = es.eigenvalues();
      const double scale = std::max(1e-300, ev.cwiseAbs().maxCoeff());
      RVector step = RVector::Zero(x.size());
      for (Index k = 0; k < ev.size(); ++k) {
        const double proj = es.eigenvectors().col(k).dot(g);
        if (ev(k) < -1e-10 * scale)
          step -= (proj / ev(k)) * es.eigenvectors().col(k);
        else if (ev(k) > 1e-10 * scale)
          step += (proj / scale) * es.eigenvectors().col(k);
      }
      double t = 1.0, f_new = f;
      RVector x_new = x;
      for (int ls = 0; ls < 40; ++ls, t *= 0.5) {
        x_new = x + t * step;
        f_new = value(x_new, nullptr, nullptr);
        if (f_new >= f) break;
      }
      if (!(f_new >= f)) break;
      const bool done = f_new - f <= 1e-16 * std::max(1.0, std::abs(f));
      x = x_new;
      f = f_new;
      if (done) break;
    }
    if (f > best_f) {
      best_f = f;
      best = x;
    }
  }
  out.angles = wrap(kind, best);
  out.pre_factors = layer_factors(kind, out.angles, n, false);
  out.post_factors = layer_factors(kind, out.angles, n, true);
  out.superoperator_compensated =
      superoperator_of(dense_layer(out.post_factors)) * s * superoperator_of(dense_layer(out.pre_factors));
  out.fidelity = channel_fidelity(out.superoperator_compensated, target);
  return out;
}

}  // namespace qevolve::fidelity
