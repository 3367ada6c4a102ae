// `splitting: bonds` (docs/solvers.md "`splitting: bonds`"): H(t) regrouped as a sum of
// bond Hamiltonians h_b(t), one per coupled pair of modes (all couplings of the pair together)
// and one per mode without couplings. Each mode's energy term and each drive channel on it are
// shared evenly among the n_m bonds touching the mode. Bonds are coloured so that bonds of one
// colour share no mode (greedy in bond order: a chain gets 2 colours, an odd ring 3); a colour's
// bonds commute, so the exponential of a colour is the product of exact two-mode exponentials.
#pragma once

#include <vector>

#include "qevolve/device.hpp"
#include "qevolve/types.hpp"
#include "trotter_gates.hpp"

namespace qevolve::solver {

struct BondTerm {
  std::vector<int> modes;  ///< 1 or 2 modes, ascending
  int d0 = 1, d1 = 1;
  int colour = 0;
  CMatrix S;  ///< static part (g x g): couplings plus the shared single-mode energies
  /// A static term's share: Device::static_terms() index, weight (1 or 1/n_m), gate position
  /// of a one-mode term (0 or 1; -1: the term acts on the whole bond).
  struct Part {
    int term = 0;
    double weight = 1.0;
    int position = -1;
  };
  std::vector<Part> static_parts;
  /// Drive channels on the bond's modes: channel index, weight 1/n_m, gate position, and the
  /// weighted embedded operator (g x g); h_b = S + sum_i c_{channel_i} drive_ops[i].
  std::vector<int> channels;
  std::vector<double> channel_weight;
  std::vector<int> channel_position;
  std::vector<CMatrix> drive_ops;
  [[nodiscard]] int size() const { return d0 * d1; }
};

struct BondList {
  std::vector<BondTerm> bonds;
  int colours = 0;
};

[[nodiscard]] BondList make_bond_list(const device::Device& device,
                                      const std::vector<DriveEigen>& drives);

}  // namespace qevolve::solver
