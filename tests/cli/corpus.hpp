// The bad-input corpus through the qevolve executable (docs/cli.md "Bad input"): one row per
// hostile input -- the files it needs, the command line, the message it must give -- and one
// runner that asserts, for every row: the exit code (2 for bad input; a signal, a crash or a hang
// never passes), the message, one line on stderr and nothing on stdout, that `check` refuses
// exactly as `run` does where the row says so, no file left behind (no output, no `*.tmp-*`,
// the inputs unchanged) and a bounded time. The rows are in corpus_cases.hpp; the config tables
// of tests/config (bad_cases_*.hpp) are rows too (test_cli_corpus.cpp).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "cli/cli_util.hpp"

namespace qevolve::testing {

/// One hostile input.
struct CorpusCase {
  std::string cls;   ///< its class: yaml, size, flags, output, checkpoint, matrix, stage, config
  std::string name;  ///< test name suffix (letters, digits, '_')
  std::vector<std::pair<std::string, std::string>> files;  ///< written into the case's folder first
  std::string args;     ///< the command line after `qevolve`, run in the case's folder
  std::string message;  ///< part of the one error line
  /// `check ARGS` and `run ARGS --threads 1` must both refuse, with the same line.
  bool like_run = false;
  /// Makes what `files` cannot hold (HDF5 files, folders, fifos), in the case's folder.
  std::function<void(const std::filesystem::path&)> prepare = nullptr;
  int exit_code = 2;
};

/// Each command of a row must end within this (they are refused before any work; generous for
/// a loaded machine and the sanitizer build).
inline constexpr double kCorpusSecondsPerCommand = 30.0;

namespace corpus_detail {

/// Name -> content of every regular file in `dir` (subfolders by name only).
inline std::map<std::string, std::string> snapshot(const std::filesystem::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    std::error_code ec;
    files[name] = e.is_regular_file(ec) ? read_file(e.path()) : std::string("<not a regular file>");
  }
  return files;
}

}  // namespace corpus_detail

/// Runs one row and checks everything the corpus promises.
inline void expect_refused(const CorpusCase& c) {
  const TempDir work, capture;  // the case's folder; stdout/stderr elsewhere
  for (const auto& [name, text] : c.files) std::ofstream(work / name, std::ios::binary) << text;
  if (c.prepare) c.prepare(work.path());
  const auto before = corpus_detail::snapshot(work.path());
  std::vector<std::string> commands{c.args};
  if (c.like_run) commands = {"check " + c.args, "run " + c.args + " --threads 1"};
  std::vector<CommandResult> results;
  for (const std::string& command : commands) {
    const auto start = std::chrono::steady_clock::now();
    // `timeout` turns a hang into exit 124 (which no row expects).
    results.push_back(
        run_command("cd '" + work.path().string() + "' && timeout -s KILL " +
                        std::to_string(static_cast<int>(2 * kCorpusSecondsPerCommand)) + " '" +
                        QEVOLVE_EXE + "' " + command,
                    capture));
    const CommandResult& r = results.back();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::string& message = c.message;
    EXPECT_EQ(r.exit_code, c.exit_code) << command << "\nstderr: " << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos)
        << command << "\nexpected: " << message << "\nstderr: " << r.err;
    EXPECT_EQ(r.err.rfind("qevolve: error: ", 0), 0u) << command << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << command << ": one line\n"
                                                               << r.err;
    EXPECT_EQ(r.out, "") << command;
    EXPECT_LT(seconds, kCorpusSecondsPerCommand) << command;
  }
  if (results.size() == 2) {
    EXPECT_EQ(results[0].err, results[1].err) << "check and run refuse differently";
  }
  const auto after = corpus_detail::snapshot(work.path());
  for (const auto& [name, content] : after) {
    const auto it = before.find(name);
    EXPECT_TRUE(it != before.end()) << "left behind: " << name;
    if (it != before.end()) {
      EXPECT_TRUE(it->second == content) << "changed: " << name;
    }
  }
  EXPECT_EQ(after.size(), before.size()) << "an input was removed";
}

}  // namespace qevolve::testing
