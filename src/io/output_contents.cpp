// inspect_output_file: which parts of a qevolve HDF5 file `qevolve plot` can draw
// (include/qevolve/output_contents.hpp). Every problem is an InputError `FILE: PROBLEM`.
#include "qevolve/output_contents.hpp"

#include <string>
#include <vector>

#include "hdf5_handle.hpp"
#include "qevolve/error.hpp"

namespace qevolve::io {

using detail::Hdf5ErrorSilencer;
using detail::Hdf5Handle;
using detail::has_dataset;
using detail::root_string_attribute;

/// True when `path` ("/a/b/c") names an existing dataset; every group on the way is checked
/// first (H5Lexists fails rather than answers for a missing intermediate group).
bool detail::has_dataset(hid_t file, const std::string& path) {
  for (std::size_t slash = path.find('/', 1); slash != std::string::npos;
       slash = path.find('/', slash + 1))
    if (H5Lexists(file, path.substr(0, slash).c_str(), H5P_DEFAULT) <= 0) return false;
  if (H5Lexists(file, path.c_str(), H5P_DEFAULT) <= 0) return false;
  const Hdf5Handle object(H5Oopen(file, path.c_str(), H5P_DEFAULT), H5Oclose);
  return object.valid() && H5Iget_type(object.get()) == H5I_DATASET;
}

/// The string value of a root attribute, or "" when it is absent or not a string.
std::string detail::root_string_attribute(hid_t file, const char* name) {
  if (H5Aexists(file, name) <= 0) return {};
  const Hdf5Handle attr(H5Aopen(file, name, H5P_DEFAULT), H5Aclose);
  const Hdf5Handle type(attr.valid() ? H5Aget_type(attr.get()) : H5I_INVALID_HID, H5Tclose);
  if (!type.valid() || H5Tget_class(type.get()) != H5T_STRING ||
      H5Tis_variable_str(type.get()) <= 0)
    return {};
  const Hdf5Handle mem(H5Tcopy(H5T_C_S1), H5Tclose);
  if (!mem.valid() || H5Tset_size(mem.get(), H5T_VARIABLE) < 0 ||
      H5Tset_cset(mem.get(), H5Tget_cset(type.get())) < 0)
    return {};
  char* text = nullptr;
  if (H5Aread(attr.get(), mem.get(), &text) < 0 || text == nullptr) return {};
  std::string value(text);
  H5free_memory(text);
  return value;
}

namespace {

[[noreturn]] void bad_file(const std::string& file, const std::string& problem,
                           const std::string& expected = {}) {
  throw InputError(SourceLocation{file, 0, 0}, {}, problem, expected);
}

}  // namespace

std::vector<std::string> OutputContents::names() const {
  std::vector<std::string> out;
  const std::pair<bool, const char*> parts[] = {
      {sweep, "sweep"},     {history, "history"},   {ensemble, "ensemble"}, {trace, "trace"},
      {unitary, "unitary"}, {channel, "channel"},   {energies, "energies"}, {zz, "zz"},
      {pulses, "pulses"}};
  for (const auto& [present, name] : parts)
    if (present) out.emplace_back(name);
  return out;
}

OutputContents inspect_output_file(const std::string& file) {
  Hdf5ErrorSilencer quiet;
  const Hdf5Handle h5 = detail::open_for_reading(file);
  const hid_t f = h5.get();
  const bool written_by_qevolve = H5Aexists(f, "qevolve_version") > 0 ||
                                  root_string_attribute(f, "kind") == "qevolve optimize checkpoint";
  if (!written_by_qevolve)
    bad_file(file, "not a file written by qevolve (no `qevolve_version` attribute on /)",
             "the output of qevolve run, optimize, sweep or spectrum");
  OutputContents c;
  c.sweep = has_dataset(f, "/sweep/fidelity");
  c.history = has_dataset(f, "/history/infidelity");
  c.ensemble = has_dataset(f, "/ensemble/fidelity");
  c.trace = has_dataset(f, "/trace/time") &&
            (has_dataset(f, "/trace/populations") || has_dataset(f, "/trace/mode_populations"));
  c.pulses = has_dataset(f, "/pulses/time") && has_dataset(f, "/pulses/values");
  c.unitary = has_dataset(f, "/unitary");
  c.channel = !c.unitary && has_dataset(f, "/superoperator");  // drawn in place of /unitary
  c.energies = has_dataset(f, "/energies");
  c.zz = has_dataset(f, "/zz");
  if (c.names().empty())
    bad_file(file, "nothing to draw",
             "one of /sweep/fidelity, /history/infidelity, /ensemble/fidelity, /trace/time with "
             "/trace/populations or /trace/mode_populations, /pulses/values, /unitary, /superoperator, "
             "/energies, /zz");
  return c;
}

}  // namespace qevolve::io
