// Progress of long work on stderr (docs/cli.md "Progress and summary"): on a terminal a bar
// redrawn in place with the time left; elsewhere (a pipe, a log file, a notebook) a plain line
// every ~10 s once the work has run that long. Both give the elapsed time and an estimate of
// what is left.
#pragma once

#include <chrono>
#include <ostream>
#include <string>

namespace qevolve::commands {

class ProgressBar {
 public:
  /// `enabled`: show anything at all (rank 0, no --quiet); `terminal`: stderr is a terminal;
  /// `after`: seconds of work expected after this phase (added to the time left; 0: none).
  /// `interval`: seconds between plain lines (and before the first).
  ProgressBar(std::ostream& err, bool enabled, bool terminal, std::string what, double after = 0.0,
              double interval = kLineInterval)
      : err_(err), enabled_(enabled), terminal_(terminal), what_(std::move(what)), after_(after),
        interval_(interval), start_(Clock::now()) {}
  ~ProgressBar() { finish(); }
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  /// fraction in [0, 1]; a terminal bar is redrawn at most every 0.1 s, a line written at most
  /// every `interval` seconds.
  void update(double fraction);
  /// Clears the bar.
  void finish();

  /// Seconds between plain progress lines (and before the first), by default.
  static constexpr double kLineInterval = 10.0;

 private:
  using Clock = std::chrono::steady_clock;
  std::ostream& err_;
  bool enabled_, terminal_;
  std::string what_;
  double after_, interval_;
  Clock::time_point start_;
  Clock::time_point last_{};
  bool drawn_ = false;
};

/// Progress of a benchmark table on stderr: after a row, once `kLineInterval` seconds have
/// passed since the start or the last line, `qevolve: bench: R of N rows after T, the next
/// about T'` (the next row's time as the caller predicts it; < 0: unknown).
class RowProgress {
 public:
  RowProgress(std::ostream& err, bool enabled, int rows) : err_(err), enabled_(enabled), rows_(rows) {}
  void row_done(double next_seconds);

 private:
  using Clock = std::chrono::steady_clock;
  std::ostream& err_;
  bool enabled_;
  int rows_, done_ = 0;
  Clock::time_point start_ = Clock::now(), last_ = start_;
};

/// "about 12 s left" from the elapsed time and the fraction done (plus `after` seconds).
[[nodiscard]] std::string time_left(double elapsed, double fraction, double after = 0.0);

}  // namespace qevolve::commands
