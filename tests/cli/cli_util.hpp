// Running the qevolve executable (and Python checkers) from tests.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
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
  const std::string full = command + " >'" + out.string() + "' 2>'" + err.string() + "'";
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

}  // namespace qevolve::testing
