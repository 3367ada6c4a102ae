#include "qevolve/spectrum.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "qevolve/names.hpp"

namespace qevolve::device {
namespace {

/// The pairs of qubits (lower mode index first) joined by a coupling or through one coupler:
/// in coupling order, a qubit-qubit coupling gives its pair, a qubit-coupler coupling the pairs
/// of that qubit with every other qubit coupled to the same coupler (its later couplings).
std::vector<std::pair<int, int>> zz_pairs(const Device& device) {
  const auto& modes = device.modes();
  const auto& couplings = device.couplings();
  auto qubit = [&](int m) { return modes[static_cast<std::size_t>(m)].is_qubit(); };
  std::vector<std::pair<int, int>> out;
  auto add = [&](int a, int b) {
    const std::pair<int, int> p{std::min(a, b), std::max(a, b)};
    if (a != b && std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
  };
  for (std::size_t k = 0; k < couplings.size(); ++k) {
    const Coupling& c = couplings[k];
    if (qubit(c.a) && qubit(c.b)) {
      add(c.a, c.b);
      continue;
    }
    if (qubit(c.a) == qubit(c.b)) continue;  // two couplers
    const int q = qubit(c.a) ? c.a : c.b, coupler = qubit(c.a) ? c.b : c.a;
    for (std::size_t l = k + 1; l < couplings.size(); ++l) {
      const Coupling& o = couplings[l];
      if (o.a == coupler && qubit(o.b)) add(q, o.b);
      if (o.b == coupler && qubit(o.a)) add(q, o.a);
    }
  }
  return out;
}

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
    f.qubit = m.is_qubit();
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

  for (const auto& [a, b] : zz_pairs(device)) {
    PairZZ z;
    z.a = device.modes()[static_cast<std::size_t>(a)].name();
    z.b = device.modes()[static_cast<std::size_t>(b)].name();
    z.zz_khz = (excited({a, b}) - excited({a}) - excited({b}) + e00) * 1e6;
    r.zz.push_back(z);
  }
  return r;
}

}  // namespace qevolve::device
