#include "yaml_source.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <optional>
#include <sstream>
#include <string_view>
#include <system_error>
#include <vector>
#include <yaml-cpp/eventhandler.h>

#include "messages.hpp"

namespace qevolve::io {
namespace {

std::string hex_byte(unsigned char b) {
  constexpr char digits[] = "0123456789abcdef";
  return {digits[b >> 4], digits[b & 0xF]};
}

/// Closes a POSIX file descriptor on scope exit.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

SourceLocation location(const std::string& name, const YAML::Mark& m) {
  if (m.is_null() || m.line < 0) return SourceLocation{name, 0, 0};
  return SourceLocation{name, m.line + 1, m.column + 1};
}

/// Length of the UTF-8 sequence starting at text[i] if it is well formed (no overlong forms,
/// no surrogates, at most U+10FFFF), else 0.
std::size_t utf8_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char b0 = byte(i);
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    n = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    n = 3;
    if (b0 == 0xE0) lo = 0xA0;  // overlong
    if (b0 == 0xED) hi = 0x9F;  // surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    n = 4;
    if (b0 == 0xF0) lo = 0x90;  // overlong
    if (b0 == 0xF4) hi = 0x8F;  // above U+10FFFF
  } else {
    return 0;
  }
  if (i + n > text.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k)
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  return n;
}

/// Length of the character at text[i] a YAML stream may hold (tab, LF, CR, printable ASCII,
/// well-formed UTF-8), or 0 for a byte it may not (NUL and the other control bytes, DEL,
/// malformed UTF-8).
std::size_t text_length(std::string_view text, std::size_t i) {
  const auto b = static_cast<unsigned char>(text[i]);
  if ((b < 0x20 && b != '\t' && b != '\n' && b != '\r') || b == 0x7F) return 0;
  return b >= 0x80 ? utf8_length(text, i) : 1;
}

/// Refuses NUL and control bytes and malformed UTF-8, located by line and column (columns
/// count characters).
void check_text(std::string_view text, const std::string& name) {
  if (const std::optional<BadByte> bad = find_bad_byte(text))
    throw input_error({name, bad->line, bad->column}, {}, bad->control ? Msg::BinaryByte : Msg::InvalidUtf8,
                      {{"BYTE", bad->hex()}});
}

/// Thrown out of the event pre-scan to stop the parser at the first problem.
struct StopScan {
  InputError error;
};

/// The event pre-scan: sees every node before any tree is built and stops the parser as soon
/// as a limit is passed, so yaml-cpp's recursive descent never goes deeper than the limit.
class Prescan final : public YAML::EventHandler {
 public:
  explicit Prescan(const std::string& name) : name_(name) {}

  [[nodiscard]] int documents() const { return documents_; }
  [[nodiscard]] bool null_document() const { return null_document_; }

  void OnDocumentStart(const YAML::Mark& mark) override {
    if (documents_ > 0) stop(mark, Msg::MultipleDocuments, {});
    ++documents_;
  }
  void OnDocumentEnd() override {}

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    if (count_ == 0 && frames_.empty()) null_document_ = true;
    leaf(mark, anchor);
  }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    null_document_ = false;
    const std::uint64_t size = anchor < sizes_.size() ? sizes_[anchor] : 0;
    if (size == 0) {
      const std::string anchor_name = anchor < names_.size() ? names_[anchor] : std::string("?");
      stop(mark, Msg::RecursiveAlias, {{"ANCHOR", anchor_name}});
    }
    add(mark, size);
  }
  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& /*value*/) override {
    null_document_ = false;
    check_tag(mark, tag);
    leaf(mark, anchor);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value /*style*/) override {
    open(mark, tag, anchor);
  }
  void OnSequenceEnd() override { close(); }
  void OnMapStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value /*style*/) override {
    open(mark, tag, anchor);
  }
  void OnMapEnd() override { close(); }
  void OnAnchor(const YAML::Mark& /*mark*/, const std::string& anchor_name) override {
    pending_name_ = anchor_name;
  }

 private:
  struct Frame {
    YAML::anchor_t anchor;
    std::uint64_t count_before;
  };

  [[noreturn]] void stop(const YAML::Mark& mark, Msg id, MsgArgs args) const {
    throw StopScan{input_error(location(name_, mark), {}, id, args)};
  }
  void check_tag(const YAML::Mark& mark, const std::string& tag) const {
    // "?": plain, "!": quoted or non-specific; anything else was written explicitly.
    if (tag.empty() || tag == "?" || tag == "!") return;
    // yaml-cpp resolves `!!str` to `tag:yaml.org,2002:str`: show it as written.
    constexpr std::string_view core = "tag:yaml.org,2002:";
    const bool short_form = tag.compare(0, core.size(), core) == 0;
    stop(mark, Msg::UnsupportedTag, {{"TAG", short_form ? "!!" + tag.substr(core.size()) : tag}});
  }
  void add(const YAML::Mark& mark, std::uint64_t n) {
    count_ += n;
    if (count_ > kMaxYamlNodes)
      stop(mark, Msg::TooManyNodes, {{"LIMIT", std::to_string(kMaxYamlNodes)}});
  }
  void name_anchor(YAML::anchor_t anchor, std::uint64_t size) {
    if (anchor == YAML::NullAnchor) return;
    if (sizes_.size() <= anchor) {
      sizes_.resize(anchor + 1, 0);
      names_.resize(anchor + 1);
    }
    sizes_[anchor] = size;
    names_[anchor] = pending_name_;
  }
  void leaf(const YAML::Mark& mark, YAML::anchor_t anchor) {
    add(mark, 1);
    name_anchor(anchor, 1);
  }
  void open(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor) {
    null_document_ = false;
    check_tag(mark, tag);
    if (static_cast<int>(frames_.size()) >= kMaxNestingDepth)
      stop(mark, Msg::TooDeep, {{"LIMIT", std::to_string(kMaxNestingDepth)}});
    add(mark, 1);
    name_anchor(anchor, 0);  // size 0 = still open: an alias to it now is recursive
    frames_.push_back(Frame{anchor, count_ - 1});
  }
  void close() {
    const Frame f = frames_.back();
    frames_.pop_back();
    if (f.anchor != YAML::NullAnchor) sizes_[f.anchor] = count_ - f.count_before;
  }

  const std::string& name_;
  int documents_ = 0;
  bool null_document_ = false;
  std::uint64_t count_ = 0;
  std::vector<Frame> frames_;
  std::vector<std::uint64_t> sizes_;  // expanded size of each anchored node, by anchor id
  std::vector<std::string> names_;    // the anchor's name, by anchor id
  std::string pending_name_;
};

}  // namespace

std::string BadByte::hex() const { return hex_byte(byte); }

std::optional<BadByte> find_bad_byte(std::string_view text) {
  BadByte at;
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t n = text_length(text, i);
    if (n == 0) {
      at.byte = static_cast<unsigned char>(text[i]);
      at.control = at.byte < 0x80;
      return at;
    }
    if (text[i] == '\n') {
      ++at.line;
      at.column = 0;
    }
    i += n;
    ++at.column;
    ++at.character;
  }
  return std::nullopt;
}

std::string escape_bad_bytes(std::string_view text) {
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t n = text_length(text, i);
    if (n == 0) {
      out += "\\x" + hex_byte(static_cast<unsigned char>(text[i]));
      ++i;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
  return out;
}

std::string read_config_file(const std::string& path) {
  // O_NONBLOCK: opening a FIFO without a writer must not hang; it is refused below.
  Fd file{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (file.fd < 0) {
    const int err = errno;
    if (err == ENOENT) throw input_error({path, 0, 0}, {}, Msg::FileNotFound);
    throw input_error({path, 0, 0}, {}, Msg::FileUnreadable,
                      {{"REASON", std::error_code(err, std::generic_category()).message()}});
  }
  struct stat st {};
  if (::fstat(file.fd, &st) != 0)
    throw input_error({path, 0, 0}, {}, Msg::FileUnreadable,
                      {{"REASON", std::error_code(errno, std::generic_category()).message()}});
  if (S_ISDIR(st.st_mode)) throw input_error({path, 0, 0}, {}, Msg::FileIsDirectory);
  if (!S_ISREG(st.st_mode)) throw input_error({path, 0, 0}, {}, Msg::FileNotRegular);
  const std::string limit = std::to_string(kMaxConfigBytes);
  if (static_cast<std::uint64_t>(st.st_size) > kMaxConfigBytes)
    throw input_error({path, 0, 0}, {}, Msg::FileTooLarge, {{"LIMIT", limit}});

  return read_config_stream(file.fd, path);
}

std::string read_config_stream(int fd, const std::string& path) {
  // Read at most one byte more than the limit: files whose stat size is not their length
  // (e.g. under /proc) and pipes are bounded too.
  const std::string limit = std::to_string(kMaxConfigBytes);
  std::string text;
  std::vector<char> buffer(1 << 16);
  for (;;) {
    const ssize_t got = ::read(fd, buffer.data(), buffer.size());
    if (got < 0) {
      if (errno == EINTR) continue;
      throw input_error({path, 0, 0}, {}, Msg::FileUnreadable,
                        {{"REASON", std::error_code(errno, std::generic_category()).message()}});
    }
    if (got == 0) break;
    text.append(buffer.data(), static_cast<std::size_t>(got));
    if (text.size() > kMaxConfigBytes)
      throw input_error({path, 0, 0}, {}, Msg::FileTooLarge, {{"LIMIT", limit}});
  }
  return text;
}

namespace {

/// A YAML syntax error at FILE:LINE:COL; in a `--set`/`--vary` value, whose name is the whole
/// argument, the position is said in words instead ("--set k=[1:1:1:" read as part of the value).
InputError syntax_error(const std::string& name, const YAML::Exception& e, Document kind) {
  if (kind == Document::config || e.mark.is_null() || e.mark.line < 0)
    return input_error(location(name, e.mark), {}, Msg::YamlSyntax, {{"DETAIL", e.msg}});
  std::string where = " (at character " + std::to_string(e.mark.column + 1) + " of the value";
  if (e.mark.line > 0) where += ", line " + std::to_string(e.mark.line + 1);
  return input_error({name, 0, 0}, {}, Msg::YamlSyntax, {{"DETAIL", e.msg + where + ")"}});
}

}  // namespace

YAML::Node parse_yaml(const std::string& text, const std::string& name, Document kind) {
  if (text.size() > kMaxConfigBytes)
    throw input_error({name, 0, 0}, {}, Msg::FileTooLarge,
                      {{"LIMIT", std::to_string(kMaxConfigBytes)}});
  std::string_view body(text);
  if (body.substr(0, 3) == "\xEF\xBB\xBF") body.remove_prefix(3);  // UTF-8 byte order mark
  check_text(body, name);
  const std::string clean(body);

  Prescan scan(name);
  try {
    std::istringstream in(clean);
    YAML::Parser parser(in);
    while (parser.HandleNextDocument(scan)) {
    }
  } catch (const StopScan& stop) {
    throw stop.error;
  } catch (const YAML::Exception& e) {
    throw syntax_error(name, e, kind);
  }
  if (scan.documents() == 0 || (scan.null_document() && kind == Document::config))
    throw input_error({name, 0, 0}, {}, Msg::FileEmpty);

  try {
    return YAML::Load(clean);
  } catch (const YAML::Exception& e) {  // not expected after the pre-scan
    throw input_error(location(name, e.mark), {}, Msg::YamlSyntax, {{"DETAIL", e.msg}});
  }
}

}  // namespace qevolve::io
