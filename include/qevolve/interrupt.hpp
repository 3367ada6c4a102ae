// SIGINT / SIGTERM (docs/cli.md "Signals"): the handler removes every temporary file the
// process has registered (io::Hdf5Writer's `FILE.tmp-PID`, the optimised YAML's and the
// checkpoint's temporaries), prints `qevolve: interrupted (SIGTERM)` and ends the process with
// 128 + the signal number (130, 143). It only calls unlink(), write() and _exit(), which are
// async-signal-safe; the registry is a fixed table of slots guarded by atomics (no allocation,
// no lock). A file already renamed onto its final name is complete: a later unlink of its
// temporary name finds nothing, so an interrupted commit leaves either the old or the new file.
#pragma once

#include <string>

namespace qevolve::io {

/// Installs the handler for SIGINT and SIGTERM (once; later calls do nothing). SIGXFSZ is
/// ignored, so that a write beyond the file-size limit fails with EFBIG and is reported.
void install_interrupt_handlers();

/// While alive, `path` is removed if the process is interrupted. At most 16 at a time (more
/// are simply not registered). Not copyable.
class TempFileGuard {
 public:
  explicit TempFileGuard(const std::string& path);
  ~TempFileGuard();
  TempFileGuard(const TempFileGuard&) = delete;
  TempFileGuard& operator=(const TempFileGuard&) = delete;

 private:
  int slot_ = -1;
};

}  // namespace qevolve::io
