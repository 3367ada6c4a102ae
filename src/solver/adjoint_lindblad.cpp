// Checkpointed adjoint of the open-system Trotter path (docs/gradients.md "Open systems: the checkpointed adjoint"). Dissipative steps
// cannot be reversed stably over many steps, so the forward pass keeps the state every K steps
// (K = ceil(sqrt(steps)) by default); going backwards, each segment of K steps is recomputed
// from its checkpoint (its K step-start states kept), and every step is walked back from its
// own end state — unitary factors by their adjoints, dissipators by exp(-L frac dt), which
// over one step amplifies nothing noticeable — while the cotangent lambda goes back through
// the adjoint of every factor (the recomputation on the gate executor, DensitySteps in
// lindblad.hpp; the backward sweep on the open adjoint executor, backend.hpp
// OpenAdjointExecutor). Memory: (steps / K + K + 2) states of D^2 x columns, i.e.
// O(sqrt(steps)), against `steps` states for storing every one.
//
// Parameter side: a unitary gate G appears as G on the row digits and conj(G) on the column
// digits, so 2 Re <lambda| dG_row + conj(dG)_col |x> = 2 Re Tr(dG (E_row + conj(E_col))) and the
// closed contraction (GateContraction) does the rest. A dissipator exponential's derivative is
// the Frechet derivative of exp(L frac dt) in the direction dL frac dt (block-triangular
// exponential), contracted with its environment summed over all steps (it does not change).

#include <algorithm>
#include <cmath>
#include <vector>

#include "adjoint.hpp"
#include "density_plan.hpp"
#include "device_select.hpp"
#include "split_gate.hpp"
#include "qevolve/backend/parallel.hpp"
#include "qevolve/linalg.hpp"

namespace qevolve::solver {
namespace {

/// d/de exp(A + e E) at e = 0 (A, E square): the upper right block of exp([[A, E], [0, A]]).
CMatrix expm_frechet(const CMatrix& A, const CMatrix& E) {
  const Index g = A.rows();
  CMatrix big = CMatrix::Zero(2 * g, 2 * g);
  big.topLeftCorner(g, g) = A;
  big.topRightCorner(g, g) = E;
  big.bottomRightCorner(g, g) = A;
  return linalg::expm(big).topRightCorner(g, g);
}

/// Where each application's data lives: a unitary application has its adjoint and its
/// environment per step (split g x g, offsets within a step's block); a dissipator its
/// environment summed over all steps, and its step-independent adjoint.
struct AppLayout {
  std::vector<std::size_t> adj_off, env_off, diss_off;
  std::size_t adj_per_step = 0, env_per_step = 0, diss_total = 0;
  std::vector<std::vector<double>> diss_adj;

  explicit AppLayout(const DensityPlan& plan) {
    const auto& apps = plan.apps();
    const std::size_t num_apps = apps.size();
    adj_off.assign(num_apps, 0);
    env_off.assign(num_apps, 0);
    diss_off.assign(num_apps, 0);
    diss_adj.resize(num_apps);
    for (std::size_t i = 0; i < num_apps; ++i) {
      const int g = plan.size(apps[i]);
      const auto gg2 = static_cast<std::size_t>(2 * g * g);
      if (apps[i].kind == DensityApp::Kind::dissipator) {
        diss_off[i] = diss_total;
        diss_total += gg2;
        diss_adj[i].resize(gg2);
        split_adjoint(plan.matrix(apps[i], nullptr), g, diss_adj[i].data());
      } else {
        adj_off[i] = adj_per_step;
        adj_per_step += gg2;
        env_off[i] = env_per_step;
        env_per_step += gg2;
      }
    }
  }

  /// The step as the open adjoint executor takes it: every application of the plan's schedule,
  /// a unitary one at its adjoint's (and environment's) offset in a step, a dissipator fixed,
  /// its inverse and adjoint at its environment's offset.
  [[nodiscard]] backend::OpenAdjointSchedule schedule(const DensityPlan& plan) const {
    backend::OpenAdjointSchedule s;
    s.gates = plan.schedule();
    s.gates.step_size = adj_per_step;
    s.fixed.assign(s.gates.gates.size(), false);
    s.fixed_inverse.assign(diss_total, 0.0);
    s.fixed_adjoint.assign(diss_total, 0.0);
    const auto& apps = plan.apps();
    for (std::size_t i = 0; i < apps.size(); ++i) {
      if (apps[i].kind != DensityApp::Kind::dissipator) {
        s.gates.gates[i].offset = adj_off[i];
        continue;
      }
      s.fixed[i] = true;
      s.gates.gates[i].offset = diss_off[i];
      const auto gg2 = diss_adj[i].size();
      std::copy(plan.dissipator_inverse(apps[i]), plan.dissipator_inverse(apps[i]) + gg2, s.fixed_inverse.begin() + static_cast<std::ptrdiff_t>(diss_off[i]));
      std::copy(diss_adj[i].begin(), diss_adj[i].end(), s.fixed_adjoint.begin() + static_cast<std::ptrdiff_t>(diss_off[i]));
    }
    return s;
  }
};

/// The checkpoints x_0, x_K, x_2K, ... of a forward pass from x0.
std::vector<CMatrix> forward_checkpoints(const DensityEvolution& job, DensitySteps& steps, const CMatrix& x0, int K) {
  std::vector<CMatrix> checkpoints;
  CMatrix x = x0;
  for (int s = 0; s < job.steps; s += K) {
    checkpoints.push_back(x);
    steps.run(x, s, std::min(job.steps, s + K), nullptr);
  }
  return checkpoints;
}

/// Parameter side of steps sa..sb-1 (descending, as on_step expects): each unitary set's
/// environments (row digits plus conj of column digits) contracted with its gate derivatives.
struct SegmentContraction {
  const DensityEvolution& job;
  const DensityPlan& plan;
  const AppLayout& layout;
  std::vector<GateContraction>& contraction;
  std::vector<GateContraction::Accumulators>& totals;

  void operator()(int sa, int sb, const std::vector<std::vector<double>>& coeffs,
                  const std::vector<double>& env, const SubstepCotangent& on_step,
                  std::vector<double>& dc, std::vector<double>& set_env) const {
    const auto& apps = plan.apps();
    for (int s = sb - 1; s >= sa; --s) {
      const auto at = static_cast<std::size_t>(s - sa);
      std::fill(dc.begin(), dc.end(), 0.0);
      for (std::size_t u = 0; u < job.unitary.size(); ++u) {
        const TrotterGates& gates = *job.unitary[u];
        set_env.assign(gates.step_size(), 0.0);
        for (std::size_t i = 0; i < apps.size(); ++i) {
          const DensityApp& a = apps[i];
          if (a.kind == DensityApp::Kind::dissipator || a.set != static_cast<int>(u)) continue;
          const int g = gates.size(a.gate);
          const int gg = g * g;
          const double* e = env.data() + layout.env_per_step * at + layout.env_off[i];
          double* out = set_env.data() + gates.offset(a.gate);
          const double sign = a.kind == DensityApp::Kind::column ? -1.0 : 1.0;  // conj(E_col)
          for (int k = 0; k < gg; ++k) {
            out[k] += e[k];
            out[gg + k] += sign * e[gg + k];
          }
        }
        contraction[u].contract_step(coeffs[at], set_env.data(), dc, totals[u]);
      }
      if (on_step) on_step(s, dc);
    }
  }
};

/// Noise parameters: 2 Re Tr(dE env) per dissipator application, dE the Frechet derivative of
/// its exponential, env its environment summed over all steps.
void add_noise_gradient(const DensityEvolution& job, const DensityPlan& plan,
                        const AppLayout& layout, const std::vector<double>& diss_env,
                        const std::vector<DissipatorTangent>& noise_tangents,
                        std::vector<double>& noise_sums) {
  const auto& apps = plan.apps();
  for (std::size_t t = 0; t < noise_tangents.size(); ++t) {
    const DissipatorTangent& nt = noise_tangents[t];
    const CMatrix& G = (*job.dissipators)[static_cast<std::size_t>(nt.dissipator)].generator;
    for (std::size_t i = 0; i < apps.size(); ++i) {
      const DensityApp& a = apps[i];
      if (a.kind != DensityApp::Kind::dissipator || a.gate != nt.dissipator) continue;
      const double tau = plan.fracs()[static_cast<std::size_t>(a.frac_index)] * job.dt;
      const CMatrix dE = expm_frechet(G * tau, nt.generator * tau);
      const CMatrix E = from_split(diss_env.data() + layout.diss_off[i], static_cast<int>(G.rows()));
      noise_sums[t] += 2.0 * dE.cwiseProduct(E.transpose()).sum().real();
    }
  }
}

}  // namespace

void adjoint_density(const DensityEvolution& job, const TermList& terms, const CMatrix& x0,
                     CMatrix& lambda, const std::vector<HamiltonianTangent>& tangents,
                     const std::vector<DissipatorTangent>& noise_tangents,
                     const SubstepCotangent& on_step, std::vector<double>& tangent_sums,
                     std::vector<double>& noise_sums, int interval) {
  const device::Device& dev = *job.device;
  const Index D2 = dev.dim() * dev.dim();
  const Index n = x0.cols();
  if (n == 0 || job.steps == 0) return;
  const int threads = std::max(1, job.threads);
  const DensityPlan plan(job, n);
  const auto& apps = plan.apps();
  const std::size_t num_apps = apps.size();
  const int K = interval > 0 ? interval : checkpoint_interval(job.steps);
  DensitySteps recompute(job, plan, n, std::min(K, job.steps));  // the gate executor, built once
  const std::vector<CMatrix> checkpoints = forward_checkpoints(job, recompute, x0, K);
  const AppLayout layout(plan);
  const std::size_t adj_per_step = layout.adj_per_step, env_per_step = layout.env_per_step;
  std::vector<double> diss_env(layout.diss_total, 0.0);

  std::vector<GateContraction> contraction;
  std::vector<GateContraction::Accumulators> totals;
  for (const TrotterGates* gates : job.unitary) {
    contraction.emplace_back(*gates, terms, tangents);
    totals.push_back(contraction.back().make_accumulators());
  }
  const SegmentContraction contract_segment{job, plan, layout, contraction, totals};
  const auto num_channels = job.unitary.empty() ? std::size_t{0} : job.unitary[0]->drives().size();

  const std::size_t per_step = plan.per_step();
  std::vector<double> step_data(per_step * static_cast<std::size_t>(K));
  std::vector<double> adj_data(adj_per_step * static_cast<std::size_t>(K));
  std::vector<double> env(env_per_step * static_cast<std::size_t>(K));
  std::vector<std::vector<double>> coeffs(static_cast<std::size_t>(K));
  std::vector<double> dc(num_channels), set_env;
  // Work of one step's reverse sweep: the state undone and the cotangent carried (two gates).
  const double step_flops = 2.0 * plan.step_flops(D2 * lambda.cols());
  if (backend::worth_threads(threads, step_flops * std::min(K, job.steps), plan.num_blocks()))
    linalg::park_blas_workers();
  // The backward sweep on the backend's open adjoint executor; lambda stays uploaded throughout.
  const auto executor =
      make_open_adjoint_executor(job.compute_device, layout.schedule(plan), lambda.cols(), plan.width(), threads);
  executor->upload(lambda);
  std::vector<const CMatrix*> after;
  std::vector<CMatrix> starts;  // a segment's step starts (the buffers reused)
  for (int c = static_cast<int>(checkpoints.size()) - 1; c >= 0; --c) {
    const int sa = c * K, sb = std::min(job.steps, sa + K);
    CMatrix x = checkpoints[static_cast<std::size_t>(c)];
    recompute.run(x, sa, sb, &starts);  // x = x_sb
    for (int s = sa; s < sb; ++s) {
      const auto at = static_cast<std::size_t>(s - sa);
      job.coefficients(s, coeffs[at]);
      double* step = step_data.data() + per_step * at;
      plan.compute_step(coeffs[at], step);
      for (std::size_t i = 0; i < num_apps; ++i)
        if (apps[i].kind != DensityApp::Kind::dissipator)
          split_adjoint(plan.matrix(apps[i], step), plan.size(apps[i]), adj_data.data() + adj_per_step * at + layout.adj_off[i]);
    }
    after.clear();  // the state after step s: the next step's start, x after the last
    for (int s = sa; s < sb; ++s) after.push_back(s == sb - 1 ? &x : &starts[static_cast<std::size_t>(s - sa) + 1]);
    std::fill(env.begin(), env.end(), 0.0);
    executor->apply(after, adj_data.data(), sa, sb, env.data(), diss_env.data());
    contract_segment(sa, sb, coeffs, env, on_step, dc, set_env);
  }
  executor->download(lambda);
  for (std::size_t u = 0; u < contraction.size(); ++u) contraction[u].finish(totals[u], tangent_sums);
  add_noise_gradient(job, plan, layout, diss_env, noise_tangents, noise_sums);
}

}  // namespace qevolve::solver
