// An ensemble of gradient problems (include/qevolve/ensemble_problem.hpp; docs/ensembles.md).
#include "qevolve/ensemble_problem.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <optional>

#include "qevolve/error.hpp"

namespace qevolve::gradient {

MemberFigures member_figures(const Evaluation& ev) {
  MemberFigures m;
  if (ev.fidelity) {
    m.fidelity = ev.fidelity->fidelity;
    m.fidelity_uncompensated = ev.fidelity->fidelity_uncompensated;
    m.leakage = ev.fidelity->leakage;
  }
  m.objective = ev.objective;
  m.gradient = ev.gradient;
  return m;
}

double combined_step_error(std::span<const double> errors, std::span<const double> weights, std::size_t worst,
                           bool worst_objective) {
  if (worst_objective) return errors[worst] < 0.0 ? -1.0 : errors[worst];
  double sum = 0.0;
  for (std::size_t k = 0; k < errors.size(); ++k) {
    if (errors[k] < 0.0) return -1.0;
    sum += weights[k] * errors[k];
  }
  return sum;
}

EnsembleCombination combine_ensemble(std::span<const MemberFigures> members, std::span<const double> weights,
                                     bool worst) {
  assert(!members.empty() && members.size() == weights.size());
  EnsembleCombination c;
  for (std::size_t k = 1; k < members.size(); ++k)
    if (members[k].objective > members[c.worst].objective) c.worst = k;
  const MemberFigures& w = members[c.worst];
  const bool gradient = w.gradient.size() > 0;
  if (gradient) c.gradient = RVector::Zero(w.gradient.size());
  if (worst) {
    c.fidelity = w.fidelity;
    c.fidelity_uncompensated = w.fidelity_uncompensated;
    c.leakage = w.leakage;
    // J = (sum_k o_k^p / K)^(1/p), dJ = J^(1-p) / K sum_k o_k^(p-1) g_k, in units of the largest
    // o_k (the o_k may be 1e-6: o^16 would underflow).
    const auto K = static_cast<double>(members.size());
    const double scale = w.objective > 0.0 ? w.objective : 1.0;
    double sum = 0.0;
    for (const MemberFigures& m : members) sum += std::pow(m.objective / scale, kWorstPower);
    const double J = std::pow(sum / K, 1.0 / kWorstPower);
    c.value = scale * J;
    if (gradient) {
      for (const MemberFigures& m : members) c.gradient += std::pow(m.objective / scale, kWorstPower - 1.0) * m.gradient;
      c.gradient *= std::pow(J, 1.0 - kWorstPower) / K;
    }
    return c;
  }
  for (std::size_t k = 0; k < members.size(); ++k) {
    const MemberFigures& m = members[k];
    c.fidelity += weights[k] * m.fidelity;
    c.fidelity_uncompensated += weights[k] * m.fidelity_uncompensated;
    c.leakage += weights[k] * m.leakage;
    c.value += weights[k] * m.objective;
    if (gradient) c.gradient += weights[k] * m.gradient;
  }
  return c;
}

EnsembleProblem::EnsembleProblem(std::vector<GradientPlan> plans, std::vector<double> weights, bool worst,
                                 int threads, comm::Communicator& comm, comm::Communicator& reduce)
    : weights_(std::move(weights)), worst_(worst), comm_(&comm) {
  assert(!plans.empty() && plans.size() == weights_.size());
  const auto R = static_cast<std::size_t>(comm.size());
  by_member_ = R > 1 && plans.size() >= R;
  if (by_member_) serial_ = std::make_unique<comm::SerialCommunicator>();
  for (std::size_t k = 0; k < plans.size(); ++k) {
    if (by_member_ && k % R != static_cast<std::size_t>(comm.rank())) {
      members_.push_back(nullptr);
      continue;
    }
    comm::Communicator& c = by_member_ ? *serial_ : comm;
    members_.push_back(std::make_unique<GradientProblem>(std::move(plans[k]), threads, c, by_member_ ? c : reduce));
    ++builds_;
  }
  if (by_member_) builds_ = static_cast<long>(comm.allreduce_sum(static_cast<double>(builds_)));
  angles_per_member_ = first().warm_angle_count();
  last_.resize(members_.size());
}

EnsembleProblem::~EnsembleProblem() = default;

const GradientProblem& EnsembleProblem::first() const {
  for (const auto& m : members_)
    if (m) return *m;
  throw Error("EnsembleProblem: no member on this rank");
}

const std::vector<ParameterInfo>& EnsembleProblem::parameters() const { return first().parameters(); }
std::vector<std::string> EnsembleProblem::names() const { return first().names(); }
RVector EnsembleProblem::values() const { return first().values(); }

void EnsembleProblem::set_values(const RVector& x) {
  const RVector before = values();
  std::size_t done = 0;
  try {
    for (; done < members_.size(); ++done)
      if (local(done)) members_[done]->set_values(x);
  } catch (const NumericalError&) {  // nothing changed: the members set so far go back
    for (std::size_t k = 0; k < done; ++k)
      if (local(k)) members_[k]->set_values(before);
    throw;
  }
}

namespace {

/// Members first: every member's figures on every rank (zeros where another rank evaluated
/// it, then summed).
void share(std::vector<MemberFigures>& figures, const std::vector<bool>& mine, comm::Communicator& comm) {
  Index P = 0;
  for (std::size_t k = 0; k < figures.size(); ++k)
    if (mine[k]) P = std::max(P, figures[k].gradient.size());
  const Index width = 4 + P;
  std::vector<double> all(figures.size() * static_cast<std::size_t>(width), 0.0);
  for (std::size_t k = 0; k < figures.size(); ++k) {
    if (!mine[k]) continue;
    double* row = all.data() + k * static_cast<std::size_t>(width);
    row[0] = figures[k].fidelity, row[1] = figures[k].fidelity_uncompensated, row[2] = figures[k].leakage;
    row[3] = figures[k].objective;
    for (Index i = 0; i < figures[k].gradient.size(); ++i) row[4 + i] = figures[k].gradient(i);
  }
  comm.allreduce_sum(all);
  for (std::size_t k = 0; k < figures.size(); ++k) {
    const double* row = all.data() + k * static_cast<std::size_t>(width);
    figures[k] = MemberFigures{row[0], row[1], row[2], row[3], Eigen::Map<const RVector>(row + 4, P)};
  }
}

}  // namespace

Evaluation EnsembleProblem::evaluate(bool with_gradient, const PipelineHooks& hooks) {
  figures_.assign(members_.size(), MemberFigures{});
  std::vector<bool> mine(members_.size(), false);
  Evaluation out;
  std::optional<Compensation> compensation;
  for (std::size_t k = 0; k < members_.size(); ++k) {
    if (!local(k)) continue;
    mine[k] = true;
    last_[k] = members_[k]->evaluate(with_gradient, hooks);
    const Evaluation& ev = last_[k];
    figures_[k] = gradient::member_figures(ev);
    if (ev.fidelity) compensation = ev.fidelity->compensation;
    out.evolve_s += ev.evolve_s;
    out.fidelity_s += ev.fidelity_s;
    out.gradient_s += ev.gradient_s;
    if (out.top_level_population.empty()) out.top_level_population = ev.top_level_population;
    for (std::size_t i = 0; i < out.top_level_population.size() && i < ev.top_level_population.size(); ++i)
      out.top_level_population[i] = std::max(out.top_level_population[i], ev.top_level_population[i]);
  }
  if (by_member_) {
    share(figures_, mine, *comm_);
    comm_->allreduce_max(out.top_level_population);
  }
  const EnsembleCombination c = combine_ensemble(figures_, weights_, worst_);
  worst_member_ = c.worst;
  out.infidelity = 1.0 - c.fidelity;
  out.objective = c.value;
  out.gradient = c.gradient;
  if (compensation) {
    fidelity::FidelityResult f;
    f.compensation = *compensation;
    f.fidelity = c.fidelity;
    f.fidelity_uncompensated = c.fidelity_uncompensated;
    f.leakage = c.leakage;
    out.fidelity = std::move(f);
  }
  return out;
}

StepError EnsembleProblem::estimate_step_error(const Evaluation& /*fine*/, const std::function<void(double)>& progress) {
  errors_.assign(members_.size(), 0.0);
  std::optional<StepError> any;
  double seconds = 0.0;
  for (std::size_t k = 0; k < members_.size(); ++k) {
    if (!local(k)) continue;
    const StepError e = members_[k]->estimate_step_error(last_[k], progress);
    errors_[k] = e.error;
    seconds += e.seconds;
    if (!any) any = e;
  }
  if (by_member_) comm_->allreduce_sum(errors_);
  StepError e = *any;
  e.fidelity_limit = e.fidelity_coarse = std::numeric_limits<double>::quiet_NaN();
  e.seconds = seconds;
  e.error = combined_step_error(errors_, weights_, worst_member_, worst_);
  return e;
}

std::vector<CMatrix> EnsembleProblem::member_unitaries() {
  std::vector<CMatrix> out(members_.size());
  for (std::size_t k = 0; k < members_.size(); ++k)
    if (local(k)) out[k] = last_[k].unitary;
  if (!by_member_) return out;
  double d = 0.0;
  for (const CMatrix& u : out) d = std::max(d, static_cast<double>(u.rows()));
  d = comm_->allreduce_max(d);
  const auto n = static_cast<Index>(d);
  for (CMatrix& u : out) {
    if (u.rows() != n) u = CMatrix::Zero(n, n);
    comm_->allreduce_sum(u);  // one rank holds it, the others add zeros
  }
  return out;
}

RVector EnsembleProblem::warm_angles() const {
  RVector all = RVector::Zero(static_cast<Index>(members_.size()) * angles_per_member_);
  for (std::size_t k = 0; k < members_.size(); ++k) {
    if (!local(k)) continue;
    const RVector a = members_[k]->warm_angles();
    all.segment(static_cast<Index>(k) * angles_per_member_, std::min(a.size(), angles_per_member_)) =
        a.head(std::min(a.size(), angles_per_member_));
  }
  if (by_member_) comm_->allreduce_sum(all);
  return all;
}

void EnsembleProblem::set_warm_angles(const RVector& angles) {
  for (std::size_t k = 0; k < members_.size(); ++k) {
    const Index at = static_cast<Index>(k) * angles_per_member_;
    if (local(k) && at + angles_per_member_ <= angles.size())
      members_[k]->set_warm_angles(angles.segment(at, angles_per_member_));
  }
}

Index EnsembleProblem::warm_angle_count() const { return static_cast<Index>(members_.size()) * angles_per_member_; }

void EnsembleProblem::set_leakage_weight(double w) {
  for (const auto& m : members_)
    if (m) m->set_leakage_weight(w);
}

void EnsembleProblem::set_steps(int steps) {
  for (const auto& m : members_)
    if (m) m->set_steps(steps);
}

const solver::Simulator& EnsembleProblem::simulator() const { return first().simulator(); }

}  // namespace qevolve::gradient
