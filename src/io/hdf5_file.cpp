// Hdf5Writer: qevolve's atomic HDF5 output file (docs/output.md).
//
// Atomicity: everything goes to `<final>.tmp-<pid>` in the same folder (so the rename stays on
// one file system); commit() closes the HDF5 file, fsyncs it and rename()s it onto the final
// name, which POSIX guarantees to be atomic: a reader, or a run killed at any point, sees
// either the old file (or none) or the complete new one, never a partial file.
#include "qevolve/hdf5_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "hdf5_handle.hpp"
#include "hdf5_types.hpp"
#include "qevolve/error.hpp"
#include "qevolve/interrupt.hpp"

namespace qevolve::io {

using detail::errno_message;
using detail::Hdf5ErrorSilencer;
using detail::Hdf5Handle;
using detail::hdf5_error_message;

struct Hdf5Writer::Impl {
  Hdf5Handle file;  // the open temporary file; empty after commit()
  std::optional<TempFileGuard> guard;  // removes the temporary file on SIGINT / SIGTERM
};

namespace {

using RowMajorC = Eigen::Matrix<cplx, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using RowMajorR = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

std::string cannot_write(const std::string& file, const std::string& reason) {
  return "cannot write " + file + ": " + reason;
}

/// The shape of a dataset or attribute: rank 0 (scalar) to 4.
struct Shape {
  int rank = 0;
  std::array<hsize_t, H5S_MAX_RANK> dims{};

  [[nodiscard]] hsize_t elements() const {
    hsize_t n = 1;
    for (int k = 0; k < rank; ++k) n *= dims[static_cast<std::size_t>(k)];
    return n;
  }
};

Shape scalar_shape() { return {}; }
Shape vector_shape(Index n) { return {1, {static_cast<hsize_t>(n), 0, 0, 0}}; }
Shape matrix_shape(Index rows, Index cols) {
  return {2, {static_cast<hsize_t>(rows), static_cast<hsize_t>(cols), 0, 0}};
}

Hdf5Handle make_space(const Shape& shape) {
  if (shape.rank == 0) return {H5Screate(H5S_SCALAR), H5Sclose};
  return {H5Screate_simple(shape.rank, shape.dims.data(), nullptr), H5Sclose};
}

/// Creates dataset `path` (parents included) and writes `data` (laid out as `mem_type`).
void write_dataset(hid_t file, const std::string& final_path, const std::string& path,
                   hid_t file_type, hid_t mem_type, const Shape& shape, const void* data) {
  const std::string where = "cannot write dataset '" + path + "' to " + final_path;
  if (path.find_first_not_of('/') == std::string::npos) {
    throw Error(where + ": the dataset path is empty");
  }
  Hdf5ErrorSilencer quiet;
  Hdf5Handle space = make_space(shape);
  Hdf5Handle lcpl(H5Pcreate(H5P_LINK_CREATE), H5Pclose);
  if (!space.valid() || !lcpl.valid() || H5Pset_create_intermediate_group(lcpl.get(), 1) < 0) {
    throw Error(where + ": " + hdf5_error_message());
  }
  Hdf5Handle dset(
      H5Dcreate2(file, path.c_str(), file_type, space.get(), lcpl.get(), H5P_DEFAULT, H5P_DEFAULT),
      H5Dclose);
  if (!dset.valid()) throw Error(where + ": " + hdf5_error_message());
  // Nothing to transfer for an empty dataset (HDF5 also rejects a null buffer).
  if (shape.elements() > 0 &&
      H5Dwrite(dset.get(), mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0) {
    throw Error(where + ": " + hdf5_error_message());
  }
  if (dset.close() < 0) throw Error(where + ": " + hdf5_error_message());
}

/// Creates (or replaces) attribute `name` on the existing object `object`.
void write_attribute(hid_t file, const std::string& final_path, const std::string& name,
                     const std::string& object, hid_t file_type, hid_t mem_type,
                     const Shape& shape, const void* data) {
  const std::string where =
      "cannot write attribute '" + name + "' on '" + object + "' in " + final_path;
  Hdf5ErrorSilencer quiet;
  Hdf5Handle target(H5Oopen(file, object.c_str(), H5P_DEFAULT), H5Oclose);
  if (!target.valid()) {
    throw Error(where + ": no such group or dataset (" + hdf5_error_message() + ")");
  }
  const htri_t exists = H5Aexists(target.get(), name.c_str());
  if (exists < 0 || (exists > 0 && H5Adelete(target.get(), name.c_str()) < 0)) {
    throw Error(where + ": " + hdf5_error_message());
  }
  Hdf5Handle space = make_space(shape);
  if (!space.valid()) throw Error(where + ": " + hdf5_error_message());
  Hdf5Handle attr(
      H5Acreate2(target.get(), name.c_str(), file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT),
      H5Aclose);
  if (!attr.valid()) throw Error(where + ": " + hdf5_error_message());
  if (shape.elements() > 0 && H5Awrite(attr.get(), mem_type, data) < 0) {
    throw Error(where + ": " + hdf5_error_message());
  }
  if (attr.close() < 0) throw Error(where + ": " + hdf5_error_message());
}

/// fsync()s `path`; EINVAL (a file system without fsync) is not an error.
bool sync_path(const std::string& path, int flags, int& err) {
  const int fd = ::open(path.c_str(), flags | O_CLOEXEC);
  if (fd < 0) {
    err = errno;
    return false;
  }
  const bool ok = ::fsync(fd) == 0 || errno == EINVAL;
  err = errno;
  static_cast<void>(::close(fd));
  return ok;
}

std::string parent_folder(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

}  // namespace

Hdf5Writer::Hdf5Writer(std::string final_path)
    : impl_(std::make_unique<Impl>()), final_path_(std::move(final_path)) {
  if (final_path_.empty()) throw InputError("cannot write an HDF5 file: the output path is empty");
  temp_path_ = final_path_ + ".tmp-" + std::to_string(::getpid());

  struct stat info {};
  if (::stat(final_path_.c_str(), &info) == 0 && S_ISDIR(info.st_mode)) {
    throw InputError(cannot_write(final_path_, errno_message(EISDIR)));
  }
  // Create the temporary file ourselves first: a missing or read-only folder then gives the
  // plain system reason (errno) instead of HDF5's long error stack.
  impl_->guard.emplace(temp_path_);
  const int fd = ::open(temp_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) {
    const int err = errno;
    throw InputError(cannot_write(final_path_, errno_message(err)));
  }
  static_cast<void>(::close(fd));

  Hdf5ErrorSilencer quiet;
  Hdf5Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  // SEMI: H5Fclose fails (instead of silently keeping the file open) if an object were still
  // open, so commit() can never rename a file that is not completely written.
  bool ok = fapl.valid() && H5Pset_fclose_degree(fapl.get(), H5F_CLOSE_SEMI) >= 0;
#if H5_VERSION_GE(1, 10, 7)
  // The temporary name is private to this process; do not fail on file systems without
  // flock() support (NFS, some containers).
  ok = ok && H5Pset_file_locking(fapl.get(), true, true) >= 0;
#endif
  if (ok) {
    impl_->file = Hdf5Handle(H5Fcreate(temp_path_.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get()),
                             H5Fclose);
  }
  if (!impl_->file.valid()) {
    const std::string reason = hdf5_error_message();
    static_cast<void>(::unlink(temp_path_.c_str()));
    throw InputError(cannot_write(final_path_, reason));
  }
}

Hdf5Writer::~Hdf5Writer() {
  if (committed_ || !impl_) return;
  {
    Hdf5ErrorSilencer quiet;
    impl_->file.reset();
  }
  static_cast<void>(::unlink(temp_path_.c_str()));
}

namespace {

hid_t open_file_or_throw(const Hdf5Handle& file, bool committed, const std::string& final_path) {
  if (committed || !file.valid()) {
    throw Error("cannot write to " + final_path + ": the file was already committed or closed");
  }
  return file.get();
}

}  // namespace

void Hdf5Writer::write(const std::string& path, const CMatrix& m) {
  const hid_t file = open_file_or_throw(impl_->file, committed_, final_path_);
  const RowMajorC row_major = m;
  Hdf5ErrorSilencer quiet;
  const Hdf5Handle ftype = detail::complex_file_type(final_path_);
  const Hdf5Handle mtype = detail::complex_memory_type(final_path_);
  write_dataset(file, final_path_, path, ftype.get(), mtype.get(),
                matrix_shape(m.rows(), m.cols()), row_major.data());
}

void Hdf5Writer::write(const std::string& path, const RMatrix& m) {
  const hid_t file = open_file_or_throw(impl_->file, committed_, final_path_);
  const RowMajorR row_major = m;
  write_dataset(file, final_path_, path, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                matrix_shape(m.rows(), m.cols()), row_major.data());
}

void Hdf5Writer::write(const std::string& path, const CVector& v) {
  const hid_t file = open_file_or_throw(impl_->file, committed_, final_path_);
  Hdf5ErrorSilencer quiet;
  const Hdf5Handle ftype = detail::complex_file_type(final_path_);
  const Hdf5Handle mtype = detail::complex_memory_type(final_path_);
  write_dataset(file, final_path_, path, ftype.get(), mtype.get(), vector_shape(v.size()),
                v.data());
}

void Hdf5Writer::write(const std::string& path, const RVector& v) {
  const hid_t file = open_file_or_throw(impl_->file, committed_, final_path_);
  write_dataset(file, final_path_, path, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                vector_shape(v.size()), v.data());
}

void Hdf5Writer::write(const std::string& path, const std::vector<double>& v) {
  const hid_t file = open_file_or_throw(impl_->file, committed_, final_path_);
  write_dataset(file, final_path_, path, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                vector_shape(static_cast<Index>(v.size())), v.data());
}

void Hdf5Writer::write(const std::string& path, const std::vector<double>& data,
                       const std::vector<long long>& shape) {
  const hid_t file = open_file_or_throw(impl_->file, committed_, final_path_);
  Shape s;
  s.rank = static_cast<int>(shape.size());
  long long n = 1;
  for (std::size_t k = 0; k < shape.size() && k < s.dims.size(); ++k) {
    s.dims[k] = static_cast<hsize_t>(std::max(0LL, shape[k]));
    n *= shape[k];
  }
  if (shape.empty() || shape.size() > s.dims.size() || n != static_cast<long long>(data.size()))
    throw Error("cannot write dataset '" + path + "' to " + final_path_ +
                ": the shape does not match the data (or has more than 32 dimensions)");
  write_dataset(file, final_path_, path, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, s, data.data());
}

void Hdf5Writer::write(const std::string& path, const std::vector<long long>& v) {
  const hid_t file = open_file_or_throw(impl_->file, committed_, final_path_);
  write_dataset(file, final_path_, path, H5T_STD_I64LE, H5T_NATIVE_LLONG,
                vector_shape(static_cast<Index>(v.size())), v.data());
}

void Hdf5Writer::write(const std::string& path, const std::vector<std::string>& v) {
  const hid_t file = open_file_or_throw(impl_->file, committed_, final_path_);
  std::vector<const char*> pointers;
  pointers.reserve(v.size());
  for (const std::string& s : v) pointers.push_back(s.c_str());
  Hdf5ErrorSilencer quiet;
  const Hdf5Handle type = detail::utf8_string_type(final_path_);
  write_dataset(file, final_path_, path, type.get(), type.get(),
                vector_shape(static_cast<Index>(v.size())), pointers.data());
}

void Hdf5Writer::write_array(const std::string& path, std::span<const double> data,
                             const std::vector<Index>& shape) {
  const hid_t file = open_file_or_throw(impl_->file, committed_, final_path_);
  Shape sh;
  sh.rank = static_cast<int>(shape.size());
  if (sh.rank < 1 || sh.rank > 4) throw Error("cannot write dataset '" + path + "': rank 1 to 4 only");
  for (int k = 0; k < sh.rank; ++k) sh.dims[static_cast<std::size_t>(k)] = static_cast<hsize_t>(shape[static_cast<std::size_t>(k)]);
  if (sh.elements() != data.size())
    throw Error("cannot write dataset '" + path + "': the data do not match the shape");
  write_dataset(file, final_path_, path, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, sh, data.data());
}

void Hdf5Writer::write_scalar(const std::string& path, double v) {
  const hid_t file = open_file_or_throw(impl_->file, committed_, final_path_);
  write_dataset(file, final_path_, path, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, scalar_shape(), &v);
}

void Hdf5Writer::attribute(const std::string& name, double v, const std::string& object) {
  const hid_t file = open_file_or_throw(impl_->file, committed_, final_path_);
  write_attribute(file, final_path_, name, object, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                  scalar_shape(), &v);
}

void Hdf5Writer::attribute(const std::string& name, long long v, const std::string& object) {
  const hid_t file = open_file_or_throw(impl_->file, committed_, final_path_);
  write_attribute(file, final_path_, name, object, H5T_STD_I64LE, H5T_NATIVE_LLONG,
                  scalar_shape(), &v);
}

void Hdf5Writer::attribute(const std::string& name, const std::string& v,
                           const std::string& object) {
  const hid_t file = open_file_or_throw(impl_->file, committed_, final_path_);
  const char* text = v.c_str();
  Hdf5ErrorSilencer quiet;
  const Hdf5Handle type = detail::utf8_string_type(final_path_);
  write_attribute(file, final_path_, name, object, type.get(), type.get(), scalar_shape(),
                  static_cast<const void*>(&text));
}

void Hdf5Writer::attribute(const std::string& name, const std::vector<long long>& v,
                           const std::string& object) {
  const hid_t file = open_file_or_throw(impl_->file, committed_, final_path_);
  write_attribute(file, final_path_, name, object, H5T_STD_I64LE, H5T_NATIVE_LLONG,
                  vector_shape(static_cast<Index>(v.size())), v.data());
}

void Hdf5Writer::attribute(const std::string& name, const std::vector<std::string>& v,
                           const std::string& object) {
  const hid_t file = open_file_or_throw(impl_->file, committed_, final_path_);
  std::vector<const char*> pointers;
  pointers.reserve(v.size());
  for (const std::string& text : v) pointers.push_back(text.c_str());
  Hdf5ErrorSilencer quiet;
  const Hdf5Handle type = detail::utf8_string_type(final_path_);
  write_attribute(file, final_path_, name, object, type.get(), type.get(),
                  vector_shape(static_cast<Index>(v.size())), pointers.data());
}

void Hdf5Writer::commit() {
  static_cast<void>(open_file_or_throw(impl_->file, committed_, final_path_));
  {
    Hdf5ErrorSilencer quiet;
    if (impl_->file.close() < 0) {  // flushes everything; fails if an object is still open
      throw Error(cannot_write(final_path_, "closing the HDF5 file failed: " +
                                                hdf5_error_message()));
    }
  }
  int err = 0;
  if (!sync_path(temp_path_, O_RDONLY, err)) {
    throw Error(cannot_write(final_path_, "fsync failed: " + errno_message(err)));
  }
  if (std::rename(temp_path_.c_str(), final_path_.c_str()) != 0) {
    err = errno;
    throw InputError(cannot_write(final_path_, errno_message(err)));
  }
  committed_ = true;
  // Make the rename itself durable; a folder that cannot be fsync'ed is not an error (the
  // file is complete under its final name either way).
  static_cast<void>(sync_path(parent_folder(final_path_), O_RDONLY | O_DIRECTORY, err));
}

}  // namespace qevolve::io
