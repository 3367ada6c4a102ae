// Safe reading and parsing of a YAML config: the byte-level and structural checks that run
// before any value is looked at (docs/config.md "Limits"). Every failure is an InputError.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace qevolve::io {

/// Largest config file accepted, in bytes (16 MiB). Checked before reading.
inline constexpr std::uint64_t kMaxConfigBytes = std::uint64_t{16} << 20;
/// Deepest nesting of lists and mappings accepted (a config needs about 5).
inline constexpr int kMaxNestingDepth = 64;
/// Most YAML nodes accepted, counting each alias as the size of the node it repeats.
inline constexpr std::uint64_t kMaxYamlNodes = 200000;

/// Reads the file at `path`: it must exist, be a regular file (not a directory, pipe or device)
/// of at most kMaxConfigBytes, and be readable. `path` is FILE in messages.
[[nodiscard]] std::string read_config_file(const std::string& path);
/// Reads an open descriptor (standard input for `-`) to its end, at most kMaxConfigBytes;
/// `name` is FILE in messages.
[[nodiscard]] std::string read_config_stream(int fd, const std::string& name);

/// The first byte a YAML stream may not hold: NUL and the other C0 control bytes but tab, LF
/// and CR, DEL, and the first byte of a malformed UTF-8 sequence (an invalid byte such as 0xff,
/// a truncated or overlong sequence, an encoded surrogate, a code point above U+10FFFF).
struct BadByte {
  int line = 1, column = 1;  ///< 1-based; columns count characters
  int character = 1;         ///< 1-based position in the text, in characters
  unsigned char byte = 0;
  bool control = false;      ///< a control byte (else malformed UTF-8)
  [[nodiscard]] std::string hex() const;  ///< the byte as two lower-case hex digits
};
[[nodiscard]] std::optional<BadByte> find_bad_byte(std::string_view text);
/// `text` with each byte find_bad_byte refuses written as `\xNN` (for messages that show it).
[[nodiscard]] std::string escape_bad_bytes(std::string_view text);

/// Checks that `text` is UTF-8 text without NUL or control bytes, then pre-scans it as a stream
/// of YAML events (syntax errors, a single document, nesting depth, node count with alias
/// expansion, no recursive aliases, no explicit tags) and only then builds the node tree.
/// What the text is: a whole config, or the value of one `--set KEY=VALUE`.
enum class Document { config, value };
/// An empty document (no content, or only comments) is an error; so is a null one (`~`,
/// `null`) for a config, while a value may be null (the stage then names the key that has no
/// value). `name` is FILE in messages.
[[nodiscard]] YAML::Node parse_yaml(const std::string& text, const std::string& name,
                                    Document kind = Document::config);

}  // namespace qevolve::io
