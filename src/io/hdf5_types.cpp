#include "hdf5_types.hpp"

#include <complex>
#include <cstdlib>
#include <string>

#include "qevolve/error.hpp"

namespace qevolve::io::detail {
namespace {

// std::complex<double> is array-compatible with double[2] ([complex.numbers.general]/4).
static_assert(sizeof(std::complex<double>) == 2 * sizeof(double));

[[noreturn]] void fail(const std::string& context, const std::string& what) {
  throw Error("HDF5: " + context + ": " + what + ": " + hdf5_error_message());
}

Hdf5Handle make_complex(hid_t member, const std::string& context) {
  Hdf5Handle type(H5Tcreate(H5T_COMPOUND, 2 * sizeof(double)), H5Tclose);
  if (!type.valid()) fail(context, "cannot create the complex datatype");
  if (H5Tinsert(type.get(), "r", 0, member) < 0 ||
      H5Tinsert(type.get(), "i", sizeof(double), member) < 0) {
    fail(context, "cannot build the complex datatype");
  }
  return type;
}

}  // namespace

Hdf5Handle complex_file_type(const std::string& context) {
  return make_complex(H5T_IEEE_F64LE, context);
}

Hdf5Handle complex_memory_type(const std::string& context) {
  return make_complex(H5T_NATIVE_DOUBLE, context);
}

Hdf5Handle utf8_string_type(const std::string& context) {
  Hdf5Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
  if (!type.valid() || H5Tset_size(type.get(), H5T_VARIABLE) < 0 ||
      H5Tset_cset(type.get(), H5T_CSET_UTF8) < 0 ||
      H5Tset_strpad(type.get(), H5T_STR_NULLTERM) < 0) {
    fail(context, "cannot create the string datatype");
  }
  return type;
}

bool is_complex_compound(hid_t type) {
  if (H5Tget_class(type) != H5T_COMPOUND || H5Tget_nmembers(type) != 2) return false;
  bool has_r = false;
  bool has_i = false;
  for (unsigned k = 0; k < 2; ++k) {
    char* name = H5Tget_member_name(type, k);
    if (name == nullptr) return false;
    const std::string member(name);
    static_cast<void>(H5free_memory(name));
    if (H5Tget_member_class(type, k) != H5T_FLOAT) return false;
    has_r = has_r || member == "r";
    has_i = has_i || member == "i";
  }
  return has_r && has_i;
}

std::string type_class_name(hid_t type) {
  switch (H5Tget_class(type)) {
    case H5T_INTEGER: return "integer";
    case H5T_FLOAT: return "float";
    case H5T_TIME: return "time";
    case H5T_STRING: return "string";
    case H5T_BITFIELD: return "bitfield";
    case H5T_OPAQUE: return "opaque";
    case H5T_COMPOUND: return "compound";
    case H5T_REFERENCE: return "reference";
    case H5T_ENUM: return "enum";
    case H5T_VLEN: return "variable-length sequence";
    case H5T_ARRAY: return "array";
    default: return "unknown";
  }
}

}  // namespace qevolve::io::detail
