// read_complex_matrix: reads a [rows, cols] matrix dataset from an HDF5 file (matrix_file
// targets, checkpoints). Every problem is an InputError `FILE: DATASET: PROBLEM (expected ...)`.
#include <sys/stat.h>

#include <array>
#include <cerrno>
#include <limits>
#include <string>
#include <vector>

#include "hdf5_handle.hpp"
#include "hdf5_types.hpp"
#include "qevolve/error.hpp"
#include "qevolve/hdf5_file.hpp"

namespace qevolve::io {

using detail::errno_message;
using detail::Hdf5ErrorSilencer;
using detail::Hdf5Handle;
using detail::hdf5_error_message;

namespace {

constexpr const char* kExpectedType = "a complex compound {r, i} of float64 or a float64 matrix";

[[noreturn]] void bad_file(const std::string& file, const std::string& problem) {
  throw InputError(SourceLocation{file, 0, 0}, {}, problem);
}

[[noreturn]] void bad_dataset(const std::string& file, const std::string& dataset,
                              const std::string& problem, const std::string& expected = {}) {
  throw InputError(SourceLocation{file, 0, 0}, dataset, problem, expected);
}

}  // namespace

Hdf5Handle detail::open_for_reading(const std::string& file) {
  struct stat info {};
  if (::stat(file.c_str(), &info) != 0) {
    const int err = errno;
    bad_file(file, "cannot open HDF5 file: " + errno_message(err));
  }
  if (S_ISDIR(info.st_mode)) bad_file(file, "cannot open HDF5 file: " + errno_message(EISDIR));
  const htri_t is_hdf5 = H5Fis_hdf5(file.c_str());
  if (is_hdf5 == 0) bad_file(file, "not an HDF5 file");
  if (is_hdf5 < 0) bad_file(file, "cannot open HDF5 file: " + hdf5_error_message());

  Hdf5Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  bool ok = fapl.valid();
#if H5_VERSION_GE(1, 10, 7)
  ok = ok && H5Pset_file_locking(fapl.get(), true, true) >= 0;
#endif
  Hdf5Handle handle;
  if (ok) handle = Hdf5Handle(H5Fopen(file.c_str(), H5F_ACC_RDONLY, fapl.get()), H5Fclose);
  if (!handle.valid()) bad_file(file, "cannot open HDF5 file: " + hdf5_error_message());
  return handle;
}

CMatrix read_complex_matrix(const std::string& file, const std::string& dataset, Index max_side) {
  Hdf5ErrorSilencer quiet;
  const Hdf5Handle h5file = detail::open_for_reading(file);

  // H5Oopen also fails when an intermediate group is missing; the error stack says which.
  const Hdf5Handle object(H5Oopen(h5file.get(), dataset.c_str(), H5P_DEFAULT), H5Oclose);
  if (!object.valid()) {
    static_cast<void>(hdf5_error_message());  // clears the stack
    bad_dataset(file, dataset, "no such dataset");
  }
  if (H5Iget_type(object.get()) != H5I_DATASET) {
    bad_dataset(file, dataset, "is not a dataset (it is a group or a named datatype)");
  }

  const Hdf5Handle type(H5Dget_type(object.get()), H5Tclose);
  if (!type.valid()) bad_dataset(file, dataset, "unreadable datatype: " + hdf5_error_message());
  const bool is_complex = detail::is_complex_compound(type.get());
  const bool is_real = H5Tget_class(type.get()) == H5T_FLOAT;
  if (!is_complex && !is_real) {
    bad_dataset(file, dataset, "has element type " + detail::type_class_name(type.get()),
                kExpectedType);
  }

  const Hdf5Handle space(H5Dget_space(object.get()), H5Sclose);
  if (!space.valid()) bad_dataset(file, dataset, "unreadable dataspace: " + hdf5_error_message());
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank != 2) {
    bad_dataset(file, dataset,
                rank < 0 ? "has an unreadable shape" : "has rank " + std::to_string(rank),
                "a [rows, cols] matrix");
  }
  std::array<hsize_t, 2> dims{0, 0};
  static_cast<void>(H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr));
  constexpr auto kMaxIndex = static_cast<hsize_t>(std::numeric_limits<Index>::max());
  if (dims[0] > kMaxIndex || dims[1] > kMaxIndex ||
      (dims[0] != 0 && dims[1] > kMaxIndex / dims[0] / sizeof(cplx))) {
    bad_dataset(file, dataset,
                "is too large (" + std::to_string(dims[0]) + " x " + std::to_string(dims[1]) + ")");
  }
  if (max_side > 0 && (dims[0] > static_cast<hsize_t>(max_side) || dims[1] > static_cast<hsize_t>(max_side))) {
    bad_dataset(file, dataset,
                "is " + std::to_string(dims[0]) + " x " + std::to_string(dims[1]) + " (not read: larger than " +
                    std::to_string(max_side) + " x " + std::to_string(max_side) + ")");
  }
  const auto rows = static_cast<Index>(dims[0]);
  const auto cols = static_cast<Index>(dims[1]);
  const auto count = static_cast<std::size_t>(dims[0] * dims[1]);

  using RowMajorC = Eigen::Matrix<cplx, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using RowMajorR = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  if (count == 0) return CMatrix(rows, cols);
  if (is_complex) {
    std::vector<cplx> buffer(count);
    const Hdf5Handle mtype = detail::complex_memory_type(file);
    if (H5Dread(object.get(), mtype.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer.data()) < 0) {
      bad_dataset(file, dataset, "cannot read: " + hdf5_error_message());
    }
    return Eigen::Map<const RowMajorC>(buffer.data(), rows, cols);
  }
  std::vector<double> buffer(count);
  if (H5Dread(object.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer.data()) < 0) {
    bad_dataset(file, dataset, "cannot read: " + hdf5_error_message());
  }
  return Eigen::Map<const RowMajorR>(buffer.data(), rows, cols).cast<cplx>();
}

}  // namespace qevolve::io
