// The adjoint (reverse) pass of the closed-system solvers (algorithms.md §6): exact reverse
// stepping of psi and of the cotangent lambda, with the parameter cotangents accumulated step
// by step. Internal to the solver layer; Simulator::adjoint is the public entry point.
#pragma once

#include <functional>
#include <vector>

#include "block_evolution.hpp"
#include "qevolve/simulator.hpp"
#include "trotter_gates.hpp"

namespace qevolve::solver {

/// Trotter path. psi (D x n) holds psi_N on entry and the reconstructed psi_0 on exit; lambda
/// holds lambda_N on entry and lambda_0 on exit. tangent_sums[t] += the contribution of
/// tangents[t]. on_step (may be empty) receives d(objective)/dc_j for every step, descending.
void adjoint_blocks(const BlockEvolution& job, const TermList& terms, CMatrix& psi,
                    CMatrix& lambda, const std::vector<HamiltonianTangent>& tangents,
                    const StepCotangent& on_step, std::vector<double>& tangent_sums);

struct DenseAdjointJob {
  std::function<CMatrix(double)> hamiltonian;  ///< dense H(t), D x D
  const std::vector<CMatrix>* channel_ops = nullptr;  ///< dense O_j, D x D, per channel
  std::function<void(double, std::vector<double>&)> coefficients;
  int steps = 0;
  double dt = 0.0;
};

/// expm path (one dense exponential per step, exp(-i 2 pi dt H(t_mid))); same contract.
void adjoint_dense(const DenseAdjointJob& job, const device::Device& device,
                   const std::vector<DriveChannel>& channels, CMatrix& psi, CMatrix& lambda,
                   const std::vector<HamiltonianTangent>& tangents, const StepCotangent& on_step,
                   std::vector<double>& tangent_sums);

}  // namespace qevolve::solver
