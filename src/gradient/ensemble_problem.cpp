// An ensemble of gradient problems (include/qevolve/ensemble_problem.hpp; docs/ensembles.md).
#include "qevolve/ensemble_problem.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

#include "qevolve/error.hpp"

namespace qevolve::gradient {

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
    : weights_(std::move(weights)), worst_(worst) {
  assert(!plans.empty() && plans.size() == weights_.size());
  for (GradientPlan& plan : plans) {
    members_.push_back(std::make_unique<GradientProblem>(std::move(plan), threads, comm, reduce));
    ++builds_;
  }
  assert(std::all_of(members_.begin(), members_.end(),
                     [this](const auto& m) { return m->names() == members_.front()->names(); }));
}

EnsembleProblem::~EnsembleProblem() = default;

const std::vector<ParameterInfo>& EnsembleProblem::parameters() const { return members_.front()->parameters(); }
std::vector<std::string> EnsembleProblem::names() const { return members_.front()->names(); }
RVector EnsembleProblem::values() const { return members_.front()->values(); }

void EnsembleProblem::set_values(const RVector& x) {
  const RVector before = values();
  std::size_t done = 0;
  try {
    for (; done < members_.size(); ++done) members_[done]->set_values(x);
  } catch (const NumericalError&) {  // nothing changed: the members set so far go back
    for (std::size_t k = 0; k < done; ++k) members_[k]->set_values(before);
    throw;
  }
}

Evaluation EnsembleProblem::evaluate(bool with_gradient, const PipelineHooks& hooks) {
  last_.clear();
  std::vector<MemberFigures> figures;
  Evaluation out;
  for (const auto& member : members_) {
    last_.push_back(member->evaluate(with_gradient, hooks));
    const Evaluation& ev = last_.back();
    MemberFigures m;
    if (ev.fidelity) {
      m.fidelity = ev.fidelity->fidelity;
      m.fidelity_uncompensated = ev.fidelity->fidelity_uncompensated;
      m.leakage = ev.fidelity->leakage;
    }
    m.objective = ev.objective;
    m.gradient = ev.gradient;
    figures.push_back(std::move(m));
    out.evolve_s += ev.evolve_s;
    out.fidelity_s += ev.fidelity_s;
    out.gradient_s += ev.gradient_s;
    if (out.top_level_population.empty()) out.top_level_population = ev.top_level_population;
    for (std::size_t i = 0; i < out.top_level_population.size() && i < ev.top_level_population.size(); ++i)
      out.top_level_population[i] = std::max(out.top_level_population[i], ev.top_level_population[i]);
  }
  const EnsembleCombination c = combine_ensemble(figures, weights_, worst_);
  out.infidelity = 1.0 - c.fidelity;
  out.objective = c.value;
  out.gradient = c.gradient;
  if (last_.front().fidelity) {
    fidelity::FidelityResult f;
    f.compensation = last_.front().fidelity->compensation;
    f.fidelity = c.fidelity;
    f.fidelity_uncompensated = c.fidelity_uncompensated;
    f.leakage = c.leakage;
    out.fidelity = std::move(f);
  }
  return out;
}

StepError EnsembleProblem::estimate_step_error(const Evaluation& /*fine*/, const std::function<void(double)>& progress) {
  assert(last_.size() == members_.size());
  last_errors_.clear();
  std::size_t worst = 0;
  for (std::size_t k = 0; k < members_.size(); ++k) {
    last_errors_.push_back(members_[k]->estimate_step_error(last_[k], progress));
    if (last_[k].objective > last_[worst].objective) worst = k;
  }
  StepError e = last_errors_.front();
  e.fidelity_limit = e.fidelity_coarse = std::numeric_limits<double>::quiet_NaN();
  e.seconds = 0.0;
  e.error = worst_ ? last_errors_[worst].error : 0.0;
  for (std::size_t k = 0; k < members_.size(); ++k) {
    e.seconds += last_errors_[k].seconds;
    if (!worst_) e.error += weights_[k] * last_errors_[k].error;
  }
  return e;
}

RVector EnsembleProblem::warm_angles() const {
  std::vector<double> all;
  for (const auto& m : members_) {
    const RVector a = m->warm_angles();
    all.insert(all.end(), a.data(), a.data() + a.size());
  }
  return Eigen::Map<const RVector>(all.data(), static_cast<Index>(all.size()));
}

void EnsembleProblem::set_warm_angles(const RVector& angles) {
  Index at = 0;
  for (const auto& m : members_) {
    const Index n = std::min<Index>(m->warm_angle_count(), angles.size() - at);
    m->set_warm_angles(angles.segment(at, n));
    at += n;
  }
}

Index EnsembleProblem::warm_angle_count() const {
  Index n = 0;
  for (const auto& m : members_) n += m->warm_angle_count();
  return n;
}

void EnsembleProblem::set_leakage_weight(double w) {
  for (const auto& m : members_) m->set_leakage_weight(w);
}

void EnsembleProblem::set_steps(int steps) {
  for (const auto& m : members_) m->set_steps(steps);
}

const solver::Simulator& EnsembleProblem::simulator() const { return members_.front()->simulator(); }

}  // namespace qevolve::gradient
