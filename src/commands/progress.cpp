#include "progress.hpp"

#include <cstdio>

#include "time_estimate.hpp"

namespace qevolve::commands {

std::string time_left(double elapsed, double fraction, double after) {
  if (fraction <= 0.0) return "time left unknown";
  return "about " + duration_text(elapsed * (1.0 - fraction) / fraction + after) + " left";
}

void ProgressBar::update(double fraction) {
  if (!enabled_) return;
  const auto now = Clock::now();
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  char buf[200];
  if (!terminal_) {
    const double since_last = drawn_ ? std::chrono::duration<double>(now - last_).count() : elapsed;
    if (fraction >= 1.0 || since_last < interval_) return;
    last_ = now;
    drawn_ = true;
    std::snprintf(buf, sizeof buf, "qevolve: %s %.0f %% after %s, %s\n", what_.c_str(), 100.0 * fraction,
                  duration_text(elapsed).c_str(), time_left(elapsed, fraction, after_).c_str());
    err_ << buf << std::flush;
    return;
  }
  if (drawn_ && fraction < 1.0 && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  drawn_ = true;
  constexpr int kWidth = 30;
  const int filled = static_cast<int>(fraction * kWidth + 0.5);
  std::snprintf(buf, sizeof buf, "\r%s [%-*s] %5.1f%%  %.1f s, %s ", what_.c_str(), kWidth,
                std::string(static_cast<std::size_t>(filled), '#').c_str(), 100.0 * fraction, elapsed,
                time_left(elapsed, fraction, after_).c_str());
  err_ << buf << std::flush;
}

void RowProgress::row_done(double next_seconds) {
  ++done_;
  if (!enabled_ || done_ >= rows_) return;
  const auto now = Clock::now();
  if (std::chrono::duration<double>(now - last_).count() < ProgressBar::kLineInterval) return;
  last_ = now;
  err_ << "qevolve: bench: " << done_ << " of " << rows_ << " rows after "
       << duration_text(std::chrono::duration<double>(now - start_).count())
       << (next_seconds >= 0.0 ? ", the next about " + duration_text(next_seconds) : std::string()) << "\n"
       << std::flush;
}

void ProgressBar::finish() {
  if (!enabled_ || !drawn_ || !terminal_) return;
  err_ << "\r" << std::string(96, ' ') << "\r" << std::flush;
  drawn_ = false;
}

}  // namespace qevolve::commands
