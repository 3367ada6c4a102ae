// Trainable device parameters, their values, and the derivatives of the device's static terms
// and of the dressed basis (include/qevolve/device_derivative.hpp).
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "qevolve/device_derivative.hpp"
#include "qevolve/error.hpp"
#include "qevolve/linalg.hpp"

namespace qevolve::device {
namespace {

bool is_coupling_key(const std::string& key) {
  return key == "capacitive" || key == "inductive" || key == "dipole" || key == "cross_kerr";
}

double& mode_field(ModeParams& p, const std::string& key) {
  if (key == "ec") return p.ec;
  if (key == "ej") return p.ej;
  if (key == "el") return p.el;
  if (key == "flux") return p.flux;
  if (key == "ng") return p.ng;
  if (key == "asymmetry") return p.asymmetry;
  if (key == "frequency") return p.frequency;
  if (key == "anharmonicity") return p.anharmonicity;
  // The stage refuses a key that is not a mode parameter (`optimize:` lists, gradient keys).
  throw std::logic_error("device parameters: " + key + ": not a mode parameter (the resolution stage refuses it)");
}

double& coupling_field(Coupling& c, const std::string& key) {
  if (key == "capacitive") return c.capacitive;
  if (key == "inductive") return c.inductive;
  if (key == "dipole") return c.dipole;
  if (key == "cross_kerr") return c.cross_kerr;
  throw std::logic_error("device parameters: " + key + ": not a coupling parameter (the resolution stage refuses it)");
}

/// d(coupling matrix)/dtheta for modes ordered (lo, hi), as Device::static_terms orders them.
CMatrix coupling_derivative(const Device& dev, const Coupling& c, const DeviceParam& p,
                            const std::vector<ModeDerivative>& dmodes,
                            const std::vector<char>& touches) {
  const int lo = std::min(c.a, c.b), hi = std::max(c.a, c.b);
  const Mode& A = dev.modes()[static_cast<std::size_t>(lo)];
  const Mode& B = dev.modes()[static_cast<std::size_t>(hi)];
  const Index g = A.levels() * B.levels();
  CMatrix out = CMatrix::Zero(g, g);
  // Product rule on J * kron(OA, OB) for each coupling kind.
  auto term = [&](double J, bool own, const CMatrix& OA, const CMatrix& OB, const CMatrix* dA,
                  const CMatrix* dB) {
    if (own) out += linalg::kron(OA, OB);
    if (J == 0.0) return;
    if (dA != nullptr && touches[static_cast<std::size_t>(lo)]) out += J * linalg::kron(*dA, OB);
    if (dB != nullptr && touches[static_cast<std::size_t>(hi)]) out += J * linalg::kron(OA, *dB);
  };
  const bool this_coupling = p.kind == DeviceParam::Kind::coupling;
  const ModeDerivative& da = dmodes[static_cast<std::size_t>(lo)];
  const ModeDerivative& db = dmodes[static_cast<std::size_t>(hi)];
  auto own = [&](const char* key) { return this_coupling && p.key == key; };
  term(c.capacitive, own("capacitive"), A.charge, B.charge, &da.charge, &db.charge);
  if (A.flux.size() > 0 && B.flux.size() > 0)
    term(c.inductive, own("inductive"), A.flux, B.flux, &da.flux, &db.flux);
  term(c.dipole, own("dipole"), A.lowering.adjoint(), B.lowering, nullptr, nullptr);
  term(c.dipole, own("dipole"), A.lowering, B.lowering.adjoint(), nullptr, nullptr);
  term(c.cross_kerr, own("cross_kerr"), A.number, B.number, nullptr, nullptr);
  return out;
}

}  // namespace

std::vector<DeviceParam> trainable_device_params(const std::vector<ModeEntry>& qubits,
                                                 const std::vector<CouplingEntry>& couplings, const Device& device) {
  std::vector<DeviceParam> out;
  for (int q = 0; q < device.num_modes(); ++q) {
    const std::string& name = device.modes()[static_cast<std::size_t>(q)].name();
    for (const ModeEntry& e : qubits) {
      if (e.name != name) continue;
      for (const std::string& key : e.optimize) {
        precondition(!is_coupling_key(key), "device parameters", e.path + ".optimize", "a coupling key on a mode");
        DeviceParam p;
        p.kind = DeviceParam::Kind::mode;
        p.index = q;
        p.key = key;
        p.name = "device.qubits[" + name + "]." + key;
        out.push_back(p);
      }
    }
  }
  for (const CouplingEntry& e : couplings) {
    if (e.optimize.empty()) continue;
    const auto& cs = device.couplings();
    const auto it = std::find_if(cs.begin(), cs.end(), [&](const Coupling& c) { return c.path == e.path; });
    precondition(it != cs.end(), "device parameters", e.path, "a coupling the device does not have");
    for (const std::string& key : e.optimize) {
      DeviceParam p;
      p.kind = DeviceParam::Kind::coupling;
      p.index = static_cast<int>(it - cs.begin());
      p.key = key;
      p.name = e.path + "." + key;
      out.push_back(p);
    }
  }
  return out;
}

double get_param(const Device& device, const DeviceParam& p) {
  if (p.kind == DeviceParam::Kind::mode) {
    ModeParams mp = device.modes()[static_cast<std::size_t>(p.index)].params;
    return mode_field(mp, p.key);
  }
  Coupling c = device.couplings()[static_cast<std::size_t>(p.index)];
  return coupling_field(c, p.key);
}

void set_param(ResolvedDevice& resolved, const DeviceParam& p, double value) {
  if (p.kind == DeviceParam::Kind::mode)
    mode_field(resolved.modes.at(static_cast<std::size_t>(p.index)), p.key) = value;
  else
    coupling_field(resolved.couplings.at(static_cast<std::size_t>(p.index)), p.key) = value;
}

DeviceDerivative device_derivative(const Device& device, const DeviceParam& p) {
  const auto nm = static_cast<std::size_t>(device.num_modes());
  DeviceDerivative out;
  out.modes.resize(nm);
  out.touches_mode.assign(nm, 0);
  for (std::size_t q = 0; q < nm; ++q) {
    const int L = device.modes()[q].levels();
    out.modes[q].energies = RVector::Zero(L);
  }
  if (p.kind == DeviceParam::Kind::mode) {
    const auto q = static_cast<std::size_t>(p.index);
    out.modes[q] = mode_derivative(device.modes()[q], p.key);
    out.touches_mode[q] = 1;
  }
  for (std::size_t q = 0; q < nm; ++q)
    out.static_terms.push_back({{static_cast<int>(q)},
                                out.touches_mode[q] ? CMatrix(out.modes[q].energies.cast<cplx>().asDiagonal())
                                                    : CMatrix()});
  for (std::size_t i = 0; i < device.couplings().size(); ++i) {
    const Coupling& c = device.couplings()[i];
    const bool relevant = (p.kind == DeviceParam::Kind::coupling && p.index == static_cast<int>(i)) ||
                          (p.kind == DeviceParam::Kind::mode && (c.a == p.index || c.b == p.index));
    LocalTerm t;
    t.modes = {std::min(c.a, c.b), std::max(c.a, c.b)};
    if (relevant) t.matrix = coupling_derivative(device, c, p, out.modes, out.touches_mode);
    out.static_terms.push_back(std::move(t));
  }
  return out;
}

DressedDerivative dressed_derivative(const Device& device, const DressedBasis& dressed,
                                     const DeviceDerivative& d) {
  const Index D = device.dim();
  const linalg::DenseBlasPhase dense_phase(D);  // D x D products
  CMatrix dH = CMatrix::Zero(D, D);
  for (const auto& t : d.static_terms)
    if (t.matrix.size() != 0) device.add_embedded(t, dH);
  const CMatrix& W = dressed.transform;  // columns by bare index
  const CMatrix M = W.adjoint() * dH * W;
  const RVector& E = dressed.energy_of_bare;
  const double scale = std::max(1.0, E.cwiseAbs().maxCoeff());
  CMatrix X = CMatrix::Zero(D, D);
  for (Index j = 0; j < D; ++j)
    for (Index i = 0; i < D; ++i) {
      if (i == j) continue;
      const double gap = E(j) - E(i);
      if (std::abs(gap) < 1e-9) {
        if (std::abs(M(i, j)) > 1e-12 * scale)
          throw NumericalError("dressed levels " + device.label(i) + " and " + device.label(j) +
                               " are degenerate: the derivative of the dressed basis is not defined");
        continue;
      }
      X(i, j) = M(i, j) / gap;
    }
  DressedDerivative out;
  out.transform = W * X;
  // Gauge: transform(j, j) stays real, so d transform(j, j) is real.
  for (Index j = 0; j < D; ++j) {
    const double alpha = -out.transform(j, j).imag() / W(j, j).real();
    out.transform.col(j) += cplx(0.0, alpha) * W.col(j);
  }
  out.energy_of_bare = M.diagonal().real();
  out.energies.resize(D);
  for (Index k = 0; k < D; ++k) out.energies(k) = out.energy_of_bare(dressed.labels[static_cast<std::size_t>(k)]);
  return out;
}

}  // namespace qevolve::device
