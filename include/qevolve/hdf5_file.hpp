// A small, safe HDF5 writer for qevolve's outputs (docs/output.md).
// The file is written under a temporary name in the same folder and renamed onto the final
// name by commit(): a killed run never leaves a truncated file under the final name.
// Complex numbers are stored as the compound type {r: float64, i: float64} (h5py reads it as
// complex128). Uses the serial HDF5 library: call from one thread at a time.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "qevolve/types.hpp"

namespace qevolve::io {

/// Writes one HDF5 file atomically.
///
/// Layout of what it writes (readable by h5py and h5dump):
/// - complex data: compound {r: float64, i: float64} (h5py: complex128);
/// - real data: float64; integers: int64; strings: variable-length UTF-8 (h5py: bytes for a
///   dataset element, str for an attribute);
/// - matrices: 2-D [rows, cols], row-major (entry (r, c) of the Eigen matrix is element
///   [r][c] of the dataset); vectors: 1-D [n]; write_scalar: a scalar dataset.
///
/// Errors: a file that cannot be created or renamed (missing or unwritable folder, final path
/// is a folder, ...) is an InputError `cannot write FILE: REASON` (FILE = the final path).
/// Any other failing HDF5 call (dataset written twice, attribute on a missing object, disk
/// full) is a qevolve::Error whose message names the object and the file. HDF5's own
/// printing of its error stack is silenced.
class Hdf5Writer {
 public:
  /// Creates `<final_path>.tmp-<pid>` in the same folder (truncating it). Throws InputError
  /// `cannot write FINAL: REASON` if it cannot be created (e.g. the folder does not exist).
  explicit Hdf5Writer(std::string final_path);
  /// Without commit(): closes and deletes the temporary file; the final path is untouched.
  ~Hdf5Writer();
  Hdf5Writer(const Hdf5Writer&) = delete;
  Hdf5Writer& operator=(const Hdf5Writer&) = delete;

  /// Dataset paths may contain groups ("/qubits/q0/f01_bare"); parents are created. A path
  /// without a leading '/' is taken from the root. Writing a path that already exists throws.
  /// Matrices are written row-major as [rows, cols] (row = output index).
  void write(const std::string& path, const CMatrix& m);
  void write(const std::string& path, const RMatrix& m);
  void write(const std::string& path, const CVector& v);
  void write(const std::string& path, const RVector& v);
  void write(const std::string& path, const std::vector<double>& v);
  void write(const std::string& path, const std::vector<long long>& v);
  /// An N-dimensional float64 array (1 <= N <= 32), row-major: the last index varies fastest.
  void write(const std::string& path, const std::vector<double>& data, const std::vector<long long>& shape);
  /// Strings are expected to be UTF-8 and are cut at an embedded NUL.
  void write(const std::string& path, const std::vector<std::string>& v);
  void write_scalar(const std::string& path, double v);
  /// A float64 array of rank 1 to 4, `data` row-major (last index fastest) of `shape`.
  void write_array(const std::string& path, std::span<const double> data, const std::vector<Index>& shape);

  /// Attributes on the root group "/" (or on an existing group/dataset given by `object`).
  /// Scalars are scalar attributes (float64, int64, variable-length UTF-8 string); the
  /// int64 vector is 1-D. An attribute of the same name is replaced.
  void attribute(const std::string& name, double v, const std::string& object = "/");
  void attribute(const std::string& name, long long v, const std::string& object = "/");
  void attribute(const std::string& name, const std::string& v, const std::string& object = "/");
  void attribute(const std::string& name, const std::vector<long long>& v,
                 const std::string& object = "/");
  /// A 1-D attribute of variable-length UTF-8 strings.
  void attribute(const std::string& name, const std::vector<std::string>& v,
                 const std::string& object = "/");

  /// Flushes, closes and atomically renames the temporary file onto the final path
  /// (replacing an existing file there). The data are fsync'ed before the rename. After
  /// commit() nothing more can be written; a second commit() throws.
  void commit();

  [[nodiscard]] bool committed() const noexcept { return committed_; }
  [[nodiscard]] const std::string& final_path() const { return final_path_; }
  [[nodiscard]] const std::string& temp_path() const { return temp_path_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string final_path_;
  std::string temp_path_;
  bool committed_ = false;
};

/// Reads a complex [rows, cols] dataset (compound {r, i} of floats, as written by Hdf5Writer
/// or by h5py from complex128) -- used for `matrix_file` targets and checkpoints. A plain
/// floating-point [rows, cols] dataset is accepted as a real matrix. Element [r][c] becomes
/// entry (r, c).
/// Throws InputError `FILE: DATASET: PROBLEM (expected ...)` if the file cannot be opened, is
/// not HDF5, or the dataset is missing, not a dataset, not 2-D or of another element type.
/// `max_side` > 0: a dataset with more rows or columns than this is refused from its declared
/// shape, before anything is allocated (a `matrix_file` declaring 2^20 x 2^20).
[[nodiscard]] CMatrix read_complex_matrix(const std::string& file, const std::string& dataset,
                                          Index max_side = 0);

}  // namespace qevolve::io
