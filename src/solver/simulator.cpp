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

namespace {

/// A shard must lie inside the n items it is cut from.
void check_shard(const comm::Shard& shard, Index n) {
  if (shard.first < 0 || shard.count < 0 || shard.first + shard.count > n)
    throw std::invalid_argument("Simulator: shard [" + std::to_string(shard.first) + ", " +
                                std::to_string(shard.first + shard.count) + ") outside the " + std::to_string(n) +
                                " initial states or inputs");
}

}  // namespace

Simulator::Simulator(EvolutionPlan plan, int threads)
    : device_(std::move(plan.device)),
      options_(std::move(plan.options)),
      pulses_(std::move(plan.drive.pulses)),
      lines_(std::move(plan.drive.lines)),
      pulse_line_(std::move(plan.drive.pulse_line)),
      channels_(std::move(plan.drive.channels)),
      dressed_(std::move(plan.dressed)),
      initial_(std::move(plan.initial)),
      cache_(std::make_unique<Cache>()) {
  options_.threads = resolve_threads(threads);
  precondition(options_.duration > 0.0, "Simulator", "evolution.duration", "an evolution of zero length");
  precondition(pulse_line_.size() == pulses_.size(), "Simulator", "pulses", "a line index per pulse");
  update_lines();

  // Static cache: drive eigensystems (one per channel), the term and bond lists, the
  // dissipators; then the scheme builds its own factors.
  SharedCache& shared = cache_->shared;
  for (const auto& ch : channels_) {
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
  if (!same_channels(drive.channels, channels_) || duration != options_.duration) return false;
  precondition(drive.pulse_line.size() == drive.pulses.size(), "Simulator", "pulses", "a line index per pulse");
  pulses_ = std::move(drive.pulses);
  lines_ = std::move(drive.lines);
  pulse_line_ = std::move(drive.pulse_line);
  update_lines();
  return true;
}

Simulator::~Simulator() = default;

void Simulator::set_steps(int steps) {
  options_.steps = steps;
  cache_->scheme->set_steps(*this, cache_->shared);
}

void Simulator::set_tolerances(double rtol, double atol) {
  options_.rtol = rtol;
  options_.atol = atol;
}

int Simulator::time_order() const {
  return scheme_traits(options_.solver, options_.splitting).time_order(options_.order);
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

TimeGrid Simulator::time_grid() const {
  return {options_.steps, dt(), options_.solver == Solver::magnus4};
}

std::function<void(int, std::vector<double>&)> Simulator::substep_coefficients() const {
  const TimeGrid grid = time_grid();
  if (!grid.magnus)
    return [this, grid](int u, std::vector<double>& c) { drive_coefficients(grid.sample_time(u, 0), c); };
  return [this, grid](int u, std::vector<double>& c) {
    thread_local std::vector<double> second;
    const int s = grid.substep_step(u);
    drive_coefficients(grid.sample_time(s, 0), c);
    drive_coefficients(grid.sample_time(s, 1), second);
    const double w0 = grid.weight(u, 0), w1 = grid.weight(u, 1);
    for (std::size_t j = 0; j < c.size(); ++j) c[j] = w0 * c[j] + w1 * second[j];
  };
}

std::vector<int> Simulator::trace_steps() const {
  const TraceSpec& t = options_.trace;
  const int steps = options_.steps;
  std::vector<int> out;
  if (t.every > 0) {
    for (int s = 0; s < steps; s += t.every) out.push_back(s);
    out.push_back(steps);
  }
  for (double x : t.times) out.push_back(static_cast<int>(std::clamp<long long>(std::llround(x / dt()), 0, steps)));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

PulseSamples Simulator::pulse_samples() const {
  const TimeGrid grid = time_grid();
  PulseSamples out;
  for (int s = 0; s < grid.steps; ++s)
    for (int i = 0; i < grid.samples_per_step(); ++i) out.time.push_back(grid.sample_time(s, i));
  const bool lines = std::any_of(pulse_line_.begin(), pulse_line_.end(), [](int l) { return l >= 0; });
  for (std::size_t p = 0; p < pulses_.size(); ++p) {
    std::vector<double>& v = out.values.emplace_back();
    v.reserve(out.time.size());
    for (double t : out.time) v.push_back(pulse_value(p, t));
    if (lines) {
      std::vector<double>& ideal = out.ideal.emplace_back();
      for (double t : out.time) ideal.push_back(pulses_[p].value(t));
    }
    out.names.push_back(pulses_[p].path());
  }
  return out;
}

int Simulator::gates_per_step() const { return cache_->scheme->gates_per_step(*this); }

double Simulator::flops_per_column_step() const { return cache_->scheme->flops_per_column_step(*this); }

std::vector<std::string> Simulator::initial_labels() const {
  std::vector<std::string> out;
  out.reserve(initial_.size());
  for (Index i : initial_) out.push_back(device_.label(i));
  return out;
}

bool Simulator::initial_states_are_computational() const {
  return initial_ == device_.computational_indices();
}

void Simulator::drive_coefficients(double t, std::vector<double>& out) const {
  out.resize(channels_.size());
  for (std::size_t j = 0; j < channels_.size(); ++j) {
    const DriveChannel& ch = channels_[j];
    out[j] = ch.law == device::DriveLaw::linear
                 ? pulse_value(static_cast<std::size_t>(ch.pulse), t) * ch.factor
                 : device::law_value(ch.law, device_.modes()[static_cast<std::size_t>(ch.mode)].params,
                                     flux_sample(ch, t));
  }
}

std::pair<double, double> Simulator::step_edges(double t) const {
  const double h = dt();
  const double s = std::clamp(std::floor(t / h), 0.0, static_cast<double>(options_.steps - 1));
  // The last step ends at T exactly: steps * (T / steps) can round past T (1700 * (55 / 1700) =
  // 55 + 7e-15), where a pulse or a line that ends at T reads 0, and the gauge the step moves to
  // would then differ from the turn back at flux_offset(ch, T) (a 1e-4 error in 1 - F).
  return {s * h, s + 1.0 >= options_.steps ? options_.duration : (s + 1.0) * h};
}

device::FluxSample Simulator::flux_sample(const DriveChannel& ch, double t) const {
  const double x = flux_offset(ch, t);
  if (ch.law != device::DriveLaw::squid_cos && ch.law != device::DriveLaw::squid_sin &&
      ch.law != device::DriveLaw::squid_n)
    return device::steady(x);
  const auto [lo, hi] = step_edges(t);
  const double w = (t - lo) / (hi - lo);
  if (!gauge_moves(ch)) return {x, 0.0, 0.0, w, hi - lo};  // the static gauge
  return {x, flux_offset(ch, lo), flux_offset(ch, hi), w, hi - lo};
}

double Simulator::flux_offset(const DriveChannel& ch, double t) const {
  double x = 0.0;
  for (const auto& [p, factor] : ch.sources) x += factor * pulse_value(static_cast<std::size_t>(p), t);
  return x;
}

void Simulator::add_channel_slopes(std::size_t j, double t, double weight, std::vector<double>& per_pulse) const {
  const DriveChannel& ch = channels_[j];
  if (ch.law == device::DriveLaw::linear) {
    per_pulse[static_cast<std::size_t>(ch.pulse)] += weight * ch.factor;
    return;
  }
  const device::ModeParams& params = device_.modes()[static_cast<std::size_t>(ch.mode)].params;
  const double slope = gauge_end(ch, t) ? device::gauge_slope(params, flux_offset(ch, t))
                                        : device::law_slopes(ch.law, params, flux_sample(ch, t)).x;
  for (const auto& [p, factor] : ch.sources) per_pulse[static_cast<std::size_t>(p)] += weight * slope * factor;
}

void Simulator::add_channel_edge_slopes(std::size_t j, double t, double weight, std::vector<double>& lo,
                                        std::vector<double>& hi) const {
  const DriveChannel& ch = channels_[j];
  if (ch.law == device::DriveLaw::linear || ch.law == device::DriveLaw::inductive || !gauge_moves(ch) ||
      gauge_end(ch, t))
    return;
  const device::LawSlopes d =
      device::law_slopes(ch.law, device_.modes()[static_cast<std::size_t>(ch.mode)].params, flux_sample(ch, t));
  for (const auto& [p, factor] : ch.sources) {
    lo[static_cast<std::size_t>(p)] += weight * d.lo * factor;
    hi[static_cast<std::size_t>(p)] += weight * d.hi * factor;
  }
}

double Simulator::channel_partial(std::size_t j, double t, std::string_view key) const {
  const DriveChannel& ch = channels_[j];
  if (ch.law == device::DriveLaw::linear) return 0.0;
  const device::ModeParams& params = device_.modes()[static_cast<std::size_t>(ch.mode)].params;
  if (gauge_end(ch, t)) return device::gauge_partial(params, flux_offset(ch, t), key);
  return device::law_partial(ch.law, params, flux_sample(ch, t), key);
}

CMatrix Simulator::dense_hamiltonian(double t) const {
  std::vector<double> c;
  drive_coefficients(t, c);
  return dense_hamiltonian_for(c);
}

CMatrix Simulator::dense_hamiltonian_for(const std::vector<double>& c) const {
  return cache_->scheme->dense_hamiltonian(*this, c);
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

comm::Shard Simulator::all_initial() const { return {0, static_cast<Index>(initial_.size())}; }

comm::Shard Simulator::all_inputs() const {
  const auto n = static_cast<Index>(initial_.size());
  return {0, n * n};
}

CMatrix Simulator::initial_columns() const { return initial_columns(all_initial()); }

CMatrix Simulator::initial_columns(const comm::Shard& shard) const {
  const Index D = device_.dim();
  check_shard(shard, static_cast<Index>(initial_.size()));
  CMatrix psi0 = CMatrix::Zero(D, shard.count);
  for (Index c = 0; c < shard.count; ++c) {
    const Index i = initial_[static_cast<std::size_t>(shard.first + c)];
    if (options_.basis == Basis::dressed)
      psi0.col(c) = dressed_->transform.col(i);
    else
      psi0(i, c) = 1.0;
  }
  return psi0;
}

EvolveResult Simulator::evolve(const Progress& progress) const { return evolve(all_initial(), progress); }

EvolveResult Simulator::evolve(const comm::Shard& shard, const Progress& progress,
                              const StepObserver& observe) const {
  if (options_.open) throw std::logic_error("Simulator::evolve: an open system evolves with evolve_channel()");
  const CMatrix psi0 = initial_columns(shard);
  EvolveResult result;
  result.columns = evolve_product(psi0, progress, observe);
  if (gauge_turned(0.0) || gauge_turned(options_.duration)) {  // the scheme's own gauge
    CMatrix moving0 = psi0, movingN = result.columns;
    to_gauge(moving0, 0.0, true);
    to_gauge(movingN, options_.duration, true);
    result.single_precision_deviation =
        cache_->scheme->single_precision_deviation(*this, cache_->shared, moving0, movingN);
  } else {
    result.single_precision_deviation =
        cache_->scheme->single_precision_deviation(*this, cache_->shared, psi0, result.columns);
  }
  result.columns = to_output(result.columns);
  return result;
}

AdjointResult Simulator::adjoint(const CMatrix& psiN, const CMatrix& lambdaN,
                                 const std::vector<HamiltonianTangent>& tangents,
                                 const StepCotangent& on_step) const {
  AdjointResult r;
  r.psi0 = psiN;
  r.lambda0 = lambdaN;
  r.tangents.assign(tangents.size(), 0.0);
  const TimeGrid grid = time_grid();
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

CMatrix Simulator::initial_density() const { return initial_density(all_inputs()); }

CMatrix Simulator::initial_density(const comm::Shard& shard) const {
  const Index D = device_.dim();
  const CMatrix v = initial_columns();
  const Index n = v.cols();
  check_shard(shard, n * n);
  CMatrix vecs(D * D, shard.count);
  for (Index k = 0; k < shard.count; ++k) {
    const Index i = (shard.first + k) % n, j = (shard.first + k) / n;  // input i + n j
    const CMatrix rho = v.col(i) * v.col(j).adjoint();
    vecs.col(k) = Eigen::Map<const CVector>(rho.data(), D * D);  // column stacking
  }
  return vecs;
}

CMatrix Simulator::channel_from(const CMatrix& vecs) const {
  const Index D = device_.dim();
  const auto n = static_cast<Index>(initial_.size());
  CMatrix S(n * n, vecs.cols());
  for (Index k = 0; k < vecs.cols(); ++k) {
    const Eigen::Map<const CMatrix> rho(vecs.col(k).data(), D, D);
    // T rho T^dag with T the output map (dressed transform, rotating-frame phases).
    const CMatrix left = to_output(rho);
    const CMatrix out = to_output(left.adjoint()).adjoint();
    for (Index b = 0; b < n; ++b)
      for (Index a = 0; a < n; ++a)
        S(a + n * b, k) = out(initial_[static_cast<std::size_t>(a)], initial_[static_cast<std::size_t>(b)]);
  }
  return S;
}

CMatrix Simulator::channel_adjoint(const CMatrix& lambda_s) const {
  const Index D = device_.dim();
  const auto n = static_cast<Index>(initial_.size());
  CMatrix out(D * D, lambda_s.cols());
  for (Index k = 0; k < lambda_s.cols(); ++k) {
    CMatrix L = CMatrix::Zero(D, D);
    for (Index b = 0; b < n; ++b)
      for (Index a = 0; a < n; ++a)
        L(initial_[static_cast<std::size_t>(a)], initial_[static_cast<std::size_t>(b)]) = lambda_s(a + n * b, k);
    // T^dag L T = (T^dag (T^dag L)^dag)^dag.
    const CMatrix left = output_adjoint(L);
    const CMatrix rho = output_adjoint(left.adjoint()).adjoint();
    out.col(k) = Eigen::Map<const CVector>(rho.data(), D * D);
  }
  return out;
}

ChannelResult Simulator::evolve_channel(const Progress& progress) const {
  return evolve_channel(all_inputs(), progress);
}

ChannelResult Simulator::evolve_channel(const comm::Shard& shard, const Progress& progress) const {
  ChannelResult r;
  r.superoperator = channel_from(evolve_density(initial_density(shard), progress));
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
  const TimeGrid grid = time_grid();
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
