// The backend interface below the solvers (docs/backend.md): executors that own the state
// columns of one evolution and apply host-computed operators to them. The solvers compute what
// changes per step (the gate matrices of a chunk of Trotter steps, the dense midpoint H) on the
// host and hand it to an executor; the CPU executors run the OpenMP kernels of
// backend/local_gate.hpp, the CUDA executors (backend/cuda.hpp) the same functors on the GPU.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "qevolve/backend/chebyshev_series.hpp"
#include "qevolve/types.hpp"

namespace qevolve::backend {

/// True when this qevolve was built with the CUDA backend (QEVOLVE_HAVE_CUDA). The CUDA entry
/// points of backend/cuda.hpp are defined only then; callers name them inside
/// `if constexpr (kCudaBuilt)`.
#if defined(QEVOLVE_HAVE_CUDA) && QEVOLVE_HAVE_CUDA
inline constexpr bool kCudaBuilt = true;
#else
inline constexpr bool kCudaBuilt = false;
#endif

/// Numbers of a factored gate's drive factor R in a step's buffer (GateSchedule::Gate).
inline constexpr int kDriveFactorSize = 4;

/// Complex multiply-adds per amplitude of a gate of size g as the CPU gate executor applies it:
/// g when dense, sum b^2 / g over its blocks otherwise, plus a factored gate's drive factor (0.5,
/// or 1 for factor_kind 2). GateSchedule::work and solver::TrotterGates::work.
[[nodiscard]] double gate_work(int g, const std::vector<std::vector<int>>& blocks, int factor_position,
                               int factor_kind);

/// The gates of one Trotter step as the executors see them: the state's mode dimensions, each
/// gate's modes, and where its matrix sits in one step's gate buffer (2 g^2 numbers, real
/// parts then imaginary parts, row-major; backend/local_gate.hpp).
struct GateSchedule {
  struct Gate {
    int mode_a = 0;
    int mode_b = -1;          ///< -1: a one-mode gate
    std::size_t offset = 0;   ///< position of the gate's 2 g^2 numbers in a step's buffer
    /// When the gate's matrix is exactly zero between groups of its basis states (the total
    /// parity of a static two-mode gate at half flux): the groups, each ascending. An executor
    /// may apply each group as its own smaller gate (the CPU executor does) or the whole
    /// matrix (its zeros included); empty for a dense gate.
    std::vector<std::vector<int>> blocks;
    /// A factored gate G = D S (a two-mode gate of two 2-level modes; solver TrotterGates),
    /// its drive factor D = [[c, d01], [d10, c]] on mode position factor_position (0: mode_a)
    /// and its static part S with `blocks`. Stored at factor_offset in a step's buffer as
    /// G = R (c S), R = D / c = [[1, w01], [w10, 1]]: [c S: 2 g^2 numbers][re w01, im w01,
    /// re w10, im w10] (kDriveFactorSize numbers). factor_kind 0: D is real, 1: its
    /// off-diagonal is imaginary, 2: general. An executor may instead apply the full matrix
    /// at `offset`. factor_position -1: not factored.
    int factor_position = -1;
    int factor_kind = 2;
    std::size_t factor_offset = 0;
    /// The gate's matrix is the same in every step (a dissipator exponential of the open
    /// step): every step buffer still holds it, and an executor may read it from any step of
    /// the chunk (the CPU executor reads the chunk's first, which then stays in cache).
    bool fixed = false;
  };
  std::vector<int> dims;
  std::vector<Gate> gates;
  std::size_t step_size = 0;  ///< numbers per step in the gate buffer
  /// splitting: bonds: the last `boundary` gates of step s were multiplied (on the host) into
  /// the first gates of step s + 1, so every step but the last applies only the first
  /// num_gates() - boundary gates.
  int boundary = 0;
  int steps = 0;  ///< total steps of the evolution
  /// With `boundary`: step boundaries (ascending) where the state is observed (output.trace):
  /// the step ending there applies all its gates and the next one takes none of them, as at
  /// the end of the evolution. Empty without a trace.
  std::vector<int> breaks{};

  [[nodiscard]] int num_gates() const { return static_cast<int>(gates.size()); }
  /// Gates applied in step s.
  [[nodiscard]] int applied(int s) const {
    const bool full = s + 1 == steps || (!breaks.empty() && std::binary_search(breaks.begin(), breaks.end(), s + 1));
    return full ? num_gates() : num_gates() - boundary;
  }
  /// Gate size g = d_a d_b of gate k.
  [[nodiscard]] int size(int k) const;
  /// gate_work of gate k.
  [[nodiscard]] double work(int k) const;
  /// Product of the mode dimensions.
  [[nodiscard]] Index dim() const;
};

/// Applies chunks of host-computed Trotter gates to the columns of one evolution, in precision
/// Real. Use: upload(state), apply() for consecutive chunks s0..s1 covering 0..steps, then
/// download(state) with the same matrix. `gates` holds (s1 - s0) step buffers of
/// schedule.step_size numbers (gate k of step s at (s - s0) * step_size + offset_k); it is
/// read before apply() returns, so the caller may compute the next chunk into it at once.
/// Sees one column block inside a gate executor (output.trace): `at` holds step boundaries
/// (ascending, > 0); right after the step ending at a boundary b of `at`, the thread that
/// carries columns [c0, c0 + w) calls call(b, c0, w, re, im) with the block's split planes
/// (row-major [D][w], docs/solvers.md "Blocking and threads"). Calls for different blocks
/// come from different threads at once.
template <typename Real>
struct BlockObserver {
  std::vector<int> at;
  std::function<void(int boundary, Index c0, Index w, const Real* re, const Real* im)> call;
};

template <typename Real>
class GateExecutor {
 public:
  virtual ~GateExecutor() = default;
  virtual void upload(CMatrix& state) = 0;
  virtual void apply(const Real* gates, int s0, int s1) = 0;
  virtual void download(CMatrix& state) = 0;
  /// Installs a block observer; false where the executor cannot call one (the caller then
  /// ends its chunks at the boundaries and downloads the state there instead).
  virtual bool observe_blocks(BlockObserver<Real> /*observer*/) { return false; }
};

/// Dense steps of the `expm` solver (and `splitting: dense`): state <- exp(-i scale H) state
/// for Hermitian D x D matrices H, in double precision. Use as GateExecutor: upload, one
/// apply_exponential per step, download with the same matrix.
class DenseExecutor {
 public:
  virtual ~DenseExecutor() = default;
  virtual void upload(CMatrix& state) = 0;
  virtual void apply_exponential(const CMatrix& H, double scale) = 0;
  virtual void download(CMatrix& state) = 0;
};

/// Steps by a general matrix the host computes (the open step of `expm` and `splitting: dense`:
/// exp(L dt) of the dense Liouvillian on the vectorised density matrices): state <- M state, M
/// any D' x D' complex matrix, in double precision. Use as DenseExecutor: upload, one apply per
/// step, download with the same matrix.
class PropagatorExecutor {
 public:
  virtual ~PropagatorExecutor() = default;
  virtual void upload(CMatrix& state) = 0;
  virtual void apply(const CMatrix& M) = 0;
  virtual void download(CMatrix& state) = 0;
};

/// The closed adjoint of the gate path (docs/gradients.md "Method"), in double precision: per
/// chunk of steps walked backwards, every column block is stepped back through the chunk with
/// the fused sequence psi <- g^dag psi, env += psi lambda^dag (gate-local), lambda <- g^dag
/// lambda, per gate from the last to the first (backend::adjoint_gate). Use: upload(psi,
/// lambda), apply() for the chunks from the last to the first, download(psi, lambda) with the
/// same matrices. `adjoint_gates` holds (s1 - s0) step buffers of the gates' adjoints in the
/// schedule's layout (all gates of every step: no boundary fusion); `env` the same layout,
/// zeroed by the caller, receives the environments summed over all columns, for the gates whose
/// `environment` flag is set (the others are left zero).
class AdjointExecutor {
 public:
  virtual ~AdjointExecutor() = default;
  virtual void upload(CMatrix& psi, CMatrix& lambda) = 0;
  virtual void apply(const double* adjoint_gates, int s0, int s1, double* env) = 0;
  virtual void download(CMatrix& psi, CMatrix& lambda) = 0;
};

/// The gates of the open-system adjoint's step (OpenAdjointExecutor): the open step's gate
/// applications on the doubled register (docs/solvers.md "Open systems"), in application order.
/// A gate is step-dependent (a unitary factor: its adjoint g^dag at `gates.gates[k].offset` in
/// each step buffer of gates.step_size numbers, its environment at the same place of the step's
/// environment buffer) or fixed (`fixed[k]`: a dissipator exponential E, the same in every step:
/// E^-1 and E^dag at `offset` in `fixed_inverse` and `fixed_adjoint`, its environment summed
/// over all steps at `offset` of the fixed environment buffer, fixed_inverse.size() numbers).
struct OpenAdjointSchedule {
  GateSchedule gates;  ///< dims of the doubled register; boundary 0
  std::vector<bool> fixed;
  std::vector<double> fixed_inverse, fixed_adjoint;
};

/// The backward sweep of the open-system (Lindblad) adjoint (docs/gradients.md "Open systems:
/// the checkpointed adjoint"), in double precision. Use: upload(lambda), apply() for the
/// segments of steps from the last to the first, download(lambda) with the same matrix. In
/// apply(after, adjoint_gates, s0, s1, env, fixed_env), every column block of lambda is stepped
/// back through the steps s = s1 - 1 .. s0, each from the state after it, *after[s - s0] (the
/// caller's recomputation): per gate from the last to the first, x <- P x, env += x lambda^dag
/// (gate-local), lambda <- A lambda (backend::adjoint_gate), P = A = g^dag for a step-dependent
/// gate, P = E^-1 and A = E^dag for a fixed one. `adjoint_gates` holds (s1 - s0) step buffers;
/// `env` the same layout, zeroed by the caller, receives the step-dependent gates' environments;
/// `fixed_env` has the fixed ones' added (sums over the columns, added once per apply).
class OpenAdjointExecutor {
 public:
  virtual ~OpenAdjointExecutor() = default;
  virtual void upload(CMatrix& lambda) = 0;
  virtual void apply(const std::vector<const CMatrix*>& after, const double* adjoint_gates, int s0, int s1,
                     double* env, double* fixed_env) = 0;
  virtual void download(CMatrix& lambda) = 0;
};

/// The generator of an integrator as a TermExecutor applies it: dy/dt = sum_k alpha_k c_k O_k y,
/// O_k on one or two modes of `dims` (mode_b -1: one; mode_a < mode_b), its matrix split (2 g^2
/// numbers, real parts then imaginary parts, row-major), c_k = 1 (channel -1) or the drive
/// coefficient of its channel.
struct TermSchedule {
  struct Term {
    int mode_a = 0;
    int mode_b = -1;
    std::vector<double> matrix;
    cplx alpha{0.0, 0.0};
    int channel = -1;
  };
  std::vector<int> dims;
  std::vector<Term> terms;
};

/// One column block of a TermExecutor as an integrator carries it: its state, and the product of
/// the generator with vectors of the state's shape.
class TermBlock {
 public:
  virtual ~TermBlock() = default;
  /// The block's columns w.
  [[nodiscard]] virtual Index columns() const = 0;
  /// The block's state, 2 D w numbers: the real plane, then the imaginary one (element (i, c) at
  /// i w + c). The integrator may swap it with another vector of that size: what it holds when
  /// the integrator returns is the block's result.
  [[nodiscard]] virtual std::vector<double>& state() = 0;
  /// k = sum_k alpha_k c_k O_k y for y and k laid out as state(); `c` the channels' drive
  /// coefficients. A term whose c_k is 0 is skipped.
  virtual void derivative(const std::vector<double>& c, const double* y, double* k) const = 0;
};

/// Column blocks for an integrator that carries each block through the whole run by itself (the
/// adaptive solver: each block its own step sizes), with the generator of a TermSchedule. Use:
/// upload(state), run(integrate, done), download(state) with the same matrix. run calls
/// integrate(block) once per column block, blocks on threads (taken dynamically), and done(n),
/// n blocks finished, after each block the calling thread integrated; an exception thrown by
/// integrate ends that block and is rethrown once all blocks have run.
class TermExecutor {
 public:
  virtual ~TermExecutor() = default;
  virtual void upload(CMatrix& state) = 0;
  virtual void run(const std::function<void(TermBlock&)>& integrate, const std::function<void(Index)>& done) = 0;
  virtual void download(CMatrix& state) = 0;
};

/// One step of a ChebyshevExecutor as the solver fills it: the generator H_u (its sparse part's
/// values, its local terms' alphas) and the series of exp(-i tau H_u) (backend/chebyshev_series.hpp).
struct ChebyshevStep {
  ChebyshevGenerator h;
  ChebyshevSeries series;
};

/// The adjoint of splitting: chebyshev (solver/chebyshev.hpp chebyshev_adjoint), in double
/// precision: per step, last first, step_back(series, H, accumulate) takes the uploaded psi (the
/// state after the step) back through the inverse series and lambda through p(Ht)^dag, handing the
/// terms of the direction contraction to `accumulate` (chebyshev_step_back,
/// backend/chebyshev_series.hpp). Use: upload(psi, lambda), step_back per step, download(psi,
/// lambda) with the same matrices.
class ChebyshevAdjointExecutor {
 public:
  virtual ~ChebyshevAdjointExecutor() = default;
  virtual void upload(CMatrix& psi, CMatrix& lambda) = 0;
  virtual void step_back(const ChebyshevSeries& series, const ChebyshevGenerator& H,
                         const ChebyshevAccumulate& accumulate) = 0;
  virtual void download(CMatrix& psi, CMatrix& lambda) = 0;
};

/// The closed adjoint of the dense path (`expm`, `splitting: dense`; solver/adjoint_dense.cpp), in
/// double precision: per step, last first, the host decomposes the step's H = W diag(w) W^dag
/// and hands W (unitary, D x D) and the inverse phases back = conj(exp(-i scale w)) to
/// step_back, which takes the uploaded psi (the state after the step) and lambda back through
/// the step and returns what the host contracts with the divided differences:
///   X = diag(back) (W^dag psi), Y = W^dag lambda; psi <- W X, lambda <- W diag(back) Y;
///   returns B = X Y^dag = W^dag (psi_s lambda_{s+1}^dag) W (D x D, summed over the columns).
/// Use: upload(psi, lambda), step_back per step, download(psi, lambda) with the same matrices.
class DenseAdjointExecutor {
 public:
  virtual ~DenseAdjointExecutor() = default;
  virtual void upload(CMatrix& psi, CMatrix& lambda) = 0;
  [[nodiscard]] virtual CMatrix step_back(const CMatrix& W, const CVector& back) = 0;
  virtual void download(CMatrix& psi, CMatrix& lambda) = 0;
};

/// Exponentials of a sparse generator applied to the columns of one evolution by their Chebyshev
/// series (splitting: chebyshev), in double precision. Use: upload(state), apply() for
/// consecutive ranges of steps, download(state) with the same matrix. apply(u0, u1, step, done)
/// takes every column block through the steps u0 .. u1 - 1: x <- sum_k a_k T_k((H_u - center) /
/// radius) x, with step(u, data) filling step u's generator and series into `data` (which keeps
/// what the previous call of the same block left in it: the caller copies its sparse pattern
/// once). step is called concurrently for different blocks. done(u) follows step u on the calling
/// thread (progress).
class ChebyshevExecutor {
 public:
  virtual ~ChebyshevExecutor() = default;
  virtual void upload(CMatrix& state) = 0;
  virtual void apply(int u0, int u1, const std::function<void(int, ChebyshevStep&)>& step,
                     const std::function<void(int)>& done) = 0;
  virtual void download(CMatrix& state) = 0;
  /// Installs a block observer (boundaries in steps u); false where the executor cannot call one.
  virtual bool observe_blocks(BlockObserver<double> /*observer*/) { return false; }
};

/// The CPU gate executor: the columns are cut into blocks of `block_width` columns; per chunk
/// every block is loaded into split planes (thread-local, cache-sized), carried through all
/// steps of the chunk by one OpenMP thread (blocks taken dynamically) and stored back. It
/// works in the uploaded matrix itself (no second copy of the state). Results do not depend on
/// `threads`.
template <typename Real>
[[nodiscard]] std::unique_ptr<GateExecutor<Real>> make_cpu_gate_executor(
    const GateSchedule& schedule, Index columns, Index block_width, int threads);

/// The CPU adjoint executor: blocks of `block_width` columns in four split planes (psi and lambda,
/// re and im), taken dynamically by the threads of backend/parallel.hpp; each thread sums its
/// blocks' environments and adds them to `env` once per chunk.
[[nodiscard]] std::unique_ptr<AdjointExecutor> make_cpu_adjoint_executor(const GateSchedule& schedule,
                                                                         std::vector<bool> environment,
                                                                         Index columns, Index block_width,
                                                                         int threads);

/// The CPU open-system adjoint executor: blocks of `block_width` columns of lambda, taken
/// dynamically by the threads of backend/parallel.hpp (a segment below ~10^7 flops on one), the
/// state after each step loaded into the block's other two planes; each thread sums its
/// blocks' environments and adds them to `env` and `fixed_env` once per segment.
[[nodiscard]] std::unique_ptr<OpenAdjointExecutor> make_cpu_open_adjoint_executor(const OpenAdjointSchedule& schedule,
                                                                                  Index columns, Index block_width,
                                                                                  int threads);

/// The CPU term executor: blocks of `block_width` columns, each loaded into one vector (both
/// planes) and integrated by one thread of backend/parallel.hpp (a team when there is more than
/// one block), the products by accumulate_gate (backend/local_gate.hpp), one sweep per term.
[[nodiscard]] std::unique_ptr<TermExecutor> make_cpu_term_executor(const TermSchedule& schedule, Index columns,
                                                                   Index block_width, int threads);

/// The CPU Chebyshev executor: blocks of `block_width` columns in planar blocks, each carried by
/// one thread of backend/parallel.hpp through all the steps of an apply() (no barrier per step),
/// which fills its own ChebyshevStep; a team for every apply() when `run_flops`, the work of the
/// whole run, is worth one.
[[nodiscard]] std::unique_ptr<ChebyshevExecutor> make_cpu_chebyshev_executor(Index dim, Index columns,
                                                                             Index block_width, int threads,
                                                                             double run_flops);

/// The CPU dense executor: linalg::expm_hermitian (LAPACK eigendecomposition, eigenvectors
/// refined to unitarity) and one BLAS product per step, in the uploaded matrix itself.
[[nodiscard]] std::unique_ptr<DenseExecutor> make_cpu_dense_executor();

/// The CPU propagator executor: one BLAS product M * state per step, in the uploaded matrix
/// itself.
[[nodiscard]] std::unique_ptr<PropagatorExecutor> make_cpu_propagator_executor();

/// The CPU Chebyshev adjoint executor: all columns in one block (the contraction sums over the
/// columns in order), its recurrence's buffers kept from step to step.
[[nodiscard]] std::unique_ptr<ChebyshevAdjointExecutor> make_cpu_chebyshev_adjoint_executor();

/// The CPU dense adjoint executor: the products of step_back as Eigen products (BLAS above
/// Eigen's small-product threshold) on the uploaded matrices themselves, all columns at once;
/// psi's phases as explicit FMAs rounded as Eigen's packet product rounds them, so results are
/// bitwise those of the step inline in the solver before it had an executor.
[[nodiscard]] std::unique_ptr<DenseAdjointExecutor> make_cpu_dense_adjoint_executor();

}  // namespace qevolve::backend
