// Dressed basis (docs/device.md "Dressed basis"): eigenvectors of H0 assigned to bare labels.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "qevolve/device.hpp"
#include "qevolve/linalg.hpp"

namespace qevolve::device {

DressedBasis dress(const Device& device) {
  const Index D = device.dim();
  const linalg::DenseBlasPhase dense_phase(D);  // D x D eigendecomposition
  DressedBasis out;
  CMatrix V;
  linalg::hermitian_eigen(device.dense_h0(), out.energies, V);

  // Bare energies of the product states, and their order (ascending; ties by index).
  RVector bare = RVector::Zero(D);
  for (Index i = 0; i < D; ++i) {
    const auto levels = device.levels_of(i);
    for (std::size_t q = 0; q < levels.size(); ++q)
      bare(i) += device.modes()[q].energies(levels[q]);
  }
  std::vector<Index> order(static_cast<std::size_t>(D));
  std::iota(order.begin(), order.end(), Index{0});
  std::stable_sort(order.begin(), order.end(), [&](Index x, Index y) { return bare(x) < bare(y); });
  for (std::size_t k = 1; k < order.size(); ++k) {
    const double a = bare(order[k - 1]), b = bare(order[k]);
    if (std::abs(a - b) <= 1e-12 * std::max(1.0, std::abs(a))) out.degenerate = true;
  }

  // Greedy assignment: each bare label, in ascending bare energy, takes the unassigned
  // eigenvector with the largest |overlap|^2 (ties: the lower eigenvalue, i.e. lower index).
  std::vector<char> taken(static_cast<std::size_t>(D), 0);
  std::vector<Index> eigen_of_bare(static_cast<std::size_t>(D), -1);
  for (Index j : order) {
    Index best = -1;
    double best_w = -1.0;
    for (Index k = 0; k < D; ++k) {
      if (taken[static_cast<std::size_t>(k)]) continue;
      const double w = std::norm(V(j, k));
      if (w > best_w) {
        best_w = w;
        best = k;
      }
    }
    taken[static_cast<std::size_t>(best)] = 1;
    eigen_of_bare[static_cast<std::size_t>(j)] = best;
  }

  out.labels.assign(static_cast<std::size_t>(D), 0);
  out.energy_of_bare.resize(D);
  out.transform.resize(D, D);
  for (Index j = 0; j < D; ++j) {
    const Index k = eigen_of_bare[static_cast<std::size_t>(j)];
    out.labels[static_cast<std::size_t>(k)] = j;
    out.energy_of_bare(j) = out.energies(k);
    const cplx diag = V(j, k);
    const cplx phase = std::abs(diag) > 0.0 ? std::conj(diag) / std::abs(diag) : cplx{1.0};
    out.transform.col(j) = V.col(k) * phase;
    out.transform(j, j) = std::abs(diag);  // exactly real and positive
  }
  return out;
}

}  // namespace qevolve::device
