#include "qevolve/simulator.hpp"
#include "qevolve/checkpoints.hpp"
#include "qevolve/scheme_traits.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "adaptive.hpp"
#include "bond_list.hpp"
#include "block_evolution.hpp"
#include "lindblad.hpp"
#include "qevolve/backend/parallel.hpp"
#include "qevolve/linalg.hpp"
#include "adjoint.hpp"
#include "time_grid.hpp"
#include "scheme.hpp"
#include "trotter_gates.hpp"

namespace qevolve::solver {

int resolve_threads(int threads) { return threads > 0 ? threads : backend::hardware_threads(); }

struct Simulator::Cache {
  SharedCache shared;             // what every scheme reads (scheme.hpp)
  std::unique_ptr<Scheme> scheme;  // the solver's scheme: its factors, forward and adjoint
};


Simulator::Simulator(EvolutionPlan plan, int threads)
    : device_(std::move(plan.device)),
      options_(std::move(plan.options)),
      dressed_(std::move(plan.dressed)),
      drive_(device_, std::move(plan.drive), options_.duration, options_.steps, options_.solver == Solver::magnus4),
      states_(device_, dressed_, options_, std::move(plan.initial)),
      cache_(std::make_unique<Cache>()) {
  options_.threads = resolve_threads(threads);

  // Static cache: drive eigensystems (one per channel), the term and bond lists, the
  // dissipators; then the scheme builds its own factors.
  SharedCache& shared = cache_->shared;
  for (const auto& ch : drive_.channels()) {
    const CMatrix& O = *device_.modes()[static_cast<std::size_t>(ch.mode)].op(ch.op);
    DriveEigen de;
    de.mode = ch.mode;
    linalg::hermitian_eigen(O, de.lambda, de.V);
    de.op = O;
    shared.drives.push_back(std::move(de));
    ++shared.eigendecompositions;
  }
  shared.terms = make_term_list(device_, shared.drives);
  if (options_.splitting == Splitting::bonds) shared.bonds = make_bond_list(device_, shared.drives);
  if (options_.open) {
    noise_ = std::move(plan.noise);
    collapse_ = std::move(plan.collapse);
    DissipatorSet set = make_dissipators(noise_, collapse_, device_);
    shared.dissipators = std::move(set.dissipators);
    noise_dissipator_ = std::move(set.noise_index);
    ++shared.dissipator_builds;
  }
  cache_->scheme = make_scheme(*this, shared);
  set_steps(options_.steps);
}

bool Simulator::set_drive(Drive drive, double duration) {
  if (!same_channels(drive.channels, drive_.channels()) || duration != options_.duration) return false;
  drive_.set_drive(std::move(drive));
  return true;
}

void Simulator::replace_pulses(std::vector<pulse::Pulse> pulses, std::vector<pulse::Line> lines) {
  drive_.replace_pulses(std::move(pulses), std::move(lines));
}

void Simulator::track_derivatives(std::vector<std::vector<pulse::ParamRef>> params,
                                  std::vector<std::vector<pulse::LineParam>> line_params) {
  drive_.track_derivatives(std::move(params), std::move(line_params));
}

Simulator::~Simulator() = default;

void Simulator::set_steps(int steps) {
  options_.steps = steps;
  drive_.set_steps(steps);
  cache_->scheme->set_steps(*this, cache_->shared);
}

void Simulator::set_tolerances(double rtol, double atol) {
  options_.rtol = rtol;
  options_.atol = atol;
}

int time_order(const Options& options) {
  return scheme_traits(options.solver, options.splitting).time_order(options.order);
}

void Simulator::set_noise(const std::vector<NoiseSpec>& noise) {
  if (!options_.open) throw std::invalid_argument("Simulator::set_noise: a closed system");
  if (noise.size() != noise_.size()) throw std::invalid_argument("Simulator::set_noise: different noise entries");
  for (std::size_t e = 0; e < noise.size(); ++e) {
    const NoiseSpec& n = noise[e];
    if (n.qubit != noise_[e].qubit || n.t1.has_value() != noise_[e].t1.has_value() ||
        n.tphi.has_value() != noise_[e].tphi.has_value())
      throw std::invalid_argument("Simulator::set_noise: entry " + std::to_string(e) + " changes its qubit or rates");
    if ((n.t1 && !(*n.t1 > 0.0)) || (n.tphi && !(*n.tphi > 0.0)))
      throw std::invalid_argument("Simulator::set_noise: rates must be positive");
  }
  cache_->shared.dissipators = make_dissipators(noise, collapse_, device_).dissipators;
  cache_->scheme->set_dissipators(*this, cache_->shared);
  noise_ = noise;
  ++cache_->shared.dissipator_builds;
}

CacheStats Simulator::stats() const {
  const SharedCache& c = cache_->shared;
  return {c.static_builds.load(), c.eigendecompositions.load(), c.dense_builds.load(), c.evaluations.load(),
          c.dissipator_builds.load()};
}

std::vector<int> trace_steps(const Options& options) {
  const TraceSpec& t = options.trace;
  const int steps = options.steps;
  std::vector<int> out;
  if (t.every > 0) {
    for (int s = 0; s < steps; s += t.every) out.push_back(s);
    out.push_back(steps);
  }
  for (double x : t.times) out.push_back(static_cast<int>(std::clamp<long long>(std::llround(x / options.dt()), 0, steps)));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

StepWork Simulator::work() const {
  return {cache_->scheme->gates_per_step(*this), cache_->scheme->flops_per_column_step(*this)};
}

CMatrix dense_hamiltonian(const Simulator& sim, double t) {
  std::vector<double> c;
  sim.drive_.drive_coefficients(t, c);
  return sim.cache_->scheme->dense_hamiltonian(sim, c);
}

CMatrix Simulator::evolve_product(const CMatrix& psi0, const Progress& progress,
                                  const StepObserver& observe) const {
  ++cache_->shared.evaluations;
  CMatrix state = psi0;
  // The flux gauge (src/solver/flux_gauge.cpp): the scheme evolves the moving-gauge state.
  to_gauge(state, 0.0, true);
  cache_->scheme->evolve(*this, cache_->shared, state, progress, observe ? lab_gauge_observer(observe) : observe);
  to_gauge(state, options_.duration, false);
  if (!state.allFinite()) throw NumericalError("evolution produced NaN or inf");
  return state;
}

EvolveResult Simulator::evolve(const comm::Shard& shard, const Progress& progress,
                              const StepObserver& observe) const {
  if (options_.open) throw std::logic_error("Simulator::evolve: an open system evolves with evolve_channel()");
  const CMatrix psi0 = states_.initial_columns(shard.count < 0 ? states_.all_initial() : shard);
  EvolveResult result;
  result.columns = evolve_product(psi0, progress, observe);
  if (drive_.gauge_turned(0.0) || drive_.gauge_turned(options_.duration)) {  // the scheme's own gauge
    CMatrix moving0 = psi0, movingN = result.columns;
    to_gauge(moving0, 0.0, true);
    to_gauge(movingN, options_.duration, true);
    result.single_precision_deviation =
        cache_->scheme->single_precision_deviation(*this, cache_->shared, moving0, movingN);
  } else {
    result.single_precision_deviation =
        cache_->scheme->single_precision_deviation(*this, cache_->shared, psi0, result.columns);
  }
  result.columns = states_.to_output(result.columns);
  return result;
}

AdjointResult Simulator::adjoint(const CMatrix& psiN, const CMatrix& lambdaN,
                                 const std::vector<HamiltonianTangent>& tangents,
                                 const StepCotangent& on_step) const {
  AdjointResult r;
  r.psi0 = psiN;
  r.lambda0 = lambdaN;
  r.tangents.assign(tangents.size(), 0.0);
  const TimeGrid grid = drive_.time_grid();
  // Gate-step cotangents -> per-sample cotangents d(objective)/dc_j(t) (time_grid.hpp): for
  // magnus4 both substeps of a step are collected, then the two Gauss samples are reported.
  std::vector<double> later, sample;
  SubstepCotangent per_substep;
  if (on_step) {
    per_substep = [&](int u, const std::vector<double>& dc) {
      if (!grid.magnus) {
        on_step(u, grid.sample_time(u, 0), dc);
        return;
      }
      if (u % 2 == 1) {  // the second substep of its step comes first in reverse
        later = dc;
        return;
      }
      const int s = grid.substep_step(u);
      sample.resize(dc.size());
      for (int i = 1; i >= 0; --i) {
        for (std::size_t j = 0; j < dc.size(); ++j)
          sample[j] = grid.weight(u, i) * dc[j] + grid.weight(u + 1, i) * later[j];
        on_step(s, grid.sample_time(s, i), sample);
      }
    };
  }
  // The scheme steps back in the moving gauge; the turns at the ends have cotangents of their own.
  const std::vector<double> end_T =
      gauge_end_cotangents(r.psi0, r.lambda0, options_.duration, false, tangents, r.tangents);
  to_gauge(r.psi0, options_.duration, true);
  to_gauge(r.lambda0, options_.duration, true);
  cache_->scheme->adjoint(*this, cache_->shared, r.psi0, r.lambda0, tangents, per_substep, r.tangents);
  const std::vector<double> end_0 = gauge_end_cotangents(r.psi0, r.lambda0, 0.0, false, tangents, r.tangents);
  to_gauge(r.psi0, 0.0, false);
  to_gauge(r.lambda0, 0.0, false);
  report_gauge_ends(end_T, end_0, on_step);
  return r;
}

CMatrix Simulator::evolve_density(const CMatrix& vecs0, const Progress& progress,
                                  const StepObserver& observe) const {
  if (!options_.open) throw std::logic_error("Simulator::evolve_density: a closed system (no noise)");
  ++cache_->shared.evaluations;
  CMatrix vecs = vecs0;
  to_gauge_density(vecs, 0.0, true);
  cache_->scheme->evolve_density(*this, cache_->shared, vecs, progress, observe ? lab_gauge_observer(observe) : observe);
  to_gauge_density(vecs, options_.duration, false);
  if (!vecs.allFinite()) throw NumericalError("evolution produced NaN or inf");
  return vecs;
}

ChannelResult Simulator::evolve_channel(const comm::Shard& shard, const Progress& progress) const {
  ChannelResult r;
  const CMatrix vecs0 = states_.initial_density(shard.count < 0 ? states_.all_inputs() : shard);
  r.superoperator = states_.channel_from(evolve_density(vecs0, progress));
  return r;
}

OpenAdjointResult Simulator::adjoint_density(const CMatrix& vecs0, const CMatrix& lambdaN,
                                              const std::vector<HamiltonianTangent>& tangents,
                                              const std::vector<DissipatorTangent>& noise,
                                              const StepCotangent& on_step, int checkpoint_interval) const {
  if (!options_.open) throw std::logic_error("Simulator::adjoint_density: a closed system (no noise)");
  OpenAdjointResult r;
  r.tangents.assign(tangents.size(), 0.0);
  r.noise.assign(noise.size(), 0.0);
  r.lambda0 = lambdaN;
  const TimeGrid grid = drive_.time_grid();
  SubstepCotangent per_step;
  if (on_step) per_step = [&](int s, const std::vector<double>& dc) { on_step(s, grid.sample_time(s, 0), dc); };
  const int K = checkpoint_interval > 0 ? checkpoint_interval : solver::checkpoint_interval(options_.steps);
  // The moving gauge: vecs0 -> G0 vecs0 G0^dag; the cotangent of a unitary map's output maps
  // forward with it (lambda -> G lambda G^dag) and back with its inverse. The turn at T needs
  // the final states, not at hand here: evolved once more where that turn can move at all.
  std::vector<double> end_T;
  if (gauge_end_sensitive(options_.duration))
    end_T = gauge_end_cotangents(evolve_density(vecs0), r.lambda0, options_.duration, true, tangents, r.tangents);
  CMatrix moving0 = vecs0;
  to_gauge_density(moving0, 0.0, true);
  to_gauge_density(r.lambda0, options_.duration, true);
  cache_->scheme->adjoint_density(*this, cache_->shared, moving0, r.lambda0, tangents, noise, per_step, r.tangents,
                                  r.noise, K);
  report_gauge_ends(end_T, gauge_end_cotangents(moving0, r.lambda0, 0.0, true, tangents, r.tangents), on_step);
  to_gauge_density(r.lambda0, 0.0, false);
  r.checkpoint_interval = K;
  r.stored_states = sizes::checkpointed_states(options_.steps, K);
  return r;
}

DissipatorTangent Simulator::dissipator_rate_tangent(int entry, bool t1) const {
  const auto& noise = noise_;
  if (entry < 0 || entry >= static_cast<int>(noise.size())) throw std::out_of_range("dissipator_rate_tangent");
  const NoiseSpec& n = noise[static_cast<std::size_t>(entry)];
  const int d = device_.dims()[static_cast<std::size_t>(device_.find(n.qubit))];
  // generator = rate * lindblad_generator(c0): d/dT1 of 1/T1 is -1/T1^2, d/dTphi of 2/Tphi is
  // -2/Tphi^2.
  DissipatorTangent out;
  out.dissipator = noise_dissipator_[static_cast<std::size_t>(entry)];
  if (t1 && n.t1) out.generator = -(1.0 / (*n.t1 * *n.t1)) * lindblad_generator(t1_operator(d));
  if (!t1 && n.tphi) out.generator = -(2.0 / (*n.tphi * *n.tphi)) * lindblad_generator(tphi_operator(d));
  return out;
}

}  // namespace qevolve::solver
