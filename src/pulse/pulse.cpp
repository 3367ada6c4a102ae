// Evaluation, derivatives and parameter access of a resolved Pulse (the constructor, which
// resolves a PulseSpec, is in resolve.cpp).
//
// Every shape is written as f(t) = A [e(tau) C - lambda e'(tau) S], C = cos(theta), S = sin(theta),
// theta = 2 pi frequency tau + phase, tau = t - delay, with lambda = 0 except for drag and A = 1
// for piecewise_constant / spline (whose e carries the values). Then
//   df/dA      = e C - lambda e' S
//   df/dphase  = -A [e S + lambda e' C]          df/dfrequency = 2 pi tau df/dphase
//   df/dlambda = -A e' S
//   df/ddelay  = -df/dtau = -A [e' C - w e S - lambda e'' S - lambda w e' C],  w = 2 pi frequency
//   df/dkey    = A [de/dkey C - lambda de'/dkey S]   (chain rule from natural coordinates)
//   df/dvalues[k] = B_k(tau) C                        (B_k: slice indicator or B-spline)
#include <cmath>
#include <stdexcept>
#include <string>

#include "envelope.hpp"
#include "qevolve/error.hpp"
#include "qevolve/pulse.hpp"
#include "qevolve/types.hpp"

namespace qevolve::pulse {
namespace {

using detail::EvalLevel;
using detail::UnitEval;

ShapeFamily family(Shape s) { return enum_row(s).family; }
bool is_values_shape(Shape s) { return family(s) == ShapeFamily::values; }
bool is_ramp_family(Shape kind) { return family(kind) == ShapeFamily::ramps; }
bool is_edge_family(Shape kind) { return family(kind) == ShapeFamily::edges; }
bool is_gauss_family(Shape kind) { return family(kind) == ShapeFamily::gauss; }

[[noreturn]] void bad_param(const Pulse& pulse, const ParamRef& p, const char* what) {
  throw std::invalid_argument(pulse.path() + ": " + p.name() + " " + what + " of this " +
                              enum_name(pulse.shape()) + " pulse");
}

}  // namespace

double Pulse::value(double t) const {
  const double tau = t - delay_;
  if (!(tau >= 0.0 && tau <= geom_.L)) return 0.0;
  const UnitEval u = detail::evaluate_unit(geom_, values_, tau, EvalLevel::value);
  const double theta = kTwoPi * frequency_ * tau + phase_;
  if (lambda_ == 0.0) return amplitude_ * u.e * std::cos(theta);
  return amplitude_ * (u.e * std::cos(theta) - lambda_ * u.slope * std::sin(theta));
}

double Pulse::envelope(double tau) const {
  if (!(tau >= 0.0 && tau <= geom_.L)) return 0.0;
  return amplitude_ * detail::evaluate_unit(geom_, values_, tau, EvalLevel::value).e;
}

double Pulse::shape_partial(Param k, const double* nat) const {
  using detail::kCoordC, detail::kCoordL, detail::kCoordRamp, detail::kCoordSigma;
  if (is_ramp_family(geom_.kind)) {
    // Natural (L, r), plateau P = L - 2r.
    if (given(kDuration) && given(kRamp)) return k == Param::duration ? nat[kCoordL] : nat[kCoordRamp];
    if (given(kDuration)) {  // (L, P): r = (L - P)/2
      return k == Param::duration ? nat[kCoordL] + 0.5 * nat[kCoordRamp] : -0.5 * nat[kCoordRamp];
    }
    // (r, P): L = P + 2r
    return k == Param::ramp ? nat[kCoordRamp] + 2.0 * nat[kCoordL] : nat[kCoordL];
  }
  if (is_gauss_family(geom_.kind)) {
    // Natural (sigma, c), L = 2 c sigma.
    const double sigma = geom_.sigma, c = geom_.c;
    if (given(kSigma) && given(kC)) return k == Param::sigma ? nat[kCoordSigma] : nat[kCoordC];
    if (given(kSigma)) {  // (L, sigma): c = L/(2 sigma)
      return k == Param::duration ? nat[kCoordC] / (2.0 * sigma)
                                  : nat[kCoordSigma] - c / sigma * nat[kCoordC];
    }
    // (L, c): sigma = L/(2c)
    return k == Param::duration ? nat[kCoordSigma] / (2.0 * c)
                                : nat[kCoordC] - sigma / c * nat[kCoordSigma];
  }
  // cos, tanh, erf, piecewise_constant, spline: every shape key is a natural coordinate.
  switch (k) {
    case Param::duration: return nat[kCoordL];
    case Param::sigma: return nat[kCoordSigma];
    case Param::c: return nat[kCoordC];
    default: return 0.0;  // ramp / plateau belong to the ramp family, handled above
  }
}

void Pulse::derivatives(double t, std::span<const ParamRef> params, std::span<double> out) const {
  if (params.size() != out.size()) {
    throw std::invalid_argument(path_ + ": derivatives: params and out differ in length");
  }
  for (const ParamRef& p : params) {
    if (!has_parameter(p)) bad_param(*this, p, "is not a parameter");
  }
  const double tau = t - delay_;
  if (!(tau >= 0.0 && tau <= geom_.L)) {
    for (double& o : out) o = 0.0;
    return;
  }
  const UnitEval u = detail::evaluate_unit(geom_, values_, tau, EvalLevel::full);
  const double w = kTwoPi * frequency_;
  const double theta = w * tau + phase_;
  const double C = std::cos(theta), S = std::sin(theta);
  const double A = amplitude_, lam = lambda_;
  const double d_phase = -A * (u.e * S + lam * u.slope * C);
  for (std::size_t i = 0; i < params.size(); ++i) {
    const ParamRef& p = params[i];
    double d = 0.0;
    switch (p.kind) {
      case Param::amplitude: d = u.e * C - lam * u.slope * S; break;
      case Param::frequency: d = kTwoPi * tau * d_phase; break;
      case Param::phase: d = d_phase; break;
      case Param::lambda: d = -A * u.slope * S; break;
      case Param::delay:
        d = -A * (u.slope * C - w * u.e * S - lam * u.curve * S - lam * w * u.slope * C);
        break;
      case Param::duration:
      case Param::ramp:
      case Param::plateau:
      case Param::sigma:
      case Param::c:
        d = A * (shape_partial(p.kind, u.d_shape) * C -
                 (lam == 0.0 ? 0.0 : lam * shape_partial(p.kind, u.d_slope) * S));
        break;
      case Param::value: {
        const int j = p.index - u.first;
        d = (j >= 0 && j < u.count) ? u.basis[j] * C : 0.0;
        break;
      }
    }
    out[i] = d;
  }
}

std::vector<ParamRef> Pulse::parameters() const {
  std::vector<ParamRef> out;
  constexpr Param order[] = {Param::amplitude, Param::frequency, Param::phase,
                             Param::delay,     Param::duration,  Param::ramp,
                             Param::plateau,   Param::sigma,     Param::c,
                             Param::lambda};
  for (const Param p : order) {
    if (has_parameter(ParamRef{p, 0})) out.push_back(ParamRef{p, 0});
  }
  if (is_values_shape(shape_)) {
    for (int k = 0; k < static_cast<int>(values_.size()); ++k) out.push_back(ParamRef{Param::value, k});
  }
  return out;
}

bool Pulse::has_parameter(const ParamRef& p) const {
  switch (p.kind) {
    case Param::amplitude: return !is_values_shape(shape_);
    case Param::frequency:
    case Param::phase:
    case Param::delay: return true;
    case Param::duration: return given(kDuration);
    case Param::ramp: return given(kRamp);
    case Param::plateau: return given(kPlateau);
    case Param::sigma: return given(kSigma);
    case Param::c: return given(kC);
    case Param::lambda: return shape_ == Shape::drag;
    case Param::value:
      return is_values_shape(shape_) && p.index >= 0 &&
             p.index < static_cast<int>(values_.size());
  }
  return false;
}

double Pulse::get(const ParamRef& p) const {
  const bool ramps = is_ramp_family(geom_.kind);
  const bool sigmas = is_gauss_family(geom_.kind) || is_edge_family(geom_.kind);
  switch (p.kind) {
    case Param::amplitude:
      if (is_values_shape(shape_)) break;
      return amplitude_;
    case Param::frequency: return frequency_;
    case Param::phase: return phase_;
    case Param::delay: return delay_;
    case Param::duration: return geom_.L;
    case Param::ramp:
      if (!ramps) break;
      return geom_.ramp;
    case Param::plateau:
      if (!ramps) break;
      return geom_.L - 2.0 * geom_.ramp;
    case Param::sigma:
      if (!sigmas) break;
      return geom_.sigma;
    case Param::c:
      if (!sigmas) break;
      return geom_.c;
    case Param::lambda:
      if (shape_ != Shape::drag) break;
      return lambda_;
    case Param::value:
      if (!has_parameter(p)) break;
      return values_[static_cast<std::size_t>(p.index)];
  }
  bad_param(*this, p, "is not a key");
}

void Pulse::set(const ParamRef& p, double v) {
  if (!has_parameter(p)) bad_param(*this, p, "is not a parameter");
  if (!std::isfinite(v)) {
    throw NumericalError(path_ + "." + p.name() + ": set to a non-finite value");
  }
  switch (p.kind) {
    case Param::amplitude: amplitude_ = v; return;
    case Param::frequency: frequency_ = v; return;
    case Param::phase: phase_ = v; return;
    case Param::delay: delay_ = v; return;
    case Param::lambda: lambda_ = v; return;
    case Param::value: values_[static_cast<std::size_t>(p.index)] = v; return;
    case Param::duration:
    case Param::ramp:
    case Param::plateau:
    case Param::sigma:
    case Param::c: set_shape_key(p.kind, v); return;
  }
}

void Pulse::set_shape_key(Param k, double v) {
  detail::EnvelopeGeometry g = geom_;
  std::string problem;
  if (is_ramp_family(g.kind)) {
    const double plateau = g.L - 2.0 * g.ramp;
    if (k == Param::duration) {
      g.L = v;
      if (!given(kRamp)) g.ramp = 0.5 * (v - plateau);  // (L, P) given
    } else if (k == Param::ramp) {
      g.ramp = v;
      if (!given(kDuration)) g.L = plateau + 2.0 * v;  // (r, P) given
    } else {  // plateau
      if (given(kDuration)) g.ramp = 0.5 * (g.L - v);
      else g.L = v + 2.0 * g.ramp;
    }
    // The plateau may come out a rounding error below 0 when it is exactly 0.
    if (!(g.L > 0.0)) problem = "duration must be > 0";
    else if (!(g.ramp > 0.0)) problem = "ramp must be > 0";
    else if (g.L - 2.0 * g.ramp < -1e-12 * g.L) problem = "plateau = duration - 2 ramp must be >= 0";
  } else if (is_gauss_family(g.kind)) {
    if (k == Param::duration) {
      if (given(kSigma)) g.c = v / (2.0 * g.sigma);
      else g.sigma = v / (2.0 * g.c);
    } else if (k == Param::sigma) {
      g.sigma = v;
      if (given(kDuration)) g.c = g.L / (2.0 * v);
    } else {  // c
      g.c = v;
      if (given(kDuration)) g.sigma = g.L / (2.0 * v);
    }
    if (!(g.sigma > 0.0)) problem = "sigma must be > 0";
    else if (!(g.c > 0.0)) problem = "c must be > 0";
  } else if (is_edge_family(g.kind)) {
    if (k == Param::duration) g.L = v;
    else if (k == Param::sigma) g.sigma = v;
    else g.c = v;
    if (!(g.sigma > 0.0)) problem = "sigma must be > 0";
    else if (!(g.c > 0.0)) problem = "c must be > 0";
    else if (!(g.L > 2.0 * g.c * g.sigma)) problem = "duration must exceed 2 c sigma";
  } else {  // cos, drag (cos), piecewise_constant, spline
    g.L = v;
    if (!(g.L > 0.0)) problem = "duration must be > 0";
  }
  if (!problem.empty()) {
    throw NumericalError(path_ + "." + ParamRef{k, 0}.name() + " = " + std::to_string(v) +
                         ": " + problem);
  }
  detail::prepare_geometry(g);
  geom_ = g;
}

double Pulse::unit_envelope_integral() const { return detail::unit_integral(geom_, values_); }

std::vector<double> Pulse::breakpoints() const {
  const double L = geom_.L;
  std::vector<double> out{delay_, delay_ + L};
  if (is_ramp_family(geom_.kind)) {
    out.push_back(delay_ + geom_.ramp);
    out.push_back(delay_ + L - geom_.ramp);
  }
  const auto n = static_cast<int>(values_.size());
  if (shape_ == Shape::piecewise_constant)
    for (int k = 1; k < n; ++k) out.push_back(delay_ + L * k / n);
  if (shape_ == Shape::spline)
    for (int k = 1; k < n - 3; ++k) out.push_back(delay_ + L * k / (n - 3));
  return out;
}

}  // namespace qevolve::pulse
