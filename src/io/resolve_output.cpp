// The resolution stage, output part (include/qevolve/output_path.hpp): the output file's name
// and folder, checked before any evolution.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>
#include <string>
#include <system_error>

#include "qevolve/error.hpp"
#include "qevolve/output_path.hpp"

namespace qevolve::io {
namespace {

/// `.nan`, `-.inf`, `.NaN`, ... (YAML 1.1/1.2 special floats: `output: {file: .nan}` gives a
/// string to the loader, but the user meant no such file).
bool yaml_special_float(std::string name) {
  if (!name.empty() && (name[0] == '+' || name[0] == '-')) name.erase(0, 1);
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  return name == ".nan" || name == ".inf";
}

/// Why a file cannot be created in `folder` ("" when it can): access() says yes to root in a
/// folder that refuses every file (/proc, a read-only mount with root squashed, ...), so one
/// probe file is created and removed at once.
std::string create_fails(const std::filesystem::path& folder) {
  const std::filesystem::path probe = folder / (".qevolve-probe-" + std::to_string(::getpid()));
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return errno == EEXIST ? std::string() : std::string(std::strerror(errno));
  ::close(fd);
  ::unlink(probe.c_str());
  return {};
}

/// The problem with `path` as an output file, or "" when there is none.
std::string output_problem(const std::string& path, const std::string& config_file) {
  namespace fs = std::filesystem;
  if (path.empty()) return "the file name is empty";
  const fs::path p(path);
  const std::string name = p.filename().string();
  if (name.empty() || name == "." || name == "..") return "`" + path + "` names a folder, not a file";
  if (yaml_special_float(name)) return "`" + name + "` is a YAML special float, not a file name";
  std::error_code ec;
  if (fs::is_directory(p, ec)) return "`" + path + "` is a folder";
  const fs::path folder = p.has_parent_path() ? p.parent_path() : fs::path(".");
  // A named string, not folder.string() (an rvalue): GCC 12 warns (-Wstringop-overflow) on
  // "literal" + string&&.
  const std::string dir = folder.string();
  struct stat info {};
  if (::stat(folder.c_str(), &info) != 0) return "the folder `" + dir + "` does not exist";
  if (!S_ISDIR(info.st_mode)) return "`" + dir + "` is not a folder";
  if (::access(folder.c_str(), W_OK | X_OK) != 0) return "the folder `" + dir + "` is not writable";
  if (const std::string failed = create_fails(folder); !failed.empty())
    return "the folder `" + dir + "` is not writable (creating a file there fails: " + failed + ")";
  if (fs::exists(p, ec) && !config_file.empty() && fs::equivalent(p, fs::path(config_file), ec))
    return "`" + path + "` is the config file itself";
  return {};
}

constexpr const char* kExpected = "a new or writable file such as out.h5 in an existing, writable folder";

}  // namespace

void check_flag_output(const std::string& flag, const std::string& path, const std::string& config_file) {
  const std::string problem = output_problem(path, config_file);
  if (!problem.empty()) throw InputError({}, flag, problem, kExpected);
}

void check_output_path(const Config& config, const std::string& cli_output) {
  if (!cli_output.empty()) {
    check_flag_output("-o", cli_output, config.source_file);
    return;
  }
  if (config.output.file.empty()) return;
  const std::string problem = output_problem(config.output.file, config.source_file);
  if (!problem.empty()) config.fail("output.file", problem, kExpected);
}

void check_checkpoint_path(const Config& config) {
  if (!config.optimize || config.optimize->checkpoint.empty()) return;
  const std::string problem = output_problem(config.optimize->checkpoint, config.source_file);
  if (!problem.empty()) config.fail("optimize.checkpoint", problem, kExpected);
}

}  // namespace qevolve::io
