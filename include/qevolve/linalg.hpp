// Dense linear algebra helpers on top of LAPACKE (OpenBLAS): used by the dense reference
// paths (dressed basis, expm solver) and by small per-step exponentials.
#pragma once

#include <vector>

#include "qevolve/types.hpp"

namespace qevolve::linalg {

/// Eigen-decomposition of a Hermitian matrix: H = V diag(w) V^dag, w ascending.
/// Uses the divide-and-conquer driver (zheevd), or dsyevd when H is exactly real.
/// Throws NumericalError if LAPACK fails or H contains NaN/inf.
void hermitian_eigen(const CMatrix& H, RVector& w, CMatrix& V);

/// One Newton step towards the unitary polar factor, U <- U + U (I - U^dag U) / 2: takes a
/// matrix that is unitary up to rounding (defect delta) to one with defect O(delta^2).
void refine_unitary(CMatrix& U);

/// exp(-i * scale * H) for Hermitian H, through its eigen-decomposition (eigenvectors refined
/// with refine_unitary, so the result is unitary to rounding).
[[nodiscard]] CMatrix expm_hermitian(const CMatrix& H, double scale);

/// hermitian_eigen through the real symmetric solver whenever a diagonal S with entries in
/// {1, i, -1, -i} makes R = S^dag H S exactly real (every product is exact: a fluxonium's or
/// transmon's phi or n drive in the eigenbasis with the charge-real phase convention, plus the
/// diagonal H0): then R = Q diag(w) Q^T by dsyevd and V = S Q, several times cheaper than
/// zheevd for the small matrices of the dense steps; otherwise hermitian_eigen itself. The
/// decomposition agrees with hermitian_eigen's to rounding, not bitwise (the dense scheme,
/// forward and adjoint, uses it; docs/solvers.md "`expm`").
void hermitian_eigen_rephased(const CMatrix& H, RVector& w, CMatrix& V);
/// state <- exp(-i scale H) state through hermitian_eigen_rephased's decomposition, applied by
/// the eigenvectors (O(n^2 m) after it, no n x n exponential formed): the `expm` step of the
/// dense executor. Equal to expm_hermitian(H, scale) * state to rounding.
void apply_expm_hermitian_rephased(const CMatrix& H, double scale, CMatrix& state);

/// The connected components of the pattern of a square matrix: i and j are joined when
/// |m(i, j)| or |m(j, i)| exceeds `tolerance` (default: when either is not exactly zero). Each
/// block ascending; blocks in the order of their smallest index. One block when the pattern
/// connects everything.
[[nodiscard]] std::vector<std::vector<int>> pattern_blocks(const CMatrix& m,
                                                           double tolerance = 0.0);

/// exp(-i scale H) for a Hermitian H whose entries between the blocks of
/// pattern_blocks(H, relative_tolerance * max|H_ij|) are taken as zero: the exponential of
/// each block, exact zeros between them. When the pattern is one block this is
/// expm_hermitian(H, scale) itself. Meant for a selection rule whose forbidden entries are
/// rounding (docs/solvers.md "Parity blocks").
[[nodiscard]] CMatrix expm_hermitian_blocks(const CMatrix& H, double scale,
                                            double relative_tolerance);

/// kron(A, B), A on the more significant index (np.kron order).
[[nodiscard]] CMatrix kron(const CMatrix& A, const CMatrix& B);

/// c = a b for g x g row-major matrices (no aliasing of c with a or b).
void small_matmul(const cplx* a, const cplx* b, cplx* c, int g);

/// m <- m + m (I - m^dag m) / 2, one Newton step towards the unitary polar factor (row-major,
/// g x g); work: 2 g^2 entries.
void small_unitary_refine(cplx* m, int g, cplx* work);

/// Largest g handled by expm_hermitian_small.
inline constexpr int kSmallExpm = 16;

/// exp(-i * scale * H) for a small Hermitian H (g <= kSmallExpm), row-major in and out,
/// without allocation: Taylor series of degree 14 after scaling by 2^-j so that the scaled
/// 1-norm is <= 1/2 (truncation error < 2.3e-17 relative), j squarings, then one Newton step to
/// the unitary polar factor. Agrees with expm_hermitian to ~1e-14 (tests); per-step bond
/// exponentials (`splitting: bonds`) use it instead of a LAPACK eigensolver call.
void expm_hermitian_small(const cplx* H, int g, double scale, cplx* out);

/// First divided differences of f(x) = exp(-i scale x) on the eigenvalues w:
/// G(k, l) = (f(w_k) - f(w_l)) / (w_k - w_l), and f'(w_k) = -i scale f(w_k) on (near-)ties
/// (evaluated stably for close eigenvalues). The Frechet derivative of exp(-i scale H) in the
/// direction dH is then V (G o (V^dag dH V)) V^dag (Daleckii-Krein), H = V diag(w) V^dag.
[[nodiscard]] CMatrix exp_divided_differences(const RVector& w, double scale);

/// d/de exp(-i scale (H + e dH)) at e = 0, given the eigen-decomposition (w, V) of H.
[[nodiscard]] CMatrix expm_hermitian_frechet(const RVector& w, const CMatrix& V, double scale,
                                             const CMatrix& dH);

/// BLAS threading policy of the commands. Two thread pools on the same cores fight: after a
/// threaded call each OpenBLAS (pthread build) worker spin-waits for ~0.1 s, and an OpenMP team
/// started in that window loses whole scheduler time slices (measured: 75 Trotter steps at
/// N = 6 on 2 threads took 15.7 ms instead of 0.7 ms). So a command calls
/// set_blas_threads(--threads): OpenBLAS then runs on one thread, except inside a
/// DenseBlasPhase (D x D eigendecompositions, the dense solvers), which raises it to the
/// recorded count and stops the workers again when it ends. Returns the count recorded
/// (0 = all cores, resolved). Without a call nothing is changed (library use).
int set_blas_threads(int threads);

/// Threads OpenBLAS uses for a call right now (1 when it is not OpenBLAS).
[[nodiscard]] int blas_threads();

/// Smallest D for which a DenseBlasPhase lets BLAS use threads.
inline constexpr Index kThreadedBlasDim = 128;

/// Stops OpenBLAS's pthread workers if any are running (the next threaded call re-creates
/// them, ~60 us). Not to be called while another thread of the process is inside BLAS; a
/// no-op for other BLAS builds.
void park_blas_workers();

/// Scope of dense, BLAS-3-bound work: OpenBLAS may use the threads recorded by
/// set_blas_threads while it lives (outermost scope only; a no-op when nothing was recorded or
/// one thread was: nothing to raise, and no worker pool started and parked per phase).
class DenseBlasPhase {
 public:
  /// Work on D x D matrices. Below kThreadedBlasDim BLAS stays on one thread: a D x D product
  /// is then under the threading policy's 1e7 flops (8 D^3 at D = 108), and OpenBLAS's workers,
  /// which spin-yield between calls, cost far more than they save — on a loaded machine a
  /// D = 10 expm run took 0.4-19 s on 2 threads instead of 0.02 s.
  explicit DenseBlasPhase(Index dim);
  ~DenseBlasPhase();
  DenseBlasPhase(const DenseBlasPhase&) = delete;
  DenseBlasPhase& operator=(const DenseBlasPhase&) = delete;

 private:
  bool counted_ = false;  // set_blas_threads had been called when the scope began
  bool active_ = false;   // the outermost scope: it raised the threads
};

/// exp(A) for a general complex square matrix: scaling and squaring with the
/// [13/13] Pade approximant (Higham 2005).
[[nodiscard]] CMatrix expm(const CMatrix& A);

}  // namespace qevolve::linalg
