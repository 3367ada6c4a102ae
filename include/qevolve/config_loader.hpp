// Strict YAML loading (docs/config.md): every problem is one located InputError
// `FILE:LINE:COL: key.path: problem (expected ...)`; nothing is silently ignored.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "qevolve/config.hpp"

namespace YAML {
class Node;
}

namespace qevolve::io {

/// A value to put into the config before it is read: `--set KEY=VALUE`, or one point of a
/// `--vary` axis (docs/cli.md "--set").
struct Override {
  std::string key;    ///< key path as in messages and /gradient_names: pulses[0].amplitude,
                      ///< device.qubits[q0].el (list entries by index or by name)
  std::string value;  ///< YAML text: a scalar or a flow value ([1, 2], {every: 10})
  std::string label;  ///< where its problems are reported, e.g. "--set pulses[0].amplitude=0.1"
};

/// "KEY=VALUE" given to `flag` ("--set") -> Override labelled "FLAG KEY=VALUE". InputError when
/// there is no `=` or KEY is not a key path.
[[nodiscard]] Override parse_override(const std::string& argument, const std::string& flag);

/// Each of `keys` with every list entry it names by `name` written as its index in the config
/// text `yaml_text` ("device.qubits[q0].el" -> "device.qubits[0].el"): the spelling an applied
/// override's paths have, so that two spellings of one key compare equal. A name the text does
/// not hold (a mode only in a preset), or a key that does not parse, stays as written. The text
/// is parsed once for all keys.
[[nodiscard]] std::vector<std::string> indexed_keys(const std::string& yaml_text, const std::vector<std::string>& keys);

/// Puts each override into the parsed tree `root`, in order, creating missing mappings (and
/// an entry {name: NAME} of device.qubits for a mode only in the preset); records them in
/// config.overrides. InputError (at the override's label) for an index past the end, an
/// unknown entry name, or a path through a value that is not a mapping or list.
void apply_overrides(YAML::Node root, const std::vector<Override>& overrides, Config& config);

/// The text of a config: the file at `path` (read_config_file's checks), or standard input
/// when `path` is "-".
[[nodiscard]] std::string read_config_source(const std::string& path);
/// The input error of a config source that could not be read (`reason`), for the ranks that
/// did not read it themselves (standard input is read by rank 0 and broadcast).
[[nodiscard]] InputError source_unreadable(const std::string& path, const std::string& reason);
/// FILE in messages for a config path: "<stdin>" for "-", else the path.
[[nodiscard]] std::string source_name(const std::string& path);

/// Reads and validates a config file ("-": standard input) with the overrides applied. Throws
/// InputError on any problem (including an unreadable, empty, binary or oversized file).
[[nodiscard]] Config load_config(const std::string& path, const std::vector<Override>& overrides = {});

/// Same, from text already in memory; `name` is used as FILE in messages. With overrides,
/// Config::yaml_text is the YAML of the overridden tree (comments are not kept).
[[nodiscard]] Config parse_config(const std::string& text, const std::string& name,
                                  const std::vector<Override>& overrides = {});

/// A config text parsed once into its YAML tree (the byte and structure checks of parse_yaml
/// done), read many times with different overrides: the points of a sweep.
class ParsedConfig {
 public:
  /// InputError as parse_config for a text that is not valid YAML.
  ParsedConfig(std::string text, std::string name);
  /// parse_config(text, name, overrides) on a copy of the tree. `keep_text` false leaves
  /// Config::yaml_text empty (no YAML emitted: a sweep point's text is never written). With
  /// overrides the copy has no marks: a problem is located at its override or at FILE:1:1,
  /// so a caller that reports it reads that config again with parse_config (the sweep does).
  [[nodiscard]] Config read(const std::vector<Override>& overrides, bool keep_text = true) const;
  /// The text as run with `overrides` (the file's text without any): Config::yaml_text of
  /// read(overrides), without reading the sections. InputError only from applying them.
  [[nodiscard]] std::string text_with(const std::vector<Override>& overrides) const;
  [[nodiscard]] const std::string& text() const { return text_; }
  [[nodiscard]] const std::string& name() const { return name_; }

 private:
  struct Tree;
  std::string text_, name_;
  std::shared_ptr<const Tree> tree_;
};

}  // namespace qevolve::io
