// The flux gauge of a tunable transmon (docs/models.md "Flux pulses"): the schemes evolve the
// moving-gauge state psi' = exp(i g(t) n) psi, whose Hamiltonian holds the junction term
// -EJ_eff cos(phi - r), r = P(e) - G small, plus -g'(t) n / 2 pi (include/qevolve/flux_drive.hpp).
// What qevolve writes is the lab gauge of the static model: the columns are turned into the
// moving gauge at t = 0 and back at t = T (nothing to do where the flux offset is 0 there, as
// for every pulse that starts and ends at 0), a traced state back at its boundary; the
// adjoints differentiate the two turns too (gauge_end_cotangents).
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>

#include "qevolve/drive_model.hpp"
#include "qevolve/simulator.hpp"

namespace qevolve::solver {
namespace {

/// exp(i sign g n) on a d-level mode, n Hermitian.
CMatrix rotation(const CMatrix& n, double g) {
  const Eigen::SelfAdjointEigenSolver<CMatrix> es(n);
  CVector phases(es.eigenvalues().size());
  for (Index k = 0; k < phases.size(); ++k) phases(k) = std::polar(1.0, g * es.eigenvalues()(k));
  return es.eigenvectors() * phases.asDiagonal() * es.eigenvectors().adjoint();
}

/// cols <- (1 x U x 1) cols, U acting on the mode with `inner` = product of the later dims.
void apply_one_mode(CMatrix& cols, const CMatrix& U, Index inner) {
  const Index d = U.rows(), D = cols.rows(), outer = D / (d * inner);
  CVector in(d);
  for (Index c = 0; c < cols.cols(); ++c)
    for (Index o = 0; o < outer; ++o)
      for (Index i = 0; i < inner; ++i) {
        const Index base = o * d * inner + i;
        for (Index k = 0; k < d; ++k) in(k) = cols(base + k * inner, c);
        const CVector out = U * in;
        for (Index k = 0; k < d; ++k) cols(base + k * inner, c) = out(k);
      }
}

/// 2 Re <lambda, A psi> over the columns (A on the mode with `inner`), or for vectorised
/// density matrices 2 Re <lambda, A rho + rho A^dag>.
double end_pairing(const CMatrix& A, const CMatrix& states, const CMatrix& lambda, Index inner, bool density) {
  if (!density) {
    CMatrix x = states;
    apply_one_mode(x, A, inner);
    return 2.0 * (lambda.conjugate().cwiseProduct(x)).sum().real();
  }
  const Index D = static_cast<Index>(std::llround(std::sqrt(static_cast<double>(states.rows()))));
  double sum = 0.0;
  for (Index k = 0; k < states.cols(); ++k) {
    const Eigen::Map<const CMatrix> rho(states.col(k).data(), D, D);
    const Eigen::Map<const CMatrix> lam(lambda.col(k).data(), D, D);
    CMatrix a_rho = rho;
    apply_one_mode(a_rho, A, inner);
    CMatrix a_rho_dag = rho.adjoint();  // the inputs |v_i><v_j| are not Hermitian
    apply_one_mode(a_rho_dag, A, inner);
    const CMatrix d = a_rho + a_rho_dag.adjoint();  // A rho + rho A^dag
    sum += 2.0 * (lam.conjugate().cwiseProduct(d)).sum().real();
  }
  return sum;
}

/// A = dU U^dag for U = exp(i theta n) and n moving by dn: the Frechet derivative of exp in the
/// eigenbasis of n, dU = W [(W^dag dn W) o F] W^dag, F_kl the divided difference of
/// exp(i theta lambda).
CMatrix turn_tangent(const CMatrix& n, const CMatrix& dn, double theta) {
  const Eigen::SelfAdjointEigenSolver<CMatrix> es(n);
  const RVector& lam = es.eigenvalues();
  const CMatrix& W = es.eigenvectors();
  CMatrix M = W.adjoint() * dn * W;
  const Index d = lam.size();
  for (Index k = 0; k < d; ++k)
    for (Index l = 0; l < d; ++l) {
      const cplx ek = std::polar(1.0, theta * lam(k)), el = std::polar(1.0, theta * lam(l));
      const double gap = lam(k) - lam(l);
      M(k, l) *= std::abs(gap) > 1e-12 ? (ek - el) / gap : cplx(0.0, theta) * ek;
    }
  CVector back(d);
  for (Index k = 0; k < d; ++k) back(k) = std::polar(1.0, -theta * lam(k));
  return W * M * back.asDiagonal() * W.adjoint();  // dU U^dag = W (M o F) exp(-i theta Lambda) W^dag
}

}  // namespace

bool DriveModel::gauge_moves(const DriveChannel& ch) const {
  if (ch.law != device::DriveLaw::squid_cos && ch.law != device::DriveLaw::squid_sin &&
      ch.law != device::DriveLaw::squid_n)
    return false;
  return device_->modes()[static_cast<std::size_t>(ch.mode)].params.asymmetry != 0.0;
}

bool DriveModel::gauge_end(const DriveChannel& ch, double t) const {
  return ch.law == device::DriveLaw::squid_n && (t == 0.0 || t == duration_) && gauge_moves(ch);
}

bool DriveModel::gauge_turned(double t) const {
  for (const DriveChannel& ch : drive_.channels)
    if (ch.law == device::DriveLaw::squid_n && gauge_moves(ch) &&
        device::gauge_angle(device_->modes()[static_cast<std::size_t>(ch.mode)].params, flux_offset(ch, t)) != 0.0)
      return true;
  return false;
}

std::vector<double> Simulator::gauge_end_cotangents(const CMatrix& states, const CMatrix& lambda, double t,
                                                    bool density, const std::vector<HamiltonianTangent>& tangents,
                                                    std::vector<double>& tangent_sums) const {
  // The turn at t is U = exp(i s g n) (s = +1 at 0 on the input, -1 at T on the output), states
  // the columns after it (at T the lab output, at 0 the moving-gauge input). A change dU moves
  // them by A psi, A = dU U^dag (a density matrix by A rho + rho A^dag), and the objective by
  // 2 Re <lambda, that>: d/dg gives A = i s n; a device tangent dn of the kept n the Frechet
  // derivative of exp in the eigenbasis of n.
  const double sign = t == 0.0 ? 1.0 : -1.0;
  std::vector<double> out(drive_.channels().size(), 0.0);
  for (std::size_t j = 0; j < drive_.channels().size(); ++j) {
    const DriveChannel& ch = drive_.channels()[j];
    if (ch.law != device::DriveLaw::squid_n || !drive_.gauge_moves(ch)) continue;
    Index inner = 1;
    for (int m = ch.mode + 1; m < device_.num_modes(); ++m) inner *= device_.dims()[static_cast<std::size_t>(m)];
    const device::Mode& mode = device_.modes()[static_cast<std::size_t>(ch.mode)];
    const CMatrix& n = *mode.op("n");
    const auto pairing = [&](const CMatrix& A) { return end_pairing(A, states, lambda, inner, density); };
    out[j] = pairing(cplx(0.0, sign) * n);
    const double g = device::gauge_angle(mode.params, drive_.flux_offset(ch, t));
    if (g == 0.0) continue;
    for (std::size_t k = 0; k < tangents.size(); ++k) {
      if (j >= tangents[k].channels.size() || tangents[k].channels[j].size() == 0) continue;
      tangent_sums[k] += pairing(turn_tangent(n, tangents[k].channels[j], sign * g));
    }
  }
  return out;
}

bool Simulator::gauge_end_sensitive(double t) const {
  for (const DriveChannel& ch : drive_.channels()) {
    if (ch.law != device::DriveLaw::squid_n || !drive_.gauge_moves(ch)) continue;
    if (drive_.flux_offset(ch, t) != 0.0) return true;
    for (const auto& [p, factor] : ch.sources) {
      const auto q = static_cast<std::size_t>(p);
      if (drive_.pulse_line(q) >= 0) return true;
      const std::vector<pulse::ParamRef> all = drive_.pulses()[q].parameters();
      std::vector<double> d(all.size(), 0.0);
      drive_.pulses()[q].derivatives(t, all, d);
      if (std::any_of(d.begin(), d.end(), [](double v) { return v != 0.0; })) return true;
    }
  }
  return false;
}

void Simulator::report_gauge_ends(const std::vector<double>& at_T, const std::vector<double>& at_0,
                                  const StepCotangent& on_step) const {
  if (!on_step) return;
  const auto report = [&](const std::vector<double>& dc, int step, double t) {
    if (std::any_of(dc.begin(), dc.end(), [](double v) { return v != 0.0; })) on_step(step, t, dc);
  };
  report(at_T, options_.steps - 1, options_.duration);
  report(at_0, 0, 0.0);
}

void Simulator::to_gauge(CMatrix& cols, double t, bool to_moving) const {
  for (const DriveChannel& ch : drive_.channels()) {
    if (ch.law != device::DriveLaw::squid_n || !drive_.gauge_moves(ch)) continue;
    const device::Mode& mode = device_.modes()[static_cast<std::size_t>(ch.mode)];
    const double g = device::gauge_angle(mode.params, drive_.flux_offset(ch, t));
    if (g == 0.0) continue;
    Index inner = 1;
    for (int m = ch.mode + 1; m < device_.num_modes(); ++m) inner *= device_.dims()[static_cast<std::size_t>(m)];
    apply_one_mode(cols, rotation(*mode.op("n"), to_moving ? g : -g), inner);
  }
}

void Simulator::to_gauge_density(CMatrix& vecs, double t, bool to_moving) const {
  if (!drive_.gauge_turned(t)) return;
  const Index D = device_.dim();
  for (Index k = 0; k < vecs.cols(); ++k) {
    CMatrix rho = Eigen::Map<const CMatrix>(vecs.col(k).data(), D, D);
    to_gauge(rho, t, to_moving);  // G rho
    CMatrix left = rho.adjoint();
    to_gauge(left, t, to_moving);  // G (G rho)^dag = G rho^dag G^dag
    rho = left.adjoint();          // G rho G^dag
    vecs.col(k) = Eigen::Map<const CVector>(rho.data(), D * D);
  }
}

StepObserver Simulator::lab_gauge_observer(const StepObserver& observe) const {
  const bool gauge = std::any_of(drive_.channels().begin(), drive_.channels().end(), [this](const DriveChannel& ch) {
    return ch.law == device::DriveLaw::squid_n && drive_.gauge_moves(ch);
  });
  if (!gauge) return observe;
  // The whole state at each boundary (a turn needs the whole mode, not a block of columns):
  // only the boundaries to observe and the state callback are kept.
  StepObserver lab;
  lab.steps = observe.steps;
  const Index D = device_.dim();
  lab.state = [this, inner = observe.state, D](int step, const CMatrix& state) {
    // The end is T exactly, as in step_edges (steps * dt() can round past T).
    const double t = step == options_.steps ? options_.duration : step * options_.dt();
    if (!drive_.gauge_turned(t)) return inner(step, state);
    CMatrix s = state;
    if (s.rows() == D)
      to_gauge(s, t, false);
    else
      to_gauge_density(s, t, false);
    inner(step, s);
  };
  return lab;
}

}  // namespace qevolve::solver
