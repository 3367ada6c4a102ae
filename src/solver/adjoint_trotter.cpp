// Adjoint pass of the Trotter path. Chunk-major like the forward pass (block_evolution.cpp):
// for each chunk of steps, walked backwards, the gate matrices are recomputed once (threads
// over steps) and the backend's adjoint executor (backend::AdjointExecutor) steps every column
// block back through the chunk with the fused sequence
//   psi <- g^dag psi,  env += psi lambda^dag (gate-local),  lambda <- g^dag lambda
// per gate; the environment only of gates with something to contract. The per-(step, gate)
// environments of all blocks are then contracted (GateContraction, gate_contraction.cpp).

#include <algorithm>
#include <cmath>
#include <vector>

#include "adjoint.hpp"
#include "bond_list.hpp"
#include "device_select.hpp"
#include "split_gate.hpp"
#include "qevolve/backend/backend.hpp"
#include "qevolve/backend/parallel.hpp"
#include "qevolve/backend/local_gate.hpp"
#include "qevolve/linalg.hpp"

namespace qevolve::solver {
void adjoint_blocks(const BlockEvolution& job, const TermList& terms, CMatrix& psi,
                    CMatrix& lambda, const std::vector<HamiltonianTangent>& tangents,
                    const SubstepCotangent& on_step, std::vector<double>& tangent_sums) {
  const device::Device& dev = *job.device;
  const TrotterGates& gates = *job.gates;
  const Index D = dev.dim();
  const Index n = psi.cols();
  if (n == 0 || job.steps == 0) return;
  const int threads = std::max(1, job.threads);
  const int num_gates = gates.num_gates();
  const auto num_channels = gates.drives().size();
  const GateContraction contraction(gates, terms, tangents);
  GateContraction::Accumulators total = contraction.make_accumulators();
  std::vector<bool> environment(static_cast<std::size_t>(num_gates));
  for (int k = 0; k < num_gates; ++k) environment[static_cast<std::size_t>(k)] = contraction.needs_environment(k);
  // Chunks of steps, as in the forward pass (independent of the number of steps).
  const std::size_t per_step = gates.step_size();
  const int chunk = step_chunk(per_step * sizeof(double), job.steps);
  const auto executor = make_adjoint_executor(job.compute_device, gate_schedule(job), std::move(environment), n,
                                              block_width(job, n), threads, chunk);

  std::vector<double> adj_gates(per_step * static_cast<std::size_t>(chunk));
  std::vector<double> env(per_step * static_cast<std::size_t>(chunk));
  std::vector<std::vector<double>> coeffs(static_cast<std::size_t>(chunk));
  std::vector<std::vector<double>> dcs(static_cast<std::size_t>(chunk),
                                       std::vector<double>(num_channels, 0.0));
  double step_flops = 0.0;
  for (int k = 0; k < num_gates; ++k) step_flops += 24.0 * static_cast<double>(D * n) * gates.size(k);

  const int num_chunks = (job.steps + chunk - 1) / chunk;
  if (backend::worth_threads(threads, step_flops * std::min(chunk, job.steps))) linalg::park_blas_workers();
  executor->upload(psi, lambda);
  for (int ci = num_chunks - 1; ci >= 0; --ci) {
    const int s0 = ci * chunk;
    const int s1 = std::min(job.steps, s0 + chunk);
    const bool parallel = backend::worth_threads(threads, step_flops * (s1 - s0));
    std::fill(env.begin(), env.end(), 0.0);
    // The chunk's gates g^dag (threads over steps), the executor's sweep, the contraction.
    backend::run_team(threads, parallel, [&](backend::Team& team) {
      team.for_static(s0, s1, [&](Index si) {
        const auto s = static_cast<int>(si);
        auto& c = coeffs[static_cast<std::size_t>(s - s0)];
        job.coefficients(s, c);
        double* dst = adj_gates.data() + per_step * static_cast<std::size_t>(s - s0);
        gates.compute(c, dst);
        for (int k = 0; k < num_gates; ++k) split_adjoint_in_place(dst + gates.offset(k), gates.size(k));
      });
    });
    executor->apply(adj_gates.data(), s0, s1, env.data());
    backend::run_team(threads, parallel, [&](backend::Team& team) {
      GateContraction::Accumulators acc = contraction.make_accumulators();
      team.for_static(s0, s1, [&](Index si) {
        const auto at = static_cast<std::size_t>(si - s0);
        std::fill(dcs[at].begin(), dcs[at].end(), 0.0);
        contraction.contract_step(coeffs[at], env.data() + per_step * at, dcs[at], acc);
      });
      team.in_order([&] { GateContraction::add(total, acc); });  // the same bits every run
    });
    if (on_step)
      for (int s = s1 - 1; s >= s0; --s)
        on_step(s, dcs[static_cast<std::size_t>(s - s0)]);
  }
  executor->download(psi, lambda);

  contraction.finish(total, tangent_sums);
}

}  // namespace qevolve::solver
