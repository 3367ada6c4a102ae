// The composite device (docs/device.md): diagonalised modes plus couplings.
// H0 is kept as local terms on one or two modes; a dense D x D builder exists for tests and
// for the dressed basis only.
#pragma once

#include <string>
#include <vector>

#include "qevolve/config.hpp"
#include "qevolve/mode.hpp"
#include "qevolve/types.hpp"

namespace qevolve::device {

/// One coupling between two distinct modes (indices into Device::modes, a != b).
struct Coupling {
  int a = 0, b = 0;
  double capacitive = 0.0;  ///< J_C charge_a (x) charge_b
  double inductive = 0.0;   ///< J_L flux_a (x) flux_b
  double dipole = 0.0;      ///< g (a^dag b + a b^dag), oscillators only
  double cross_kerr = 0.0;  ///< chi N_a (x) N_b
  std::string path;         ///< key path in the config, e.g. "device.couplings[1]"
};

/// A Hermitian term acting on one mode or on two modes. For two modes the matrix is
/// (d_a d_b) x (d_a d_b) with mode `modes[0]`'s index the more significant (np.kron order).
struct LocalTerm {
  std::vector<int> modes;
  CMatrix matrix;
};

class Device {
 public:
  Device() = default;
  Device(std::vector<Mode> modes, std::vector<Coupling> couplings);

  [[nodiscard]] const std::vector<Mode>& modes() const { return modes_; }
  [[nodiscard]] const std::vector<Coupling>& couplings() const { return couplings_; }
  [[nodiscard]] int num_modes() const { return static_cast<int>(modes_.size()); }
  [[nodiscard]] const std::vector<int>& dims() const { return dims_; }
  /// Total dimension D = prod d_q.
  [[nodiscard]] Index dim() const { return dim_; }
  /// Index of the mode called `name`, or -1.
  [[nodiscard]] int find(const std::string& name) const;

  /// H0 as local terms: one diagonal single-mode term per mode (its kept energies), in mode
  /// order, then one two-mode term per coupling, in coupling order (docs/solvers.md "Time stepping").
  [[nodiscard]] std::vector<LocalTerm> static_terms() const;
  /// The two-mode matrix of one coupling.
  [[nodiscard]] CMatrix coupling_matrix(const Coupling& c) const;
  /// Dense D x D H0 in the product basis (tests, dressed basis; small D only).
  [[nodiscard]] CMatrix dense_h0() const;
  /// Embeds a local operator into the full D x D space (tests and dense paths only).
  [[nodiscard]] CMatrix embed(const LocalTerm& term) const;
  /// out += the embedded term (out is D x D).
  void add_embedded(const LocalTerm& term, CMatrix& out) const;

  /// Flat product-basis index of a per-mode level vector (mode 0 most significant).
  [[nodiscard]] Index flat_index(const std::vector<int>& levels) const;
  /// Inverse of flat_index.
  [[nodiscard]] std::vector<int> levels_of(Index flat) const;
  /// Label string of a flat index, one character per mode ("0110"); levels >= 10 use letters.
  [[nodiscard]] std::string label(Index flat) const;

  /// Indices of the modes that are qubits (role qubit, not resonators), in mode order.
  [[nodiscard]] std::vector<int> qubit_modes() const;
  /// Flat indices of the computational subspace (qubits in 0/1, couplers and resonators in 0), ascending,
  /// i.e. in the order of the computational label "q...": d = 2^(number of qubits) entries.
  [[nodiscard]] std::vector<Index> computational_indices() const;

 private:
  std::vector<Mode> modes_;
  std::vector<Coupling> couplings_;
  std::vector<int> dims_;
  Index dim_ = 1;
};

/// The device section after the resolution stage (io::resolve_device): the preset merged with
/// the explicit device.qubits / device.couplings entries, every key checked.
struct ResolvedDevice {
  std::vector<ModeParams> modes;
  std::vector<Coupling> couplings;
};

/// "3 qubits, 2 couplers, 1 resonator": the modes by role, resonators apart (summaries).
[[nodiscard]] std::string describe_roles(const std::vector<ModeParams>& modes);
/// The modes' names, and the config spelling of each mode's effective_role ("qubit",
/// "coupler"), in mode order (the `modes` and `roles` attributes of the output files).
[[nodiscard]] std::vector<std::string> mode_names(const std::vector<ModeParams>& modes);
[[nodiscard]] std::vector<std::string> mode_roles(const std::vector<ModeParams>& modes);
/// The parameters of every mode of a built device, in mode order.
[[nodiscard]] std::vector<ModeParams> mode_params(const Device& device);

/// Diagonalises every mode of a resolved device (memoised per parameter set).
[[nodiscard]] Device build_device(const ResolvedDevice& resolved);

/// The dressed basis: eigenvectors of H0 assigned to bare product labels (docs/device.md "Dressed basis").
struct DressedBasis {
  RVector energies;            ///< eigenvalues of H0, ascending
  std::vector<Index> labels;   ///< bare flat index assigned to each ascending eigenvalue
  RVector energy_of_bare;      ///< dressed energy by bare flat index: energy_of_bare[labels[k]] = energies[k]
  /// Bare -> dressed transform: column j is the dressed eigenvector assigned to bare index j,
  /// phase-fixed so that transform(j, j) is real and positive.
  CMatrix transform;
  bool degenerate = false;     ///< exactly degenerate bare levels: the basis is not unique
};
[[nodiscard]] DressedBasis dress(const Device& device);

}  // namespace qevolve::device
