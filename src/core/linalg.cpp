#include "qevolve/linalg.hpp"

#include <lapacke.h>

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <string>
#include <vector>

#include "qevolve/error.hpp"

// OpenBLAS extensions (cblas.h), weak so that another BLAS behind libblas.so still links.
extern "C" void openblas_set_num_threads(int) __attribute__((weak));
extern "C" int openblas_get_num_threads() __attribute__((weak));
// OpenBLAS's own worker shutdown (also run at fork and exit); exported by the pthread build.
extern "C" int blas_thread_shutdown_() __attribute__((weak));

namespace qevolve::linalg {

namespace {
std::atomic<int> dense_threads{0};  // 0: set_blas_threads was never called
std::atomic<int> dense_depth{0};
}  // namespace

int set_blas_threads(int threads) {
  const int n = threads > 0 ? threads : std::max(1, omp_get_num_procs());
  dense_threads = n;
  if (openblas_set_num_threads != nullptr) openblas_set_num_threads(1);
  park_blas_workers();
  return n;
}

int blas_threads() { return openblas_get_num_threads != nullptr ? openblas_get_num_threads() : 1; }

void park_blas_workers() {
  if (blas_thread_shutdown_ != nullptr) blas_thread_shutdown_();
}

DenseBlasPhase::DenseBlasPhase(Index dim) {
  const int n = dim < kThreadedBlasDim ? 1 : dense_threads.load();
  // One thread (--threads 1, or a sweep's points): BLAS is already single-threaded and its
  // workers parked; raising "1 thread" would start OpenBLAS's pthread pool (all its workers
  // spin-yielding beside the computation) only to park it again at the end of the phase.
  if (n <= 1) return;
  counted_ = true;
  if (dense_depth.fetch_add(1) != 0) return;
  active_ = true;
  if (openblas_set_num_threads != nullptr) openblas_set_num_threads(n);
}

DenseBlasPhase::~DenseBlasPhase() {
  if (!counted_) return;
  const bool outermost = dense_depth.fetch_sub(1) == 1;
  if (!active_ || !outermost) return;
  if (openblas_set_num_threads != nullptr) openblas_set_num_threads(1);
  park_blas_workers();
}

void hermitian_eigen(const CMatrix& H, RVector& w, CMatrix& V) {
  const Index n = H.rows();
  if (H.cols() != n) throw NumericalError("hermitian_eigen: matrix is not square");
  if (!H.allFinite()) throw NumericalError("hermitian_eigen: matrix contains NaN or inf");
  w.resize(n);
  if (n == 0) {
    V.resize(0, 0);
    return;
  }
  const auto ln = static_cast<lapack_int>(n);
  if (H.imag().cwiseAbs().maxCoeff() == 0.0) {
    RMatrix A = H.real();
    const lapack_int info = LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'V', 'L', ln, A.data(), ln, w.data());
    if (info != 0) throw NumericalError("dsyevd failed with info " + std::to_string(info));
    V = A.cast<cplx>();
    return;
  }
  V = H;
  const lapack_int info = LAPACKE_zheevd(LAPACK_COL_MAJOR, 'V', 'L', ln,
                                         reinterpret_cast<lapack_complex_double*>(V.data()), ln,
                                         w.data());
  if (info != 0) throw NumericalError("zheevd failed with info " + std::to_string(info));
}

void refine_unitary(CMatrix& U) {
  const Index n = U.rows();
  const CMatrix defect = CMatrix::Identity(n, n) - U.adjoint() * U;
  U += 0.5 * U * defect;
}

namespace {

/// exp(-i scale H) = V diag(e^{-i scale w}) V^dag from an eigen-decomposition of H.
CMatrix exponential_from(const RVector& w, CMatrix& V, double scale) {
  // LAPACK's eigenvectors are orthonormal to ~n eps; over thousands of steps that defect would
  // accumulate linearly in the propagator, so refine V first.
  refine_unitary(V);
  CVector phases(w.size());
  for (Index k = 0; k < w.size(); ++k) phases(k) = std::polar(1.0, -scale * w(k));
  return V * phases.asDiagonal() * V.adjoint();
}

/// z times i^q (q mod 4): exact.
cplx quarter(cplx z, int q) {
  switch (q & 3) {
    case 0: return z;
    case 1: return {-z.imag(), z.real()};
    case 2: return -z;
    default: return {z.imag(), -z.real()};
  }
}

/// Quarter-turn exponents q_k (S = diag(i^q_k)) making S^dag H S exactly real, if there are any.
bool quarter_phases(const CMatrix& H, std::vector<int>& q) {
  const Index n = H.rows();
  q.assign(static_cast<std::size_t>(n), -1);
  std::vector<Index> stack;
  for (Index root = 0; root < n; ++root) {
    if (q[static_cast<std::size_t>(root)] >= 0) continue;
    q[static_cast<std::size_t>(root)] = 0;
    stack.push_back(root);
    while (!stack.empty()) {
      const Index j = stack.back();
      stack.pop_back();
      for (Index k = 0; k < n; ++k) {
        if (k == j || H(j, k) == cplx{}) continue;
        // conj(i^qj) H_jk i^qk real: t = i^-qj H_jk must be real (qk = 0) or imaginary (qk = 1).
        const cplx t = quarter(H(j, k), -q[static_cast<std::size_t>(j)]);
        const int want = t.imag() == 0.0 ? 0 : t.real() == 0.0 ? 1 : -1;
        if (want < 0) return false;
        int& qk = q[static_cast<std::size_t>(k)];
        if (qk < 0) {
          qk = want;
          stack.push_back(k);
        } else if ((qk & 1) != want) {
          return false;
        }
      }
    }
  }
  return true;
}

}  // namespace

CMatrix expm_hermitian(const CMatrix& H, double scale) {
  RVector w;
  CMatrix V;
  hermitian_eigen(H, w, V);
  return exponential_from(w, V, scale);
}

namespace {

/// Largest n whose real symmetric eigenproblems (the dense steps' rephased H) use Eigen's own
/// solver on stack-sized matrices (plus one refinement step) instead of LAPACK's dsyevd: there
/// LAPACK's per-call overheads (argument checks, lsame, dlartg, workspace) dominate.
/// Measured on this machine, one run each: Eigen's solver 9.4 us against dsyevd's 15.0 us at
/// n = 10, 82 us against 136 us at n = 32 (docs/performance.md "Sweeps").
constexpr Index kSmallEigen = 32;
using SmallRealMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor, kSmallEigen, kSmallEigen>;

/// Q <- Q + Q (I - Q^T Q) / 2: one Newton step towards the nearest orthogonal matrix (the real
/// counterpart of refine_unitary), for the small path's refined vectors and dsyevd's.
template <typename Matrix>
void newton_orthonormalize(Matrix& Q) {
  const Index n = Q.rows();
  const Matrix defect = Matrix::Identity(n, n) - Q.transpose() * Q;
  Q += 0.5 * Q * defect;
}

/// One step of Ogita and Aishima's refinement (Japan J. Indust. Appl. Math. 35, 2018) of an
/// approximate eigen-decomposition A ~ Q diag(w) Q^T of a symmetric A: R = I - Q^T Q,
/// S = Q^T A Q, w_i = S_ii / (1 - R_ii), Q <- Q (I + E) with E_ij = (S_ij + w_j R_ij) /
/// (w_j - w_i) between separated eigenvalues and R_ij / 2 within a cluster (|w_i - w_j| <=
/// delta = 2 (|S - diag(w)| + |A| |R|), Frobenius norms). The error becomes quadratic in the
/// solver's, so what remains is the rounding of these products, smooth in A: Eigen's QR
/// iteration alone left ~2x LAPACK's residual and a forward pass whose finite differences were
/// 25x noisier (tests/gradient/test_gradient.cpp, expm).
void refine_eigen(const SmallRealMatrix& A, SmallRealMatrix& Q, RVector& w) {
  const Index n = A.rows();
  const SmallRealMatrix R = SmallRealMatrix::Identity(n, n) - Q.transpose() * Q;
  const SmallRealMatrix AQ = A * Q;
  SmallRealMatrix S = Q.transpose() * AQ;
  // S is symmetric in exact arithmetic; its rounded asymmetry, divided by a small gap below,
  // would cost Q its orthogonality (E + E^T = R needs S_ij = S_ji).
  for (Index j = 0; j < n; ++j)
    for (Index i = j + 1; i < n; ++i) S(i, j) = S(j, i) = 0.5 * (S(i, j) + S(j, i));
  for (Index i = 0; i < n; ++i) w(i) = S(i, i) / (1.0 - R(i, i));
  double off = 0.0;
  for (Index j = 0; j < n; ++j)
    for (Index i = 0; i < n; ++i) off += i == j ? 0.0 : S(i, j) * S(i, j);
  const double delta = 2.0 * (std::sqrt(off) + A.norm() * R.norm());
  SmallRealMatrix E(n, n);
  for (Index j = 0; j < n; ++j)
    for (Index i = 0; i < n; ++i) {
      const double gap = w(j) - w(i);
      E(i, j) = i != j && std::abs(gap) > delta ? (S(i, j) + w(j) * R(i, j)) / gap : 0.5 * R(i, j);
    }
  Q += Q * E;
}

/// Q (symmetric) <- its orthonormal eigenvectors (refined to rounding for n <= kSmallEigen),
/// w <- the eigenvalues in ascending order (a near-degenerate pair may swap by an ulp).
void real_symmetric_eigen(RMatrix& Q, RVector& w) {
  const Index n = Q.rows();
  w.resize(n);
  if (n <= kSmallEigen) {
    const SmallRealMatrix A = Q;
    const Eigen::SelfAdjointEigenSolver<SmallRealMatrix> es(A, Eigen::ComputeEigenvectors);
    if (es.info() != Eigen::Success) throw NumericalError("symmetric eigensolver did not converge");
    w = es.eigenvalues();
    SmallRealMatrix V = es.eigenvectors();
    refine_eigen(A, V, w);
    // The refinement leaves Q^T Q - I of order |E|^2, not rounding: a pair of eigenvalues
    // just above the cluster threshold (a gap g with delta < g << sqrt(eps) |A|) turns by
    // phi ~ eps |A| / g and keeps 1 + phi^2. One Newton polar step (as refine_unitary) restores
    // orthogonality to rounding, so every step stays norm-preserving.
    newton_orthonormalize(V);
    Q = V;
    return;
  }
  const auto ln = static_cast<lapack_int>(n);
  const lapack_int info = LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'V', 'L', ln, Q.data(), ln, w.data());
  if (info != 0) throw NumericalError("dsyevd failed with info " + std::to_string(info));
}

/// a b for the applied exponential's factors: coefficient-based for a few columns (no BLAS call
/// for a GEMV-shaped product), BLAS's GEMM otherwise (faster from n ~ 10 on: 145 ns against
/// 543 ns for 10 x 10 times 10 x 10, measured once on this machine).
template <typename A, typename B>
RMatrix real_product(const A& a, const B& b) {
  if (b.cols() < 8) return a.lazyProduct(b);
  return a * b;
}

/// H = S Q diag(w) Q^T S^dag with S = diag(i^q) and Q real, by real_symmetric_eigen, when
/// quarter_phases finds q; false (nothing computed) otherwise.
bool rephased_real_eigen(const CMatrix& H, RVector& w, RMatrix& Q, std::vector<int>& q) {
  const Index n = H.rows();
  if (n == 0 || H.cols() != n || !H.allFinite() || !quarter_phases(H, q)) return false;
  Q.resize(n, n);
  for (Index j = 0; j < n; ++j)
    for (Index k = 0; k < n; ++k)
      Q(j, k) = quarter(H(j, k), q[static_cast<std::size_t>(k)] - q[static_cast<std::size_t>(j)]).real();
  real_symmetric_eigen(Q, w);
  return true;
}

}  // namespace

void hermitian_eigen_rephased(const CMatrix& H, RVector& w, CMatrix& V) {
  std::vector<int> q;
  RMatrix Q;
  if (!rephased_real_eigen(H, w, Q, q)) return hermitian_eigen(H, w, V);
  const Index n = H.rows();
  V.resize(n, n);
  for (Index j = 0; j < n; ++j)
    for (Index k = 0; k < n; ++k) V(j, k) = quarter(cplx(Q(j, k), 0.0), q[static_cast<std::size_t>(j)]);
}

void apply_expm_hermitian_rephased(const CMatrix& H, double scale, CMatrix& state) {
  RVector w;
  std::vector<int> q;
  RMatrix Q;
  if (!rephased_real_eigen(H, w, Q, q)) {
    state = expm_hermitian(H, scale) * state;
    return;
  }
  // In real arithmetic, without forming the n x n exponential: Q refined to orthogonality (one
  // Newton polar step, as refine_unitary), then exp(-i scale H) x = S Q diag(e^{-i scale w}) Q^T S^dag x, the
  // real and imaginary planes of x multiplied by Q^T and Q separately.
  const Index n = H.rows(), m = state.cols();
  if (n > kSmallEigen) {  // dsyevd's vectors (real_symmetric_eigen refined the small ones)
    newton_orthonormalize(Q);
  }
  RMatrix re(n, m), im(n, m);
  for (Index c = 0; c < m; ++c)
    for (Index j = 0; j < n; ++j) {
      const cplx z = quarter(state(j, c), -q[static_cast<std::size_t>(j)]);
      re(j, c) = z.real();
      im(j, c) = z.imag();
    }
  RMatrix yr = real_product(Q.transpose(), re), yi = real_product(Q.transpose(), im);
  for (Index k = 0; k < n; ++k) {
    const double c = std::cos(scale * w(k)), sn = std::sin(scale * w(k));
    for (Index col = 0; col < m; ++col) {
      const double a = yr(k, col), b = yi(k, col);  // (a + i b)(c - i sn)
      yr(k, col) = a * c + b * sn;
      yi(k, col) = b * c - a * sn;
    }
  }
  re = real_product(Q, yr);
  im = real_product(Q, yi);
  for (Index c = 0; c < m; ++c)
    for (Index j = 0; j < n; ++j) state(j, c) = quarter(cplx(re(j, c), im(j, c)), q[static_cast<std::size_t>(j)]);
}

std::vector<std::vector<int>> pattern_blocks(const CMatrix& m, double tolerance) {
  const auto n = static_cast<int>(m.rows());
  std::vector<int> block(static_cast<std::size_t>(n), -1);
  std::vector<std::vector<int>> blocks;
  for (int start = 0; start < n; ++start) {
    if (block[static_cast<std::size_t>(start)] >= 0) continue;
    const int id = static_cast<int>(blocks.size());
    std::vector<int> members{start}, stack{start};
    block[static_cast<std::size_t>(start)] = id;
    while (!stack.empty()) {
      const int i = stack.back();
      stack.pop_back();
      for (int j = 0; j < n; ++j)
        if (block[static_cast<std::size_t>(j)] < 0 &&
            (std::abs(m(i, j)) > tolerance || std::abs(m(j, i)) > tolerance)) {
          block[static_cast<std::size_t>(j)] = id;
          members.push_back(j);
          stack.push_back(j);
        }
    }
    std::sort(members.begin(), members.end());
    blocks.push_back(std::move(members));
  }
  return blocks;
}

CMatrix expm_hermitian_blocks(const CMatrix& H, double scale, double relative_tolerance) {
  const double largest = H.size() > 0 ? H.cwiseAbs().maxCoeff() : 0.0;
  const auto blocks = pattern_blocks(H, relative_tolerance * largest);
  if (blocks.size() <= 1) return expm_hermitian(H, scale);
  CMatrix out = CMatrix::Zero(H.rows(), H.cols());
  for (const auto& b : blocks) {
    const auto nb = static_cast<Index>(b.size());
    CMatrix sub(nb, nb);
    for (Index i = 0; i < nb; ++i)
      for (Index j = 0; j < nb; ++j) sub(i, j) = H(b[static_cast<std::size_t>(i)], b[static_cast<std::size_t>(j)]);
    const CMatrix e = expm_hermitian(sub, scale);
    for (Index i = 0; i < nb; ++i)
      for (Index j = 0; j < nb; ++j) out(b[static_cast<std::size_t>(i)], b[static_cast<std::size_t>(j)]) = e(i, j);
  }
  return out;
}

CMatrix kron(const CMatrix& A, const CMatrix& B) {
  CMatrix h = CMatrix::Zero(A.rows() * B.rows(), A.cols() * B.cols());
  for (Index i = 0; i < A.rows(); ++i)
    for (Index j = 0; j < A.cols(); ++j)
      if (A(i, j) != cplx{}) h.block(i * B.rows(), j * B.cols(), B.rows(), B.cols()) = A(i, j) * B;
  return h;
}

void small_matmul(const cplx* a, const cplx* b, cplx* c, int g) {
  for (int i = 0; i < g; ++i)
    for (int j = 0; j < g; ++j) {
      cplx acc{};
      for (int k = 0; k < g; ++k) acc += a[i * g + k] * b[k * g + j];
      c[i * g + j] = acc;
    }
}

void small_unitary_refine(cplx* m, int g, cplx* work) {
  cplx* defect = work;
  cplx* corr = work + g * g;
  for (int i = 0; i < g; ++i)
    for (int j = 0; j < g; ++j) {
      cplx acc{};
      for (int k = 0; k < g; ++k) acc += std::conj(m[k * g + i]) * m[k * g + j];
      defect[i * g + j] = (i == j ? cplx{1.0} : cplx{}) - acc;
    }
  small_matmul(m, defect, corr, g);
  for (int i = 0; i < g * g; ++i) m[i] += 0.5 * corr[i];
}

void expm_hermitian_small(const cplx* H, int g, double scale, cplx* out) {
  if (g < 1 || g > kSmallExpm) throw NumericalError("expm_hermitian_small: size out of range");
  constexpr int kMax = kSmallExpm * kSmallExpm;
  const int n = g * g;
  // X = -i scale H / 2^j with ||X||_1 <= 1/2.
  double norm = 0.0;
  for (int j = 0; j < g; ++j) {
    double col = 0.0;
    for (int i = 0; i < g; ++i) col += std::abs(H[i * g + j]);
    if (!(col <= norm)) norm = col;  // also takes a NaN
  }
  norm *= std::abs(scale);
  if (!std::isfinite(norm)) throw NumericalError("expm_hermitian_small: matrix contains NaN or inf");
  int squarings = 0;
  while (norm > 0.5) {
    norm *= 0.5;
    ++squarings;
  }
  const cplx factor(0.0, -std::ldexp(scale, -squarings));
  CplxScratch<kMax> x_buf, e_buf, t_buf;
  cplx* X = x_buf.data();
  cplx* E = e_buf.data();
  cplx* T = t_buf.data();
  for (int k = 0; k < n; ++k) X[k] = factor * H[k];
  // Horner: E = I + X (I + X/2 (I + X/3 (... (I + X/14)))); the truncation error is below
  // ||X||^15 / 15! < 2.3e-17 (a fifth of an ulp of 1) for ||X|| <= 1/2.
  constexpr int kDegree = 14;
  for (int k = 0; k < n; ++k) E[k] = cplx{};
  for (int i = 0; i < g; ++i) E[i * g + i] = 1.0;
  for (int m = kDegree; m >= 1; --m) {
    small_matmul(X, E, T, g);
    const double inv = 1.0 / m;
    for (int k = 0; k < n; ++k) E[k] = inv * T[k];
    for (int i = 0; i < g; ++i) E[i * g + i] += 1.0;
  }
  for (int s = 0; s < squarings; ++s) {
    small_matmul(E, E, T, g);
    std::copy(T, T + n, E);
  }
  // Newton step to the unitary polar factor.
  std::copy(E, E + n, out);
  CplxScratch<2 * kMax> work;
  small_unitary_refine(out, g, work.data());
}

CMatrix exp_divided_differences(const RVector& w, double scale) {
  const Index n = w.size();
  CMatrix G(n, n);
  const cplx minus_i_s(0.0, -scale);
  for (Index l = 0; l < n; ++l) {
    const cplx fl = std::polar(1.0, -scale * w(l));
    for (Index k = 0; k < n; ++k) {
      // (f_k - f_l) / (w_k - w_l) = f_l (-i s) phi(z), z = -i s (w_k - w_l), phi(z) = (e^z - 1)/z.
      const cplx z = minus_i_s * (w(k) - w(l));
      cplx phi;
      if (std::abs(z) < 1e-3)
        phi = 1.0 + z * (0.5 + z * (1.0 / 6.0 + z * (1.0 / 24.0 + z / 120.0)));
      else
        phi = (std::exp(z) - 1.0) / z;
      G(k, l) = fl * minus_i_s * phi;
    }
  }
  return G;
}

CMatrix expm_hermitian_frechet(const RVector& w, const CMatrix& V, double scale,
                               const CMatrix& dH) {
  const CMatrix G = exp_divided_differences(w, scale);
  const CMatrix M = (V.adjoint() * dH * V).cwiseProduct(G);
  return V * M * V.adjoint();
}

CMatrix expm(const CMatrix& A) {
  // Higham (2005), "The scaling and squaring method for the matrix exponential revisited".
  static constexpr double b[14] = {64764752532480000.0, 32382376266240000.0, 7771770303897600.0,
                                   1187353796428800.0,  129060195264000.0,   10559470521600.0,
                                   670442572800.0,      33522128640.0,       1323241920.0,
                                   40840800.0,          960960.0,            16380.0,
                                   182.0,               1.0};
  constexpr double theta13 = 5.371920351148152;
  const Index n = A.rows();
  if (!A.allFinite()) throw NumericalError("expm: matrix contains NaN or inf");
  const double norm1 = A.cwiseAbs().colwise().sum().maxCoeff();
  int s = 0;
  if (norm1 > theta13) s = std::max(0, static_cast<int>(std::ceil(std::log2(norm1 / theta13))));
  const CMatrix As = A / std::ldexp(1.0, s);
  const CMatrix I = CMatrix::Identity(n, n);
  const CMatrix A2 = As * As, A4 = A2 * A2, A6 = A4 * A2;
  const CMatrix U = As * (A6 * (b[13] * A6 + b[11] * A4 + b[9] * A2) + b[7] * A6 + b[5] * A4 +
                          b[3] * A2 + b[1] * I);
  const CMatrix V = A6 * (b[12] * A6 + b[10] * A4 + b[8] * A2) + b[6] * A6 + b[4] * A4 +
                    b[2] * A2 + b[0] * I;
  CMatrix R = (V - U).partialPivLu().solve(V + U);
  for (int k = 0; k < s; ++k) R = R * R;
  return R;
}

}  // namespace qevolve::linalg
