// Running the qevolve executable (and Python checkers) from tests.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <thread>
#include <chrono>
#include <csignal>
#include <fstream>
#include <sstream>
#include <string>

namespace qevolve::testing {

struct CommandResult {
  int exit_code = -1;
  std::string out, err;
};

inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream f(p);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

/// A fresh temporary folder, removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "qevolve-test-XXXXXX").string();
    path_ = mkdtemp(tmpl.data());
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  [[nodiscard]] std::filesystem::path operator/(const std::string& name) const { return path_ / name; }
  std::filesystem::path write(const std::string& name, const std::string& text) const {
    std::ofstream(path_ / name) << text;
    return path_ / name;
  }

 private:
  std::filesystem::path path_;
};

/// Runs `args` (a shell word list, already quoted) with stdout/stderr captured.
inline CommandResult run_command(const std::string& command, const TempDir& dir) {
  const auto out = dir / "stdout.txt", err = dir / "stderr.txt";
  // In the test's own directory: relative outputs (-o o.h5, a config's output.file) land there,
  // not in the shared working directory of ctest -j.
  const std::string full = "cd '" + dir.path().string() + "' && " + command + " >'" + out.string() + "' 2>'" +
                           err.string() + "'";
  const int status = std::system(full.c_str());
  CommandResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_file(out);
  r.err = read_file(err);
  return r;
}

inline CommandResult run_qevolve(const std::string& args, const TempDir& dir) {
  return run_command(std::string("'") + QEVOLVE_EXE + "' " + args, dir);
}

/// Runs a Python snippet with /usr/bin/python3 (numpy, h5py); exit 0 = all asserts held.
inline CommandResult run_python(const std::string& code, const TempDir& dir) {
  const auto script = dir.write("check.py", code);
  return run_command(std::string("'") + QEVOLVE_PYTHON + "' '" + script.string() + "'", dir);
}

inline bool python_has_h5py() {
  const std::string cmd = std::string("'") + QEVOLVE_PYTHON + "' -c 'import h5py, numpy' 2>/dev/null";
  return std::system(cmd.c_str()) == 0;
}

/// Waits (up to 120 s) until a file whose name starts with `prefix` appears in `dir` and then
/// sends `sig` to `pid`: a signal mid-write. Returns false when the process ended first (then
/// `status` holds its wait status).
inline bool signal_when_file_appears(pid_t pid, const std::filesystem::path& dir, const std::string& prefix,
                                     int sig, int& status) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (std::chrono::steady_clock::now() < deadline) {
    for (const auto& e : std::filesystem::directory_iterator(dir))
      if (e.path().filename().string().rfind(prefix, 0) == 0) {
        kill(pid, sig);
        return true;
      }
    if (waitpid(pid, &status, WNOHANG) == pid) return false;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return false;
}

}  // namespace qevolve::testing
