// The states of a run and the map onto its outputs (a Simulator's part, docs/architecture.md
// "Plans"): the initial states (flat basis indices; dressed states in the dressed basis), the
// product-basis columns and vectorised density matrices the evolution starts from, and the map
// the evolved product-basis lab-frame columns take to the configured basis and frame, with its
// adjoint; for open systems the channel block on the initial states.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "qevolve/comm.hpp"
#include "qevolve/device.hpp"
#include "qevolve/evolution_plan.hpp"
#include "qevolve/types.hpp"

namespace qevolve::solver {

class StateMap {
 public:
  /// `device` and `dressed` must outlive the map (the Simulator owns all three); `options`
  /// gives the basis, the frame and the duration.
  StateMap(const device::Device& device, const std::optional<device::DressedBasis>& dressed, const Options& options,
           std::vector<Index> initial);

  /// Basis-state indices of the initial states (flat indices; in the dressed basis these label
  /// dressed states) and their labels ("0110").
  [[nodiscard]] const std::vector<Index>& initial_indices() const { return initial_; }
  [[nodiscard]] std::vector<std::string> initial_labels() const;
  /// True when the initial states are exactly the computational subspace, in order.
  [[nodiscard]] bool initial_states_are_computational() const;
  /// The whole range of initial states {0, n} and of density inputs {0, n^2}.
  [[nodiscard]] comm::Shard all_initial() const;
  [[nodiscard]] comm::Shard all_inputs() const;

  /// The product-basis columns evolve() starts from (basis vectors, or dressed eigenvectors):
  /// all, or those of a shard of the initial states (std::invalid_argument outside them).
  [[nodiscard]] CMatrix initial_columns() const;
  [[nodiscard]] CMatrix initial_columns(const comm::Shard& shard) const;
  /// Open systems: the inputs |v_i><v_j| of evolve_channel (D^2 x n^2, input i + n j, v the
  /// initial columns), all or a shard of them.
  [[nodiscard]] CMatrix initial_density() const;
  [[nodiscard]] CMatrix initial_density(const comm::Shard& shard) const;

  /// The map evolve() applies to the product-basis lab-frame result: out = Phi W^dag psi
  /// (W: dressed transform for basis: dressed; Phi: the rotating-frame phases), and its
  /// adjoint (used to carry a cotangent of the output back to psi).
  [[nodiscard]] CMatrix to_output(const CMatrix& product_lab) const;
  [[nodiscard]] CMatrix output_adjoint(const CMatrix& cotangent) const;
  /// The energies E_i that define the rotating frame (bare sums or dressed), by flat index.
  [[nodiscard]] RVector frame_energies() const;
  /// Open systems: the channel block of evolved inputs (output map and projection onto the
  /// initial states), and the adjoint of that map (cotangent of S -> cotangent of the states).
  [[nodiscard]] CMatrix channel_from(const CMatrix& vecs) const;
  [[nodiscard]] CMatrix channel_adjoint(const CMatrix& lambda_s) const;

 private:
  const device::Device* device_;
  const std::optional<device::DressedBasis>* dressed_;
  Basis basis_;
  Frame frame_;
  double duration_;
  std::vector<Index> initial_;
};

}  // namespace qevolve::solver
