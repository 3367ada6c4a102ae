// The Open MPI settings qevolve adds before MPI_Init when every rank runs on one node
// (docs/distributed.md "Start-up on one machine"): the cm PML is left out unless the user asked
// for it. Open MPI's default selection opens cm, whose MTLs (PSM, PSM2, OFI) probe for
// Omni-Path / libfabric hardware; on a machine without it that probe sleeps ~0.2 s in every
// MPI_Init, and on one node the messages go through shared memory anyway.
#include <algorithm>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <string_view>
#include <utility>

#include "qevolve/comm.hpp"
#include "qevolve/text.hpp"

namespace qevolve::comm {
namespace {

/// The pieces of `text` between `separator`s.
std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> pieces;
  std::istringstream in(text);
  for (std::string piece; std::getline(in, piece, separator);) pieces.push_back(std::move(piece));
  return pieces;
}

/// The value `key` has in an MCA parameter file's text ("key = value" lines, '#' comments),
/// or nullopt when the file does not set it (the last line setting it wins within a file).
std::optional<std::string> file_value(const std::string& text, std::string_view key) {
  std::optional<std::string> value;
  for (const std::string& line : split(text, '\n')) {
    const std::string content = trim(std::string_view(line).substr(0, line.find('#')));
    const auto eq = content.find('=');
    if (eq == std::string::npos || trim(std::string_view(content).substr(0, eq)) != key) continue;
    value = trim(std::string_view(content).substr(eq + 1));
  }
  return value;
}

/// True when the exclusion list "^a,b,..." names `name`.
bool lists(const std::string& exclusion, std::string_view name) {
  const auto items = split(exclusion.substr(1), ',');
  return std::any_of(items.begin(), items.end(), [&](const std::string& item) { return trim(item) == name; });
}

}  // namespace

std::vector<McaParamFile> mca_param_files(const std::function<const char*(const char*)>& env) {
  std::vector<std::string> system;
  if (const char* prefix = env("OPAL_PREFIX")) system.push_back(std::string(prefix) + "/etc/openmpi-mca-params.conf");
  system.emplace_back("/etc/openmpi/openmpi-mca-params.conf");  // Debian's sysconfdir
  const auto is_system = [&](const std::string& path) {
    return std::find(system.begin(), system.end(), path) != system.end();
  };
  std::vector<McaParamFile> files;
  if (const char* listed = env("OMPI_MCA_mca_base_param_files")) {
    for (const std::string& item : split(listed, ':'))
      if (!item.empty()) files.push_back({item, is_system(item)});
    return files;
  }
  if (const char* home = env("HOME")) files.push_back({std::string(home) + "/.openmpi/mca-params.conf", false});
  for (const auto& path : system) files.push_back({path, true});
  return files;
}

std::vector<std::pair<std::string, std::string>> single_node_mca_defaults(
    const std::function<const char*(const char*)>& env,
    const std::function<std::string(const std::string&)>& read_file) {
  const char* size = env("OMPI_COMM_WORLD_SIZE");
  const char* local = env("OMPI_COMM_WORLD_LOCAL_SIZE");
  if (size == nullptr || local == nullptr || std::string_view(size) != local || std::atoi(size) < 1) return {};
  // The user's choices: mpirun --mca and -x, the environment, and mpirun -am / --tune files
  // (which reach the ranks as the two file-prefix variables).
  for (const char* chosen : {"OMPI_MCA_pml", "OMPI_MCA_mtl", "OMPI_MCA_mca_base_param_file_prefix",
                             "OMPI_MCA_mca_base_envar_file_prefix"})
    if (env(chosen) != nullptr) return {};
  // Then the parameter files, the first setting a key winning: any pml or mtl line in the
  // user's own file is a choice; the system file's values are defaults, kept below.
  std::optional<std::string> pml, mtl;
  for (const auto& file : mca_param_files(env)) {
    const std::string text = read_file(file.path);
    auto p = file_value(text, "pml");
    auto m = file_value(text, "mtl");
    if (!file.system && (p || m)) return {};
    if (!pml) pml = std::move(p);
    if (!mtl) mtl = std::move(m);
  }
  // A system-wide list of MTLs to use asks for cm; its exclusions (Debian: ^ofi) do not.
  if (mtl && !mtl->empty() && (*mtl)[0] != '^') return {};
  if (!pml || pml->empty()) return {{"OMPI_MCA_pml", "^cm"}};
  // A list of PMLs to use either names cm or already leaves it out.
  if ((*pml)[0] != '^' || lists(*pml, "cm")) return {};
  return {{"OMPI_MCA_pml", *pml + ",cm"}};  // keep the system file's exclusions (Debian: ^ucx)
}

}  // namespace qevolve::comm
