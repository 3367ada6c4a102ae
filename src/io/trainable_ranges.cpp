// The config's ranges of trainable values as the optimiser's bounds (include/qevolve/resolve.hpp):
// one source, physical_ranges.hpp, for what the loader accepts and what `optimize` may reach.
#include <limits>
#include <stdexcept>
#include <string>

#include "physical_ranges.hpp"
#include "qevolve/resolve.hpp"

namespace qevolve::io {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
/// The closed end of an open one: 1e-9 of the unit (a duration of 1e-9 ns, a c of 1e-9).
constexpr double kOpenEnd = 1e-9;

TrainableRange closed(const Range& r) {
  switch (r.kind) {
    case Range::Kind::finite: return {-kInf, kInf};
    case Range::Kind::gt: return {r.lo + kOpenEnd, kInf};
    case Range::Kind::ge: return {r.lo, kInf};
    case Range::Kind::closed: return {r.lo, r.hi};
    case Range::Kind::open: return {r.lo + kOpenEnd, r.hi - kOpenEnd};
    case Range::Kind::open_closed: return {r.lo + kOpenEnd, r.hi};
  }
  return {-kInf, kInf};
}

}  // namespace

TrainableRange pulse_param_range(pulse::Param p, bool flux, bool gaussian) {
  switch (p) {
    case pulse::Param::amplitude:
    case pulse::Param::value: return closed(flux ? physical::kFlux : physical::kAmplitude);
    case pulse::Param::frequency: return closed(physical::kDriveFrequency);
    case pulse::Param::delay:
    case pulse::Param::plateau: return closed(physical::kTimeOffset);
    case pulse::Param::duration:
    case pulse::Param::ramp:
    case pulse::Param::sigma: return closed(physical::kDuration);
    case pulse::Param::c: return gaussian ? TrainableRange{physical::kMinGaussianC, kInf} : closed(Range::gt(0.0));
    case pulse::Param::phase:
    case pulse::Param::lambda: return {-kInf, kInf};
  }
  return {-kInf, kInf};
}

TrainableRange device_param_range(const std::string& key) {
  if (key == "ec" || key == "el") return closed(physical::kEnergy);
  if (key == "ej") return closed(physical::kJosephson);
  if (key == "flux") return closed(physical::kFlux);
  if (key == "ng") return closed(physical::kOffsetCharge);
  if (key == "asymmetry") return closed(physical::kAsymmetry);
  if (key == "frequency") return closed(physical::kModeFrequency);
  if (key == "anharmonicity" || key == "capacitive" || key == "inductive" || key == "dipole" ||
      key == "cross_kerr")
    return closed(physical::kCoupling);
  throw std::invalid_argument("device_param_range: no trainable device key `" + key + "`");
}

TrainableRange coherence_time_range() { return closed(physical::kCoherenceTime); }

}  // namespace qevolve::io
