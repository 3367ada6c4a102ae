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
#include <fstream>
#include <string>
#include <system_error>

#include "hdf5_handle.hpp"
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

/// A name beside `path` for `command`'s result: x.h5 -> x.spectrum.h5.
std::string suggested_name(const std::string& path, std::string_view command) {
  const std::filesystem::path p(path);
  std::string word(command.substr(0, command.find(' ')));
  return (p.parent_path() / (p.stem().string() + "." + word + p.extension().string())).string();
}

/// A file a picture or table may replace: an image or a CSV file by its extension (a config, a
/// text file or anything else is kept).
bool picture_or_table(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  constexpr std::array<const char*, 13> kKinds{".png", ".pdf", ".svg", ".svgz", ".eps", ".ps", ".jpg",
                                               ".jpeg", ".tif", ".tiff", ".webp", ".pgf", ".csv"};
  return std::find(kKinds.begin(), kKinds.end(), ext) != kKinds.end();
}

/// Why `path` must not be replaced (docs/output.md "Replacing a file"), and what to give
/// instead; an empty problem when nothing is there or the file may be replaced.
struct ReplaceProblem {
  std::string problem, instead;
};
ReplaceProblem replace_problem(const std::string& path, const std::optional<Replacing>& r, bool flag) {
  if (!r || r->force) return {};
  const std::optional<std::string> owner = result_owner(path);
  if (!owner || *owner == r->command) return {};
  const bool picture = r->command == "plot";
  if (picture && *owner == kForeignFile && picture_or_table(path)) {
    const detail::Hdf5ErrorSilencer quiet;
    if (H5Fis_hdf5(path.c_str()) <= 0) return {};  // an earlier picture or table
  }
  const std::string what = *owner == kForeignFile ? "`" + path + "` exists and was not written by qevolve"
                           : *owner == kCheckpoint ? "`" + path + "` is an `optimize` checkpoint"
                                                   : "`" + path + "` holds the result of `qevolve " + *owner + "`";
  std::string instead = picture ? "another file name" : suggested_name(path, r->command);
  instead = flag ? (picture ? instead : "another file name such as " + instead) : "-o " + instead;
  return {what + "; this command would replace it", instead + ", or --force to replace it"};
}

}  // namespace

void check_flag_output(const std::string& flag, const std::string& path, const std::string& config_file,
                       std::optional<Replacing> replacing) {
  const std::string problem = output_problem(path, config_file);
  if (!problem.empty()) throw InputError({}, flag, problem, kExpected);
  if (const ReplaceProblem r = replace_problem(path, replacing, true); !r.problem.empty())
    throw InputError({}, flag, r.problem, r.instead);
}

void check_output_path(const Config& config, const std::string& cli_output, std::optional<Replacing> replacing) {
  if (!cli_output.empty()) {
    check_flag_output("-o", cli_output, config.source_file, replacing);
    return;
  }
  if (config.output.file.empty()) return;
  const std::string problem = output_problem(config.output.file, config.source_file);
  if (!problem.empty()) config.fail("output.file", problem, kExpected);
  if (const ReplaceProblem r = replace_problem(config.output.file, replacing, false); !r.problem.empty())
    config.fail("output.file", r.problem, r.instead);
}

void check_written_back_yaml(const std::string& path, const Config& config, const std::string& named_by,
                             bool force) {
  std::error_code ec;
  const bool is_config = !config.source_file.empty() && std::filesystem::equivalent(path, config.source_file, ec);
  auto fail = [&](const std::string& problem, const std::string& expected) {
    if (named_by.empty()) config.fail("output.file", problem, expected);
    throw InputError({}, named_by, problem, expected);
  };
  if (is_config)
    fail("the optimised config `" + path + "` would replace the config being optimised",
         "another output name (the optimised config is named after it: OUT.h5 -> OUT.optimized.yaml)");
  if (force || !std::filesystem::exists(path, ec)) return;
  std::ifstream f(path);
  std::string first;
  std::getline(f, first);
  if (first.rfind(kWrittenBackHeader, 0) != 0)
    fail("the optimised config would replace `" + path + "`, which qevolve optimize did not write",
         "another output name, or --force to replace it");
}

void check_checkpoint_path(const Config& config, std::optional<Replacing> replacing) {
  if (!config.optimize || config.optimize->checkpoint.empty()) return;
  const std::string problem = output_problem(config.optimize->checkpoint, config.source_file);
  if (!problem.empty()) config.fail("optimize.checkpoint", problem, kExpected);
  if (replacing) replacing->command = kCheckpoint;
  if (const ReplaceProblem r = replace_problem(config.optimize->checkpoint, replacing, true); !r.problem.empty())
    config.fail("optimize.checkpoint", r.problem, r.instead);
}

}  // namespace qevolve::io
