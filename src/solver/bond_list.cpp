#include "bond_list.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace qevolve::solver {

BondList make_bond_list(const device::Device& device, const std::vector<DriveEigen>& drives) {
  const int n = device.num_modes();
  const auto& dims = device.dims();
  const auto terms = device.static_terms();
  BondList list;
  auto find_bond = [&list](const std::vector<int>& modes) {
    for (std::size_t b = 0; b < list.bonds.size(); ++b)
      if (list.bonds[b].modes == modes) return static_cast<int>(b);
    return -1;
  };
  // Bonds from the two-mode terms (couplings), in coupling order; then uncoupled modes.
  for (const auto& t : terms) {
    if (t.modes.size() != 2) continue;
    std::vector<int> m = t.modes;
    std::sort(m.begin(), m.end());
    if (find_bond(m) >= 0) continue;
    BondTerm b;
    b.modes = m;
    b.d0 = dims[static_cast<std::size_t>(m[0])];
    b.d1 = dims[static_cast<std::size_t>(m[1])];
    list.bonds.push_back(std::move(b));
  }
  std::vector<int> touching(static_cast<std::size_t>(n), 0);
  for (const auto& b : list.bonds)
    for (int m : b.modes) ++touching[static_cast<std::size_t>(m)];
  for (int m = 0; m < n; ++m)
    if (touching[static_cast<std::size_t>(m)] == 0) {
      BondTerm b;
      b.modes = {m};
      b.d0 = dims[static_cast<std::size_t>(m)];
      list.bonds.push_back(std::move(b));
      touching[static_cast<std::size_t>(m)] = 1;
    }

  // Greedy colouring in bond order.
  std::vector<std::vector<int>> colour_modes;
  for (auto& b : list.bonds) {
    int c = 0;
    for (; c < static_cast<int>(colour_modes.size()); ++c) {
      const auto& used = colour_modes[static_cast<std::size_t>(c)];
      if (std::none_of(b.modes.begin(), b.modes.end(), [&](int m) {
            return std::find(used.begin(), used.end(), m) != used.end();
          }))
        break;
    }
    if (c == static_cast<int>(colour_modes.size())) colour_modes.emplace_back();
    auto& used = colour_modes[static_cast<std::size_t>(c)];
    used.insert(used.end(), b.modes.begin(), b.modes.end());
    b.colour = c;
  }
  list.colours = static_cast<int>(colour_modes.size());

  // Static parts and drive operators.
  for (auto& b : list.bonds) {
    const int g = b.size();
    b.S = CMatrix::Zero(g, g);
    auto position_of = [&b](int mode) { return mode == b.modes[0] ? 0 : 1; };
    auto has = [&b](int mode) { return std::find(b.modes.begin(), b.modes.end(), mode) != b.modes.end(); };
    for (std::size_t i = 0; i < terms.size(); ++i) {
      const auto& t = terms[i];
      if (t.modes.size() == 1) {
        const int m = t.modes[0];
        if (!has(m)) continue;
        const double w = 1.0 / touching[static_cast<std::size_t>(m)];
        const int pos = b.modes.size() == 2 ? position_of(m) : 0;
        b.S += w * embed_in_gate(t.matrix, pos, b.d0, b.d1);
        b.static_parts.push_back({static_cast<int>(i), w, b.modes.size() == 2 ? pos : -1});
      } else {
        std::vector<int> m = t.modes;
        if (b.modes.size() != 2 || !has(m[0]) || !has(m[1])) continue;
        if (m[0] != b.modes[0])
          throw std::logic_error("make_bond_list: two-mode terms are expected in ascending mode order");
        b.S += t.matrix;
        b.static_parts.push_back({static_cast<int>(i), 1.0, -1});
      }
    }
    for (std::size_t j = 0; j < drives.size(); ++j) {
      const int m = drives[j].mode;
      if (!has(m)) continue;
      const double w = 1.0 / touching[static_cast<std::size_t>(m)];
      const int pos = b.modes.size() == 2 ? position_of(m) : 0;
      const CMatrix O = drives[j].V * drives[j].lambda.cast<cplx>().asDiagonal() * drives[j].V.adjoint();
      b.channels.push_back(static_cast<int>(j));
      b.channel_weight.push_back(w);
      b.channel_position.push_back(pos);
      b.drive_ops.push_back(w * embed_in_gate(O, pos, b.d0, b.d1));
    }
  }
  return list;
}

}  // namespace qevolve::solver
