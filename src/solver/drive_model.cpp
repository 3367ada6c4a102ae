// The drive model's pulses and control lines (docs/lines.md): what each mode sees of a pulse on
// a line is the line's output, computed once per change of the pulses or of the line (a
// PanelFunction over the evolution) and evaluated at every sample time. The derivatives the
// adjoint asks for are line outputs too (the line is linear in the pulse), computed with them.
// The channels' coefficients are in drive_channels.cpp, the gauge's predicates in flux_gauge.cpp.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "qevolve/error.hpp"
#include "qevolve/drive_model.hpp"

namespace qevolve::solver {

DriveModel::DriveModel(const device::Device& device, Drive drive, double duration, int steps, bool magnus)
    : device_(&device), drive_(std::move(drive)), duration_(duration), steps_(steps), magnus_(magnus) {
  precondition(duration_ > 0.0, "Simulator", "evolution.duration", "an evolution of zero length");
  precondition(drive_.pulse_line.size() == drive_.pulses.size(), "Simulator", "pulses", "a line index per pulse");
  update_lines();
}

void DriveModel::set_drive(Drive drive) {
  precondition(drive.pulse_line.size() == drive.pulses.size(), "Simulator", "pulses", "a line index per pulse");
  const std::vector<DriveChannel> channels = std::move(drive_.channels);
  drive_ = std::move(drive);
  drive_.channels = channels;
  update_lines();
}

pulse::LineInput DriveModel::line_input(std::size_t p) const {
  const pulse::Pulse& pulse = drive_.pulses[p];
  return {[&pulse](double t) { return pulse.value(t); }, pulse.breakpoints(), std::abs(pulse.frequency())};
}

void DriveModel::update_lines() {
  line_out_.assign(drive_.pulses.size(), {});
  tracked_.resize(drive_.pulses.size());
  tracked_line_.resize(drive_.pulses.size());
  derivatives_current_ = false;
  for (std::size_t p = 0; p < drive_.pulses.size(); ++p)
    if (drive_.pulse_line[p] >= 0)
      line_out_[p] = drive_.lines[static_cast<std::size_t>(drive_.pulse_line[p])].apply(line_input(p), duration_);
}

void DriveModel::update_line_derivatives() const {
  if (derivatives_current_) return;
  tracked_out_.assign(drive_.pulses.size(), {});
  tracked_line_out_.assign(drive_.pulses.size(), {});
  const double T = duration_;
  for (std::size_t p = 0; p < drive_.pulses.size(); ++p) {
    if (drive_.pulse_line[p] < 0) continue;
    const pulse::Line& line = drive_.lines[static_cast<std::size_t>(drive_.pulse_line[p])];
    pulse::LineInput in = line_input(p);
    for (const pulse::LineParam& lp : tracked_line_[p]) tracked_line_out_[p].push_back(line.derivative(in, T, lp));
    const pulse::Pulse& pulse = drive_.pulses[p];
    for (const pulse::ParamRef& ref : tracked_[p]) {
      in.f = [&pulse, ref](double t) {
        double d = 0.0;
        pulse.derivatives(t, std::span<const pulse::ParamRef>(&ref, 1), std::span<double>(&d, 1));
        return d;
      };
      tracked_out_[p].push_back(line.apply(in, T));
    }
  }
  derivatives_current_ = true;
}

void DriveModel::check_lines(const std::vector<pulse::Pulse>& pulses, const std::vector<pulse::Line>& lines) const {
  for (std::size_t p = 0; p < pulses.size() && !lines.empty(); ++p) {
    if (drive_.pulse_line[p] < 0) continue;
    const pulse::Line& line = lines[static_cast<std::size_t>(drive_.pulse_line[p])];
    const double panels = line.panel_estimate(duration_, std::abs(pulses[p].frequency()));
    if (panels > pulse::kMaxLinePanels)
      throw NumericalError("line `" + line.name() + "` would need about " + std::to_string(static_cast<long long>(panels)) +
                           " panels (more than " + std::to_string(static_cast<long long>(pulse::kMaxLinePanels)) +
                           ") with these filter values");
  }
}

void DriveModel::replace_pulses(std::vector<pulse::Pulse> pulses, std::vector<pulse::Line> lines) {
  if (pulses.size() != drive_.pulses.size()) throw std::invalid_argument("DriveModel::replace_pulses: a different number of pulses");
  if (!lines.empty() && lines.size() != drive_.lines.size())
    throw std::invalid_argument("DriveModel::replace_pulses: a different number of lines");
  check_lines(pulses, lines);
  drive_.pulses = std::move(pulses);
  if (!lines.empty()) drive_.lines = std::move(lines);
  update_lines();
}

DriveModel::LineSummary DriveModel::line_summary(std::size_t p) const {
  LineSummary out;
  if (drive_.pulse_line.empty() || drive_.pulse_line[p] < 0) return out;
  const pulse::PanelFunction& y = line_out_[p];
  const double T = duration_;
  for (int q = 0; q < y.panels(); ++q)
    for (int j = 0; j < pulse::PanelFunction::kNodes; ++j) {
      const double t = y.node(q, j);
      if (t < 0.0 || t > T) continue;
      out.pulse_peak = std::max(out.pulse_peak, std::abs(drive_.pulses[p].value(t)));
      out.output_peak = std::max(out.output_peak, std::abs(y.value(q, j)));
    }
  // The end's panel: the last that starts before T.
  const auto it = std::lower_bound(y.edges().begin(), y.edges().end(), T);
  const int last = static_cast<int>(it - y.edges().begin()) - 1;
  if (last >= 0) out.end_gap = std::abs(y.on_panel(last, T) - drive_.pulses[p].value(T));
  return out;
}

double DriveModel::pulse_value(std::size_t p, double t) const {
  return drive_.pulse_line.empty() || drive_.pulse_line[p] < 0 ? drive_.pulses[p].value(t) : line_out_[p](t);
}

void DriveModel::pulse_derivatives(std::size_t p, double t, std::span<const pulse::ParamRef> params,
                                  std::span<double> out) const {
  if (drive_.pulse_line.empty() || drive_.pulse_line[p] < 0) {
    drive_.pulses[p].derivatives(t, params, out);
    return;
  }
  const std::vector<pulse::ParamRef>& tracked = tracked_[p];
  if (!derivatives_current_) throw std::logic_error("DriveModel::pulse_derivatives: update_line_derivatives() first");
  for (std::size_t i = 0; i < params.size(); ++i) {
    const auto it = std::find(tracked.begin(), tracked.end(), params[i]);
    if (it == tracked.end())
      throw std::logic_error("DriveModel::pulse_derivatives: " + params[i].name() + " of " + drive_.pulses[p].path() +
                             " is not tracked through its line");
    out[i] = tracked_out_[p][static_cast<std::size_t>(it - tracked.begin())](t);
  }
}

double DriveModel::line_derivative(std::size_t p, const pulse::LineParam& param, double t) const {
  if (!derivatives_current_) throw std::logic_error("DriveModel::line_derivative: update_line_derivatives() first");
  const std::vector<pulse::LineParam>& tracked = tracked_line_[p];
  const auto it = std::find(tracked.begin(), tracked.end(), param);
  if (it == tracked.end())
    throw std::logic_error("DriveModel::line_derivative: " + param.name() + " is not tracked for " + drive_.pulses[p].path());
  return tracked_line_out_[p][static_cast<std::size_t>(it - tracked.begin())](t);
}

void DriveModel::track_derivatives(std::vector<std::vector<pulse::ParamRef>> params,
                                   std::vector<std::vector<pulse::LineParam>> line_params) {
  params.resize(drive_.pulses.size());
  line_params.resize(drive_.pulses.size());
  if (params == tracked_ && line_params == tracked_line_) return;
  tracked_ = std::move(params);
  tracked_line_ = std::move(line_params);
  derivatives_current_ = false;
}

}  // namespace qevolve::solver
