// A control line (include/qevolve/line.hpp, docs/lines.md). Every filter is linear and time
// invariant and the line is at rest before the signal starts, so the filters commute: the
// line is evaluated as pre-distortion (on the pulse) -> sampling -> fir (on the samples) ->
// one Gaussian of the summed variances (closed form on the held samples) -> the IIR sections,
// whatever the order the config lists them in. A derivative with respect to a line parameter
// is the same line with that filter replaced by its derivative (a sum of such chains when the
// parameter also enters the pre-distortion).
#include "qevolve/line.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "line_filters.hpp"
#include "qevolve/error.hpp"

namespace qevolve::pulse {

using detail::Section;

struct Line::Chain {
  std::vector<Section> pre;   ///< applied to the pulse before sampling (predistort)
  std::vector<double> taps;   ///< the fir filters' combined taps (empty: none)
  detail::GaussStage gauss;   ///< sigma 0: no Gaussian
  std::vector<Section> post;  ///< the highpass and exponential filters
};

namespace {

constexpr double kMaxPanel = 4.0;  ///< ns: the longest panel whatever the filters

std::vector<double> convolve(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  std::vector<double> c(a.size() + b.size() - 1, 0.0);
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = 0; j < b.size(); ++j) c[i + j] += a[i] * b[j];
  return c;
}

bool is_iir(FilterType t) { return t == FilterType::highpass || t == FilterType::exponential; }

Section post_section(const FilterSpec& f) {
  if (f.type == FilterType::highpass) return {false, 1.0, -1.0, 0.0, f.tau};
  return {false, 1.0 + f.amplitude, -f.amplitude, 0.0, f.tau};
}

/// The exact inverse: of a highpass, x + (1/tau) int x; of an exponential (A, tau), the
/// exponential (A' = -A/(1+A), tau' = (1+A) tau).
Section pre_section(const FilterSpec& f) {
  if (f.type == FilterType::highpass) return {true, 1.0, 1.0, 0.0, f.tau};
  const double a = -f.amplitude / (1.0 + f.amplitude);
  return {false, 1.0 + a, -a, 0.0, (1.0 + f.amplitude) * f.tau};
}

/// d(post_section(f))/d(key), key tau or amplitude: dL/dtau = (L L - L)/tau.
Section post_derivative(const FilterSpec& f, LineParam::Key key) {
  const double tau = f.tau;
  if (f.type == FilterType::highpass) return {false, 0.0, 1.0 / tau, -1.0 / tau, tau};
  if (key == LineParam::Key::amplitude) return {false, 1.0, -1.0, 0.0, tau};
  return {false, 0.0, f.amplitude / tau, -f.amplitude / tau, tau};
}

Section pre_derivative(const FilterSpec& f, LineParam::Key key) {
  if (f.type == FilterType::highpass) return {true, 0.0, -1.0 / f.tau, 0.0, f.tau};
  const Section s = pre_section(f);
  const double a = -s.beta, tp = s.tau, A = f.amplitude;
  // (A', tau') as functions of (A, tau); d/dA' = (1, -1, 0), d/dtau' = (0, A'/tau', -A'/tau').
  const double da = key == LineParam::Key::amplitude ? -1.0 / ((1.0 + A) * (1.0 + A)) : 0.0;
  const double dt = key == LineParam::Key::amplitude ? f.tau : 1.0 + A;
  return {false, da, -da + a / tp * dt, -a / tp * dt, tp};
}

void add_breaks(std::vector<double>& edges, double lo, double hi, double h) {
  std::sort(edges.begin(), edges.end());
  std::vector<double> kept;
  for (double t : edges) {
    if (t < lo || t > hi) continue;
    if (!kept.empty() && t - kept.back() <= 1e-9 * std::max(1.0, std::abs(t))) continue;
    kept.push_back(t);
  }
  edges.clear();
  for (std::size_t i = 0; i + 1 < kept.size(); ++i) {
    const double a = kept[i], b = kept[i + 1];
    const auto n = static_cast<long>(std::ceil((b - a) / h));
    for (long k = 0; k < n; ++k) edges.push_back(a + (b - a) * static_cast<double>(k) / static_cast<double>(n));
  }
  edges.push_back(kept.back());
}

}  // namespace

std::string LineParam::name() const {
  switch (key) {
    case Key::sigma: return "sigma";
    case Key::tau: return "tau";
    case Key::amplitude: return "amplitude";
    case Key::tap: return "taps[" + std::to_string(tap) + "]";
  }
  return "?";
}

Line::Line(const LineSpec& spec) : name_(spec.name), spec_(spec) {}

Line::Chain Line::chain() const {
  Chain c;
  double var = 0.0;
  for (const FilterSpec& f : spec_.filters) {
    if (f.type == FilterType::gaussian) var += f.sigma * f.sigma;
    if (f.type == FilterType::fir) c.taps = convolve(c.taps, f.taps);
    if (!is_iir(f.type)) continue;
    c.post.push_back(post_section(f));
    if (spec_.predistort) c.pre.push_back(pre_section(f));
  }
  c.gauss.sigma = std::sqrt(var);
  return c;
}

Line::Grid Line::grid(double T, double frequency) const {
  const Chain nominal = chain();
  Grid g;
  g.sigma = nominal.gauss.sigma;
  g.rate = spec_.sample_rate.value_or(0.0);
  g.lo = g.sigma > 0.0 ? -detail::kGaussReach * g.sigma : 0.0;
  g.hi = T + (g.sigma > 0.0 ? detail::kGaussReach * g.sigma : 0.0);  // the hold keeps the last sample
  // Panels no longer than half of any filter's time scale or an eighth of the carrier's period.
  g.h = kMaxPanel;
  if (g.sigma > 0.0) g.h = std::min(g.h, 0.5 * g.sigma);
  for (const auto* list : {&nominal.pre, &nominal.post})
    for (const Section& s : *list)
      if (!s.integrator) g.h = std::min(g.h, 0.5 * s.tau);
  if (frequency > 0.0) g.h = std::min(g.h, 0.125 / frequency);
  return g;
}

double Line::panel_estimate(double T, double frequency) const {
  const Grid g = grid(T, frequency);
  return std::ceil((g.hi - g.lo) / g.h) + (g.rate > 0.0 ? (g.hi - g.lo) * g.rate : 0.0) + 4.0;
}

PanelFunction Line::run(const std::vector<Chain>& terms, const LineInput& in, double T) const {
  const Grid g = grid(T, in.frequency);
  const double sigma = g.sigma, rate = g.rate, lo = g.lo, hi = g.hi;
  const bool sampled = rate > 0.0;
  // Panels aligned to the signal's jumps: the pulse's breaks, or the sample edges.
  std::vector<double> edges = in.breaks;
  edges.insert(edges.end(), {lo, 0.0, T, hi});
  if (sampled)
    for (auto k = static_cast<long>(std::ceil(lo * rate)); static_cast<double>(k) / rate < hi; ++k)
      edges.push_back(static_cast<double>(k) / rate);
  add_breaks(edges, lo, hi, g.h);

  PanelFunction total(edges);
  for (const Chain& c : terms) {
    PanelFunction x(edges);
    if (!sampled || !c.pre.empty()) {
      x.fill(in.f);
      for (const Section& s : c.pre) x = detail::apply_section(s, x);
    }
    if (sampled) {
      detail::Held held{rate, {}};
      for (long k = 0; static_cast<double>(k) / rate < hi; ++k) {
        const double tk = static_cast<double>(k) / rate;
        held.samples.push_back(c.pre.empty() ? in.f(tk) : x(tk));
      }
      if (!c.taps.empty()) {
        std::vector<double> out(held.samples.size(), 0.0);
        for (std::size_t k = 0; k < out.size(); ++k)
          for (std::size_t j = 0; j < c.taps.size() && j <= k; ++j) out[k] += c.taps[j] * held.samples[k - j];
        held.samples = std::move(out);
      }
      if (sigma > 0.0) {
        x = detail::gauss_of_held(c.gauss, held, edges);
      } else {
        x.fill(held);
      }
    } else if (sigma > 0.0) {
      x = detail::gauss_of_panels(c.gauss, x);
    }
    for (const Section& s : c.post) x = detail::apply_section(s, x);
    for (int p = 0; p < total.panels(); ++p)
      for (int j = 0; j < PanelFunction::kNodes; ++j) total.value(p, j) += x.value(p, j);
  }
  return total;
}

PanelFunction Line::apply(const LineInput& in, double T) const { return run({chain()}, in, T); }

PanelFunction Line::derivative(const LineInput& in, double T, const LineParam& param) const {
  const FilterSpec& f = spec_.filters.at(static_cast<std::size_t>(param.filter));
  std::vector<Chain> terms;
  if (param.key == LineParam::Key::sigma) {
    Chain c = chain();
    if (f.sigma > 0.0) {  // d/dsigma_i of g_s * x, s^2 = sum sigma^2: sigma_i (g_s'' * x)
      c.gauss.order = 2;
      c.gauss.scale = f.sigma;
      terms.push_back(c);
    }
  } else if (param.key == LineParam::Key::tap) {
    Chain c = chain();
    c.taps.clear();
    for (std::size_t i = 0; i < spec_.filters.size(); ++i)
      if (spec_.filters[i].type == FilterType::fir && static_cast<int>(i) != param.filter)
        c.taps = convolve(c.taps, spec_.filters[i].taps);
    std::vector<double> unit(static_cast<std::size_t>(param.tap) + 1, 0.0);
    unit.back() = 1.0;
    c.taps = convolve(c.taps, unit);
    terms.push_back(c);
  } else {
    std::size_t r = 0;  // the filter's place among the IIR sections
    for (int i = 0; i < param.filter; ++i) r += is_iir(spec_.filters[static_cast<std::size_t>(i)].type) ? 1 : 0;
    Chain c = chain();
    c.post[r] = post_derivative(f, param.key);
    terms.push_back(c);
    if (spec_.predistort) {
      Chain d = chain();
      d.pre[r] = pre_derivative(f, param.key);
      terms.push_back(d);
    }
  }
  if (terms.empty()) {  // a zero derivative, on the line's panels
    PanelFunction zero = run({chain()}, in, T);
    for (int p = 0; p < zero.panels(); ++p)
      for (int j = 0; j < PanelFunction::kNodes; ++j) zero.value(p, j) = 0.0;
    return zero;
  }
  return run(terms, in, T);
}

std::vector<LineParam> Line::trainable() const {
  std::vector<LineParam> out;
  for (std::size_t i = 0; i < spec_.filters.size(); ++i) {
    const FilterSpec& f = spec_.filters[i];
    for (const std::string& key : f.optimize) {
      const int fi = static_cast<int>(i);
      if (key == "sigma") out.push_back({LineParam::Key::sigma, fi, 0});
      else if (key == "tau") out.push_back({LineParam::Key::tau, fi, 0});
      else if (key == "amplitude") out.push_back({LineParam::Key::amplitude, fi, 0});
      else if (key == "taps")
        for (std::size_t k = 0; k < f.taps.size(); ++k) out.push_back({LineParam::Key::tap, fi, static_cast<int>(k)});
      else if (key.rfind("taps[", 0) == 0)
        out.push_back({LineParam::Key::tap, fi, std::stoi(key.substr(5))});
      else
        precondition(false, "Line::trainable", f.path + ".optimize", "a key this filter cannot train");
    }
  }
  std::vector<LineParam> unique;
  for (const LineParam& p : out)
    if (std::find(unique.begin(), unique.end(), p) == unique.end()) unique.push_back(p);
  return unique;
}

double Line::get(const LineParam& p) const {
  const FilterSpec& f = spec_.filters.at(static_cast<std::size_t>(p.filter));
  switch (p.key) {
    case LineParam::Key::sigma: return f.sigma;
    case LineParam::Key::tau: return f.tau;
    case LineParam::Key::amplitude: return f.amplitude;
    case LineParam::Key::tap: return f.taps.at(static_cast<std::size_t>(p.tap));
  }
  return 0.0;
}

void Line::set(const LineParam& p, double v) {
  FilterSpec& f = spec_.filters.at(static_cast<std::size_t>(p.filter));
  const std::string where = f.path + "." + p.name();
  if (!std::isfinite(v)) throw NumericalError(where + " would become " + std::to_string(v));
  if (p.key == LineParam::Key::tau && !(v > 0.0)) throw NumericalError(where + " would become " + std::to_string(v) + " (tau must be positive)");
  if (p.key == LineParam::Key::sigma && v < 0.0) throw NumericalError(where + " would become " + std::to_string(v) + " (sigma must be >= 0)");
  if (p.key == LineParam::Key::amplitude && spec_.predistort && !(v > -1.0))
    throw NumericalError(where + " would become " + std::to_string(v) + " (the pre-distortion needs amplitude > -1)");
  switch (p.key) {
    case LineParam::Key::sigma: f.sigma = v; break;
    case LineParam::Key::tau: f.tau = v; break;
    case LineParam::Key::amplitude: f.amplitude = v; break;
    case LineParam::Key::tap: f.taps.at(static_cast<std::size_t>(p.tap)) = v; break;
  }
}

}  // namespace qevolve::pulse
