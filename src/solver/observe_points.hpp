// Where a forward pass stops to let an observer see its state (solver::trace_steps, the
// output.trace hook every scheme honours): the points in the pass's own step units (gate
// steps, substeps), walked once in ascending order. With no observer nothing is due and
// clip() returns its end unchanged: the pass runs exactly as without a trace.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <vector>

#include "qevolve/types.hpp"

namespace qevolve::solver {

/// Called with a step index in the pass's own units and the state there.
using PassObserver = std::function<void(int, const CMatrix&)>;

class ObservePoints {
 public:
  ObservePoints(const PassObserver& observer, const std::vector<int>& at) : observer_(observer) {
    if (observer_) at_ = at;
  }
  /// The end of a chunk [s0, s1): the first point strictly inside it, else s1.
  [[nodiscard]] int clip(int s0, int s1) const {
    const auto it = std::upper_bound(at_.begin(), at_.end(), s0);
    return it != at_.end() && *it < s1 ? *it : s1;
  }
  /// Whether step boundary s is a point (the pass calls it in ascending s).
  [[nodiscard]] bool due(int s) const { return next_ < at_.size() && at_[next_] == s; }
  /// Calls the observer at the due point s and moves on.
  void call(int s, const CMatrix& state) {
    observer_(s, state);
    ++next_;
  }

 private:
  PassObserver observer_;
  std::vector<int> at_;
  std::size_t next_ = 0;
};

/// Points of trace steps in a pass with `per_step` of its steps per step (magnus4: 2).
inline std::vector<int> scaled_points(const std::vector<int>& steps, int per_step) {
  std::vector<int> out(steps);
  for (int& s : out) s *= per_step;
  return out;
}

}  // namespace qevolve::solver
