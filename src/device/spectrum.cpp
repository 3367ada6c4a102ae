// `qevolve spectrum`'s figures and their derivatives with respect to device parameters
// (include/qevolve/spectrum.hpp).
#include "qevolve/spectrum.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "qevolve/error.hpp"
#include "qevolve/linalg.hpp"
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

/// The spectrum's energy figures, linear in their inputs: per mode the energies of its own
/// levels (`own`) and of its levels re-diagonalised with at least 3 when it has fewer
/// (`three`: f12), and the dressed energies by bare flat index. analyse_spectrum passes the
/// energies, spectrum_derivative their derivatives.
struct EnergyFigures {
  std::vector<double> f01_bare, f12_bare, f01_dressed, zz_khz;
};

EnergyFigures energy_figures(const Device& device, const std::vector<RVector>& own,
                             const std::vector<RVector>& three, const RVector& energy_of_bare) {
  EnergyFigures f;
  const int n = device.num_modes();
  const std::vector<int> ground(static_cast<std::size_t>(n), 0);
  const double e00 = energy_of_bare(device.flat_index(ground));
  auto excited = [&](std::initializer_list<int> modes) {
    std::vector<int> lv = ground;
    for (int m : modes) lv[static_cast<std::size_t>(m)] = 1;
    return energy_of_bare(device.flat_index(lv));
  };
  for (int q = 0; q < n; ++q) {
    const RVector &e = own[static_cast<std::size_t>(q)], &e3 = three[static_cast<std::size_t>(q)];
    f.f01_bare.push_back(e(1) - e(0));
    f.f12_bare.push_back(e3(2) - e3(1));
    f.f01_dressed.push_back(excited({q}) - e00);
  }
  for (const auto& [a, b] : zz_pairs(device))
    f.zz_khz.push_back((excited({a, b}) - excited({a}) - excited({b}) + e00) * 1e6);
  return f;
}

/// `m` itself, or re-diagonalised with 3 levels when it has fewer (f12 needs a third level;
/// memoised, cheap).
Mode with_three_levels(const Mode& m) {
  if (m.levels() >= 3) return m;
  ModeParams p = m.params;
  p.levels = 3;
  return diagonalise(p);
}

}  // namespace

SpectrumReport analyse_spectrum(const Device& device, const DressedBasis& dressed) {
  SpectrumReport r;
  std::vector<RVector> own, three;
  for (const Mode& m : device.modes()) {
    own.push_back(m.energies);
    three.push_back(with_three_levels(m).energies);
  }
  const EnergyFigures e = energy_figures(device, own, three, dressed.energy_of_bare);
  for (std::size_t q = 0; q < device.modes().size(); ++q) {
    const Mode& m = device.modes()[q];
    ModeFigures f;
    f.name = m.name();
    f.type = enum_name(m.params.type);
    f.qubit = m.is_qubit();
    f.f01_bare = e.f01_bare[q];
    f.f12_bare = e.f12_bare[q];
    f.phi01 = m.flux.size() > 0 ? std::abs(m.flux(0, 1)) : std::numeric_limits<double>::quiet_NaN();
    f.n01 = std::abs(m.charge(0, 1));
    f.f01_dressed = e.f01_dressed[q];
    r.modes.push_back(f);
  }
  const auto pairs = zz_pairs(device);
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    PairZZ z;
    z.a = device.modes()[static_cast<std::size_t>(pairs[k].first)].name();
    z.b = device.modes()[static_cast<std::size_t>(pairs[k].second)].name();
    z.zz_khz = e.zz_khz[k];
    r.zz.push_back(z);
  }
  return r;
}

SpectrumDerivative spectrum_derivative(const Device& device, const DressedBasis& dressed, const DeviceParam& p) {
  const DeviceDerivative d = device_derivative(device, p);
  const Index D = device.dim();
  const linalg::DenseBlasPhase dense_phase(D);  // a D x D product
  CMatrix dH = CMatrix::Zero(D, D);
  for (const LocalTerm& t : d.static_terms)
    if (t.matrix.size() != 0) device.add_embedded(t, dH);
  const CMatrix& W = dressed.transform;  // columns by bare index
  const CMatrix dHW = dH * W;
  RVector by_bare(D);
  for (Index j = 0; j < D; ++j) by_bare(j) = W.col(j).dot(dHW.col(j)).real();  // <w_j|dH|w_j>
  // Degenerate dressed levels (ascending, so neighbours) coupled by dH: no ordered derivative.
  const double scale = std::max(1.0, dressed.energies.cwiseAbs().maxCoeff());
  const auto& labels = dressed.labels;
  for (Index k = 0; k < D; ++k)
    for (Index l = k + 1; l < D && dressed.energies(l) - dressed.energies(k) < 1e-9; ++l) {
      const Index i = labels[static_cast<std::size_t>(k)], j = labels[static_cast<std::size_t>(l)];
      if (std::abs(W.col(i).dot(dHW.col(j))) > 1e-12 * scale)
        throw NumericalError("dressed levels " + device.label(i) + " and " + device.label(j) + " are degenerate: the "
                             "derivative of the spectrum with respect to " + p.name + " is not defined");
    }
  SpectrumDerivative out;
  out.energies.resize(D);
  for (Index k = 0; k < D; ++k) out.energies(k) = by_bare(labels[static_cast<std::size_t>(k)]);
  std::vector<RVector> own, three;  // d.modes[q].energies: zero where theta does not touch mode q
  for (std::size_t q = 0; q < device.modes().size(); ++q) {
    const Mode& m = device.modes()[q];
    own.push_back(d.modes[q].energies);
    if (m.levels() >= 3) three.push_back(own.back());
    else if (d.touches_mode[q]) three.push_back(mode_derivative(with_three_levels(m), p.key).energies);
    else three.push_back(RVector::Zero(3));
  }
  EnergyFigures e = energy_figures(device, own, three, by_bare);
  out.f01_bare = std::move(e.f01_bare);
  out.f12_bare = std::move(e.f12_bare);
  out.f01_dressed = std::move(e.f01_dressed);
  out.zz_khz = std::move(e.zz_khz);
  return out;
}

}  // namespace qevolve::device
