// An ensemble of gradient problems (docs/ensembles.md): one set of parameters over K device
// variants, each member a GradientProblem built once from its plan (its static factors reused by
// every evaluation), the members' figures combined into the objective: the weighted mean, or
// the worst member with the smooth power mean for the value that is optimised and its gradient.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "qevolve/comm.hpp"
#include "qevolve/gradient.hpp"
#include "qevolve/gradient_plan.hpp"

namespace qevolve::gradient {

/// The exponent p of the smooth form of the worst member, J = (sum_k o_k^p / K)^(1/p).
inline constexpr double kWorstPower = 16.0;

/// One member's figures, what the combination reads.
struct MemberFigures {
  double fidelity = 0.0, fidelity_uncompensated = 0.0, leakage = 0.0;
  double objective = 0.0;  ///< o_k = (1 - F_k) + w leakage_k
  RVector gradient;        ///< d o_k / d theta; empty: none
};

/// An evaluation's figures (no fidelity: zeros).
[[nodiscard]] MemberFigures member_figures(const Evaluation& ev);

struct EnsembleCombination {
  std::size_t worst = 0;  ///< the member with the largest o_k (the first of equals)
  /// mean: the weighted means; worst: the worst member's figures.
  double fidelity = 0.0, fidelity_uncompensated = 0.0, leakage = 0.0;
  /// What is optimised: mean sum_k w_k o_k; worst J = (sum_k o_k^p / K)^(1/p), p = kWorstPower.
  double value = 0.0;
  RVector gradient;  ///< d value / d theta (empty when the members have none)
};

/// The objective's step-error bound from the members' estimates e_k (docs/ensembles.md
/// "Objectives"): mean |sum_k w_k (F_k - F_k(inf))| <= sum_k w_k e_k, worst e_worst; -1 when an
/// estimate it needs is missing (< 0).
[[nodiscard]] double combined_step_error(std::span<const double> errors, std::span<const double> weights,
                                         std::size_t worst, bool worst_objective);

/// Combines the members' figures (weights normalised, same length as `members`).
[[nodiscard]] EnsembleCombination combine_ensemble(std::span<const MemberFigures> members,
                                                   std::span<const double> weights, bool worst);

class EnsembleProblem final : public Problem {
 public:
  /// The members' plans (the same trainable parameters, in the same order), their normalised
  /// weights, and whether the objective is the worst member (else the weighted mean). Every
  /// member is built here, once. Under several ranks with at least as many members as ranks,
  /// rank r builds and evaluates members r, r + R, ... whole (members first), and every
  /// evaluation shares the members' figures; else every member is sharded over the ranks by its
  /// initial states. Collective over `comm`.
  EnsembleProblem(std::vector<GradientPlan> plans, std::vector<double> weights, bool worst, int threads,
                  comm::Communicator& comm, comm::Communicator& reduce);
  ~EnsembleProblem() override;

  [[nodiscard]] const std::vector<ParameterInfo>& parameters() const override;
  [[nodiscard]] std::vector<std::string> names() const override;
  [[nodiscard]] RVector values() const override;
  void set_values(const RVector& values) override;
  /// Every member evaluated; the result's fidelity, infidelity and leakage are the
  /// combination's figures, `objective` and `gradient` its value and gradient; no columns or
  /// unitary; the truncation check the largest over the members; phase times summed (this
  /// rank's members).
  [[nodiscard]] Evaluation evaluate(bool with_gradient, const PipelineHooks& hooks) override;
  using Problem::evaluate;
  /// Each member's estimate of its last evaluation; mean: sum_k w_k e_k, worst: the worst
  /// member's (order and coarse steps of this rank's first member, seconds summed).
  [[nodiscard]] StepError estimate_step_error(const Evaluation& fine,
                                              const std::function<void(double)>& progress = {}) override;
  [[nodiscard]] RVector warm_angles() const override;  ///< every member's warm angles, in member order
  void set_warm_angles(const RVector& angles) override;
  [[nodiscard]] Index warm_angle_count() const override;
  void set_leakage_weight(double w) override;
  void set_steps(int steps) override;
  /// A member's simulator (this rank's first): the shared pulses, the current steps.
  [[nodiscard]] const solver::Simulator& simulator() const override;

  [[nodiscard]] std::size_t size() const { return members_.size(); }
  [[nodiscard]] const std::vector<double>& weights() const { return weights_; }
  [[nodiscard]] bool worst() const { return worst_; }
  [[nodiscard]] bool by_member() const { return by_member_; }
  /// Every member's figures of the last evaluate() (all ranks).
  [[nodiscard]] const std::vector<MemberFigures>& member_figures() const { return figures_; }
  /// Every member's step-error estimate of the last estimate_step_error() (empty before).
  [[nodiscard]] const std::vector<double>& member_step_errors() const { return errors_; }
  /// Every member's unitary of the last evaluate() (rank 0; collective).
  [[nodiscard]] std::vector<CMatrix> member_unitaries();
  /// Member builds over all ranks (once each, in the constructor).
  [[nodiscard]] long builds() const { return builds_; }

 private:
  [[nodiscard]] const GradientProblem& first() const;
  [[nodiscard]] bool local(std::size_t k) const { return members_[k] != nullptr; }
  std::vector<std::unique_ptr<GradientProblem>> members_;  ///< nullptr: another rank's member
  std::vector<double> weights_;
  bool worst_ = false, by_member_ = false;
  comm::Communicator* comm_ = nullptr;
  std::unique_ptr<comm::Communicator> serial_;  ///< each member's own, members first
  std::vector<Evaluation> last_;      ///< this rank's members' last evaluations (empty elsewhere)
  std::vector<MemberFigures> figures_;
  std::vector<double> errors_;
  std::size_t worst_member_ = 0;  ///< of the last evaluate() (combine_ensemble)
  Index angles_per_member_ = 0;
  long builds_ = 0;
};

}  // namespace qevolve::gradient
