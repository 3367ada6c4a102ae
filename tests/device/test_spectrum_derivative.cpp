// d(spectrum figures)/dtheta (device::spectrum_derivative) against central finite differences
// of analyse_spectrum itself on the same internal bases (diagonalise_on): dressed energies,
// bare f01 and f12 (a 2-level mode: f12 from its 3-level diagonalisation), dressed f01, ZZ, for
// mode and coupling parameters of a fluxonium pair and a transmon pair.
//
// FD: Richardson-extrapolated central differences with h = 1e-4 max(|x|, 0.05), error ~h^4 f^(5)
// ~1e-14 and eigensolver noise ~1e-14 / h <= 2e-9 GHz per unit; tolerance 1e-7 relative to
// max(1, |derivative|); ZZ is in kHz (1e6 x GHz), so its tolerance is 1e-7 x 1e6 = 0.1 kHz per
// unit relative to max(1e6, |dZZ|) -- still 1e-7 of a GHz-scale derivative.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "qevolve/device.hpp"
#include "qevolve/device_derivative.hpp"
#include "qevolve/error.hpp"
#include "qevolve/mode.hpp"
#include "qevolve/spectrum.hpp"

namespace qevolve::testing {
namespace {

using device::DeviceParam;
using device::ModeParams;

/// The figures of a spectrum as one vector: energies, f01_bare, f12_bare, f01_dressed, zz_khz.
RVector flat(const RVector& energies, const std::vector<double>& f01, const std::vector<double>& f12,
             const std::vector<double>& f01d, const std::vector<double>& zz) {
  std::vector<double> v(energies.begin(), energies.end());
  for (const auto* part : {&f01, &f12, &f01d, &zz}) v.insert(v.end(), part->begin(), part->end());
  return Eigen::Map<const RVector>(v.data(), static_cast<Index>(v.size()));
}

RVector figures(const device::Device& dev) {
  const device::DressedBasis dressed = device::dress(dev);
  const device::SpectrumReport r = device::analyse_spectrum(dev, dressed);
  std::vector<double> f01, f12, f01d, zz;
  for (const auto& m : r.modes) {
    f01.push_back(m.f01_bare);
    f12.push_back(m.f12_bare);
    f01d.push_back(m.f01_dressed);
  }
  for (const auto& p : r.zz) zz.push_back(p.zz_khz);
  return flat(dressed.energies, f01, f12, f01d, zz);
}

/// Checks every parameter of `params` on the device of `resolved`, each mode on its own basis.
void check(const device::ResolvedDevice& resolved, const std::vector<DeviceParam>& params, std::size_t pairs) {
  const device::Device dev = device::build_device(resolved);
  const device::DressedBasis dressed = device::dress(dev);
  const auto n = static_cast<Index>(dev.dim() + 3 * dev.num_modes());  // where ZZ starts in flat()
  for (const DeviceParam& p : params) {
    auto at = [&](double v) {
      device::ResolvedDevice r = resolved;
      device::set_param(r, p, v);
      std::vector<device::Mode> modes;
      for (std::size_t q = 0; q < r.modes.size(); ++q)
        modes.push_back(device::diagonalise_on(r.modes[q], dev.modes()[q].basis));
      return figures(device::Device(modes, r.couplings));
    };
    const double x = device::get_param(dev, p);
    const double h = 1e-4 * std::max(std::abs(x), 0.05);
    const RVector fd = (4.0 * (at(x + h) - at(x - h)) / (2 * h) - (at(x + 2 * h) - at(x - 2 * h)) / (4 * h)) / 3.0;
    const device::SpectrumDerivative d = device::spectrum_derivative(dev, dressed, p);
    const RVector analytic = flat(d.energies, d.f01_bare, d.f12_bare, d.f01_dressed, d.zz_khz);
    ASSERT_EQ(analytic.size(), fd.size());
    ASSERT_EQ(d.zz_khz.size(), pairs);
    for (Index i = 0; i < fd.size(); ++i) {
      const double unit = i < n ? 1.0 : 1e6;  // GHz, or kHz for ZZ
      EXPECT_NEAR(analytic(i), fd(i), 1e-7 * std::max(unit, std::abs(fd(i)))) << p.name << " figure " << i;
    }
  }
}

ModeParams mode(const std::string& name, ModeType type, int levels) {
  ModeParams p;
  p.name = name;
  p.type = type;
  p.levels = levels;
  return p;
}

DeviceParam param(DeviceParam::Kind kind, int index, const std::string& key) { return {kind, index, key, key}; }

TEST(SpectrumDerivative, FluxoniumPair) {
  ModeParams a = mode("q0", ModeType::fluxonium, 4), b = mode("q1", ModeType::fluxonium, 3);
  a.ec = 1.0, a.ej = 4.0, a.el = 0.9, a.flux = 0.5;
  b.ec = 1.1, b.ej = 4.3, b.el = 1.0, b.flux = 0.45;
  device::Coupling c;
  c.a = 0, c.b = 1, c.capacitive = 0.02, c.inductive = -0.002, c.path = "device.couplings[0]";
  std::vector<DeviceParam> params;
  for (int q : {0, 1})
    for (const char* key : {"ec", "ej", "el", "flux"}) params.push_back(param(DeviceParam::Kind::mode, q, key));
  for (const char* key : {"capacitive", "inductive"}) params.push_back(param(DeviceParam::Kind::coupling, 0, key));
  check({{a, b}, {c}}, params, 1);
}

TEST(SpectrumDerivative, TransmonPairWithATwoLevelMode) {
  ModeParams a = mode("t0", ModeType::transmon, 2), b = mode("t1", ModeType::transmon, 3);
  a.ec = 0.2, a.ej = 15.0, a.ng = 0.3;
  b.ec = 0.22, b.ej = 12.0, b.has_asymmetry = true, b.asymmetry = 0.3, b.flux = 0.2;
  device::Coupling c;
  c.a = 0, c.b = 1, c.capacitive = 0.01, c.path = "device.couplings[0]";
  std::vector<DeviceParam> params;
  for (const char* key : {"ec", "ej", "ng"}) params.push_back(param(DeviceParam::Kind::mode, 0, key));
  for (const char* key : {"ej", "flux", "asymmetry"}) params.push_back(param(DeviceParam::Kind::mode, 1, key));
  params.push_back(param(DeviceParam::Kind::coupling, 0, "capacitive"));
  check({{a, b}, {c}}, params, 1);
}

TEST(SpectrumDerivative, DegenerateCoupledLevelsAreANumericalError) {
  // Two identical fluxoniums, uncoupled: |01> and |10> are degenerate and a capacitive
  // coupling mixes them, so the ordered levels have no derivative with respect to it.
  ModeParams a = mode("q0", ModeType::fluxonium, 3);
  a.ec = 1.0, a.ej = 4.0, a.el = 1.0, a.flux = 0.5;
  ModeParams b = a;
  b.name = "q1";
  device::Coupling c;
  c.a = 0, c.b = 1, c.path = "device.couplings[0]";
  const device::Device dev = device::build_device({{a, b}, {c}});
  const device::DressedBasis dressed = device::dress(dev);
  EXPECT_THROW((void)device::spectrum_derivative(dev, dressed, param(DeviceParam::Kind::coupling, 0, "capacitive")),
               NumericalError);
  // A parameter of one mode does not mix them: defined.
  EXPECT_NO_THROW((void)device::spectrum_derivative(dev, dressed, param(DeviceParam::Kind::mode, 0, "ej")));
}

}  // namespace
}  // namespace qevolve::testing
