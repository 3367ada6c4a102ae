// Analytic device derivatives (include/qevolve/device_derivative.hpp) against central finite
// differences of the full diagonalisation on the same internal basis (diagonalise_on), for
// every model and parameter: energies, the kept operators (which also tests the phase
// convention: a wrong gauge term shows up as an operator mismatch), the device's static terms
// and the dressed basis.
//
// FD: Richardson-extrapolated central differences with h = 1e-4 max(|x|, 0.05), error ~h^4 f^(5)
// and eigensolver noise ~1e-14 / h <= 2e-9; tolerance 1e-7 relative to max(1, |value|) of each quantity.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "qevolve/device.hpp"
#include "qevolve/device_derivative.hpp"
#include "qevolve/mode.hpp"

namespace qevolve::testing {
namespace {

using device::Mode;
using device::ModeParams;

/// Richardson-extrapolated central difference of a matrix-valued function.
CMatrix fd(const std::function<CMatrix(double)>& f, double x, double h) {
  const CMatrix d1 = (f(x + h) - f(x - h)) / (2 * h);
  const CMatrix d2 = (f(x + 2 * h) - f(x - 2 * h)) / (4 * h);
  return (4.0 * d1 - d2) / 3.0;
}

/// `params` with parameter `key` set to v (through the library's own set_param).
ModeParams with(const ModeParams& params, const std::string& key, double v) {
  device::ResolvedDevice r{{params}, {}};
  device::set_param(r, {device::DeviceParam::Kind::mode, 0, key, key}, v);
  return r.modes[0];
}

void check_mode(const ModeParams& params, const std::string& key) {
  const Mode mode = device::diagonalise(params);
  const auto d = device::mode_derivative(mode, key);
  auto at = [&](double v) { return device::diagonalise_on(with(params, key, v), mode.basis); };
  const double x = device::get_param(device::Device({mode}, {}), {device::DeviceParam::Kind::mode, 0, key, key});
  const double h = 1e-4 * std::max(std::abs(x), 0.05);
  const CMatrix dE = fd([&](double v) { return CMatrix(at(v).energies.cast<cplx>()); }, x, h);
  EXPECT_LT((dE.real() - d.energies).cwiseAbs().maxCoeff(), 1e-7) << params.name << " " << key << " energies";
  const CMatrix dn = fd([&](double v) { return at(v).charge; }, x, h);
  EXPECT_LT((dn - d.charge).cwiseAbs().maxCoeff(), 1e-7) << params.name << " " << key << " charge";
  if (mode.flux.size() > 0) {
    const CMatrix dphi = fd([&](double v) { return at(v).flux; }, x, h);
    EXPECT_LT((dphi - d.flux).cwiseAbs().maxCoeff(), 1e-7) << params.name << " " << key << " flux";
  }
}

ModeParams fluxonium(double flux) {
  ModeParams p;
  p.name.assign(1, 'f');
  p.type = ModeType::fluxonium;
  p.levels = 5;
  p.ec = 1.0;
  p.ej = 4.0;
  p.el = 1.0;
  p.flux = flux;
  return p;
}

TEST(DeviceDerivative, Fluxonium) {
  for (double flux : {0.5, 0.1})
    for (const char* key : {"ec", "ej", "el", "flux"}) check_mode(fluxonium(flux), key);
}

TEST(DeviceDerivative, Transmon) {
  ModeParams p;
  p.name = "t";
  p.type = ModeType::transmon;
  p.levels = 4;
  p.ec = 0.2;
  p.ej = 15.0;
  for (double ng : {0.0, 0.5, 0.3}) {
    p.ng = ng;
    p.has_asymmetry = false;
    for (const char* key : {"ec", "ej", "ng"}) check_mode(p, key);
    p.has_asymmetry = true;
    p.asymmetry = 0.3;
    p.flux = 0.2;
    for (const char* key : {"ec", "ej", "ng", "flux", "asymmetry"}) check_mode(p, key);
  }
}

TEST(DeviceDerivative, Oscillators) {
  ModeParams r;
  r.name = "r";
  r.type = ModeType::resonator;
  r.levels = 4;
  r.frequency = 7.1;
  check_mode(r, "frequency");
  ModeParams d = r;
  d.type = ModeType::duffing;
  d.frequency = 4.8;
  d.anharmonicity = -0.22;
  for (const char* key : {"frequency", "anharmonicity"}) check_mode(d, key);
}

/// A two-fluxonium MPC-like pair: static terms and the dressed basis.
TEST(DeviceDerivative, StaticTermsAndDressedBasis) {
  ModeParams a = fluxonium(0.5), b = fluxonium(0.5);
  a.name = "q0";
  a.levels = 4;
  a.el = 0.9;
  b.name = "q1";
  b.levels = 4;
  device::Coupling c;
  c.a = 0;
  c.b = 1;
  c.capacitive = 0.02;
  c.inductive = -0.002;
  c.path = "device.couplings[0]";
  const device::ResolvedDevice resolved{{a, b}, {c}};
  const device::Device dev({device::diagonalise(a), device::diagonalise(b)}, {c});
  const device::DressedBasis dressed = device::dress(dev);
  std::vector<device::InternalBasis> bases{dev.modes()[0].basis, dev.modes()[1].basis};

  std::vector<device::DeviceParam> params;
  for (const char* key : {"ec", "ej", "el", "flux"}) params.push_back({device::DeviceParam::Kind::mode, 1, key, key});
  for (const char* key : {"capacitive", "inductive"}) params.push_back({device::DeviceParam::Kind::coupling, 0, key, key});
  for (const auto& p : params) {
    auto build = [&](double v) {
      device::ResolvedDevice r = resolved;
      device::set_param(r, p, v);
      return device::Device({device::diagonalise_on(r.modes[0], bases[0]),
                             device::diagonalise_on(r.modes[1], bases[1])},
                            r.couplings);
    };
    const double x = device::get_param(dev, p);
    const double h = 1e-4 * std::max(std::abs(x), 0.05);
    const auto dd = device::device_derivative(dev, p);
    const auto terms = dev.static_terms();
    for (std::size_t t = 0; t < terms.size(); ++t) {
      const CMatrix f = fd([&](double v) { return build(v).static_terms()[t].matrix; }, x, h);
      const CMatrix& a_t = dd.static_terms[t].matrix;  // empty: no dependence on theta
      const double err = a_t.size() != 0 ? (f - a_t).cwiseAbs().maxCoeff() : f.cwiseAbs().maxCoeff();
      EXPECT_LT(err, 1e-7) << p.key << " term " << t;
    }
    const auto ddr = device::dressed_derivative(dev, dressed, dd);
    const CMatrix fW = fd([&](double v) { return device::dress(build(v)).transform; }, x, h);
    EXPECT_LT((fW - ddr.transform).cwiseAbs().maxCoeff(), 1e-7) << p.key << " dressed transform";
    const CMatrix fE = fd(
        [&](double v) {
          const RVector e = device::dress(build(v)).energy_of_bare;
          CMatrix m(e.size(), 1);
          for (Index i = 0; i < e.size(); ++i) m(i, 0) = e(i);
          return m;
        },
        x, h);
    EXPECT_LT((fE.real() - ddr.energy_of_bare).cwiseAbs().maxCoeff(), 1e-7) << p.key << " dressed energies";
  }
}

}  // namespace
}  // namespace qevolve::testing
