// run_python_script: posix_spawn of the interpreter with an argument vector, its output
// captured through a pipe, its exit status turned into a message (python_script.hpp).
#include "python_script.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "qevolve/error.hpp"

extern char** environ;

namespace qevolve::commands {
namespace {

constexpr const char* kInstall =
    "scripts/install-deps.sh installs python3, python3-matplotlib, python3-h5py "
    "and python3-numpy; QEVOLVE_PYTHON=PATH chooses another interpreter";
constexpr std::size_t kKeepBytes = 16384;  // the tail of the script's output kept for messages

/// Closes a pipe end on scope exit.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) close(fd);
  }
};

/// Starts argv with stdin from /dev/null and stdout + stderr into `out_fd`; returns the pid.
pid_t spawn(const std::vector<std::string>& argv, int out_fd, int read_end) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_fd, 1);
  posix_spawn_file_actions_adddup2(&actions, out_fd, 2);
  posix_spawn_file_actions_addclose(&actions, out_fd);
  posix_spawn_file_actions_addclose(&actions, read_end);
  pid_t pid = -1;
  const int err = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (err != 0)
    throw Error("cannot run " + argv[0] + ": " + std::strerror(err) + " (" + kInstall + ")");
  return pid;
}

/// Reads `fd` to its end, keeping the last kKeepBytes.
std::string read_tail(int fd) {
  std::string text;
  char buffer[4096];
  for (;;) {
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
    if (text.size() > 2 * kKeepBytes) text.erase(0, text.size() - kKeepBytes);
  }
  return text;
}

/// The last non-empty line of `text`.
std::string last_line(const std::string& text) {
  const auto end = text.find_last_not_of(" \n\r\t");
  if (end == std::string::npos) return {};
  const auto newline = text.rfind('\n', end);
  const auto start = newline == std::string::npos ? 0 : newline + 1;
  return text.substr(start, end + 1 - start);
}

/// The top-level module of the first "No module named 'NAME" in `text` (NAME's leading run of
/// letters, digits and '_'), or "" (no std::regex: GCC 12 warns inside <regex> at -O1).
std::string missing_module(const std::string& text) {
  static constexpr std::string_view kMarker = "No module named '";
  for (auto at = text.find(kMarker); at != std::string::npos; at = text.find(kMarker, at + 1)) {
    const auto begin = at + kMarker.size();
    auto end = begin;
    while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) != 0 || text[end] == '_')) ++end;
    if (end > begin) return text.substr(begin, end - begin);
  }
  return {};
}

/// Waits for `pid`; returns its wait status.
int wait_for(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      throw Error(std::string("waiting for the plot script: ") + std::strerror(errno));
  return status;
}

}  // namespace

std::string python_interpreter() {
  const char* env = std::getenv("QEVOLVE_PYTHON");
  return env != nullptr && *env != '\0' ? env : "/usr/bin/python3";
}

void run_python_script(const std::string& script, const std::vector<std::string>& args) {
  const std::string python = python_interpreter();
  const std::string path = std::string(QEVOLVE_SCRIPTS_DIR) + "/" + script;
  std::vector<std::string> argv{python, path};
  argv.insert(argv.end(), args.begin(), args.end());
  if (access(python.c_str(), X_OK) != 0)
    throw Error("cannot run " + python + ": " + std::strerror(errno) + " (" + kInstall + ")");
  // Python itself exits 2 for a script it cannot open, which would read as the script's "bad
  // input".
  if (access(path.c_str(), R_OK) != 0)
    throw Error("cannot read " + path + ": " + std::strerror(errno) +
                " (qevolve runs the scripts of the source tree it was built from)");
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0)
    throw Error(std::string("cannot create a pipe: ") + std::strerror(errno));
  Fd read_end{pipe_fds[0]};
  pid_t pid = -1;
  {
    Fd write_end{pipe_fds[1]};
    pid = spawn(argv, write_end.fd, read_end.fd);
  }  // the parent's write end is closed here, so the read sees the end when the child exits
  const std::string output = read_tail(read_end.fd);
  const int status = wait_for(pid);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return;
  if (WIFSIGNALED(status))
    throw Error(script + " was killed by signal " + std::to_string(WTERMSIG(status)));
  if (const std::string module = missing_module(output); !module.empty())
    throw Error(python + " has no module " + module + " (" + script +
                " needs it; install the Debian package python3-" + module + ": " + kInstall + ")");
  const std::string line = last_line(output);
  if (WEXITSTATUS(status) == 2 && !line.empty()) throw InputError(line);
  throw Error(script + " failed (exit status " + std::to_string(WEXITSTATUS(status)) + ")" +
              (line.empty() ? std::string() : ": " + line));
}

}  // namespace qevolve::commands
