// The adjoint (reverse) pass of the closed-system solvers (docs/gradients.md "Method"): exact reverse
// stepping of psi and of the cotangent lambda, with the parameter cotangents accumulated step
// by step. Internal to the solver layer; Simulator::adjoint is the public entry point.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "block_evolution.hpp"
#include "lindblad.hpp"
#include "qevolve/simulator.hpp"
#include "trotter_gates.hpp"

namespace qevolve::solver {

/// Receives, for every gate step u (descending), d(objective)/dctilde_j of its coefficients.
using SubstepCotangent = std::function<void(int u, const std::vector<double>& dc)>;

/// The parameter side of the Trotter adjoint, for one TrotterGates: contracts the gate
/// environments of a step (env(b, a) = sum psi_b conj(lambda_a) per gate, split re/im at
/// gates.offset(k)) with the gates' derivatives, i.e. adds 2 Re Tr(dG/dtheta env) to
/// d(objective)/dc_j of the step (drive segments) and to the device tangents (static, drive and
/// bond segments, Daleckii-Krein). Shared by the closed and the open (Lindblad) adjoint.
class GateContraction {
 public:
  struct Prepared;
  /// Per-thread sums (tangents, and static-segment environments summed over steps).
  struct Accumulators {
    std::vector<double> tangents;
    std::vector<std::vector<CMatrix>> static_env;
  };
  GateContraction(const TrotterGates& gates, const TermList& terms,
                  const std::vector<HamiltonianTangent>& tangents);
  [[nodiscard]] Accumulators make_accumulators() const;
  /// Adds the step's contributions: dc[j] += d(objective)/dc_j, tangents into acc.
  void contract_step(const std::vector<double>& c, const double* env, std::vector<double>& dc,
                     Accumulators& acc) const;
  static void add(Accumulators& total, const Accumulators& part);
  /// Whether contract_step reads gate k's environment (a gate of static factors only has
  /// nothing to contract unless device tangents are wanted); the adjoint pass skips the others.
  [[nodiscard]] bool needs_environment(int k) const { return needs_env_[static_cast<std::size_t>(k)] != 0; }
  /// tangent_sums[t] += the total contribution of tangent t (static segments contracted here).
  void finish(const Accumulators& total, std::vector<double>& tangent_sums) const;

 private:
  const TrotterGates* gates_;
  const TermList* terms_;
  const std::vector<HamiltonianTangent>* tangents_;
  std::shared_ptr<Prepared> prep_;
  bool want_static_ = false;
  std::vector<char> needs_env_;
};

/// Trotter path. psi (D x n) holds psi_N on entry and the reconstructed psi_0 on exit; lambda
/// holds lambda_N on entry and lambda_0 on exit. tangent_sums[t] += the contribution of
/// tangents[t]. on_step (may be empty) receives d(objective)/dc_j for every gate step,
/// descending.
void adjoint_blocks(const BlockEvolution& job, const TermList& terms, CMatrix& psi,
                    CMatrix& lambda, const std::vector<HamiltonianTangent>& tangents,
                    const SubstepCotangent& on_step, std::vector<double>& tangent_sums);

/// Open systems, trotter path (adjoint_lindblad.cpp): x0 the initial vectorised states,
/// lambda = lambda_N on entry and lambda_0 on exit; checkpoints every `interval` steps (0:
/// ceil(sqrt(steps))). tangent_sums and noise_sums receive the device / noise contributions.
void adjoint_density(const DensityEvolution& job, const TermList& terms, const CMatrix& x0,
                     CMatrix& lambda, const std::vector<HamiltonianTangent>& tangents,
                     const std::vector<DissipatorTangent>& noise_tangents,
                     const SubstepCotangent& on_step, std::vector<double>& tangent_sums,
                     std::vector<double>& noise_sums, int interval);

struct DenseAdjointJob {
  /// Dense H of gate step u for the coefficients c of that step, D x D.
  std::function<CMatrix(const std::vector<double>&)> hamiltonian;
  const std::vector<CMatrix>* channel_ops = nullptr;  ///< dense O_j, D x D, per channel
  std::function<void(int, std::vector<double>&)> coefficients;  ///< of gate step u
  int steps = 0;    ///< gate steps
  double dt = 0.0;  ///< length of one gate step
  ComputeDevice compute_device = ComputeDevice::cpu;  ///< whose dense adjoint executor steps back
};

/// Takes one gate step back given its coefficients c: carries psi and lambda back in place and
/// returns the contraction E -> 2 Re <lambda_{u+1}| dG_u[E] |psi_u> for a dense D x D
/// direction E of H.
using DenseContraction = std::function<double(const CMatrix&)>;
using StepBack = std::function<DenseContraction(const std::vector<double>& c, CMatrix& psi, CMatrix& lambda)>;

/// A scheme whose step takes itself back (splitting: chebyshev), for adjoint_steps.
struct StepsAdjointJob {
  StepBack step_back;
  const std::vector<CMatrix>* channel_ops = nullptr;  ///< dense O_j, D x D, per channel
  std::function<void(int, std::vector<double>&)> coefficients;  ///< of gate step u
  int steps = 0;  ///< gate steps
};

/// The device tangents as dense D x D directions: dH0 (static terms) and dO_j (channel
/// operators) embedded, per tangent; direction(t, c) = dH0 + sum_j c_j dO_j of a step with
/// coefficients c (empty when tangent t does not enter it).
struct DenseTangents {
  Index dim = 0;
  std::vector<CMatrix> dH0;
  std::vector<std::vector<CMatrix>> dO;
  [[nodiscard]] CMatrix direction(std::size_t t, const std::vector<double>& c) const;
};
[[nodiscard]] DenseTangents dense_tangents(const device::Device& device, const std::vector<DriveChannel>& channels,
                                           const std::vector<HamiltonianTangent>& tangents);

/// Dense path (one exponential exp(-i 2 pi dt H_u) per gate step: expm, trotter / magnus4 with
/// splitting: dense), through eigen-decompositions; same contract.
void adjoint_dense(const DenseAdjointJob& job, const device::Device& device,
                   const std::vector<DriveChannel>& channels, CMatrix& psi, CMatrix& lambda,
                   const std::vector<HamiltonianTangent>& tangents, const SubstepCotangent& on_step,
                   std::vector<double>& tangent_sums);

/// The same loop for a scheme whose step takes itself back (job.step_back: splitting:
/// chebyshev, adjoint_steps.cpp).
void adjoint_steps(const StepsAdjointJob& job, const device::Device& device,
                   const std::vector<DriveChannel>& channels, CMatrix& psi, CMatrix& lambda,
                   const std::vector<HamiltonianTangent>& tangents, const SubstepCotangent& on_step,
                   std::vector<double>& tangent_sums);

}  // namespace qevolve::solver
