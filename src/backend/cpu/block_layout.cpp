// Gate geometries, block layouts and the gate schedule's derived sizes (backend/local_gate.hpp,
// block_layout.hpp, backend.hpp). No OpenMP, no BLAS: the CUDA plugin compiles this file too.
#include "qevolve/backend/block_layout.hpp"

#include <algorithm>
#include <stdexcept>

namespace qevolve::backend {

GateGeometry make_geometry(const int* dims, int num_modes, int mode_a, int mode_b,
                           std::ptrdiff_t width) {
  if (mode_a < 0 || mode_a >= num_modes || mode_b >= num_modes || (mode_b >= 0 && mode_b <= mode_a))
    throw std::invalid_argument("make_geometry: invalid gate modes");
  auto stride_of = [&](int q) {
    std::ptrdiff_t s = width;
    for (int p = q + 1; p < num_modes; ++p) s *= dims[p];
    return s;
  };
  std::ptrdiff_t total = width;
  for (int p = 0; p < num_modes; ++p) total *= dims[p];
  GateGeometry g;
  g.da = dims[mode_a];
  g.stride_a = stride_of(mode_a);
  if (mode_b >= 0) {
    g.db = dims[mode_b];
    g.stride_b = stride_of(mode_b);
  } else {
    g.db = 1;
    g.stride_b = g.stride_a;
  }
  if (g.size() > kMaxGateSize) throw std::invalid_argument("make_geometry: gate too large");
  g.outer_stride = g.da * g.stride_a;
  g.middle_stride = g.db * g.stride_b;
  g.outer = total / g.outer_stride;
  g.middle = mode_b >= 0 ? g.stride_a / g.middle_stride : 1;
  g.inner = g.stride_b;
  for (int j = 0; j < g.size(); ++j) g.offset[j] = (j / g.db) * g.stride_a + (j % g.db) * g.stride_b;
  return g;
}

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
