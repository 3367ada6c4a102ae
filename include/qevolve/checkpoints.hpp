// The checkpointing of the open-system adjoint (docs/gradients.md): the solver's rule, which the
// resolution stage's memory estimate (include/qevolve/memory_estimate.hpp) counts too, so the
// estimate and the code cannot drift apart.
#pragma once

#include <algorithm>
#include <cmath>

namespace qevolve::sizes {

/// Open-system adjoint: the checkpoint interval K = ceil(sqrt(steps)).
[[nodiscard]] inline int checkpoint_interval(int steps) {
  return std::max(1, static_cast<int>(std::ceil(std::sqrt(static_cast<double>(steps)))));
}
/// ... and the states it keeps at most: steps / K checkpoints, K states of one segment, 2 more.
[[nodiscard]] inline int checkpointed_states(int steps, int interval) {
  return (steps + interval - 1) / interval + std::min(interval, steps) + 2;
}

}  // namespace qevolve::sizes
