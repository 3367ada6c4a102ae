#include "trotter_plan.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace qevolve::solver {
namespace {

void push_merged(std::vector<Factor>& seq, Factor f) {
  if (!seq.empty() && seq.back().term == f.term)
    seq.back().frac += f.frac;
  else
    seq.push_back(f);
}

void strang(std::vector<Factor>& seq, int n, double frac) {
  for (int t = 0; t < n; ++t) push_merged(seq, {t, 0.5 * frac});
  for (int t = n - 1; t >= 0; --t) push_merged(seq, {t, 0.5 * frac});
}

bool contains(const std::vector<int>& big, const std::vector<int>& small) {
  return std::all_of(small.begin(), small.end(), [&](int m) {
    return std::find(big.begin(), big.end(), m) != big.end();
  });
}

bool overlaps(const std::vector<int>& a, const std::vector<int>& b) {
  return std::any_of(a.begin(), a.end(),
                     [&](int m) { return std::find(b.begin(), b.end(), m) != b.end(); });
}

}  // namespace

std::vector<Factor> trotter_sequence(int num_terms, int order) {
  std::vector<Factor> seq;
  if (num_terms <= 0) return seq;
  switch (order) {
    case 1:
      for (int t = 0; t < num_terms; ++t) seq.push_back({t, 1.0});
      break;
    case 2:
      strang(seq, num_terms, 1.0);
      break;
    case 4: {
      const double p = 1.0 / (2.0 - std::cbrt(2.0));
      strang(seq, num_terms, p);
      strang(seq, num_terms, 1.0 - 2.0 * p);
      strang(seq, num_terms, p);
      break;
    }
    default:
      throw std::invalid_argument("trotter_sequence: order must be 1, 2 or 4");
  }
  return seq;
}

std::vector<GatePlan> fuse(const std::vector<Factor>& sequence,
                           const std::vector<TermModes>& terms) {
  // Pass 1: each factor joins the latest earlier gate containing its modes, if every gate after
  // that one is disjoint from the factor's modes.
  std::vector<GatePlan> gates;
  for (const Factor& f : sequence) {
    const auto& modes = terms.at(static_cast<std::size_t>(f.term)).modes;
    bool merged = false;
    for (auto it = gates.rbegin(); it != gates.rend(); ++it) {
      if (contains(it->modes, modes)) {
        auto& fs = it->factors;
        if (!fs.empty() && fs.back().term == f.term)
          fs.back().frac += f.frac;
        else
          fs.push_back(f);
        merged = true;
        break;
      }
      if (overlaps(it->modes, modes)) break;
    }
    if (!merged) gates.push_back({modes, {f}});
  }
  // Pass 2: fold one-mode gates forward into a later gate containing their mode.
  for (std::size_t i = gates.size(); i-- > 0;) {
    if (gates[i].modes.size() != 1) continue;
    for (std::size_t j = i + 1; j < gates.size(); ++j) {
      if (contains(gates[j].modes, gates[i].modes)) {
        auto& fs = gates[j].factors;
        fs.insert(fs.begin(), gates[i].factors.begin(), gates[i].factors.end());
        gates.erase(gates.begin() + static_cast<std::ptrdiff_t>(i));
        break;
      }
      if (overlaps(gates[j].modes, gates[i].modes)) break;
    }
  }
  return gates;
}

}  // namespace qevolve::solver
