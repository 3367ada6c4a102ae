// result_owner: which qevolve command wrote an existing file (include/qevolve/output_path.hpp),
// for the rule that no command replaces another command's result unless asked (docs/output.md
// "Replacing a file").
#include <sys/stat.h>

#include <optional>
#include <string>

#include "hdf5_handle.hpp"
#include "qevolve/output_path.hpp"

namespace qevolve::io {
namespace {

using detail::has_dataset;
using detail::Hdf5ErrorSilencer;
using detail::Hdf5Handle;
using detail::root_string_attribute;

/// The writer of a qevolve file older than the `command` attribute, from what it holds.
std::string infer_command(hid_t file) {
  if (has_dataset(file, "/sweep/fidelity")) return "sweep";
  if (has_dataset(file, "/history/infidelity")) return "optimize";
  if (has_dataset(file, "/propagator") || has_dataset(file, "/superoperator")) return "run";
  return "spectrum";
}

}  // namespace

std::optional<std::string> result_owner(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) return std::nullopt;
  const Hdf5ErrorSilencer quiet;
  if (H5Fis_hdf5(path.c_str()) <= 0) return std::string(kForeignFile);
  const Hdf5Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (!file.valid()) return std::string(kForeignFile);
  if (root_string_attribute(file.get(), "kind") == "qevolve optimize checkpoint") return std::string(kCheckpoint);
  if (H5Aexists(file.get(), "qevolve_version") <= 0) return std::string(kForeignFile);
  const std::string command = root_string_attribute(file.get(), "command");
  return command.empty() ? infer_command(file.get()) : command;
}

}  // namespace qevolve::io
