// Where a command writes, checked by the resolution stage before any work (docs/output.md
// "Output paths"): the folder exists and is writable, the name is not empty, not a folder, not
// a YAML special float (`.nan`, `.inf`: almost always a typo of the config), and not the config
// file itself; and no command replaces a result another command wrote unless asked (--force;
// docs/output.md "Replacing a file").
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "qevolve/config.hpp"

namespace qevolve::io {

/// What result_owner() says of an existing file that qevolve did not write (or cannot read).
inline constexpr std::string_view kForeignFile = "a file not written by qevolve";
/// ... and of an `optimize` checkpoint.
inline constexpr std::string_view kCheckpoint = "optimize checkpoint";

/// The command whose result the file `path` holds (its root attribute `command`: `run`,
/// `optimize`, `sweep`, `spectrum`; for files written before that attribute, inferred from
/// their datasets), kCheckpoint, or kForeignFile; nullopt when no regular file is there.
[[nodiscard]] std::optional<std::string> result_owner(const std::string& path);

/// Who may replace an existing file: `command` (the one about to write: "run", "optimize",
/// "sweep", "spectrum", "optimize checkpoint"; "plot" for a picture or table, which may replace
/// anything but an HDF5 file) and --force.
struct Replacing {
  std::string_view command;
  bool force = false;
};

/// The output of run / optimize / spectrum / sweep: `cli_output` (-o, an InputError naming `-o`)
/// when given, else `output.file` of the config (Config::fail at that key); nothing when both
/// are empty (the command line refuses `-o ''` itself). With `replacing`, an existing file
/// written by another command (or not by qevolve) is refused unless replacing->force.
void check_output_path(const Config& config, const std::string& cli_output,
                       std::optional<Replacing> replacing = std::nullopt);

/// The first line of every optimised config `optimize` writes (src/io/config_writer.cpp).
inline constexpr std::string_view kWrittenBackHeader = "# written by qevolve optimize";

/// The optimised config `optimize` writes beside its output (`path`, OUT.optimized.yaml): never
/// the config being optimised; an existing file only when an earlier `optimize` wrote it (its
/// first line), or with `force`. Errors name `named_by` (-o), or output.file when it is empty.
void check_written_back_yaml(const std::string& path, const Config& config, const std::string& named_by,
                             bool force);

/// `optimize.checkpoint`, when the config names one (Config::fail at that key); with
/// `replacing`, the file may hold only an earlier checkpoint (or --force).
void check_checkpoint_path(const Config& config, std::optional<Replacing> replacing = std::nullopt);

/// The same checks for a file named by a flag (`sweep --plot FILE.png`): an InputError naming
/// `flag`. `config_file` (may be empty) is the config, which the file must not be.
void check_flag_output(const std::string& flag, const std::string& path, const std::string& config_file,
                       std::optional<Replacing> replacing = std::nullopt);

}  // namespace qevolve::io
