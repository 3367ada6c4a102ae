// Block layouts and the gate schedule's derived sizes (backend/block_layout.hpp, backend.hpp).
#include "qevolve/backend/block_layout.hpp"

#include <algorithm>

namespace qevolve::backend {

int GateSchedule::size(int k) const {
  const Gate& g = gates[static_cast<std::size_t>(k)];
  return dims[static_cast<std::size_t>(g.mode_a)] *
         (g.mode_b >= 0 ? dims[static_cast<std::size_t>(g.mode_b)] : 1);
}

double gate_work(int g, const std::vector<std::vector<int>>& blocks, int factor_position, int factor_kind) {
  if (blocks.empty()) return g;
  double sum = 0.0;
  for (const auto& b : blocks) sum += static_cast<double>(b.size()) * static_cast<double>(b.size());
  return sum / g + (factor_position < 0 ? 0.0 : factor_kind == 2 ? 1.0 : 0.5);
}

double GateSchedule::work(int k) const {
  const Gate& gate = gates[static_cast<std::size_t>(k)];
  return gate_work(size(k), gate.blocks, gate.factor_position, gate.factor_kind);
}

Index GateSchedule::dim() const {
  Index D = 1;
  for (int d : dims) D *= d;
  return D;
}

BlockLayout make_block_layout(const GateSchedule& schedule, Index columns, Index width) {
  BlockLayout l;
  l.width = std::max<Index>(1, std::min(width, columns));
  l.num_blocks = (columns + l.width - 1) / l.width;
  l.last_width = columns - (l.num_blocks - 1) * l.width;
  auto geometries = [&](Index w) {
    std::vector<GateGeometry> geo;
    geo.reserve(schedule.gates.size());
    for (const auto& g : schedule.gates)
      geo.push_back(make_geometry(schedule.dims.data(), static_cast<int>(schedule.dims.size()),
                                  g.mode_a, g.mode_b, w));
    return geo;
  };
  l.geo_full = geometries(l.width);
  l.geo_last = geometries(l.last_width);
  return l;
}

}  // namespace qevolve::backend
