#include "qevolve/spectrum.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "qevolve/names.hpp"

namespace qevolve::device {
namespace {

}  // namespace

SpectrumReport analyse_spectrum(const Device& device, const DressedBasis& dressed) {
  SpectrumReport r;
  const int n = device.num_modes();
  const std::vector<int> ground(static_cast<std::size_t>(n), 0);
  const double e00 = dressed.energy_of_bare(device.flat_index(ground));
  auto excited = [&](std::initializer_list<int> modes) {
    std::vector<int> lv = ground;
    for (int m : modes) lv[static_cast<std::size_t>(m)] = 1;
    return dressed.energy_of_bare(device.flat_index(lv));
  };

  for (int q = 0; q < n; ++q) {
    const Mode& m = device.modes()[static_cast<std::size_t>(q)];
    ModeFigures f;
    f.name = m.name();
    f.type = enum_name(m.params.type);
    // f12 needs a third level: re-diagonalise with at least 3 (memoised, cheap).
    Mode with_three;
    const Mode* m3 = &m;
    if (m.levels() < 3) {
      ModeParams p = m.params;
      p.levels = 3;
      with_three = diagonalise(p);
      m3 = &with_three;
    }
    f.f01_bare = m.energies(1) - m.energies(0);
    f.f12_bare = m3->energies(2) - m3->energies(1);
    f.phi01 = m.flux.size() > 0 ? std::abs(m.flux(0, 1)) : std::numeric_limits<double>::quiet_NaN();
    f.n01 = std::abs(m.charge(0, 1));
    f.f01_dressed = excited({q}) - e00;
    r.modes.push_back(f);
  }

  for (const Coupling& c : device.couplings()) {
    const Mode& ma = device.modes()[static_cast<std::size_t>(c.a)];
    const Mode& mb = device.modes()[static_cast<std::size_t>(c.b)];
    if (!ma.is_qubit() || !mb.is_qubit()) continue;
    const int a = std::min(c.a, c.b), b = std::max(c.a, c.b);
    const bool seen = std::any_of(r.zz.begin(), r.zz.end(), [&](const PairZZ& p) {
      return p.a == device.modes()[static_cast<std::size_t>(a)].name() &&
             p.b == device.modes()[static_cast<std::size_t>(b)].name();
    });
    if (seen) continue;
    PairZZ z;
    z.a = device.modes()[static_cast<std::size_t>(a)].name();
    z.b = device.modes()[static_cast<std::size_t>(b)].name();
    z.zz_khz = (excited({a, b}) - excited({a}) - excited({b}) + e00) * 1e6;
    r.zz.push_back(z);
  }
  return r;
}

}  // namespace qevolve::device
