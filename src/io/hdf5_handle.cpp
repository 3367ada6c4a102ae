#include "hdf5_handle.hpp"

#include <cstring>
#include <string>

namespace qevolve::io::detail {

Hdf5ErrorSilencer::Hdf5ErrorSilencer() noexcept {
  // Before the library's first use: no H5_term_library at exit. After a failed write (disk
  // full, a file-size limit) H5Fclose fails and HDF5 1.10 leaves the file's identifier behind
  // with its structures already released; the atexit shutdown then closed it again and crashed
  // (SIGSEGV in H5F__close_cb). qevolve closes or discards every file itself (Hdf5Writer,
  // Hdf5Handle), so the shutdown has nothing to do that the process exit does not.
  static const bool no_atexit = H5dont_atexit() >= 0;
  static_cast<void>(no_atexit);
  if (H5Eget_auto2(H5E_DEFAULT, &saved_func_, &saved_data_) >= 0) {
    restore_ = H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr) >= 0;
  }
}

Hdf5ErrorSilencer::~Hdf5ErrorSilencer() {
  if (restore_) static_cast<void>(H5Eset_auto2(H5E_DEFAULT, saved_func_, saved_data_));
}

namespace {

struct StackWalk {
  std::string outermost;  // the API call that failed
  std::string innermost;  // where the problem was first detected
};

herr_t collect_error(unsigned n, const H5E_error2_t* err, void* client) {
  auto* walk = static_cast<StackWalk*>(client);
  const std::string desc = (err != nullptr && err->desc != nullptr) ? err->desc : "";
  if (desc.empty()) return 0;
  if (n == 0 || walk->outermost.empty()) walk->outermost = desc;
  walk->innermost = desc;
  return 0;
}

}  // namespace

std::string hdf5_error_message() {
  StackWalk walk;
  // DOWNWARD: starts at the API function and ends where the error was first detected.
  static_cast<void>(H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, collect_error, &walk));
  static_cast<void>(H5Eclear2(H5E_DEFAULT));
  if (walk.outermost.empty()) return "unknown HDF5 error";
  std::string text = walk.innermost == walk.outermost ? walk.outermost : walk.outermost + ": " + walk.innermost;
  for (char& c : text)
    if (c == '\n') c = ' ';  // HDF5's file-driver messages hold a newline: one line per error
  return text;
}

std::string errno_message(int err) {
  // strerror is not thread-safe in general, but every HDF5 call of qevolve is on one thread
  // (serial HDF5); glibc's strerror returns a static table entry for known codes.
  const char* text = std::strerror(err);
  return text != nullptr ? std::string(text) : "error " + std::to_string(err);
}

}  // namespace qevolve::io::detail
