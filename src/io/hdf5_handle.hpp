// Internal RAII helpers around the HDF5 C API (not a public header).
// - Hdf5Handle owns one hid_t and closes it with the matching H5?close function.
// - Hdf5ErrorSilencer switches HDF5's automatic printing of its error stack off for a scope.
// - hdf5_error_message() turns the current HDF5 error stack into one line of text.
// The serial HDF5 library is not thread-safe: all of qevolve's HDF5 calls happen on one thread.
#pragma once

#include <hdf5.h>

#include <string>

namespace qevolve::io::detail {

/// Owns an HDF5 identifier; closes it on destruction (errors while closing are ignored there:
/// call close() to see them).
class Hdf5Handle {
 public:
  using Closer = herr_t (*)(hid_t);

  Hdf5Handle() = default;
  Hdf5Handle(hid_t id, Closer closer) noexcept : id_(id), closer_(closer) {}
  ~Hdf5Handle() { reset(); }

  Hdf5Handle(const Hdf5Handle&) = delete;
  Hdf5Handle& operator=(const Hdf5Handle&) = delete;
  Hdf5Handle(Hdf5Handle&& other) noexcept : id_(other.id_), closer_(other.closer_) {
    other.id_ = H5I_INVALID_HID;
  }
  Hdf5Handle& operator=(Hdf5Handle&& other) noexcept {
    if (this != &other) {
      reset();
      id_ = other.id_;
      closer_ = other.closer_;
      other.id_ = H5I_INVALID_HID;
    }
    return *this;
  }

  [[nodiscard]] hid_t get() const noexcept { return id_; }
  [[nodiscard]] bool valid() const noexcept { return id_ >= 0; }

  /// Closes the identifier (if any) and returns the status of the close call; the handle is
  /// empty afterwards whatever the status.
  herr_t close() noexcept {
    herr_t status = 0;
    if (id_ >= 0 && closer_ != nullptr) status = closer_(id_);
    id_ = H5I_INVALID_HID;
    return status;
  }
  void reset() noexcept { static_cast<void>(close()); }

 private:
  hid_t id_ = H5I_INVALID_HID;
  Closer closer_ = nullptr;
};

/// While alive, HDF5 does not print its error stack to stderr (the previous automatic error
/// handler of the default stack is restored on destruction). Failures are reported by qevolve's
/// exceptions instead.
class Hdf5ErrorSilencer {
 public:
  Hdf5ErrorSilencer() noexcept;
  ~Hdf5ErrorSilencer();
  Hdf5ErrorSilencer(const Hdf5ErrorSilencer&) = delete;
  Hdf5ErrorSilencer& operator=(const Hdf5ErrorSilencer&) = delete;

 private:
  H5E_auto2_t saved_func_ = nullptr;
  void* saved_data_ = nullptr;
  bool restore_ = false;
};

/// One line describing the current HDF5 error stack (the failing API call's message, then the
/// innermost cause), e.g. "unable to create file: unable to open file: name = '...', errno = 2,
/// ...". Clears the stack. Returns "unknown HDF5 error" when the stack is empty.
[[nodiscard]] std::string hdf5_error_message();

/// Opens an existing HDF5 file read-only (an Hdf5ErrorSilencer must be alive). Throws
/// InputError `FILE: cannot open HDF5 file: REASON` (missing, a folder, unreadable) or
/// `FILE: not an HDF5 file` (src/io/hdf5_read.cpp).
[[nodiscard]] Hdf5Handle open_for_reading(const std::string& file);

/// True when `path` ("/a/b/c") names an existing dataset of `file` (src/io/output_contents.cpp).
[[nodiscard]] bool has_dataset(hid_t file, const std::string& path);

/// The value of the variable-length string attribute `name` on `/`, or "" when it is absent or
/// not such a string (src/io/output_contents.cpp).
[[nodiscard]] std::string root_string_attribute(hid_t file, const char* name);

/// The text of errno `err` (strerror), e.g. "No such file or directory".
[[nodiscard]] std::string errno_message(int err);

}  // namespace qevolve::io::detail
