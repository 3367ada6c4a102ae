#include "progress.hpp"

#include <cstdio>

namespace qevolve::commands {

void ProgressBar::update(double fraction) {
  if (!enabled_) return;
  const auto now = Clock::now();
  if (drawn_ && fraction < 1.0 && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  drawn_ = true;
  constexpr int kWidth = 30;
  const int filled = static_cast<int>(fraction * kWidth + 0.5);
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  char buf[160];
  std::snprintf(buf, sizeof buf, "\r%s [%-*s] %5.1f%%  %.1f s", what_.c_str(), kWidth,
                std::string(static_cast<std::size_t>(filled), '#').c_str(), 100.0 * fraction,
                elapsed);
  err_ << buf << std::flush;
}

void ProgressBar::finish() {
  if (!enabled_ || !drawn_) return;
  err_ << "\r" << std::string(72, ' ') << "\r" << std::flush;
  drawn_ = false;
}

}  // namespace qevolve::commands
