// How the columns of a state are cut into blocks held as split re/im planes (element (flat
// index i, column c) of a block of width w at i * w + c; backend/local_gate.hpp), and the
// copies between an Eigen matrix and such planes. Shared by the CPU gate executor, the CUDA
// executor (one block of all columns) and the solver passes that still drive blocks
// themselves (adjoint, Lindblad).
#pragma once

#include <cstdint>
#include <vector>

#include "qevolve/backend/backend.hpp"
#include "qevolve/backend/local_gate.hpp"
#include "qevolve/types.hpp"

namespace qevolve::backend {

/// n columns cut into blocks of `width`: the number of blocks, the width of the (narrower)
/// last one, and the gate geometries of a full and of the last block.
struct BlockLayout {
  Index width = 1, num_blocks = 0, last_width = 0;
  std::vector<GateGeometry> geo_full, geo_last;
  [[nodiscard]] Index first_column(Index b) const { return b * width; }
  [[nodiscard]] Index columns(Index b) const { return b + 1 == num_blocks ? last_width : width; }
  [[nodiscard]] const std::vector<GateGeometry>& geometry(Index b) const {
    return b + 1 == num_blocks ? geo_last : geo_full;
  }
};

/// The layout of `columns` columns in blocks of `width` (clamped to [1, columns]) for the
/// gates of `schedule`.
[[nodiscard]] BlockLayout make_block_layout(const GateSchedule& schedule, Index columns, Index width);

/// Copies columns [c0, c0 + w) of `state` into split planes (element (i, c) at i * w + c), and
/// back.
template <typename Real>
void load_block(const CMatrix& state, Index c0, Index w, Real* re, Real* im) {
  for (Index c = 0; c < w; ++c)
    for (Index i = 0; i < state.rows(); ++i) {
      const cplx v = state(i, c0 + c);
      re[i * w + c] = static_cast<Real>(v.real());
      im[i * w + c] = static_cast<Real>(v.imag());
    }
}
template <typename Real>
void store_block(CMatrix& state, Index c0, Index w, const Real* re, const Real* im) {
  for (Index c = 0; c < w; ++c)
    for (Index i = 0; i < state.rows(); ++i)
      state(i, c0 + c) = cplx(static_cast<double>(re[i * w + c]), static_cast<double>(im[i * w + c]));
}

/// Four split planes of `size` doubles each (psi re/im, lambda re/im of one adjoint block) in
/// one buffer, plane i shifted by i extra cache lines: equal offsets in different planes then
/// fall into different L1 sets, which the fused adjoint sweep (16 streams) needs.
class AdjointPlanes {
 public:
  explicit AdjointPlanes(std::size_t size) : stride_(size + 8), buf_(4 * stride_ + 8) {
    // Plane 0 on a 64-byte boundary (a cache line), whatever the allocator returned.
    const auto a = reinterpret_cast<std::uintptr_t>(buf_.data());
    base_ = buf_.data() + ((64 - a % 64) % 64) / sizeof(double);
  }
  AdjointPlanes(const AdjointPlanes&) = delete;  // base_ points into buf_
  AdjointPlanes& operator=(const AdjointPlanes&) = delete;
  [[nodiscard]] double* plane(int i) { return base_ + static_cast<std::size_t>(i) * stride_; }

 private:
  std::size_t stride_;
  std::vector<double> buf_;
  double* base_ = nullptr;
};

}  // namespace qevolve::backend
