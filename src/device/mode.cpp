// Mode accessors, the dispatching diagonalise() with its memo cache, the eigenvector phase
// convention, and the helpers shared by the model files.
#include "qevolve/mode.hpp"

#include <lapacke.h>

#include <array>
#include <cmath>
#include <compare>
#include <cstddef>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "mode_internal.hpp"
#include "phase_grid.hpp"
#include "qevolve/error.hpp"
#include "qevolve/names.hpp"

namespace qevolve::device {

// ---------------------------------------------------------------------------------------------
// Mode accessors
// ---------------------------------------------------------------------------------------------

std::string_view default_operator(ModeType type) {
  switch (type) {
    case ModeType::fluxonium: return "phi";
    case ModeType::transmon: return "n";
    case ModeType::resonator:
    case ModeType::duffing: return "x";
  }
  return "x";
}

bool has_operator(ModeType type, std::string_view name) {
  if (name == "number" || name == "lowering") return true;
  if (type == ModeType::resonator || type == ModeType::duffing) return name == "x" || name == "y";
  return name == "n" || (name == "phi" && type != ModeType::transmon);
}

std::string_view Mode::default_operator() const { return device::default_operator(params.type); }

bool accepts_pulse_operator(const ModeParams& mode, std::string_view op) {
  const bool oscillator = mode.type == ModeType::resonator || mode.type == ModeType::duffing;
  if (op == "flux") return mode.type == ModeType::fluxonium || (mode.type == ModeType::transmon && mode.has_asymmetry);
  if (op == "number") return oscillator;
  return op != "lowering" && has_operator(mode.type, op);
}

std::string pulse_operators(const ModeParams& mode) {
  std::string out;
  for (const std::string_view op : {"phi", "n", "x", "y", "flux", "number"})
    if (accepts_pulse_operator(mode, op)) out += (out.empty() ? "" : " | ") + std::string(op);
  return out;
}

const CMatrix* Mode::op(std::string_view name) const {
  if (name == "cos_phi" || name == "sin_phi") {
    const CMatrix& m = name == "cos_phi" ? cos_phi : sin_phi;
    return m.size() > 0 ? &m : nullptr;
  }
  if (!has_operator(params.type, name)) return nullptr;
  if (name == "number") return &number;
  if (name == "lowering") return &lowering;
  if (name == "x" || name == "phi") return &flux;
  return &charge;  // n, y
}

// ---------------------------------------------------------------------------------------------
// Phase convention (docs/models.md "Phase convention")
// ---------------------------------------------------------------------------------------------

namespace {

// Index of the largest-magnitude entry of column k; near ties (relative 1e-8) go to the lowest
// index, so the choice does not depend on rounding between mirror-symmetric entries.
Index largest_component(const CMatrix& vectors, Index k) {
  const double top = vectors.col(k).cwiseAbs().maxCoeff();
  for (Index i = 0; i < vectors.rows(); ++i) {
    if (std::abs(vectors(i, k)) >= top * (1.0 - 1e-8)) return i;
  }
  return 0;
}

// Multiplies eigenvector k by `phase` and updates row and column k of the charge matrix.
void rephase(CMatrix& vectors, CMatrix& charge, Index k, cplx phase) {
  vectors.col(k) *= phase;
  charge.col(k) *= phase;
  charge.row(k) *= std::conj(phase);
}

cplx unit_phase_of_conj(cplx z) { return std::conj(z) / std::abs(z); }

}  // namespace

void fix_phases(CMatrix& vectors, CMatrix& charge_in_eigenbasis) {
  const Index m = vectors.cols();
  if (charge_in_eigenbasis.rows() != m || charge_in_eigenbasis.cols() != m) {
    throw NumericalError("fix_phases: the charge matrix is " +
                         std::to_string(charge_in_eigenbasis.rows()) + "x" +
                         std::to_string(charge_in_eigenbasis.cols()) + " but there are " +
                         std::to_string(m) + " eigenvectors");
  }
  for (Index k = 0; k < m; ++k) {
    const cplx z = k > 0 ? charge_in_eigenbasis(k - 1, k) : cplx(0.0, 0.0);
    if (k > 0 && std::abs(z) >= 1e-10) {
      rephase(vectors, charge_in_eigenbasis, k, unit_phase_of_conj(z));
    } else {
      // |0> (which the convention leaves free) and the fallback: largest component real > 0.
      const cplx big = vectors(largest_component(vectors, k), k);
      if (std::abs(big) > 0.0) rephase(vectors, charge_in_eigenbasis, k, unit_phase_of_conj(big));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// diagonalise() and its memo cache
// ---------------------------------------------------------------------------------------------

namespace {

// Exact parameter values that determine a mode's matrices (the name does not). Fields a model
// does not read are zeroed so they cannot split the cache.
struct CacheKey {
  int type = 0;
  int levels = 0;
  int basis_size = 0;
  int has_asymmetry = 0;
  std::array<double, 8> values{};
  auto operator<=>(const CacheKey&) const = default;
};

CacheKey make_key(const ModeParams& p) {
  CacheKey key;
  key.type = static_cast<int>(p.type);
  key.levels = p.levels;
  key.basis_size = p.basis_size;
  switch (p.type) {
    case ModeType::fluxonium: key.values = {p.ec, p.ej, p.el, p.flux, 0, 0, 0, 0}; break;
    case ModeType::transmon:
      key.has_asymmetry = p.has_asymmetry ? 1 : 0;
      key.values = {p.ec, p.ej, 0, p.has_asymmetry ? p.flux : 0.0, p.ng,
                    p.has_asymmetry ? p.asymmetry : 0.0, 0, 0};
      break;
    case ModeType::resonator: key.values = {0, 0, 0, 0, 0, 0, p.frequency, 0}; break;
    case ModeType::duffing: key.values = {0, 0, 0, 0, 0, 0, p.frequency, p.anharmonicity}; break;
  }
  return key;
}

bool all_finite(const ModeParams& p) {
  for (double v : {p.ec, p.ej, p.el, p.flux, p.ng, p.asymmetry, p.frequency, p.anharmonicity}) {
    if (!std::isfinite(v)) return false;
  }
  return true;
}

class ModeCache {
 public:
  static constexpr std::size_t kCapacity = 512;

  bool find(const CacheKey& key, Mode& out) {
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto it = modes_.find(key);
    if (it == modes_.end()) return false;
    out = it->second;
    return true;
  }

  void insert(const CacheKey& key, const Mode& mode) {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (!modes_.emplace(key, mode).second) return;
    order_.push_back(key);
    while (order_.size() > kCapacity) {  // oldest first: optimisations move on, chains repeat
      modes_.erase(order_.front());
      order_.pop_front();
    }
  }

 private:
  std::mutex mutex_;
  std::map<CacheKey, Mode> modes_;
  std::deque<CacheKey> order_;
};

ModeCache& cache() {
  static ModeCache instance;
  return instance;
}

Mode compute(const ModeParams& params) {
  switch (params.type) {
    case ModeType::fluxonium: return diagonalise_fluxonium(params);
    case ModeType::transmon: return diagonalise_transmon(params);
    case ModeType::resonator:
    case ModeType::duffing: return diagonalise_oscillator(params);
  }
  detail::fail(params, "unknown mode type");
}

}  // namespace

Mode diagonalise(const ModeParams& params) {
  // NaN would break the key ordering; let the model report it.
  if (!all_finite(params)) return compute(params);
  const CacheKey key = make_key(params);
  Mode mode;
  if (cache().find(key, mode)) {
    mode.params = params;
    return mode;
  }
  mode = compute(params);  // outside the lock: modes are independent
  cache().insert(key, mode);
  return mode;
}

Mode diagonalise_on(const ModeParams& params, const InternalBasis& basis) {
  if (params.type == ModeType::fluxonium && basis.grid_points > 0) {
    detail::PhaseGrid grid;
    grid.center = basis.grid_center;
    grid.half_width = basis.grid_half_width;
    grid.points = basis.grid_points;
    return detail::diagonalise_fluxonium_on(params, grid);
  }
  if (params.type == ModeType::transmon && basis.charge_cutoff > 0)
    return detail::diagonalise_transmon_on(params, basis.charge_centre, basis.charge_cutoff);
  return diagonalise(params);
}

// ---------------------------------------------------------------------------------------------
// Shared helpers
// ---------------------------------------------------------------------------------------------

namespace detail {

void fail(const ModeParams& params, const std::string& problem) {
  throw NumericalError("mode '" + params.name + "' (" + enum_name(params.type) + "): " + problem);
}

void require_finite(const ModeParams& params, const char* key, double value) {
  if (!std::isfinite(value)) fail(params, std::string(key) + " is not finite");
}

void lowest_eigenpairs(RMatrix& h, int count, RVector& values, RMatrix& vectors) {
  const auto n = static_cast<lapack_int>(h.rows());
  if (h.cols() != h.rows() || count < 1 || count > n) {
    throw NumericalError("lowest_eigenpairs: bad request (" + std::to_string(count) +
                         " eigenpairs of a " + std::to_string(h.rows()) + "x" +
                         std::to_string(h.cols()) + " matrix)");
  }
  if (!h.allFinite()) throw NumericalError("lowest_eigenpairs: matrix contains NaN or inf");
  RVector w(n);
  vectors.resize(n, count);
  std::vector<lapack_int> support(2 * static_cast<std::size_t>(count));
  lapack_int found = 0;
  const lapack_int info =
      LAPACKE_dsyevr(LAPACK_COL_MAJOR, 'V', 'I', 'L', n, h.data(), n, 0.0, 0.0, 1, count,
                     LAPACKE_dlamch('S'), &found, w.data(), vectors.data(), n, support.data());
  if (info != 0 || found != count) {
    throw NumericalError("dsyevr failed (info " + std::to_string(info) + ", found " +
                         std::to_string(found) + " of " + std::to_string(count) + ")");
  }
  values = w.head(count);
}

void fill_ladder_operators(Mode& mode) {
  const int d = mode.params.levels;
  mode.lowering = CMatrix::Zero(d, d);
  mode.number = CMatrix::Zero(d, d);
  for (int k = 0; k < d; ++k) {
    mode.number(k, k) = static_cast<double>(k);
    if (k > 0) mode.lowering(k - 1, k) = std::sqrt(static_cast<double>(k));
  }
}

double wkb_edge(double u_t, double coef, double action) {
  // F(u) = coef * [u sqrt(u^2 - u_t^2) / 2 - (u_t^2 / 2) acosh(u / u_t)], increasing in u.
  const auto f = [&](double u) {
    if (u_t <= 0.0) return coef * 0.5 * u * u;
    const double r = std::sqrt(std::max(0.0, u * u - u_t * u_t));
    return coef * 0.5 * (u * r - u_t * u_t * std::acosh(std::max(1.0, u / u_t)));
  };
  double lo = u_t;
  double step = 1.0;
  while (f(u_t + step) < action) step *= 2.0;
  double hi = u_t + step;
  for (int it = 0; it < 200 && hi - lo > 1e-12 * hi; ++it) {
    const double mid = 0.5 * (lo + hi);
    (f(mid) < action ? lo : hi) = mid;
  }
  return hi;
}

}  // namespace detail
}  // namespace qevolve::device
