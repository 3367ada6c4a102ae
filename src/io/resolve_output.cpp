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
#include "messages.hpp"
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

/// The problem with `path` as an output file (Output* messages), or none.
MsgProblem output_problem(const std::string& path, const std::string& config_file) {
  namespace fs = std::filesystem;
  if (path.empty()) return {Msg::OutputNameEmpty, {}};
  const fs::path p(path);
  const std::string name = p.filename().string();
  if (name.empty() || name == "." || name == "..") return {Msg::OutputNamesFolder, {{"PATH", path}}};
  if (yaml_special_float(name)) return {Msg::OutputSpecialFloat, {{"NAME", name}}};
  std::error_code ec;
  if (fs::is_directory(p, ec)) return {Msg::OutputIsFolder, {{"PATH", path}}};
  const fs::path folder = p.has_parent_path() ? p.parent_path() : fs::path(".");
  const std::string dir = folder.string();
  struct stat info {};
  if (::stat(folder.c_str(), &info) != 0) return {Msg::OutputFolderMissing, {{"DIR", dir}}};
  if (!S_ISDIR(info.st_mode)) return {Msg::OutputNotAFolder, {{"DIR", dir}}};
  if (::access(folder.c_str(), W_OK | X_OK) != 0) return {Msg::OutputFolderNotWritable, {{"DIR", dir}}};
  if (const std::string failed = create_fails(folder); !failed.empty())
    return {Msg::OutputCreateFails, {{"DIR", dir}, {"REASON", failed}}};
  if (fs::exists(p, ec) && !config_file.empty() && fs::equivalent(p, fs::path(config_file), ec))
    return {Msg::OutputIsConfig, {{"PATH", path}}};
  return {};
}

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

/// Why `path` must not be replaced (docs/output.md "Replacing a file"), with what to give
/// instead (Replace* messages); none when nothing is there or the file may be replaced.
MsgProblem replace_problem(const std::string& path, const std::optional<Replacing>& r, bool flag) {
  if (!r || r->force) return {};
  const std::optional<std::string> owner = result_owner(path);
  if (!owner || *owner == r->command) return {};
  const bool picture = r->command == "plot";
  if (picture && *owner == kForeignFile && picture_or_table(path)) {
    const detail::Hdf5ErrorSilencer quiet;
    if (H5Fis_hdf5(path.c_str()) <= 0) return {};  // an earlier picture or table
  }
  const Msg what = *owner == kForeignFile ? Msg::ReplaceForeign
                   : *owner == kCheckpoint ? Msg::ReplaceCheckpoint
                                           : Msg::ReplaceResult;
  const std::string other = picture ? message(Msg::NounOtherName) : suggested_name(path, r->command);
  const std::string instead = !flag      ? message(Msg::NounOutputFlag, {{"NAME", other}})
                              : picture ? other
                                        : message(Msg::NounOtherNameSuch, {{"NAME", other}});
  return {what, {{"PATH", path}, {"OWNER", *owner}, {"INSTEAD", instead}}};
}

}  // namespace

void check_flag_output(const std::string& flag, const std::string& path, const std::string& config_file,
                       std::optional<Replacing> replacing) {
  if (const MsgProblem p = output_problem(path, config_file)) throw input_error({}, flag, p);
  if (const MsgProblem r = replace_problem(path, replacing, true)) throw input_error({}, flag, r);
}

void check_output_path(const Config& config, const std::string& cli_output, std::optional<Replacing> replacing) {
  if (!cli_output.empty()) {
    check_flag_output("-o", cli_output, config.source_file, replacing);
    return;
  }
  if (config.output.file.empty()) return;
  if (const MsgProblem p = output_problem(config.output.file, config.source_file)) fail(config, "output.file", p);
  if (const MsgProblem r = replace_problem(config.output.file, replacing, false)) fail(config, "output.file", r);
}

void check_written_back_yaml(const std::string& path, const Config& config, const std::string& named_by,
                             bool force) {
  std::error_code ec;
  const bool is_config = !config.source_file.empty() && std::filesystem::equivalent(path, config.source_file, ec);
  auto refuse = [&](Msg id) {
    const MsgProblem p{id, {{"PATH", path}}};
    if (named_by.empty()) fail(config, "output.file", p);
    throw input_error({}, named_by, p);
  };
  if (is_config) refuse(Msg::WriteBackOverConfig);
  if (force || !std::filesystem::exists(path, ec)) return;
  std::ifstream f(path);
  std::string first;
  std::getline(f, first);
  if (first.rfind(kWrittenBackHeader, 0) != 0) refuse(Msg::WriteBackOverForeign);
}

void check_checkpoint_path(const Config& config, std::optional<Replacing> replacing) {
  if (!config.optimize || config.optimize->checkpoint.empty()) return;
  if (const MsgProblem p = output_problem(config.optimize->checkpoint, config.source_file))
    fail(config, "optimize.checkpoint", p);
  if (replacing) replacing->command = kCheckpoint;
  if (const MsgProblem r = replace_problem(config.optimize->checkpoint, replacing, true))
    fail(config, "optimize.checkpoint", r);
}

}  // namespace qevolve::io
