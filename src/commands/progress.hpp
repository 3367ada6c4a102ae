// A one-line progress bar on stderr for long work (only when stderr is a terminal).
#pragma once

#include <chrono>
#include <ostream>
#include <string>

namespace qevolve::commands {

class ProgressBar {
 public:
  ProgressBar(std::ostream& err, bool enabled, std::string what)
      : err_(err), enabled_(enabled), what_(std::move(what)), start_(Clock::now()) {}
  ~ProgressBar() { finish(); }
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  /// fraction in [0, 1]; redraws at most every 0.1 s.
  void update(double fraction);
  /// Clears the line.
  void finish();

 private:
  using Clock = std::chrono::steady_clock;
  std::ostream& err_;
  bool enabled_;
  std::string what_;
  Clock::time_point start_;
  Clock::time_point last_{};
  bool drawn_ = false;
};

}  // namespace qevolve::commands
