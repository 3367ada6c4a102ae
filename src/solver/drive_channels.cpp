// The drive model's channels (include/qevolve/drive_model.hpp): the coefficient c_j(t) of every
// drive channel (a pulse or its line's output times the channel's factor, or a flux law of the
// mode's total flux offset sampled on the flux gauge's grid), its slopes and partials for the
// adjoints, and the time grid the schemes sample the drive on.
#include <algorithm>
#include <cmath>

#include "qevolve/drive_model.hpp"
#include "time_grid.hpp"

namespace qevolve::solver {

TimeGrid DriveModel::time_grid() const {
  return {steps_, dt(), magnus_};
}

std::function<void(int, std::vector<double>&)> DriveModel::substep_coefficients() const {
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

PulseSamples DriveModel::pulse_samples() const {
  const TimeGrid grid = time_grid();
  PulseSamples out;
  for (int s = 0; s < grid.steps; ++s)
    for (int i = 0; i < grid.samples_per_step(); ++i) out.time.push_back(grid.sample_time(s, i));
  const bool lines = std::any_of(drive_.pulse_line.begin(), drive_.pulse_line.end(), [](int l) { return l >= 0; });
  for (std::size_t p = 0; p < drive_.pulses.size(); ++p) {
    std::vector<double>& v = out.values.emplace_back();
    v.reserve(out.time.size());
    for (double t : out.time) v.push_back(pulse_value(p, t));
    if (lines) {
      std::vector<double>& ideal = out.ideal.emplace_back();
      for (double t : out.time) ideal.push_back(drive_.pulses[p].value(t));
    }
    out.names.push_back(drive_.pulses[p].path());
  }
  return out;
}

void DriveModel::drive_coefficients(double t, std::vector<double>& out) const {
  out.resize(drive_.channels.size());
  for (std::size_t j = 0; j < drive_.channels.size(); ++j) {
    const DriveChannel& ch = drive_.channels[j];
    out[j] = ch.law == device::DriveLaw::linear
                 ? pulse_value(static_cast<std::size_t>(ch.pulse), t) * ch.factor
                 : device::law_value(ch.law, device_->modes()[static_cast<std::size_t>(ch.mode)].params,
                                     flux_sample(ch, t));
  }
}

std::pair<double, double> DriveModel::step_edges(double t) const {
  const double h = dt();
  const double s = std::clamp(std::floor(t / h), 0.0, static_cast<double>(steps_ - 1));
  // The last step ends at T exactly: steps * (T / steps) can round past T (1700 * (55 / 1700) =
  // 55 + 7e-15), where a pulse or a line that ends at T reads 0, and the gauge the step moves to
  // would then differ from the turn back at flux_offset(ch, T) (a 1e-4 error in 1 - F).
  return {s * h, s + 1.0 >= steps_ ? duration_ : (s + 1.0) * h};
}

device::FluxSample DriveModel::flux_sample(const DriveChannel& ch, double t) const {
  const double x = flux_offset(ch, t);
  if (ch.law != device::DriveLaw::squid_cos && ch.law != device::DriveLaw::squid_sin &&
      ch.law != device::DriveLaw::squid_n)
    return device::steady(x);
  const auto [lo, hi] = step_edges(t);
  const double w = (t - lo) / (hi - lo);
  if (!gauge_moves(ch)) return {x, 0.0, 0.0, w, hi - lo};  // the static gauge
  return {x, flux_offset(ch, lo), flux_offset(ch, hi), w, hi - lo};
}

double DriveModel::flux_offset(const DriveChannel& ch, double t) const {
  double x = 0.0;
  for (const auto& [p, factor] : ch.sources) x += factor * pulse_value(static_cast<std::size_t>(p), t);
  return x;
}

void DriveModel::add_channel_slopes(std::size_t j, double t, double weight, std::vector<double>& per_pulse) const {
  const DriveChannel& ch = drive_.channels[j];
  if (ch.law == device::DriveLaw::linear) {
    per_pulse[static_cast<std::size_t>(ch.pulse)] += weight * ch.factor;
    return;
  }
  const device::ModeParams& params = device_->modes()[static_cast<std::size_t>(ch.mode)].params;
  const double slope = gauge_end(ch, t) ? device::gauge_slope(params, flux_offset(ch, t))
                                        : device::law_slopes(ch.law, params, flux_sample(ch, t)).x;
  for (const auto& [p, factor] : ch.sources) per_pulse[static_cast<std::size_t>(p)] += weight * slope * factor;
}

void DriveModel::add_channel_edge_slopes(std::size_t j, double t, double weight, std::vector<double>& lo,
                                        std::vector<double>& hi) const {
  const DriveChannel& ch = drive_.channels[j];
  if (ch.law == device::DriveLaw::linear || ch.law == device::DriveLaw::inductive || !gauge_moves(ch) ||
      gauge_end(ch, t))
    return;
  const device::LawSlopes d =
      device::law_slopes(ch.law, device_->modes()[static_cast<std::size_t>(ch.mode)].params, flux_sample(ch, t));
  for (const auto& [p, factor] : ch.sources) {
    lo[static_cast<std::size_t>(p)] += weight * d.lo * factor;
    hi[static_cast<std::size_t>(p)] += weight * d.hi * factor;
  }
}

double DriveModel::channel_partial(std::size_t j, double t, std::string_view key) const {
  const DriveChannel& ch = drive_.channels[j];
  if (ch.law == device::DriveLaw::linear) return 0.0;
  const device::ModeParams& params = device_->modes()[static_cast<std::size_t>(ch.mode)].params;
  if (gauge_end(ch, t)) return device::gauge_partial(params, flux_offset(ch, t), key);
  return device::law_partial(ch.law, params, flux_sample(ch, t), key);
}

}  // namespace qevolve::solver
