// A small, safe HDF5 writer for qevolve's outputs (interface.md "HDF5 output").
// The file is written under a temporary name in the same folder and renamed onto the final
// name by commit(): a killed run never leaves a truncated file under the final name.
// Complex numbers are stored as the compound type {r: float64, i: float64} (h5py reads it).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "qevolve/types.hpp"

namespace qevolve::io {

class Hdf5Writer {
 public:
  /// Creates `<final_path>.tmp-<pid>` (truncating it). Throws InputError if it cannot be
  /// created (e.g. the folder does not exist).
  explicit Hdf5Writer(std::string final_path);
  ~Hdf5Writer();  ///< without commit(): closes and deletes the temporary file
  Hdf5Writer(const Hdf5Writer&) = delete;
  Hdf5Writer& operator=(const Hdf5Writer&) = delete;

  /// Dataset paths may contain groups ("/qubits/q0/f01_bare"); parents are created.
  /// Matrices are written row-major as [rows, cols] (row = output index).
  void write(const std::string& path, const CMatrix& m);
  void write(const std::string& path, const RMatrix& m);
  void write(const std::string& path, const CVector& v);
  void write(const std::string& path, const RVector& v);
  void write(const std::string& path, const std::vector<double>& v);
  void write(const std::string& path, const std::vector<long long>& v);
  void write(const std::string& path, const std::vector<std::string>& v);
  void write_scalar(const std::string& path, double v);

  /// Attributes on the root group "/" (or on a group/dataset given by `object`).
  void attribute(const std::string& name, double v, const std::string& object = "/");
  void attribute(const std::string& name, long long v, const std::string& object = "/");
  void attribute(const std::string& name, const std::string& v, const std::string& object = "/");
  void attribute(const std::string& name, const std::vector<long long>& v,
                 const std::string& object = "/");

  /// Flushes, closes and atomically renames the temporary file onto the final path.
  void commit();

  [[nodiscard]] const std::string& final_path() const { return final_path_; }
  [[nodiscard]] const std::string& temp_path() const { return temp_path_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string final_path_;
  std::string temp_path_;
};

/// Reads a complex [rows, cols] dataset (compound {r, i}) -- used for `matrix_file` targets and
/// checkpoints. Throws InputError if the file or dataset is missing or has the wrong type.
[[nodiscard]] CMatrix read_complex_matrix(const std::string& file, const std::string& dataset);

}  // namespace qevolve::io
