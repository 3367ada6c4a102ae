// The compensation solver: starts (given, zero, analytic, seeded random), exact site sweeps,
// BFGS polish with exact gradients, then selection of the canonical optimum.
#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/SVD>

#include "local_ops.hpp"
#include "qevolve/error.hpp"
#include "solver_internal.hpp"

namespace qevolve::fidelity {
namespace detail {
namespace {

/// Local optima whose F is within this of the best are canonicalised and compared by norm;
/// after canonicalisation (Newton-polished, F exact to rounding ~1e-15) candidates within
/// kTie of the best count as equally good and the minimum-norm one is reported.
constexpr double kLooseTie = 1e-9;
constexpr double kTie = 1e-12;

/// Per-qubit phases th_q = 1/2 arg(sum_{k: k_q = 0} conj(c_k) c_{k(q->1)}): the best single
/// diagonal layer for a diagonal c, qubit by qubit (exact when arg c_k is linear in the bits).
RVector diagonal_phases(const CVector& c, int n) {
  RVector th(n);
  for (int q = 0; q < n; ++q) {
    const Index bit = qubit_bit(q, n);
    cplx acc{0.0, 0.0};
    for (Index k = 0; k < c.size(); ++k)
      if (!(k & bit)) acc += std::conj(c(k)) * c(k | bit);
    th(q) = std::abs(acc) > 0.0 ? 0.5 * std::arg(acc) : 0.0;
  }
  return th;
}

/// A diagonal layer of phases as angles of `kind` (vz: th; single_qubit: RZ(-th) RZ(-th) = Z(th)).
void put_layer(Compensation kind, RVector& x, const RVector& th, bool post) {
  const int n = static_cast<int>(th.size());
  for (int q = 0; q < n; ++q) {
    const Index s = post ? n + q : q;
    if (kind == Compensation::vz) {
      x(s) = th(q);
    } else {
      x(3 * s) = -th(q);
      x(3 * s + 1) = 0.0;
      x(3 * s + 2) = -th(q);
    }
  }
}

bool lexicographically_larger(const RVector& a, const RVector& b) {
  for (Index i = 0; i < a.size(); ++i) {
    if (a(i) > b(i) + 1e-9) return true;
    if (a(i) < b(i) - 1e-9) return false;
  }
  return false;
}

}  // namespace

double fidelity_at(CompensationObjective& obj, const RVector& x, RVector* gradient) {
  obj.set_angles(x);
  const ObjectiveValue v = objective(obj.kind(), obj.dim(), x, obj.sums());
  if (!std::isfinite(v.fidelity)) throw NumericalError("compensation: fidelity is not finite");
  if (gradient != nullptr) *gradient = v.gradient;
  return v.fidelity;
}

double angle_period(Compensation kind) {
  return kind == Compensation::vz ? kPi : kTwoPi;
}

RVector reduce_angles(Compensation kind, const RVector& x) {
  const double p = angle_period(kind);
  RVector y = x;
  for (Index i = 0; i < y.size(); ++i) {
    double v = y(i) - p * std::round(y(i) / p);
    if (v <= -0.5 * p) v += p;
    if (v > 0.5 * p) v -= p;
    y(i) = v;
  }
  return y;
}

RVector site_sweeps(CompensationObjective& obj, RVector x, int max_sweeps) {
  const Compensation kind = obj.kind();
  const int m = angles_per_site(kind), sites = 2 * obj.num_qubits();
  if (sites == 0) return x;
  obj.set_angles(x);
  double previous = -1.0;
  for (int sweep = 0; sweep < max_sweeps; ++sweep) {
    double tau_abs = 0.0;
    for (int s = 0; s < sites; ++s) {
      const Mat2 e = obj.site_environment(s);
      RVector seg = x.segment(static_cast<Index>(m) * s, m);
      if (kind == Compensation::vz) {
        // tau(delta) = e^{i delta} E00 + e^{-i delta} E11: align the two phases.
        const cplx c = e(1, 1) * std::conj(e(0, 0));
        if (std::abs(c) > 0.0) seg(0) += 0.5 * std::arg(c);
        tau_abs = std::abs(e(0, 0)) + std::abs(e(1, 1));
      } else {
        // tau(r_new) = Tr(r_new K), K = r^dag E^T; max over U(2): r_new = V W^dag, K = W S V^dag.
        const Mat2 r = site_factor(kind, seg.data());
        const Mat2 k = r.adjoint() * e.transpose();
        const Eigen::JacobiSVD<Mat2> svd(k, Eigen::ComputeFullU | Eigen::ComputeFullV);
        if (svd.singularValues().sum() > 0.0) {
          euler_angles(svd.matrixV() * svd.matrixU().adjoint(), seg.data());
        }
        tau_abs = svd.singularValues().sum();
      }
      x.segment(static_cast<Index>(m) * s, m) = seg;
      obj.set_site(s, seg);
    }
    const double t2 = tau_abs * tau_abs;
    if (t2 - previous <= 1e-12 * std::max(t2, 1e-300)) break;
    previous = t2;
  }
  return x;
}

RVector bfgs_maximize(CompensationObjective& obj, RVector x, int max_iterations) {
  const Index n = x.size();
  if (n == 0) return x;
  RVector g, gn;
  double f = -fidelity_at(obj, x, &g);  // minimise f = -F
  g = -g;
  RMatrix h = RMatrix::Identity(n, n);
  bool identity = true;
  constexpr double kEps = std::numeric_limits<double>::epsilon();
  for (int it = 0; it < max_iterations; ++it) {
    if (g.lpNorm<Eigen::Infinity>() < 1e-14) break;
    RVector p = -h * g;
    if (p.dot(g) >= 0.0) {
      h.setIdentity();
      identity = true;
      p = -g;
    }
    // Angles live on a torus of period >= pi: never try steps beyond 1 rad per coordinate.
    const double pmax = p.lpNorm<Eigen::Infinity>();
    if (pmax > 1.0) p *= 1.0 / pmax;
    const double slope = p.dot(g);
    double t = 1.0, fn = 0.0;
    RVector xn;
    bool accepted = false;
    for (int ls = 0; ls < 50; ++ls) {
      xn = x + t * p;
      fn = -fidelity_at(obj, xn, &gn);
      gn = -gn;
      // Armijo, or (at rounding level of f) a smaller gradient: lets the polish go below the
      // sqrt(eps) barrier of a value-only line search.
      if (fn <= f + 1e-4 * t * slope ||
          (fn <= f + 8.0 * kEps * std::abs(f) && gn.norm() < g.norm())) {
        accepted = true;
        break;
      }
      t *= 0.5;
    }
    if (!accepted) {
      if (identity) break;
      h.setIdentity();
      identity = true;
      continue;
    }
    const RVector s = xn - x, y = gn - g;
    const double sy = s.dot(y);
    if (sy > 1e-12 * s.norm() * y.norm() && sy > 0.0) {
      if (identity) h *= sy / y.squaredNorm();
      const double rho = 1.0 / sy;
      const RVector hy = h * y;
      // H <- (I - rho s y^T) H (I - rho y s^T) + rho s s^T
      h += (rho * rho * y.dot(hy) + rho) * (s * s.transpose()) -
           rho * (hy * s.transpose() + s * hy.transpose());
      identity = false;
    }
    const double step = s.lpNorm<Eigen::Infinity>();
    x = xn;
    f = fn;
    g = gn;
    if (step < 1e-15) break;
  }
  return x;
}

/// The starts of the local optimisations: given, zero, two analytic ones (diagonal phases of
/// U_t^dag U for the pre layer, of U U_t^dag for the post layer), for single_qubit the
/// Pauli-frame fits, then seeded random ones.
std::vector<RVector> compensation_starts(const CompensationOptions& options, Compensation kind, int n, Index count,
                                         const StartSums& ss) {
  std::vector<RVector> starts;
  if (options.initial_angles) {
    if (options.initial_angles->size() != count)
      throw Error("compensation: initial_angles has " +
                  std::to_string(options.initial_angles->size()) + " entries, expected " +
                  std::to_string(count));
    starts.push_back(*options.initial_angles);
  }
  starts.push_back(RVector::Zero(count));
  for (const bool post : {false, true}) {
    RVector x = RVector::Zero(count);
    put_layer(kind, x, diagonal_phases(post ? ss.row_sums : ss.col_sums, n), post);
    starts.push_back(x);
  }
  if (kind == Compensation::single_qubit)
    for (RVector& x : pauli_frame_starts(ss, n, options.seed, 2)) starts.push_back(std::move(x));
  const double period = angle_period(kind);
  for (int r = 0; r < options.restarts; ++r) {
    std::uint64_t state =
        options.seed ^ (0xD1B54A32D192ED03ULL * static_cast<std::uint64_t>(r + 1));
    RVector x(count);
    for (Index i = 0; i < count; ++i) x(i) = period * (uniform(state) - 0.5);
    starts.push_back(x);
  }

  return starts;
}

}  // namespace detail

CompensationSolution solve_compensation(CompensationObjective& obj,
                                        const CompensationOptions& options) {
  using namespace detail;
  const Compensation kind = obj.kind();
  const int n = obj.num_qubits();
  const Index count = compensation_angle_count(kind, n);
  CompensationSolution out;
  out.angles = RVector::Zero(count);
  if (count == 0) {
    out.fidelity = fidelity_at(obj, out.angles);
    out.candidates = 1;
    return out;
  }

  const StartSums ss = obj.start_sums();
  const std::vector<RVector> starts = compensation_starts(options, kind, n, count, ss);
  // single_qubit: the target's exact gauge orbit, for the canonical angles.
  const GaugeOrbit orbit =
      kind == Compensation::single_qubit ? GaugeOrbit(ss.pauli_t, n) : GaugeOrbit();

  // Local optimisation of every start.
  const int max_sweeps = 30, max_bfgs = 500;
  std::vector<RVector> found;
  std::vector<double> value;
  for (const RVector& x0 : starts) {
    RVector x = bfgs_maximize(obj, site_sweeps(obj, x0, max_sweeps), max_bfgs);
    value.push_back(fidelity_at(obj, x));
    found.push_back(std::move(x));
  }
  double best = -1.0;
  for (const double v : value) best = std::max(best, v);

  std::vector<RVector> cand;
  std::vector<double> cand_f;
  for (std::size_t i = 0; i < found.size(); ++i) {
    if (value[i] < best - kLooseTie) continue;
    if (!options.canonicalize) {  // the first start reaching the best value
      if (value[i] == best) {
        out.angles = reduce_angles(kind, found[i]);
        out.fidelity = fidelity_at(obj, out.angles);
        out.candidates = 1;
        return out;
      }
      continue;
    }
    if (orbit.dimension() > 0 && !cand.empty()) {
      // A start that ended on the gauge orbit of a candidate already canonicalised has the
      // same canonical angles: recognised on the orbit alone, without another polish (whose
      // exact Hessian is O(N^2 d^2)).
      const std::optional<RVector> quick = orbit_least_norm(orbit, found[i]);
      if (quick && std::any_of(cand.begin(), cand.end(), [&](const RVector& other) {
            return (*quick - other).lpNorm<Eigen::Infinity>() < 1e-8;
          }))
        continue;
    }
    RVector c = canonical_angles(obj, found[i], &orbit);
    // Skip duplicates of an already canonicalised candidate.
    bool duplicate = false;
    for (const RVector& other : cand)
      duplicate = duplicate || (c - other).lpNorm<Eigen::Infinity>() < 1e-9;
    if (duplicate) continue;
    cand_f.push_back(fidelity_at(obj, c));
    cand.push_back(std::move(c));
  }
  double best_c = -1.0;
  for (const double v : cand_f) best_c = std::max(best_c, v);
  int chosen = -1;
  for (std::size_t i = 0; i < cand.size(); ++i) {
    if (cand_f[i] < best_c - kTie) continue;
    ++out.candidates;
    if (chosen < 0) {
      chosen = static_cast<int>(i);
      continue;
    }
    const RVector& cur = cand[static_cast<std::size_t>(chosen)];
    const double ni = cand[i].norm(), nc = cur.norm();
    if (ni < nc - 1e-9 || (std::abs(ni - nc) <= 1e-9 && lexicographically_larger(cand[i], cur)))
      chosen = static_cast<int>(i);
  }
  out.angles = cand[static_cast<std::size_t>(chosen)];
  out.fidelity = fidelity_at(obj, out.angles);
  return out;
}

}  // namespace qevolve::fidelity
