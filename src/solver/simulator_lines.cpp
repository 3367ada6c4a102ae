// The Simulator's control lines (docs/lines.md): what each mode sees of a pulse on a line is
// the line's output, computed once per change of the pulses or of the line (a PanelFunction
// over the evolution) and evaluated at every sample time. The derivatives the adjoint asks
// for are line outputs too (the line is linear in the pulse), computed with them.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "qevolve/error.hpp"
#include "qevolve/simulator.hpp"

namespace qevolve::solver {

pulse::LineInput Simulator::line_input(std::size_t p) const {
  const pulse::Pulse& pulse = pulses_[p];
  return {[&pulse](double t) { return pulse.value(t); }, pulse.breakpoints(), std::abs(pulse.frequency())};
}

void Simulator::update_lines() {
  line_out_.assign(pulses_.size(), {});
  tracked_.resize(pulses_.size());
  tracked_line_.resize(pulses_.size());
  derivatives_current_ = false;
  for (std::size_t p = 0; p < pulses_.size(); ++p)
    if (pulse_line_[p] >= 0)
      line_out_[p] = lines_[static_cast<std::size_t>(pulse_line_[p])].apply(line_input(p), options_.duration);
}

void Simulator::update_line_derivatives() {
  if (derivatives_current_) return;
  tracked_out_.assign(pulses_.size(), {});
  tracked_line_out_.assign(pulses_.size(), {});
  const double T = options_.duration;
  for (std::size_t p = 0; p < pulses_.size(); ++p) {
    if (pulse_line_[p] < 0) continue;
    const pulse::Line& line = lines_[static_cast<std::size_t>(pulse_line_[p])];
    pulse::LineInput in = line_input(p);
    for (const pulse::LineParam& lp : tracked_line_[p]) tracked_line_out_[p].push_back(line.derivative(in, T, lp));
    const pulse::Pulse& pulse = pulses_[p];
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

void Simulator::check_lines(const std::vector<pulse::Pulse>& pulses, const std::vector<pulse::Line>& lines) const {
  for (std::size_t p = 0; p < pulses.size() && !lines.empty(); ++p) {
    if (pulse_line_[p] < 0) continue;
    const pulse::Line& line = lines[static_cast<std::size_t>(pulse_line_[p])];
    const double panels = line.panel_estimate(options_.duration, std::abs(pulses[p].frequency()));
    if (panels > pulse::kMaxLinePanels)
      throw NumericalError("line `" + line.name() + "` would need about " + std::to_string(static_cast<long long>(panels)) +
                           " panels (more than " + std::to_string(static_cast<long long>(pulse::kMaxLinePanels)) +
                           ") with these filter values");
  }
}

void Simulator::replace_pulses(std::vector<pulse::Pulse> pulses, std::vector<pulse::Line> lines) {
  if (pulses.size() != pulses_.size()) throw std::invalid_argument("Simulator::replace_pulses: a different number of pulses");
  if (!lines.empty() && lines.size() != lines_.size())
    throw std::invalid_argument("Simulator::replace_pulses: a different number of lines");
  check_lines(pulses, lines);
  pulses_ = std::move(pulses);
  if (!lines.empty()) lines_ = std::move(lines);
  update_lines();
}

Simulator::LineSummary Simulator::line_summary(std::size_t p) const {
  LineSummary out;
  if (pulse_line_.empty() || pulse_line_[p] < 0) return out;
  const pulse::PanelFunction& y = line_out_[p];
  const double T = options_.duration;
  for (int q = 0; q < y.panels(); ++q)
    for (int j = 0; j < pulse::PanelFunction::kNodes; ++j) {
      const double t = y.node(q, j);
      if (t < 0.0 || t > T) continue;
      out.pulse_peak = std::max(out.pulse_peak, std::abs(pulses_[p].value(t)));
      out.output_peak = std::max(out.output_peak, std::abs(y.value(q, j)));
    }
  // The end's panel: the last that starts before T.
  const auto it = std::lower_bound(y.edges().begin(), y.edges().end(), T);
  const int last = static_cast<int>(it - y.edges().begin()) - 1;
  if (last >= 0) out.end_gap = std::abs(y.on_panel(last, T) - pulses_[p].value(T));
  return out;
}

double Simulator::pulse_value(std::size_t p, double t) const {
  return pulse_line_.empty() || pulse_line_[p] < 0 ? pulses_[p].value(t) : line_out_[p](t);
}

void Simulator::pulse_derivatives(std::size_t p, double t, std::span<const pulse::ParamRef> params,
                                  std::span<double> out) const {
  if (pulse_line_.empty() || pulse_line_[p] < 0) {
    pulses_[p].derivatives(t, params, out);
    return;
  }
  const std::vector<pulse::ParamRef>& tracked = tracked_[p];
  if (!derivatives_current_) throw std::logic_error("Simulator::pulse_derivatives: update_line_derivatives() first");
  for (std::size_t i = 0; i < params.size(); ++i) {
    const auto it = std::find(tracked.begin(), tracked.end(), params[i]);
    if (it == tracked.end())
      throw std::logic_error("Simulator::pulse_derivatives: " + params[i].name() + " of " + pulses_[p].path() +
                             " is not tracked through its line");
    out[i] = tracked_out_[p][static_cast<std::size_t>(it - tracked.begin())](t);
  }
}

void Simulator::track_derivatives(std::vector<std::vector<pulse::ParamRef>> params) {
  params.resize(pulses_.size());
  if (params == tracked_) return;
  tracked_ = std::move(params);
  derivatives_current_ = false;
}

double Simulator::line_derivative(std::size_t p, const pulse::LineParam& param, double t) const {
  if (!derivatives_current_) throw std::logic_error("Simulator::line_derivative: update_line_derivatives() first");
  const std::vector<pulse::LineParam>& tracked = tracked_line_[p];
  const auto it = std::find(tracked.begin(), tracked.end(), param);
  if (it == tracked.end())
    throw std::logic_error("Simulator::line_derivative: " + param.name() + " is not tracked for " + pulses_[p].path());
  return tracked_line_out_[p][static_cast<std::size_t>(it - tracked.begin())](t);
}

void Simulator::track_line_derivatives(std::vector<std::vector<pulse::LineParam>> params) {
  params.resize(pulses_.size());
  if (params == tracked_line_) return;
  tracked_line_ = std::move(params);
  derivatives_current_ = false;
}

}  // namespace qevolve::solver
