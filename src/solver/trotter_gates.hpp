// The compiled Trotter step: fused gates whose static parts are pre-multiplied for the current
// dt, and whose drive factors are evaluated per step through cached eigensystems
// exp(-i 2 pi c dt frac O) = V exp(-i 2 pi c dt frac lambda) V^dag.
#pragma once

#include <vector>

#include "qevolve/backend/backend.hpp"
#include "qevolve/device.hpp"
#include "qevolve/types.hpp"
#include "trotter_plan.hpp"

namespace qevolve::solver {

/// Eigensystem of one drive channel's operator O = V diag(lambda) V^dag (the channel's
/// crosstalk factor is part of its coefficient c_j(t), not of O).
struct DriveEigen {
  int mode = 0;
  CMatrix V;
  RVector lambda;
  CMatrix op;  ///< O itself (optional: factored gates need it; empty disables them)
};

/// Largest d x d or g x g matrix the per-step gate arithmetic handles (backend::kMaxGateSize).
inline constexpr int kMaxStepGate = 64;

/// The local terms of H(t) in the order of docs/solvers.md "Time stepping": one energy term per mode, one per coupling,
/// one per drive channel. Static terms carry their matrix; drive terms their channel index.
struct TermList {
  std::vector<TermModes> modes;
  std::vector<CMatrix> static_matrix;  ///< empty for drive terms
  std::vector<int> channel;            ///< -1 for static terms
  [[nodiscard]] int size() const { return static_cast<int>(modes.size()); }
};

/// Embeds a one-mode matrix at position `pos` (0: first mode, kron(m, I_d1); 1: second mode,
/// kron(I_d0, m)) of a gate on modes of dimensions (d0, d1); d1 = 1 returns m.
[[nodiscard]] CMatrix embed_in_gate(const CMatrix& m, int pos, int d0, int d1);

[[nodiscard]] TermList make_term_list(const device::Device& device,
                                      const std::vector<DriveEigen>& drives);

struct BondList;  // bond_list.hpp

class TrotterGates {
 public:
  TrotterGates() = default;
  /// splitting: terms. Builds the plan for `order` and pre-multiplies static factors for step dt.
  TrotterGates(const device::Device& device, const TermList& terms,
               const std::vector<DriveEigen>& drives, int order, double dt);
  /// splitting: bonds. The order-1/2/4 sequence over bond colours; each colour factor becomes
  /// one gate per bond of that colour, the exact exponential exp(-i 2 pi dt frac h_b(c)) (one
  /// "bond" segment). `bonds` must outlive the gates.
  TrotterGates(const BondList& bonds, const std::vector<DriveEigen>& drives, int order, double dt);

  /// Number of gates of the step's last layer that may be multiplied into the first layer of
  /// the next step: bonds, the same bonds (0 when the sequence does not start and end on one
  /// colour); terms, 1 when the first and last gates act on the same modes. Those gates are
  /// gates [num_gates() - n, num_gates()) and pair with gates [0, n).
  [[nodiscard]] int boundary_gates() const { return boundary_; }
  [[nodiscard]] const BondList* bonds() const { return bonds_; }

  [[nodiscard]] int num_gates() const { return static_cast<int>(gates_.size()); }
  [[nodiscard]] const std::vector<int>& modes(int gate) const {
    return gates_[static_cast<std::size_t>(gate)].modes;
  }
  [[nodiscard]] int size(int gate) const { return gates_[static_cast<std::size_t>(gate)].g; }
  /// Complex multiply-adds per amplitude of gate k as the CPU executor applies it
  /// (backend::gate_work).
  [[nodiscard]] double work(int gate) const;
  /// Gate::blocks of gate k, except that the first boundary_gates() gates, which are multiplied
  /// with the previous step's last ones, keep blocks only when both have the same.
  [[nodiscard]] const std::vector<std::vector<int>>& blocks(int gate) const {
    return gates_[static_cast<std::size_t>(gate)].blocks;
  }
  /// Offset of gate k's 2 g^2 numbers inside one step's buffer, and the buffer length.
  [[nodiscard]] std::size_t offset(int gate) const { return offsets_[static_cast<std::size_t>(gate)]; }
  [[nodiscard]] std::size_t step_size() const { return step_size_; }
  /// Factored gate k (G = D S = R (cos(a) S), backend::GateSchedule::Gate): offset of its
  /// [cos(a) S: 2 g^2 numbers (split, row-major)][R's off-diagonal w01, w10 as re, im
  /// (backend::kDriveFactorSize numbers)] inside one step's buffer, after every gate's full
  /// matrix (which compute() writes as well).
  [[nodiscard]] std::size_t factor_offset(int gate) const {
    return factor_offsets_[static_cast<std::size_t>(gate)];
  }
  /// Numbers of a factored gate's region: 2 g^2 + kDriveFactorSize.
  [[nodiscard]] static std::size_t factor_size(int g) {
    return 2 * static_cast<std::size_t>(g * g) + backend::kDriveFactorSize;
  }

  /// Every gate matrix of one step, given the drive coefficients c_j(t_mid), written as
  /// split re/im row-major blocks at offset(k) of `out` (length step_size()).
  template <typename Real>
  void compute(const std::vector<double>& coefficients, Real* out) const;

  /// The same gates as dense complex matrices (tests).
  [[nodiscard]] std::vector<CMatrix> matrices(const std::vector<double>& coefficients) const;

  /// One factor of a static segment before merging: exp(-i 2 pi dt frac H_term) of static term
  /// `term` (TermList index), embedded at gate position `position` (-1: the term acts on all
  /// of the gate's modes).
  struct StaticFactor {
    int term = 0;
    double frac = 0.0;
    int position = -1;
  };
  struct Segment {
    bool is_static = true;
    CMatrix matrix;      ///< static: the pre-multiplied product, g x g
    int channel = -1;    ///< drive: channel index
    double frac = 0.0;   ///< drive: fraction of dt
    int position = 0;    ///< drive: 0 = first (or only) mode of the gate, 1 = second
    std::vector<StaticFactor> factors;  ///< static: the merged factors, first applied first
    /// Bond segment (splitting: bonds): index into BondList::bonds, or -1. is_static is false,
    /// `frac` is the fraction of dt, `matrix` holds the undriven exponential exp(-i 2 pi dt
    /// frac S_b), used when every drive on the bond is off.
    int bond = -1;
  };
  struct Gate {
    std::vector<int> modes;
    int g = 1;
    int d0 = 1, d1 = 1;
    std::vector<Segment> segments;  ///< first applied first
    /// A gate of static factors only whose matrix has exact zeros between groups of its basis
    /// states (pattern_blocks, e.g. the total parity of two fluxonia at half flux): the
    /// groups, each ascending; for a factored gate, the groups of its static part. Empty for
    /// every other gate (applied dense).
    std::vector<std::vector<int>> blocks;
    /// Factored gate (docs/solvers.md "Parity blocks"): segments [static S with blocks, one
    /// drive on a 2-level mode whose operator O has no diagonal], i.e. G = D S with
    /// D = cos(a) I - i sin(a) O / |o|, a = 2 pi dt frac c |o|, o = O(0, 1). -1 otherwise,
    /// else the drive's position (0: first mode, 1: second). factor_kind: 0 when o is exactly
    /// imaginary (D real), 1 when exactly real (off-diagonal of D imaginary), 2 otherwise.
    int factor_position = -1;
    int factor_kind = 2;
    /// Factored gate: S row-major, refined to unitarity (constant; written each step).
    std::vector<cplx> factor_static;
  };
  /// The gates of one step, first applied first (adjoint and tests).
  [[nodiscard]] const Gate& gate(int k) const { return gates_[static_cast<std::size_t>(k)]; }
  [[nodiscard]] double dt() const { return dt_; }
  [[nodiscard]] const std::vector<DriveEigen>& drives() const { return *drives_; }
  /// The matrix of one segment for coefficients c (g x g, column-major Eigen).
  [[nodiscard]] CMatrix segment_matrix(const Gate& gate, const Segment& s,
                                       const std::vector<double>& c) const;
  /// Bond segments: h_b(c) = S_b + sum_i c_i O_i (g x g).
  [[nodiscard]] CMatrix bond_hamiltonian(const Segment& s, const std::vector<double>& c) const;
  /// True when a drive on the segment's bond is on (otherwise its matrix is the cached one).
  [[nodiscard]] bool bond_driven(const Segment& s, const std::vector<double>& c) const;
  /// The bond segment's factor exp(-i 2 pi dt frac h_b(c)) (the cached matrix when undriven),
  /// g x g column-major. The forward gates and the adjoint both use it.
  [[nodiscard]] CMatrix bond_factor(const Segment& s, const std::vector<double>& c) const;

 private:
  /// Writes gate `gate` for coefficients c into m (g x g, row-major), using `work` (at least
  /// 2 g^2 entries) as scratch. No allocation.
  void gate_matrix(const Gate& gate, const std::vector<double>& c, cplx* m, cplx* work) const;
  /// bond_factor into `out` (row-major, g x g); allocation-free for g <= linalg::kSmallExpm.
  void bond_factor(const Segment& s, const std::vector<double>& c, int g, cplx* out) const;

  /// Marks the factored gates (Gate::factor_position) and lays out their regions.
  void factor_gates();
  /// Writes factored gate k's region for coefficients c.
  template <typename Real>
  void write_factors(const Gate& gate, const std::vector<double>& c, Real* out) const;

  std::vector<Gate> gates_;
  std::vector<std::size_t> offsets_;
  std::vector<std::size_t> factor_offsets_;  ///< 0 for gates that are not factored
  std::size_t step_size_ = 0;
  const std::vector<DriveEigen>* drives_ = nullptr;
  const BondList* bonds_ = nullptr;
  int boundary_ = 0;
  double dt_ = 0.0;
};

}  // namespace qevolve::solver
