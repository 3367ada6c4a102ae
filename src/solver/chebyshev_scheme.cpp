// The Chebyshev scheme (scheme.hpp): trotter (midpoint) or magnus4 with splitting: chebyshev.
// Each gate step's exponential exp(-i 2 pi dt H_u) -- the same generator as splitting: dense --
// is applied to the evolved columns only, by its Chebyshev series to kChebyshevTolerance
// (chebyshev.hpp), so a step costs about (R + 15) products of the generator with the D x m
// columns (R = pi dt (hi - lo), the spectral width the step spans) and no eigen-decomposition.
// The generator is kept sparse (every term acts on one or two modes) and, when H0 is real, real,
// with the drive channels whose operators are imaginary applied as local one-mode terms.
// The spectral interval of every step is a rigorous (Weyl) bound: the sum of the eigenvalue
// ranges of the couplings and undriven modes (fixed) and of each driven mode's energies plus its
// drives at the step's coefficients (a small eigenproblem per step). Closed systems only (the
// resolution stage refuses evolution.noise); its adjoint (adjoint_steps.cpp) differentiates the series
// (chebyshev_adjoint) on the backend's Chebyshev adjoint executor.
#include <algorithm>

#include "chebyshev.hpp"
#include "device_select.hpp"
#include "observe_points.hpp"
#include "scheme.hpp"
#include "time_grid.hpp"

namespace qevolve::solver {
namespace {

/// Entries of H0 or of a drive operator at most this fraction of the matrix's largest entry are
/// left out of the sparse generator (docs/solvers.md "`splitting: chebyshev`").
constexpr double kStructural = 1e-14;

/// Smallest and largest eigenvalue of a (small) Hermitian matrix.
std::pair<double, double> eigen_range(const CMatrix& m) {
  const Eigen::SelfAdjointEigenSolver<CMatrix> es(m, Eigen::EigenvaluesOnly);
  return {es.eigenvalues().minCoeff(), es.eigenvalues().maxCoeff()};
}

class ChebyshevScheme final : public Scheme {
 public:
  ChebyshevScheme(const Simulator& sim, SharedCache& shared) {
    const device::Device& dev = sim.device();
    h0_ = dev.dense_h0();
    // The spectral bound: a driven mode's own energies and its channels together (exact, one
    // small eigenproblem per step), every other static term by its fixed range.
    const auto statics = dev.static_terms();
    std::vector<int> driven_index(statics.size(), -1);
    for (std::size_t j = 0; j < sim.drive().channels().size(); ++j) {
      const DriveChannel& ch = sim.drive().channels()[j];
      const CMatrix& O = *dev.modes()[static_cast<std::size_t>(ch.mode)].op(ch.op);
      ops_.push_back(dev.embed({{ch.mode}, O}));
      int& k = driven_index[static_cast<std::size_t>(ch.mode)];  // mode terms come first, in mode order
      if (k < 0) {
        k = static_cast<int>(driven_.size());
        driven_.push_back({statics[static_cast<std::size_t>(ch.mode)].matrix, {}});
      }
      driven_[static_cast<std::size_t>(k)].channels.emplace_back(j, O);
    }
    for (std::size_t t = 0; t < statics.size(); ++t) {
      if (driven_index[t] >= 0) continue;
      const auto [lo, hi] = eigen_range(statics[t].matrix);
      h0_lo_ += lo;
      h0_hi_ += hi;
    }
    make_generator_parts(sim);
    ++shared.dense_builds;
  }

  void set_steps(const Simulator& /*sim*/, const SharedCache& /*shared*/) override {}

  void evolve(const Simulator& sim, const SharedCache& /*shared*/, CMatrix& state, const Progress& progress,
              const StepObserver& observe) const override {
    const TimeGrid grid = sim.drive().time_grid();
    const auto coefficients = sim.drive().substep_coefficients();
    const int per = grid.samples_per_step();
    const std::vector<int> at = observe ? scaled_points(observed_steps(sim.options(), observe), per) : std::vector<int>();
    const double tau = kTwoPi * grid.substep_dt();
    // Columns are independent: the executor carries each block of them through a whole segment
    // (between observation points; without a trace, the whole run) with no barrier per step.
    const Index n = state.cols();
    const int threads = std::max(1, sim.options().threads);
    const Index blocks = std::max<Index>(1, std::min<Index>(n, threads));
    const Index width = (n + blocks - 1) / blocks;
    const double flops = 8.0 * static_cast<double>(pattern_.col.size()) * static_cast<double>(n) * 20.0 *
                         grid.substeps();  // ~20 products per step
    const auto executor = make_chebyshev_executor(sim.options().device, state.rows(), n, width, threads, flops);
    // A block observer sees each block at the boundaries inside the segment (the run stays one
    // segment); else the segments end at the boundaries and the state is shown.
    bool in_blocks = false;
    if (observe && observe.block) {
      backend::BlockObserver<double> o{{}, [&observe, per](int u, Index c0, Index w, const double* re, const double* im) {
                                         observe.block(u / per, c0, w, re, im);
                                       }};
      for (int u : at)
        if (u > 0) o.at.push_back(u);
      in_blocks = executor->observe_blocks(std::move(o));
    }
    ObservePoints points([&observe, per](int u, const CMatrix& s) { observe(u / per, s); },
                         in_blocks ? std::vector<int>() : at);
    if (in_blocks && !at.empty() && at.front() == 0) observe(0, state);
    const auto step = [&](int u, backend::ChebyshevStep& data) {
      std::vector<double> c;
      coefficients(u, c);
      generator(c, data.h);
      data.series = series(tau, c);
    };
    const auto done = [&](int u) {
      if (progress) progress(static_cast<double>(u + 1) / grid.substeps());
    };
    int u0 = 0;
    if (points.due(0)) points.call(0, state);
    executor->upload(state);
    while (u0 < grid.substeps()) {
      const int u1 = points.clip(u0, grid.substeps());
      executor->apply(u0, u1, step, done);
      u0 = u1;
      if (points.due(u0)) {
        executor->download(state);
        points.call(u0, state);
        executor->upload(state);
      }
    }
    executor->download(state);
  }

  void adjoint(const Simulator& sim, const SharedCache& /*shared*/, CMatrix& psi, CMatrix& lambda,
               const std::vector<HamiltonianTangent>& tangents, const SubstepCotangent& on_substep,
               std::vector<double>& tangent_sums) const override {
    const TimeGrid grid = sim.drive().time_grid();
    const double tau = kTwoPi * grid.substep_dt();
    Generator H;
    const Entries at = directions(sim, tangents);
    const auto executor = make_chebyshev_adjoint_executor(sim.options().device);
    executor->upload(psi, lambda);
    StepsAdjointJob job{{}, &ops_, sim.drive().substep_coefficients(), grid.substeps()};
    // adjoint_steps hands back the psi and lambda it was given: the executor's, uploaded above.
    job.step_back = [&](const std::vector<double>& c, CMatrix& /*p*/, CMatrix& /*l*/) -> DenseContraction {
      generator(c, H);
      std::vector<cplx> m = chebyshev_adjoint(series(tau, c), H, *executor, at);
      return [&at, m = std::move(m)](const CMatrix& E) {
        double sum = 0.0;
        for (std::size_t k = 0; k < m.size(); ++k) sum += (E(at.row[k], at.col[k]) * m[k]).real();
        return 2.0 * sum;
      };
    };
    adjoint_steps(job, sim.device(), sim.drive().channels(), psi, lambda, tangents, on_substep, tangent_sums);
    executor->download(psi, lambda);
  }

  void evolve_density(const Simulator& /*sim*/, const SharedCache& /*shared*/, CMatrix& /*vecs*/,
                      const Progress& /*progress*/, const StepObserver& /*observe*/) const override {
    throw std::logic_error("splitting: chebyshev evolves closed systems only (the resolution stage refuses noise)");
  }

  // dense_hamiltonian: the Scheme default (H0 and the embedded channels from the device).

 private:
  /// A mode with drive channels: its energy term and each channel's (index, local operator).
  struct DrivenMode {
    CMatrix energies;
    std::vector<std::pair<std::size_t, CMatrix>> channels;
  };

  /// Where the adjoint's directions can be nonzero: the drive operators and every tangent's
  /// static terms and channel operators, embedded (each acts on one or two modes).
  [[nodiscard]] Entries directions(const Simulator& sim, const std::vector<HamiltonianTangent>& tangents) const {
    const device::Device& dev = sim.device();
    const Index D = h0_.rows();
    std::vector<char> mask(static_cast<std::size_t>(D * D), 0);
    auto mark = [&](const CMatrix& E) {
      for (Index j = 0; j < D; ++j)
        for (Index i = 0; i < D; ++i)
          if (E(i, j) != cplx(0.0, 0.0)) mask[static_cast<std::size_t>(i * D + j)] = 1;
    };
    for (const CMatrix& O : ops_) mark(O);
    const auto statics = dev.static_terms();
    for (const HamiltonianTangent& t : tangents) {
      for (std::size_t i = 0; i < t.static_terms.size(); ++i)
        if (t.static_terms[i].size() != 0) mark(dev.embed({statics[i].modes, t.static_terms[i]}));
      for (std::size_t j = 0; j < t.channels.size() && j < sim.drive().channels().size(); ++j)
        if (t.channels[j].size() != 0) mark(dev.embed({{sim.drive().channels()[j].mode}, t.channels[j]}));
    }
    Entries at;
    for (Index i = 0; i < D; ++i)
      for (Index j = 0; j < D; ++j)
        if (mask[static_cast<std::size_t>(i * D + j)]) {
          at.row.push_back(i);
          at.col.push_back(j);
        }
    return at;
  }

  /// The generator's parts: a real H0 (real eigenvectors: the usual case) keeps a real sparse
  /// part, and a channel whose operator has imaginary entries is then applied as a local
  /// one-mode term; every other channel is folded into the sparse part.
  void make_generator_parts(const Simulator& sim) {
    const device::Device& dev = sim.device();
    real_ = h0_.imag().cwiseAbs().maxCoeff() == 0.0;
    std::vector<const CMatrix*> folded;
    for (std::size_t j = 0; j < ops_.size(); ++j) {
      const DriveChannel& ch = sim.drive().channels()[j];
      const CMatrix& O = *dev.modes()[static_cast<std::size_t>(ch.mode)].op(ch.op);
      const int d = static_cast<int>(O.rows());
      const bool imaginary = O.imag().cwiseAbs().maxCoeff() != 0.0;
      if (real_ && imaginary && d <= kMaxLocalLevels) {
        Generator::Local t;
        t.d = d;
        for (int q = 0; q < ch.mode; ++q) t.outer *= dev.dims()[static_cast<std::size_t>(q)];
        for (int q = ch.mode + 1; q < dev.num_modes(); ++q) t.inner *= dev.dims()[static_cast<std::size_t>(q)];
        const double limit = kStructural * O.cwiseAbs().maxCoeff();  // as the sparse part
        for (int k = 0; k < d; ++k)
          for (int l = 0; l < d; ++l) {
            const bool keep = std::abs(O(k, l)) > limit;
            t.re.push_back(keep ? O(k, l).real() : 0.0);
            t.im.push_back(keep ? O(k, l).imag() : 0.0);
          }
        local_of_.push_back(static_cast<int>(locals_.size()));
        locals_.push_back(std::move(t));
      } else {
        if (imaginary) real_ = false;
        local_of_.push_back(-1);
        folded.push_back(&ops_[j]);
      }
    }
    make_pattern(folded);
  }

  /// The sparse pattern: every entry of H0 or of a folded channel operator above kStructural of
  /// that matrix's largest entry (the rest are the rounding of the mode bases' products, below
  /// 1e-16 of it: the parity of each mode's eigenstates makes them vanish exactly), and the
  /// values of each on it.
  void make_pattern(const std::vector<const CMatrix*>& folded) {
    const Index D = h0_.rows();
    std::vector<double> limit{kStructural * h0_.cwiseAbs().maxCoeff()};
    for (const CMatrix* o : folded) limit.push_back(kStructural * o->cwiseAbs().maxCoeff());
    pattern_.n = D;
    pattern_.start.assign(1, 0);
    values_.assign(2 * (1 + folded.size()), {});
    for (Index i = 0; i < D; ++i) {
      for (Index j = 0; j < D; ++j) {
        bool keep = std::abs(h0_(i, j)) > limit[0];
        for (std::size_t f = 0; f < folded.size(); ++f) keep = keep || std::abs((*folded[f])(i, j)) > limit[f + 1];
        if (!keep) continue;
        pattern_.col.push_back(j);
        values_[0].push_back(h0_(i, j).real());
        values_[1].push_back(h0_(i, j).imag());
        for (std::size_t f = 0; f < folded.size(); ++f) {
          values_[2 * (f + 1)].push_back((*folded[f])(i, j).real());
          values_[2 * (f + 1) + 1].push_back((*folded[f])(i, j).imag());
        }
      }
      pattern_.start.push_back(static_cast<Index>(pattern_.col.size()));
    }
  }

  /// H = H0 + sum_j c_j O_j into h: the sparse part's values (the pattern copied on the first
  /// call only) and the local terms' coefficients.
  void generator(const std::vector<double>& c, Generator& h) const {
    if (h.sparse.n != pattern_.n) {
      h.sparse.n = pattern_.n;
      h.sparse.start = pattern_.start;
      h.sparse.col = pattern_.col;
      h.locals = locals_;
    }
    h.sparse.re = values_[0];
    if (real_)
      h.sparse.im.clear();
    else
      h.sparse.im = values_[1];
    std::size_t f = 0;
    for (std::size_t j = 0; j < c.size(); ++j) {
      if (local_of_[j] >= 0) {
        h.locals[static_cast<std::size_t>(local_of_[j])].alpha = c[j];
        continue;
      }
      ++f;
      if (c[j] == 0.0) continue;
      const std::vector<double>& ore = values_[2 * f];
      for (std::size_t k = 0; k < ore.size(); ++k) h.sparse.re[k] += c[j] * ore[k];
      if (!real_) {
        const std::vector<double>& oim = values_[2 * f + 1];
        for (std::size_t k = 0; k < oim.size(); ++k) h.sparse.im[k] += c[j] * oim[k];
      }
    }
  }

  /// The series of exp(-i tau H(c)) on the Weyl bound of H(c)'s spectrum: the fixed ranges of
  /// the undriven terms plus, per driven mode, the exact range of its energies and drives.
  [[nodiscard]] ChebyshevSeries series(double tau, const std::vector<double>& c) const {
    double lo = h0_lo_, hi = h0_hi_;
    for (const DrivenMode& m : driven_) {
      CMatrix h = m.energies;
      for (const auto& [j, O] : m.channels) h += c[j] * O;
      const auto [a, b] = eigen_range(h);
      lo += a;
      hi += b;
    }
    const double margin = 1e-12 * std::max({std::abs(lo), std::abs(hi), 1.0});
    return chebyshev_exponential(tau, lo - margin, hi + margin);
  }

  CMatrix h0_;                                // dense H0 (dense_hamiltonian, the pattern)
  std::vector<CMatrix> ops_;                  // per channel operator, D x D (the adjoint's directions)
  double h0_lo_ = 0.0, h0_hi_ = 0.0;          // Weyl bound of the undriven static terms
  std::vector<DrivenMode> driven_;
  backend::SparseRows pattern_;               // the sparse part's rows and columns
  std::vector<std::vector<double>> values_;   // re, im of H0, then of each folded channel
  bool real_ = false;                         // the sparse part is real
  std::vector<Generator::Local> locals_;      // channels applied as local terms
  std::vector<int> local_of_;                 // per channel: its local term, or -1
};

}  // namespace

std::unique_ptr<Scheme> make_chebyshev_scheme(const Simulator& sim, SharedCache& shared) {
  return std::make_unique<ChebyshevScheme>(sim, shared);
}

}  // namespace qevolve::solver
