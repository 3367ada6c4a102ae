// A bad file never crashes or hangs the loader: missing, unreadable, non-regular, empty,
// binary, oversized, deeply nested, alias bombs, huge documents, and random corruptions of a
// valid config. Each is one InputError with a clear message (limits: docs/config.md).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <utility>

#include "qevolve/config_loader.hpp"
#include "qevolve/error.hpp"
#include "yaml_source.hpp"

namespace qevolve::test {
namespace {

namespace fs = std::filesystem;

/// A fresh directory under the system temp dir, removed with its contents at scope exit.
class TempDir {
 public:
  TempDir() {
    static int counter = 0;
    path_ = fs::temp_directory_path() /
            ("qevolve_config_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  [[nodiscard]] std::string file(const std::string& name, const std::string& content) const {
    const std::string p = (path_ / name).string();
    std::ofstream(p, std::ios::binary) << content;
    return p;
  }
  [[nodiscard]] std::string path(const std::string& name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

std::string load_error(const std::string& path) {
  try {
    (void)io::load_config(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "<accepted>";
}

std::string parse_error(const std::string& text) {
  try {
    (void)io::parse_config(text, "r.yaml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "<accepted>";
}

const std::string kEmpty =
    ": the config is empty (no YAML document) (expected a mapping with at least the key `device`)";

TEST(RobustConfig, MissingFile) {
  const TempDir dir;
  const std::string p = dir.path("nope.yaml");
  EXPECT_EQ(load_error(p),
            p + ": cannot open the config file: no such file (expected an existing YAML file)");
  EXPECT_EQ(load_error(""),  // no file name: the message has no location prefix
            "cannot open the config file: no such file (expected an existing YAML file)");
}

TEST(RobustConfig, Directory) {
  const TempDir dir;
  const std::string p = dir.path("");
  EXPECT_EQ(load_error(p),
            p + ": cannot read the config file: it is a directory (expected a YAML file)");
}

TEST(RobustConfig, NotADirectoryInPath) {
  const TempDir dir;
  const std::string p = dir.file("c.yaml", "device: {preset: mpc_fluxonium_1d}\n") + "/x.yaml";
  EXPECT_EQ(load_error(p), p + ": cannot read the config file: Not a directory"
                               " (expected a readable YAML file)");
}

TEST(RobustConfig, PipeAndDeviceAreRefusedWithoutBlocking) {
  const TempDir dir;
  const std::string fifo = dir.path("fifo.yaml");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string not_regular =
      ": cannot read the config file: it is not a regular file (a device, pipe or socket)"
      " (expected a regular YAML file)";
  EXPECT_EQ(load_error(fifo), fifo + not_regular);  // no writer: opening must not block
  EXPECT_EQ(load_error("/dev/zero"), "/dev/zero" + not_regular);
}

TEST(RobustConfig, ReadError) {
  // A regular file whose read fails (EIO), even for root.
  EXPECT_EQ(load_error("/proc/self/mem"),
            "/proc/self/mem: cannot read the config file: Input/output error"
            " (expected a readable YAML file)");
  if (::geteuid() != 0) {  // permissions do not stop root
    const TempDir dir;
    const std::string p = dir.file("locked.yaml", "device: {preset: mpc_fluxonium_1d}\n");
    ASSERT_EQ(::chmod(p.c_str(), 0), 0);
    EXPECT_EQ(load_error(p), p + ": cannot read the config file: Permission denied"
                                 " (expected a readable YAML file)");
  }
}

TEST(RobustConfig, EmptyWhitespaceAndCommentOnly) {
  const TempDir dir;
  for (const char* text : {"", "   \n\t\n\r\n", "# just a comment\n  # another\n", "---\n",
                           "~\n", "\xEF\xBB\xBF", "...\n"}) {
    const std::string p = dir.file("e.yaml", text);
    EXPECT_EQ(load_error(p), p + kEmpty) << "text: " << text;
  }
}

TEST(RobustConfig, BinaryGarbage) {
  const TempDir dir;
  const std::string nul = dir.file("nul.yaml", std::string("device:\n  pre\0set: x\n", 21));
  EXPECT_EQ(load_error(nul),
            nul + ":2:6: byte 0x00 is not text (a binary file?) (expected a UTF-8 text file)");
  const std::string png = dir.file("png.yaml", "\x89PNG\r\n\x1a\n\0\0\0\rIHDR");
  EXPECT_EQ(load_error(png), png + ":1:1: invalid UTF-8 sequence starting with byte 0x89"
                                   " (expected a UTF-8 text file)");
  EXPECT_EQ(parse_error("device: {preset: \x01}\n"),
            "r.yaml:1:18: byte 0x01 is not text (a binary file?) (expected a UTF-8 text file)");
  EXPECT_EQ(parse_error("# \xC3\xA9t\xC3\xA9\ndevice: {preset: \xFF}\n"),
            "r.yaml:2:18: invalid UTF-8 sequence starting with byte 0xff"
            " (expected a UTF-8 text file)");
  EXPECT_EQ(parse_error("a: \xC0\xAF\n"),  // overlong '/'
            "r.yaml:1:4: invalid UTF-8 sequence starting with byte 0xc0"
            " (expected a UTF-8 text file)");
  EXPECT_EQ(parse_error("a: \xED\xA0\x80\n"),  // UTF-16 surrogate
            "r.yaml:1:4: invalid UTF-8 sequence starting with byte 0xed"
            " (expected a UTF-8 text file)");
  EXPECT_EQ(parse_error("a: \xE2\x82\n"),  // truncated sequence
            "r.yaml:1:4: invalid UTF-8 sequence starting with byte 0xe2"
            " (expected a UTF-8 text file)");
  // Valid UTF-8 passes the byte check; columns count characters.
  EXPECT_EQ(parse_error("# \xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\ndevice: {preset: f\xC3\xA9}\n"),
            "r.yaml:2:18: device.preset: unknown value `f\xC3\xA9`"
            " (expected one of: mpc_fluxonium_1d, transmon_coupler_1d)");
}

/// A YAML stream holds tab, LF, CR, printable ASCII and well-formed UTF-8 only, comments
/// included (YAML 1.2 c-printable, without C1 and the BOM rules): every single byte placed in a
/// comment is accepted exactly when it is one of those, else refused at its position with its
/// hex value; multi-byte sequences at the edges of the surrogates, of the overlong forms and of
/// U+10FFFF likewise.
TEST(RobustConfig, EveryByteInACommentIsCheckedAsYamlRequires) {
  const std::string tail = "\ndevice: {preset: mpc_fluxonium_1d}\n";
  const auto hex = [](int b) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "0x%02x", b);
    return std::string(buf);
  };
  for (int b = 0; b < 256; ++b) {
    if (b == '\n' || b == '\r') continue;  // line breaks end the comment
    const std::string text = "# c" + std::string(1, static_cast<char>(b)) + tail;
    const bool printable = b == '\t' || (b >= 0x20 && b <= 0x7E);
    if (printable) {
      EXPECT_EQ(parse_error(text), "<accepted>") << hex(b);
    } else if (b < 0x80) {
      EXPECT_EQ(parse_error(text), "r.yaml:1:4: byte " + hex(b) + " is not text (a binary file?) (expected a UTF-8 text file)");
    } else {  // a lone byte >= 0x80 is never well-formed UTF-8
      EXPECT_EQ(parse_error(text),
                "r.yaml:1:4: invalid UTF-8 sequence starting with byte " + hex(b) + " (expected a UTF-8 text file)");
    }
  }
  const std::pair<const char*, bool> sequences[] = {
      {"\xED\x9F\xBF", true},           // U+D7FF, below the surrogates
      {"\xED\xA0\x80", false},          // U+D800, the first surrogate
      {"\xED\xBF\xBF", false},          // U+DFFF, the last
      {"\xEE\x80\x80", true},           // U+E000
      {"\xC2\x80", true},               // U+0080, the shortest two-byte form
      {"\xC1\xBF", false},              // overlong U+007F
      {"\xE0\x9F\xBF", false},          // overlong U+07FF
      {"\xF0\x8F\xBF\xBF", false},      // overlong U+FFFF
      {"\xF4\x8F\xBF\xBF", true},       // U+10FFFF
      {"\xF4\x90\x80\x80", false},      // above U+10FFFF
      {"\xE2\x82", false},              // truncated
  };
  for (const auto& [bytes, valid] : sequences) {
    const std::string error = parse_error(std::string("# c") + bytes + tail);
    EXPECT_EQ(error == "<accepted>", valid) << error;
    if (!valid) {
      EXPECT_EQ(error.rfind("r.yaml:1:4: invalid UTF-8 sequence starting with byte 0x", 0), 0u) << error;
    }
  }
}

TEST(RobustConfig, HundredMegabyteFileIsRefusedBySize) {
  const TempDir dir;
  const std::string p = dir.path("huge.yaml");
  {
    std::ofstream out(p, std::ios::binary);
    out << "device: {preset: mpc_fluxonium_1d}\n";
    const std::string block(1 << 20, '#');
    for (int k = 0; k < 100; ++k) out << block << '\n';
  }
  ASSERT_GT(fs::file_size(p), 100u << 20);
  EXPECT_EQ(load_error(p), p + ": the config file is larger than the limit of 16777216 bytes"
                               " (expected a config file of at most 16777216 bytes)");
}

TEST(RobustConfig, SizeLimitBoundary) {
  // A file of exactly the limit is read; its NUL byte (line 2) then stops the checks early,
  // before any YAML is parsed (parsing 16 MiB takes seconds).
  const TempDir dir;
  const std::string head = "device: {preset: mpc_fluxonium_1d}\n";
  std::string text = head + std::string(1, '\0') + std::string(io::kMaxConfigBytes - head.size() - 1, 'x');
  ASSERT_EQ(text.size(), io::kMaxConfigBytes);
  const std::string at_limit = dir.file("at_limit.yaml", text);
  EXPECT_EQ(load_error(at_limit),
            at_limit + ":2:1: byte 0x00 is not text (a binary file?) (expected a UTF-8 text file)");
  text += "x";
  const std::string over = dir.file("over.yaml", text);
  EXPECT_EQ(load_error(over), over + ": the config file is larger than the limit of 16777216"
                                     " bytes (expected a config file of at most 16777216 bytes)");
  EXPECT_EQ(parse_error(text), "r.yaml: the config file is larger than the limit of 16777216"
                               " bytes (expected a config file of at most 16777216 bytes)");
}

TEST(RobustConfig, DeepNesting) {
  const std::string too_deep = ": lists and mappings nested deeper than 64 levels"
                               " (expected at most 64 levels of nesting)";
  // The top-level mapping is level 1: 63 more levels are fine, 64 are not.
  EXPECT_EQ(parse_error("device: " + std::string(63, '[') + std::string(63, ']') + "\n"),
            "r.yaml:1:9: device: got a list (expected a mapping)");
  EXPECT_EQ(parse_error("device: " + std::string(64, '[') + std::string(64, ']') + "\n"),
            "r.yaml:1:72" + too_deep);
  // Pathological depths stop at the limit (no stack overflow), closed or not. Unclosed,
  // yaml-cpp reads `[[` as a list holding a single-pair mapping: two levels per bracket.
  EXPECT_EQ(parse_error("device: " + std::string(100000, '[')), "r.yaml:1:41" + too_deep);
  EXPECT_EQ(parse_error("device: " + std::string(100000, '{') + "\n"), "r.yaml:1:72" + too_deep);
  // Block style: one more indentation level per line.
  std::string block;
  for (int k = 0; k < 200; ++k) block += std::string(static_cast<std::size_t>(k), ' ') + "a:\n";
  EXPECT_EQ(parse_error(block), "r.yaml:65:65" + too_deep);
  std::string dashes;
  for (int k = 0; k < 10000; ++k) dashes += "- ";
  EXPECT_EQ(parse_error(dashes + "x\n"), "r.yaml:1:129" + too_deep);
}

TEST(RobustConfig, AliasBomb) {
  // "Billion laughs": 10 levels of 10 aliases expand to 10^10 nodes.
  std::string bomb = "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
  for (int k = 1; k < 10; ++k) {
    const std::string name = std::to_string(k), prev = std::to_string(k - 1);
    bomb.append("a").append(name).append(": &a").append(name).append(" [");
    for (int j = 0; j < 10; ++j) bomb.append(j ? ", *a" : "*a").append(prev);
    bomb.append("]\n");
  }
  bomb += "device: {preset: mpc_fluxonium_1d}\n";
  EXPECT_EQ(parse_error(bomb), "r.yaml:6:10: more than 200000 YAML nodes (counting every alias"
                               " expansion) (expected a config of at most 200000 nodes)");
}

TEST(RobustConfig, HugeDocumentWithoutAliases) {
  std::string text = "device: {preset: mpc_fluxonium_1d}\npulses: [";
  for (int k = 0; k < 300000; ++k) text += "1,";
  text += "1]\n";
  const std::string msg = parse_error(text);
  EXPECT_EQ(msg.substr(msg.find(": more")), ": more than 200000 YAML nodes (counting every alias"
                                            " expansion) (expected a config of at most 200000 nodes)");
}

TEST(RobustConfig, LongValuesAreCutInMessages) {
  const std::string word(100000, 'x');
  EXPECT_EQ(parse_error("device: {preset: " + word + "}\n"),
            "r.yaml:1:18: device.preset: unknown value `" + std::string(40, 'x') +
                "...` (expected one of: mpc_fluxonium_1d, transmon_coupler_1d)");
}

/// Random byte edits of a valid config: every result is accepted or refused with an
/// InputError; nothing else escapes and nothing crashes (the sanitizer build checks memory).
TEST(RobustConfig, RandomCorruptionsGiveInputErrorsOnly) {
  std::ifstream in(std::string(QEVOLVE_SOURCE_DIR) + "/tests/config/data/interface_example.yaml");
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string good = buffer.str();
  ASSERT_FALSE(good.empty());
  std::mt19937 rng(12345);
  const std::string alphabet = ":-[]{},&*!|>'\"#\n \t0123456789.eaqxyz\xC3\xA9\x80\xFF";
  int refused = 0;
  for (int trial = 0; trial < 1000; ++trial) {
    std::string text = good;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int k = 0; k < edits; ++k) {
      const std::size_t pos = rng() % text.size();
      const char c = alphabet[rng() % alphabet.size()];
      switch (rng() % 3) {
        case 0: text[pos] = c; break;
        case 1: text.insert(text.begin() + static_cast<std::ptrdiff_t>(pos), c); break;
        default: text.erase(pos, 1 + rng() % 8); break;
      }
    }
    try {
      (void)io::parse_config(text, "fuzz.yaml");
    } catch (const InputError& e) {
      ++refused;
      EXPECT_EQ(std::string(e.what()).rfind("fuzz.yaml", 0), 0u) << e.what();
    }
  }
  EXPECT_GT(refused, 300);  // most edits break something, and each is reported
}

}  // namespace
}  // namespace qevolve::test
