// Adjoint pass of the Trotter path. Chunk-major like the forward pass (block_evolution.cpp):
// for each chunk of steps, walked backwards, the gate matrices are recomputed once and every
// column block is stepped back through the chunk by one thread with the fused sequence
//   psi <- g^dag psi,  env += psi lambda^dag (gate-local),  lambda <- g^dag lambda
// per gate, in one sweep over both blocks (backend::adjoint_gate); the environment only of gates
// with something to contract. The per-(step, gate) environments of all blocks are then added
// and contracted (GateContraction, gate_contraction.cpp).

#include <algorithm>
#include <cmath>
#include <vector>

#include "adjoint.hpp"
#include "bond_list.hpp"
#include "split_gate.hpp"
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
  const BlockLayout layout = make_block_layout(job, n);
  const Index width = layout.width, num_blocks = layout.num_blocks;
  const int num_gates = gates.num_gates();
  const auto num_channels = gates.drives().size();
  const GateContraction contraction(gates, terms, tangents);
  GateContraction::Accumulators total = contraction.make_accumulators();

  // Chunks of steps, as in the forward pass (independent of the number of steps).
  const std::size_t per_step = gates.step_size();
  const int chunk = step_chunk(per_step * sizeof(double), job.steps);
  std::vector<double> adj_gates(per_step * static_cast<std::size_t>(chunk));
  std::vector<double> env(per_step * static_cast<std::size_t>(chunk));
  std::vector<std::vector<double>> coeffs(static_cast<std::size_t>(chunk));
  std::vector<std::vector<double>> dcs(static_cast<std::size_t>(chunk),
                                       std::vector<double>(num_channels, 0.0));
  double step_flops = 0.0;
  for (int k = 0; k < num_gates; ++k) step_flops += 24.0 * static_cast<double>(D * n) * gates.size(k);

  const int num_chunks = (job.steps + chunk - 1) / chunk;
  if (backend::worth_threads(threads, step_flops * std::min(chunk, job.steps))) linalg::park_blas_workers();
  for (int ci = num_chunks - 1; ci >= 0; --ci) {
    const int s0 = ci * chunk;
    const int s1 = std::min(job.steps, s0 + chunk);
    const bool parallel = backend::worth_threads(threads, step_flops * (s1 - s0));
    std::fill(env.begin(), env.end(), 0.0);
    backend::run_team(threads, parallel, [&](backend::Team& team) {
      team.for_static(s0, s1, [&](Index si) {
        const auto s = static_cast<int>(si);
        auto& c = coeffs[static_cast<std::size_t>(s - s0)];
        job.coefficients(s, c);
        double* dst = adj_gates.data() + per_step * static_cast<std::size_t>(s - s0);
        gates.compute(c, dst);
        // In place: g -> g^dag (split re/im, row-major).
        for (int k = 0; k < num_gates; ++k) {
          const int g = gates.size(k);
          double* re = dst + gates.offset(k);
          double* im = re + g * g;
          for (int i = 0; i < g; ++i) {
            im[i * g + i] = -im[i * g + i];
            for (int j = i + 1; j < g; ++j) {
              std::swap(re[i * g + j], re[j * g + i]);
              const double a = im[i * g + j], b = im[j * g + i];
              im[i * g + j] = -b;
              im[j * g + i] = -a;
            }
          }
        }
      });
      std::vector<double> local_env(env.size(), 0.0);
      AdjointPlanes planes(static_cast<std::size_t>(D * width));
      double* pr = planes.plane(0);
      double* pi = planes.plane(1);
      double* lr = planes.plane(2);
      double* li = planes.plane(3);
      team.for_dynamic(0, num_blocks, [&](Index b) {
        const Index c0 = layout.first_column(b), w = layout.columns(b);
        const auto& geo = layout.geometry(b);
        load_block(psi, c0, w, pr, pi);
        load_block(lambda, c0, w, lr, li);
        for (int s = s1 - 1; s >= s0; --s) {
          const std::size_t base = per_step * static_cast<std::size_t>(s - s0);
          for (int k = num_gates - 1; k >= 0; --k) {
            const double* gd = adj_gates.data() + base + gates.offset(k);
            double* e = contraction.needs_environment(k) ? local_env.data() + base + gates.offset(k) : nullptr;
            backend::adjoint_gate(pr, pi, lr, li, geo[static_cast<std::size_t>(k)], gd, gd, e);
          }
        }
        store_block(psi, c0, w, pr, pi);
        store_block(lambda, c0, w, lr, li);
      });
      team.critical([&] {
        for (std::size_t i = 0; i < env.size(); ++i) env[i] += local_env[i];
      });
      team.barrier();
      GateContraction::Accumulators acc = contraction.make_accumulators();
      team.for_static(s0, s1, [&](Index si) {
        const auto at = static_cast<std::size_t>(si - s0);
        std::fill(dcs[at].begin(), dcs[at].end(), 0.0);
        contraction.contract_step(coeffs[at], env.data() + per_step * at, dcs[at], acc);
      });
      team.critical([&] { GateContraction::add(total, acc); });
    });
    if (on_step)
      for (int s = s1 - 1; s >= s0; --s)
        on_step(s, dcs[static_cast<std::size_t>(s - s0)]);
  }

  contraction.finish(total, tangent_sums);
}

}  // namespace qevolve::solver
