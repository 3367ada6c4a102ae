// Wall-clock seconds for the phases the commands report (steady clock).
#pragma once

#include <chrono>

namespace qevolve::commands {

/// Seconds from t0 to now.
inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace qevolve::commands
