#include "adaptive.hpp"


#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <limits>

#include "block_evolution.hpp"
#include "device_select.hpp"
#include "split_gate.hpp"
#include "qevolve/backend/parallel.hpp"
#include "qevolve/backend/local_gate.hpp"
#include "qevolve/error.hpp"
#include "qevolve/linalg.hpp"

namespace qevolve::solver {
namespace {

// Dormand & Prince (1980) RK5(4)7M tableau.
constexpr std::array<double, 7> kC = {0.0, 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9, 1.0, 1.0};
constexpr double kA[7][6] = {
    {0, 0, 0, 0, 0, 0},
    {1.0 / 5, 0, 0, 0, 0, 0},
    {3.0 / 40, 9.0 / 40, 0, 0, 0, 0},
    {44.0 / 45, -56.0 / 15, 32.0 / 9, 0, 0, 0},
    {19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729, 0, 0},
    {9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656, 0},
    {35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84}};
// Error weights: 5th-order minus embedded 4th-order solution.
constexpr std::array<double, 7> kE = {71.0 / 57600,  0.0,         -71.0 / 16695, 71.0 / 1920,
                                      -17253.0 / 339200, 22.0 / 525, -1.0 / 40};

Index register_dim(const std::vector<int>& dims) {
  Index D = 1;
  for (int d : dims) D *= d;
  return D;
}

/// One block of columns, integrated from job.start to job.duration: the Dormand-Prince steps
/// and their step-size control on the block's state, the generator's products by the executor's
/// block (backend.hpp TermBlock).
class BlockIntegrator {
 public:
  BlockIntegrator(const AdaptiveJob& job, backend::TermBlock& block)
      : job_(job), block_(block), n_(register_dim(job.dims) * block.columns()), y_(block.state()) {
    for (auto& k : k_) k.assign(2 * static_cast<std::size_t>(n_), 0.0);
    tmp_.assign(2 * static_cast<std::size_t>(n_), 0.0);
    ynew_ = tmp_;
  }

  long run() {
    const double T = job_.duration;
    double t = job_.start;
    double h = (T - t) / 1000.0;
    long accepted = 0, attempts = 0;
    derivative(t, y_, k_[0]);
    while (t < T) {
      if (++attempts > job_.max_steps) {
        char what[300];
        std::snprintf(what, sizeof what,
                      "adaptive solver: gave up after %ld steps at t = %.6g ns of T = %.6g ns (the "
                      "maximum; the dynamics is too fast for rtol/atol: use solver: trotter or magnus4 "
                      "with enough steps, or loosen rtol/atol)",
                      job_.max_steps, t, T);
        throw NumericalError(what);
      }
      if (t + h > T) h = T - t;
      if (h <= 1e-14 * T)
        throw NumericalError("adaptive solver: step size underflow at t = " + std::to_string(t) +
                             " ns (rtol/atol too tight?)");
      for (int s = 1; s < 7; ++s) {
        combine(y_, h, s, tmp_);
        derivative(t + kC[static_cast<std::size_t>(s)] * h, tmp_, k_[static_cast<std::size_t>(s)]);
      }
      // Stage 7 is evaluated at the 5th-order solution (FSAL): tmp_ holds it.
      ynew_.swap(tmp_);
      const double err = error_norm(h);
      if (err <= 1.0) {
        t += h;
        y_.swap(ynew_);
        k_[0].swap(k_[6]);
        ++accepted;
      }
      const double factor = err == 0.0 ? 5.0 : std::clamp(0.9 * std::pow(err, -0.2), 0.2, 5.0);
      h *= err <= 1.0 ? factor : std::min(1.0, factor);
    }
    return accepted;
  }

 private:
  /// out = y + h sum_j a[s][j] k_j
  void combine(const std::vector<double>& y, double h, int s, std::vector<double>& out) const {
    const std::size_t N = y.size();
    for (std::size_t i = 0; i < N; ++i) {
      double acc = 0.0;
      for (int j = 0; j < s; ++j) acc += kA[s][j] * k_[static_cast<std::size_t>(j)][i];
      out[i] = y[i] + h * acc;
    }
  }

  /// k = A(t) y = sum over terms of alpha c(t) O y
  void derivative(double t, const std::vector<double>& y, std::vector<double>& k) {
    job_.coefficients(t, coeff_);
    block_.derivative(coeff_, y.data(), k.data());
  }

  /// RMS norm of the local error estimate, scaled per complex amplitude by atol + rtol |y|.
  double error_norm(double h) const {
    double sum = 0.0;
    for (Index i = 0; i < n_; ++i) {
      double er = 0.0, ei = 0.0;
      for (std::size_t s = 0; s < 7; ++s) {
        er += kE[s] * k_[s][static_cast<std::size_t>(i)];
        ei += kE[s] * k_[s][static_cast<std::size_t>(n_ + i)];
      }
      const double e = h * std::hypot(er, ei);
      const double y0 = std::hypot(y_[static_cast<std::size_t>(i)], y_[static_cast<std::size_t>(n_ + i)]);
      const double y1 =
          std::hypot(ynew_[static_cast<std::size_t>(i)], ynew_[static_cast<std::size_t>(n_ + i)]);
      const double sc = job_.atol + job_.rtol * std::max(y0, y1);
      sum += (e / sc) * (e / sc);
    }
    return std::sqrt(sum / static_cast<double>(n_));
  }

  const AdaptiveJob& job_;
  const backend::TermBlock& block_;
  Index n_;
  std::array<std::vector<double>, 7> k_;
  std::vector<double>& y_;  // the block's state
  std::vector<double> tmp_, ynew_;
  std::vector<double> coeff_;
};

}  // namespace

AdaptiveJob closed_adaptive_job(const device::Device& device,
                                const std::vector<device::LocalTerm>& static_terms,
                                const std::vector<device::LocalTerm>& drive_terms) {
  AdaptiveJob job;
  job.dims = device.dims();
  for (const auto& t : static_terms) job.terms.push_back({t.modes, t.matrix, cplx(0.0, -kTwoPi), -1});
  for (std::size_t j = 0; j < drive_terms.size(); ++j)
    job.terms.push_back({drive_terms[j].modes, drive_terms[j].matrix, cplx(0.0, -kTwoPi), static_cast<int>(j)});
  return job;
}

backend::TermSchedule term_schedule(const AdaptiveJob& job) {
  backend::TermSchedule s;
  s.dims = job.dims;
  for (const AdaptiveTerm& t : job.terms) {
    backend::TermSchedule::Term& term = s.terms.emplace_back();
    term.mode_a = t.modes[0];
    term.mode_b = t.modes.size() == 2 ? t.modes[1] : -1;
    to_split(t.matrix, term.matrix);
    term.alpha = t.alpha;
    term.channel = t.channel;
  }
  return s;
}

long integrate_adaptive(const AdaptiveJob& job, CMatrix& state,
                        const std::function<void(double)>& progress) {
  const Index D = register_dim(job.dims);
  const Index n = state.cols();
  if (n == 0) return 0;
  const int threads = std::max(1, job.threads);
  const Index width = choose_block_width(D, n, threads);
  const Index num_blocks = (n + width - 1) / width;
  // The executor decides a team by its blocks alone (the work is not known before it ends).
  if (backend::worth_threads(threads, std::numeric_limits<double>::infinity(), num_blocks))
    linalg::park_blas_workers();
  std::atomic<long> accepted{0};
  const auto executor = make_term_executor(job.compute_device, term_schedule(job), n, width, threads);
  executor->upload(state);
  executor->run(
      [&](backend::TermBlock& block) {
        BlockIntegrator integ(job, block);
        accepted += integ.run();
      },
      [&](Index finished) {
        if (progress) progress(static_cast<double>(finished) / static_cast<double>(num_blocks));
      });
  executor->download(state);
  return accepted;
}

}  // namespace qevolve::solver
