// GradientProblem: the trainable parameters of a config, the cached simulator, and
// d(1 - F)/d(theta) by the adjoint method (docs/gradients.md).
//
// An evaluation is the pipeline of src/gradient/pipeline.cpp (forward, gather, the objective and
// the cotangent of the final columns from the fidelity layer) plus the adjoint passes below:
//   closed: lambda_N = (Phi W^dag)^dag cotangent (StateMap::output_adjoint), carried back by
//           Simulator::adjoint; device parameters add the basis and frame terms;
//   open:   the cotangent of the channel block, carried to the final states by
//           StateMap::channel_adjoint and back by the checkpointed Simulator::adjoint_density.
#include "qevolve/gradient.hpp"
#include "qevolve/gradient_plan.hpp"
#include "qevolve/step_error.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "device_gradient.hpp"
#include "qevolve/device.hpp"
#include "qevolve/device_derivative.hpp"
#include "qevolve/error.hpp"
#include "qevolve/pulse.hpp"
#include "qevolve/simulator.hpp"

namespace qevolve::gradient {
namespace {

using Param = Trainable;
using Kind = Trainable::Kind;

/// Builds the device; with `bases`, every mode is diagonalised in the internal basis of the
/// first build, so the discretisation does not jump as device parameters change (the
/// automatic basis rules depend on them) and finite differences see a smooth function.
device::Device build_from(const device::ResolvedDevice& r,
                          const std::vector<device::InternalBasis>& bases) {
  std::vector<device::Mode> modes;
  modes.reserve(r.modes.size());
  for (std::size_t q = 0; q < r.modes.size(); ++q)
    modes.push_back(bases.empty() ? device::diagonalise(r.modes[q])
                                  : device::diagonalise_on(r.modes[q], bases[q]));
  return {std::move(modes), r.couplings};
}

}  // namespace

struct GradientProblem::Impl {
  int threads = 0;
  comm::Communicator* comm = nullptr;    // the gather, shard and broadcasts (host: MPI)
  comm::Communicator* reduce = nullptr;  // the fidelity and gradient reductions (NCCL on GPUs)
  device::ResolvedDevice resolved;
  std::unique_ptr<solver::Simulator> sim;
  std::vector<device::DeviceParam> device_params;
  std::vector<Param> params;
  std::vector<ParameterInfo> info;
  RVector values;
  std::vector<NoiseSpec> rates;        // evolution.noise with the current rates (open systems)
  std::vector<CollapseSpec> collapse;  // evolution.collapse (for rebuilds)
  Compensation compensation = Compensation::none;
  bool angles_trainable = false;
  fidelity::ObjectiveSpec objective;  // target, compensation, computational rows
  std::vector<device::InternalBasis> bases;  // of the first build
  std::optional<RVector> warm;
  /// Per pulse: its trainable refs and their slots in the parameter vector (fixed at build).
  std::vector<std::vector<pulse::ParamRef>> pulse_refs;
  std::vector<std::vector<Index>> pulse_slots;
  /// Per pulse: the trainable parameters of its line and their slots.
  std::vector<std::vector<pulse::LineParam>> line_refs;
  std::vector<std::vector<Index>> line_slots;
  /// Device-parameter derivatives of the current device: they depend on the device only, so
  /// they are computed on the first gradient after a (re)build, not at every evaluation.
  std::vector<DeviceTerms> device_terms;
  std::vector<solver::HamiltonianTangent> tangents;
  bool device_terms_valid = false;

  /// The simulator on the device of `resolved` (modes on the first build's internal bases),
  /// with the current drive, options and noise.
  void rebuild_simulator() {
    solver::EvolutionPlan plan;
    plan.device = build_from(resolved, bases);
    if (sim->dressed()) plan.dressed = device::dress(plan.device);
    plan.options = sim->options();
    plan.drive.pulses = sim->drive().pulses();
    plan.drive.channels = sim->drive().channels();
    plan.drive.lines = sim->drive().lines();
    for (std::size_t p = 0; p < sim->drive().pulses().size(); ++p) plan.drive.pulse_line.push_back(sim->drive().pulse_line(p));
    plan.initial = sim->states().initial_indices();
    plan.noise = rates;
    plan.collapse = collapse;
    sim = std::make_unique<solver::Simulator>(std::move(plan), threads);
    sim->track_derivatives(pulse_refs, line_refs);
    device_terms_valid = false;
  }

  /// The adjoint's per-step drive cotangents d(1 - F)/dc_j(t), turned into the pulse
  /// parameters' gradient entries (chain rule through each pulse's parameter derivatives).
  solver::StepCotangent pulse_accumulator(RVector& gradient) {
    // A tunable transmon's flux channels also read f_p at the edges of the sample's step (the
    // moving flux gauge, docs/models.md "Flux pulses"): their slopes go to lo and hi.
    return [this, &gradient, g = std::vector<double>(), lo = std::vector<double>(), hi = std::vector<double>(),
            df = std::vector<double>()](int, double t, const std::vector<double>& dc) mutable {
      g.assign(pulse_refs.size(), 0.0);  // d(1 - F)/d f_p(t)
      lo.assign(pulse_refs.size(), 0.0);
      hi.assign(pulse_refs.size(), 0.0);
      for (std::size_t j = 0; j < dc.size(); ++j)
        if (dc[j] != 0.0) {
          sim->drive().add_channel_slopes(j, t, dc[j], g);
          sim->drive().add_channel_edge_slopes(j, t, dc[j], lo, hi);
        }
      const auto [t_lo, t_hi] = sim->drive().step_edges(t);
      const auto chain = [&](std::size_t p, double at, double weight) {
        if (weight == 0.0) return;
        for (std::size_t r = 0; r < line_refs[p].size(); ++r)
          gradient(line_slots[p][r]) += weight * sim->drive().line_derivative(p, line_refs[p][r], at);
        if (pulse_refs[p].empty()) return;
        df.resize(pulse_refs[p].size());
        sim->drive().pulse_derivatives(p, at, pulse_refs[p], df);
        for (std::size_t r = 0; r < pulse_refs[p].size(); ++r) gradient(pulse_slots[p][r]) += weight * df[r];
      };
      for (std::size_t p = 0; p < pulse_refs.size(); ++p) {
        chain(p, t, g[p]);
        chain(p, t_lo, lo[p]);
        chain(p, t_hi, hi[p]);
      }
    };
  }

  /// Device parameters that a flux pulse's law reads (docs/gradients.md "Flux pulses"): the
  /// coefficient c_j of a nonlinear or EL-scaled channel depends on them at fixed f_p(t), so
  /// d(1 - F)/dtheta gets sum over samples of dc_j * dc_j/dtheta, added to `gradient` at the
  /// parameter's slot. Chained after `inner`; `inner` itself when no channel has such a law.
  solver::StepCotangent law_accumulator(RVector& gradient, solver::StepCotangent inner) {
    std::vector<std::pair<Index, std::size_t>> pairs;  // (slot, channel)
    for_each(Kind::device, [&](Index i, const Param& q) {
      const device::DeviceParam& dp = device_params[static_cast<std::size_t>(q.device)];
      if (dp.kind != device::DeviceParam::Kind::mode) return;
      for (std::size_t j = 0; j < sim->drive().channels().size(); ++j)
        if (sim->drive().channels()[j].mode == dp.index && sim->drive().channels()[j].law != device::DriveLaw::linear)
          pairs.emplace_back(i, j);
    });
    if (pairs.empty()) return inner;
    return [this, &gradient, pairs = std::move(pairs), inner = std::move(inner)](int s, double t, const std::vector<double>& dc) {
      inner(s, t, dc);
      for (const auto& [slot, j] : pairs) {
        if (dc[j] == 0.0) continue;
        const auto& dp = device_params[static_cast<std::size_t>(params[static_cast<std::size_t>(slot)].device)];
        gradient(slot) += dc[j] * sim->drive().channel_partial(j, t, dp.key);
      }
    };
  }

  /// Calls f(slot, parameter) for every parameter of `kind`, in parameter order.
  template <typename F>
  void for_each(Kind kind, F&& f) const {
    for (std::size_t i = 0; i < params.size(); ++i)
      if (params[i].kind == kind) f(static_cast<Index>(i), params[i]);
  }

  /// The gradient pass of GradientProblem::evaluate (closed and open systems).
  RVector adjoint_gradient(const Forward& fw, const fidelity::ObjectiveEvaluation& obj);

  void update_device_terms() {
    if (device_terms_valid) return;
    device_terms.clear();
    tangents.clear();
    for (const auto& dp : device_params) {
      device_terms.push_back(device_terms_for(*sim, dp));
      tangents.push_back(device_terms.back().tangent);
    }
    device_terms_valid = true;
  }

  /// The parameters' current values (compensation angles start at 0).
  void read_initial_values() {
    values.resize(static_cast<Index>(params.size()));
    for (std::size_t i = 0; i < params.size(); ++i) {
      const Param& q = params[i];
      double v = 0.0;
      if (q.kind == Kind::pulse) v = sim->drive().pulses()[static_cast<std::size_t>(q.pulse)].get(q.ref);
      if (q.kind == Kind::line) v = sim->drive().lines()[static_cast<std::size_t>(q.line)].get(q.lref);
      if (q.kind == Kind::device) v = device::get_param(sim->device(), device_params[static_cast<std::size_t>(q.device)]);
      if (q.kind == Kind::noise) {
        const NoiseSpec& n = rates[static_cast<std::size_t>(q.noise)];
        v = q.t1 ? *n.t1 : *n.tphi;
      }
      values(static_cast<Index>(i)) = v;
    }
  }
};

GradientProblem::GradientProblem(GradientPlan plan, int threads, comm::Communicator& comm)
    : GradientProblem(std::move(plan), threads, comm, comm) {}

GradientProblem::GradientProblem(GradientPlan plan, int threads, comm::Communicator& comm,
                                 comm::Communicator& reduce)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.threads = threads;
  m.comm = &comm;
  m.reduce = &reduce;
  m.resolved = std::move(plan.resolved);
  m.device_params = std::move(plan.device_params);
  m.params = std::move(plan.params);
  m.info = std::move(plan.info);
  m.objective = std::move(plan.objective);
  m.compensation = m.objective.compensation;
  m.angles_trainable = plan.angles_trainable;
  m.rates = plan.evolution.noise;
  m.collapse = plan.evolution.collapse;
  precondition(!m.params.empty() && m.params.size() == m.info.size(), "GradientProblem", "pulses", "nothing trainable");
  m.sim = std::make_unique<solver::Simulator>(std::move(plan.evolution), threads);
  for (const auto& mode : m.sim->device().modes()) m.bases.push_back(mode.basis);
  m.pulse_refs.resize(m.sim->drive().pulses().size());
  m.pulse_slots.resize(m.sim->drive().pulses().size());
  m.for_each(Kind::pulse, [&m](Index i, const Param& q) {
    m.pulse_refs[static_cast<std::size_t>(q.pulse)].push_back(q.ref);
    m.pulse_slots[static_cast<std::size_t>(q.pulse)].push_back(i);
  });
  m.line_refs.resize(m.sim->drive().pulses().size());
  m.line_slots.resize(m.sim->drive().pulses().size());
  m.for_each(Kind::line, [&m](Index i, const Param& q) {
    for (std::size_t p = 0; p < m.sim->drive().pulses().size(); ++p)
      if (m.sim->drive().pulse_line(p) == q.line) {
        m.line_refs[p].push_back(q.lref);
        m.line_slots[p].push_back(i);
      }
  });
  m.sim->track_derivatives(m.pulse_refs, m.line_refs);
  m.read_initial_values();
}

GradientProblem::~GradientProblem() = default;

const std::vector<ParameterInfo>& GradientProblem::parameters() const { return impl_->info; }

std::vector<std::string> GradientProblem::names() const {
  std::vector<std::string> out;
  for (const auto& p : impl_->info) out.push_back(p.name);
  return out;
}

RVector GradientProblem::values() const { return impl_->values; }
RVector GradientProblem::warm_angles() const { return impl_->warm ? *impl_->warm : RVector(); }
Index GradientProblem::warm_angle_count() const {
  const Impl& m = *impl_;
  if (m.compensation == Compensation::none || m.angles_trainable) return 0;
  return fidelity::compensation_angle_count(m.compensation, static_cast<int>(m.sim->device().qubit_modes().size()));
}
void GradientProblem::set_warm_angles(const RVector& angles) {
  if (angles.size() == 0)
    impl_->warm.reset();
  else
    impl_->warm = angles;
}
const solver::Simulator& GradientProblem::simulator() const { return *impl_->sim; }

void GradientProblem::set_values(const RVector& values) {
  Impl& m = *impl_;
  if (values.size() != m.values.size())
    throw std::invalid_argument("GradientProblem::set_values: wrong number of values");
  for (Index i = 0; i < values.size(); ++i)
    if (!std::isfinite(values(i)))
      throw NumericalError("parameter " + m.info[static_cast<std::size_t>(i)].name + " is not finite");
  // Pulses: on a copy, so that a value outside a shape's domain changes nothing.
  std::vector<pulse::Pulse> pulses = m.sim->drive().pulses();
  std::vector<pulse::Line> lines = m.sim->drive().lines();
  device::ResolvedDevice resolved = m.resolved;
  bool device_changed = false, noise_changed = false;
  for (std::size_t i = 0; i < m.params.size(); ++i) {
    const Param& q = m.params[i];
    const double v = values(static_cast<Index>(i));
    if (q.kind == Kind::pulse) {
      auto& pulse = pulses[static_cast<std::size_t>(q.pulse)];
      if (pulse.get(q.ref) != v) pulse.set(q.ref, v);
    } else if (q.kind == Kind::line) {
      auto& line = lines[static_cast<std::size_t>(q.line)];
      if (line.get(q.lref) != v) line.set(q.lref, v);
    } else if (q.kind == Kind::device && v != m.values(static_cast<Index>(i))) {
      device::set_param(resolved, m.device_params[static_cast<std::size_t>(q.device)], v);
      device_changed = true;
    } else if (q.kind == Kind::noise && v != m.values(static_cast<Index>(i))) {
      if (!(v > 0.0))
        throw NumericalError(m.info[i].name + " must stay positive, got " + std::to_string(v));
      noise_changed = true;
    }
  }
  m.sim->drive().check_lines(pulses, lines);
  const double T = m.sim->options().duration;
  for (const auto& p : pulses)
    if (p.end() > T * (1.0 + 1e-12))
      throw NumericalError(p.path() + " would end at " + std::to_string(p.end()) +
                           " ns, after the evolution's fixed duration " + std::to_string(T) + " ns");
  if (noise_changed)
    m.for_each(Kind::noise, [&m, &values](Index i, const Param& q) {
      NoiseSpec& n = m.rates[static_cast<std::size_t>(q.noise)];
      (q.t1 ? n.t1 : n.tphi) = values(i);
    });
  if (noise_changed && !device_changed) m.sim->set_noise(m.rates);
  if (device_changed) {
    std::swap(m.resolved, resolved);
    try {
      m.rebuild_simulator();
    } catch (...) {
      std::swap(m.resolved, resolved);
      throw;
    }
  }
  m.sim->replace_pulses(std::move(pulses), std::move(lines));
  m.values = values;
}

Evaluation GradientProblem::evaluate(bool with_gradient) { return evaluate(with_gradient, {}); }

void GradientProblem::set_leakage_weight(double w) { impl_->objective.leakage_weight = w; }

void GradientProblem::set_steps(int steps) { impl_->sim->set_steps(steps); }

Evaluation GradientProblem::evaluate(bool with_gradient, const PipelineHooks& hooks) {
  Impl& m = *impl_;
  fidelity::ObjectiveSpec& spec = m.objective;
  spec.cotangent = with_gradient;
  spec.angles.reset();
  spec.options.initial_angles.reset();
  if (m.angles_trainable)
    spec.angles = m.values.tail(fidelity::compensation_angle_count(
        m.compensation, static_cast<int>(m.sim->device().qubit_modes().size())));
  else if (m.warm && m.warm->size() > 0)
    spec.options.initial_angles = *m.warm;
  GradientPass pass;
  if (with_gradient)
    pass = [&m](const Forward& fw, const fidelity::ObjectiveEvaluation& obj) { return m.adjoint_gradient(fw, obj); };
  Evaluation ev = gradient::evaluate(*m.sim, spec, *m.comm, *m.reduce, hooks, pass);
  if (m.compensation != Compensation::none && !m.angles_trainable) m.warm = ev.fidelity->angles;
  return ev;
}

StepError GradientProblem::estimate_step_error(const Evaluation& fine, const std::function<void(double)>& progress) {
  Impl& m = *impl_;
  fidelity::ObjectiveSpec spec = m.objective;  // at the angles evaluate() used
  spec.cotangent = false;
  return gradient::estimate_step_error(*m.sim, std::move(spec), fine, *m.comm, *m.reduce, progress);
}

RVector GradientProblem::Impl::adjoint_gradient(const Forward& fw, const fidelity::ObjectiveEvaluation& obj) {
  // Per-rank cotangent sums (pulse parameters through the per-step drive cotangents, device
  // parameters through the Hamiltonian tangents, closed: plus the basis/frame terms, open: the
  // T1 / Tphi tangents), reduced once. The cotangent of the final columns goes back through the
  // output map (closed) or the channel map (open) first.
  sim->drive().update_line_derivatives();  // the tracked derivatives through lines, once per evaluation
  const bool open = sim->options().open;
  const CMatrix lambdaN = open ? sim->states().channel_adjoint(obj.cotangent) : sim->states().output_adjoint(obj.cotangent);
  RVector local = RVector::Zero(values.size());
  RVector law = RVector::Zero(values.size());  // device parameters through flux-pulse laws
  const solver::StepCotangent on_step = law_accumulator(law, pulse_accumulator(local));
  update_device_terms();
  if (open) {
    std::vector<solver::DissipatorTangent> noise;
    std::vector<Index> noise_slot;
    for_each(Kind::noise, [&](Index i, const Param& q) {
      noise.push_back(sim->dissipator_rate_tangent(q.noise, q.t1));
      noise_slot.push_back(i);
    });
    const solver::OpenAdjointResult adj = sim->adjoint_density(fw.initial, lambdaN, tangents, noise, on_step);
    for_each(Kind::device, [&](Index i, const Param& q) { local(i) = adj.tangents[static_cast<std::size_t>(q.device)]; });
    for (std::size_t k = 0; k < noise.size(); ++k) local(noise_slot[k]) = adj.noise[k];
  } else {
    const solver::AdjointResult adj = sim->adjoint(fw.product, lambdaN, tangents, on_step);
    for_each(Kind::device, [&](Index i, const Param& q) {
      const auto k = static_cast<std::size_t>(q.device);
      local(i) = adj.tangents[k] +
                 basis_and_frame_term(*sim, device_terms[k], fw.product, adj.lambda0, obj.cotangent, fw.shard.first);
    });
  }
  local += law;
  reduce->allreduce_sum(local);
  for_each(Kind::angle, [&](Index i, const Param& q) { local(i) = obj.angle_gradient(q.angle); });  // closed only
  return local;
}

}  // namespace qevolve::gradient
