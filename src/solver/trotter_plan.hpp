// The Trotter splitting of the midpoint Hamiltonian (docs/solvers.md "Time stepping"):
// the term list, the order-1/2/4 factor sequence and its fusion into local gates.
//
// A factor is exp(-i 2 pi dt frac H_term). Fusion merges consecutive factors into gates on one
// or two modes where this is exact: a factor joins an earlier gate whose modes contain its
// modes when every gate in between acts on disjoint modes (so the factor commutes with them);
// a one-mode gate is folded forward into a later gate containing its mode under the same
// condition. The plan depends only on the term structure, so it is computed once.
#pragma once

#include <vector>

namespace qevolve::solver {

struct Factor {
  int term = 0;       ///< index into the term list
  double frac = 1.0;  ///< fraction of dt
};

/// The term structure the plan needs: the modes each term acts on (1 or 2, ascending).
struct TermModes {
  std::vector<int> modes;
};

/// One fused gate: the modes it acts on (ascending) and its factors in application order.
struct GatePlan {
  std::vector<int> modes;
  std::vector<Factor> factors;
};

/// Factors of one step in application order (first applied first): order 1 the list order,
/// order 2 Strang (half steps in list order, then in reverse), order 4 the Suzuki composition
/// S2(p) S2(1-2p) S2(p), p = 1/(2 - 2^(1/3)). Adjacent factors of the same term are merged.
[[nodiscard]] std::vector<Factor> trotter_sequence(int num_terms, int order);

/// Fuses a factor sequence into gates (see the file comment).
[[nodiscard]] std::vector<GatePlan> fuse(const std::vector<Factor>& sequence,
                                         const std::vector<TermModes>& terms);

}  // namespace qevolve::solver
