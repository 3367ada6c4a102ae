// Internal: the HDF5 datatypes of qevolve's files (not a public header).
// Complex numbers are the compound {r: float64, i: float64} (16 bytes, r at offset 0, i at 8):
// the layout of std::complex<double>, and the type h5py maps to numpy complex128.
// Strings are variable-length, NUL-terminated, UTF-8.
#pragma once

#include <string>

#include "hdf5_handle.hpp"

namespace qevolve::io::detail {

/// Compound {r, i} with little-endian IEEE float64 members: the type stored in the file.
[[nodiscard]] Hdf5Handle complex_file_type(const std::string& context);

/// Compound {r, i} with native double members laid out as std::complex<double>: the type of
/// the buffers in memory (for reading, HDF5 converts member by member by name).
[[nodiscard]] Hdf5Handle complex_memory_type(const std::string& context);

/// Variable-length UTF-8 string (file and memory type alike; memory elements are const char*).
[[nodiscard]] Hdf5Handle utf8_string_type(const std::string& context);

/// True if `type` is a compound of exactly two floating-point members named "r" and "i".
[[nodiscard]] bool is_complex_compound(hid_t type);

/// A short name of the class of `type` ("integer", "float", "string", "compound", ...).
[[nodiscard]] std::string type_class_name(hid_t type);

}  // namespace qevolve::io::detail
