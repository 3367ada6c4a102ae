// The compensation objective from the (reduced) sums: F, its exact gradient and Hessian.
//   F = (Tr(U^dag U) + |tau|^2) / (d (d + 1)),  tau = Tr(U_t^dag L_post U L_pre)
//   dF/da = 2 Re(conj(tau) tau_a) / (d (d + 1))
//   d2F/da db = 2 Re(conj(tau_a) tau_b + conj(tau) tau_ab) / (d (d + 1))
// with tau_a = sum_xy G_a(x,y) E_s(x,y) (G_a = (d l_s / d a) l_s^dag), tau_ab from the
// second-order generators (same site) or the two-site environments (different sites).
#include "local_ops.hpp"
#include "qevolve/error.hpp"

namespace qevolve::fidelity {
namespace {

void check(Compensation kind, Index dim, const RVector& angles, std::size_t sites) {
  int n = 0;
  while ((Index{1} << n) < dim) ++n;
  if (angles.size() != compensation_angle_count(kind, n) ||
      (kind != Compensation::none && sites != 2 * static_cast<std::size_t>(n)))
    throw Error("compensation objective: angles or sums do not match the dimension");
}

Eigen::Vector4cd flat(const Mat2& g) {
  return {g(0, 0), g(0, 1), g(1, 0), g(1, 1)};
}

}  // namespace

ObjectiveValue objective(Compensation kind, Index dim, const RVector& angles,
                         const PartialSums& total) {
  check(kind, dim, angles, total.env.size());
  const double norm = static_cast<double>(dim) * static_cast<double>(dim + 1);
  ObjectiveValue out;
  out.fidelity = (total.trace_uu + std::norm(total.tau)) / norm;
  out.gradient = RVector::Zero(angles.size());
  const int m = angles_per_site(kind);
  for (std::size_t s = 0; s < total.env.size(); ++s) {
    const auto gen = detail::site_generators(kind, angles.data() + m * static_cast<Index>(s));
    for (int j = 0; j < m; ++j) {
      const cplx dtau = detail::contract(gen.g[j], total.env[s]);
      out.gradient(m * static_cast<Index>(s) + j) =
          2.0 * (std::conj(total.tau) * dtau).real() / norm;
    }
  }
  return out;
}

RMatrix objective_hessian(Compensation kind, Index dim, const RVector& angles,
                          const PartialHessianSums& total) {
  check(kind, dim, angles, total.env.size());
  const double norm = static_cast<double>(dim) * static_cast<double>(dim + 1);
  const int m = angles_per_site(kind);
  const int sites = static_cast<int>(total.env.size());
  const Index p = angles.size();
  if (sites > 1 && total.env2.size() != static_cast<std::size_t>(sites * (sites - 1) / 2))
    throw Error("compensation objective: two-site sums missing");

  std::vector<detail::SiteGenerators> gen;
  gen.reserve(static_cast<std::size_t>(sites));
  for (int s = 0; s < sites; ++s)
    gen.push_back(detail::site_generators(kind, angles.data() + static_cast<Index>(m) * s));
  CVector tau_a(p);
  for (int s = 0; s < sites; ++s)
    for (int j = 0; j < m; ++j)
      tau_a(m * s + j) = detail::contract(gen[static_cast<std::size_t>(s)].g[j],
                                          total.env[static_cast<std::size_t>(s)]);

  CMatrix tau_ab(p, p);
  for (int s = 0; s < sites; ++s) {
    const auto& gs = gen[static_cast<std::size_t>(s)];
    for (int j = 0; j < m; ++j)
      for (int k = 0; k < m; ++k)
        tau_ab(m * s + j, m * s + k) =
            detail::contract(gs.s[j][k], total.env[static_cast<std::size_t>(s)]);
    for (int t = s + 1; t < sites; ++t) {
      const Mat4& e = total.env2[PartialHessianSums::pair_index(s, t, sites)];
      const auto& gt = gen[static_cast<std::size_t>(t)];
      for (int j = 0; j < m; ++j) {
        const Eigen::RowVector4cd left = flat(gs.g[j]).transpose() * e;
        for (int k = 0; k < m; ++k) {
          const cplx v = left * flat(gt.g[k]);
          tau_ab(m * s + j, m * t + k) = v;
          tau_ab(m * t + k, m * s + j) = v;
        }
      }
    }
  }
  RMatrix h(p, p);
  for (Index a = 0; a < p; ++a)
    for (Index b = 0; b < p; ++b)
      h(a, b) = 2.0 *
                (std::conj(tau_a(a)) * tau_a(b) + std::conj(total.tau) * tau_ab(a, b)).real() /
                norm;
  return 0.5 * (h + h.transpose());
}

}  // namespace qevolve::fidelity
