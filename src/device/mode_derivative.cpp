// d(mode)/d(parameter) (include/qevolve/device_derivative.hpp, docs/models.md "Parameter
// derivatives"): the internal Hamiltonian and its parameter derivative are rebuilt on the
// mode's own internal basis (Mode::basis), fully diagonalised, and
//   dE_k = <v_k|dH|v_k>                                   (Hellmann-Feynman)
//   dv_k = sum_{m != k} v_m <v_m|dH|v_k> / (E_k - E_m)    (first order, full internal basis)
// The internal Hamiltonians are real symmetric, so the eigenvectors are real up to the constant
// phases p_k that fix_phases chooses; those phases stay fixed under a small change of the
// parameter (the condition <k-1|n|k> real positive holds along the whole real branch), so the
// kept vectors u_k = p_k v_k have du_k = p_k dv_k and the kept operators
// O_kl = u_k^dag O u_l have dO = du^dag O u + u^dag O du + u^dag dO_int u.
#include <lapacke.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "mode_internal.hpp"
#include "phase_grid.hpp"
#include "qevolve/device_derivative.hpp"
#include "qevolve/error.hpp"

namespace qevolve::device {
namespace {

/// Internal Hamiltonian, its derivative and the internal operators of one mode.
struct Internal {
  RMatrix H, dH;
  CMatrix charge, dcharge;  ///< n in the internal basis and its explicit parameter derivative
  CMatrix flux, dflux;      ///< phi + phi_ext (fluxonium) and its explicit derivative
  CMatrix cos_phi, sin_phi;  ///< tunable transmon: the flux-pulse operators (no explicit derivative)
};

[[noreturn]] void bad_key(const Mode& m, std::string_view key) {
  // The stage refuses a key the mode's type does not train (`optimize:` lists).
  throw std::logic_error("mode derivative: " + std::string(key) + ": a parameter mode `" + m.name() +
                         "` does not train (the resolution stage refuses it)");
}

Internal fluxonium_internal(const Mode& m, std::string_view key) {
  const ModeParams& p = m.params;
  detail::PhaseGrid grid;
  grid.center = m.basis.grid_center;
  grid.half_width = m.basis.grid_half_width;
  grid.points = m.basis.grid_points;
  const int n = grid.points;
  const double phi_ext = kTwoPi * p.flux;
  const RMatrix n2 = detail::spectral_n_squared(grid);
  Internal in;
  in.H = 4.0 * p.ec * n2;
  in.dH = RMatrix::Zero(n, n);
  RVector branch(n);
  for (int j = 0; j < n; ++j) {
    const double phi = grid.phi(j);
    branch(j) = phi + phi_ext;
    in.H(j, j) += 0.5 * p.el * branch(j) * branch(j) - p.ej * std::cos(phi);
    if (key == "el") in.dH(j, j) = 0.5 * branch(j) * branch(j);
    if (key == "ej") in.dH(j, j) = -std::cos(phi);
    if (key == "flux") in.dH(j, j) = p.el * branch(j) * kTwoPi;
  }
  if (key == "ec") in.dH = 4.0 * n2;
  if (key != "ec" && key != "ej" && key != "el" && key != "flux") bad_key(m, key);
  in.charge = cplx(0.0, -1.0) * detail::spectral_derivative(grid).cast<cplx>();
  in.dcharge = CMatrix::Zero(n, n);
  in.flux = branch.cast<cplx>().asDiagonal();
  in.dflux = key == "flux" ? CMatrix(kTwoPi * CMatrix::Identity(n, n)) : CMatrix::Zero(n, n);
  return in;
}

Internal transmon_internal(const Mode& m, std::string_view key) {
  const ModeParams& p = m.params;
  const int ncut = m.basis.charge_cutoff;
  const int dim = 2 * ncut + 1;
  const double ej_eff = detail::transmon_ej_eff(p);
  // d(EJ_eff)/d(key) for the hopping term.
  double dej = 0.0;
  if (p.has_asymmetry) {
    const double half = 0.5 * kTwoPi * p.flux, c = std::cos(half), s = std::sin(half);
    const double root = std::sqrt(c * c + p.asymmetry * p.asymmetry * s * s);
    if (key == "ej") dej = root;
    if (key == "flux") dej = root > 0.0 ? p.ej * kPi * s * c * (p.asymmetry * p.asymmetry - 1.0) / root : 0.0;
    if (key == "asymmetry") dej = root > 0.0 ? p.ej * p.asymmetry * s * s / root : 0.0;
  } else if (key == "ej") {
    dej = 1.0;
  }
  if (key != "ec" && key != "ej" && key != "ng" && key != "flux" && key != "asymmetry") bad_key(m, key);
  Internal in;
  in.H = RMatrix::Zero(dim, dim);
  in.dH = RMatrix::Zero(dim, dim);
  RVector q(dim);
  for (int j = 0; j < dim; ++j) {
    q(j) = (m.basis.charge_centre + (j - ncut)) - p.ng;
    in.H(j, j) = 4.0 * p.ec * q(j) * q(j);
    if (key == "ec") in.dH(j, j) = 4.0 * q(j) * q(j);
    if (key == "ng") in.dH(j, j) = -8.0 * p.ec * q(j);
    if (j + 1 < dim) {
      in.H(j + 1, j) = in.H(j, j + 1) = -0.5 * ej_eff;
      in.dH(j + 1, j) = in.dH(j, j + 1) = -0.5 * dej;
    }
  }
  in.charge = q.cast<cplx>().asDiagonal();
  in.dcharge = key == "ng" ? CMatrix(-CMatrix::Identity(dim, dim)) : CMatrix::Zero(dim, dim);
  if (m.cos_phi.size() > 0) {
    detail::JosephsonOperators j = detail::josephson_operators(dim);
    in.cos_phi = std::move(j.cos_phi);
    in.sin_phi = std::move(j.sin_phi);
  }
  return in;
}

/// Oscillators: Fock-basis operators do not depend on the parameters; only energies do.
ModeDerivative oscillator_derivative(const Mode& m, std::string_view key) {
  const bool duffing = m.params.type == ModeType::duffing;
  if (key != "frequency" && !(duffing && key == "anharmonicity")) bad_key(m, key);
  const int d = m.levels();
  ModeDerivative out;
  out.energies.resize(d);
  for (int k = 0; k < d; ++k) {
    if (key == "frequency") out.energies(k) = duffing ? k : k + 0.5;
    else out.energies(k) = 0.5 * k * (k - 1);
  }
  out.charge = CMatrix::Zero(d, d);
  out.flux = CMatrix::Zero(d, d);
  out.lowering = CMatrix::Zero(d, d);
  out.number = CMatrix::Zero(d, d);
  return out;
}

}  // namespace

ModeDerivative mode_derivative(const Mode& mode, std::string_view key) {
  const ModeType type = mode.params.type;
  if (type == ModeType::resonator || type == ModeType::duffing) return oscillator_derivative(mode, key);
  const Internal in = type == ModeType::fluxonium ? fluxonium_internal(mode, key)
                                                  : transmon_internal(mode, key);
  const auto n = static_cast<Index>(in.H.rows());
  const int L = mode.levels();
  // Full eigen-decomposition of the internal Hamiltonian.
  RMatrix V = in.H;
  RVector E(n);
  const lapack_int info = LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'V', 'L', static_cast<lapack_int>(n),
                                         V.data(), static_cast<lapack_int>(n), E.data());
  if (info != 0) throw NumericalError("mode_derivative: dsyevd failed with info " + std::to_string(info));

  // The kept vectors with the mode's phase convention, and their phases p_k.
  const RMatrix VL = V.leftCols(L);
  CMatrix U = VL.cast<cplx>();
  CMatrix charge_kept = U.adjoint() * in.charge * U;
  fix_phases(U, charge_kept);
  CVector phase(L);
  for (int k = 0; k < L; ++k) {
    Index i = 0;
    VL.col(k).cwiseAbs().maxCoeff(&i);
    phase(k) = U(i, k) / VL(i, k);
  }

  // Hellmann-Feynman and first-order eigenvector derivatives (full internal basis).
  const RMatrix M = V.transpose() * in.dH * V.leftCols(L);  // <v_m|dH|v_k>, k kept
  const double scale = std::max(1.0, E.cwiseAbs().maxCoeff());
  ModeDerivative out;
  out.energies.resize(L);
  RMatrix dV = RMatrix::Zero(n, L);
  for (int k = 0; k < L; ++k) {
    out.energies(k) = M(k, k);
    RVector coeff = RVector::Zero(n);
    for (Index m = 0; m < n; ++m) {
      if (m == k) continue;
      const double gap = E(k) - E(m);
      if (std::abs(gap) < 1e-9) {
        if (std::abs(M(m, k)) > 1e-12 * scale)
          throw NumericalError("mode '" + mode.name() + "': levels " + std::to_string(k) + " and " +
                               std::to_string(m) + " are degenerate (gap " + std::to_string(gap) +
                               " GHz): the derivative is not defined");
        continue;
      }
      coeff(m) = M(m, k) / gap;
    }
    dV.col(k) = V * coeff;
  }
  const CMatrix dU = dV.cast<cplx>() * phase.asDiagonal();
  auto kept = [&](const CMatrix& O, const CMatrix& dO) {
    const CMatrix d = dU.adjoint() * O * U + U.adjoint() * O * dU + U.adjoint() * dO * U;
    return CMatrix(0.5 * (d + d.adjoint()));
  };
  out.charge = kept(in.charge, in.dcharge);
  if (type == ModeType::fluxonium) out.flux = kept(in.flux, in.dflux);
  if (in.cos_phi.size() > 0) {
    const CMatrix zero = CMatrix::Zero(n, n);
    out.cos_phi = kept(in.cos_phi, zero);
    out.sin_phi = kept(in.sin_phi, zero);
  }
  out.lowering = CMatrix::Zero(L, L);
  out.number = CMatrix::Zero(L, L);
  return out;
}

const CMatrix* op_derivative(const Mode& mode, const ModeDerivative& d, std::string_view op) {
  if (op == "number") return &d.number;
  if (op == "lowering") return &d.lowering;
  if (mode.is_oscillator()) {
    if (op == "x") return &d.flux;
    if (op == "y") return &d.charge;
    return nullptr;
  }
  if (op == "n") return &d.charge;
  if (op == "phi" && mode.has_flux_operator()) return &d.flux;
  if (op == "cos_phi" && d.cos_phi.size() > 0) return &d.cos_phi;
  if (op == "sin_phi" && d.sin_phi.size() > 0) return &d.sin_phi;
  return nullptr;
}

}  // namespace qevolve::device
