// Typed exceptions of the qevolve library. Only apps/qevolve turns them into exit codes:
// InputError -> 2, NumericalError -> 3, any other Error -> 1 (docs/cli.md "Exit codes and messages").
#pragma once

#include <stdexcept>
#include <string>

namespace qevolve {

/// Base class of every error qevolve throws on purpose.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Where in an input file a problem was found (1-based line and column; 0 = unknown).
struct SourceLocation {
  std::string file;
  int line = 0;
  int column = 0;
};

/// Bad input: configuration, command-line flags or input files. Exit code 2.
/// what() is the full one-line message `FILE:LINE:COL: key.path: problem (expected ...)`
/// (the location and key path parts are omitted when unknown).
class InputError : public Error {
 public:
  InputError(SourceLocation where, std::string key_path, std::string problem,
             std::string expected = {});
  explicit InputError(std::string problem) : InputError({}, {}, std::move(problem)) {}

  [[nodiscard]] const SourceLocation& where() const noexcept { return where_; }
  [[nodiscard]] const std::string& key_path() const noexcept { return key_path_; }
  [[nodiscard]] const std::string& problem() const noexcept { return problem_; }

 private:
  SourceLocation where_;
  std::string key_path_;
  std::string problem_;
};

/// A precondition of a layer below the resolution stage (io::resolve, docs/architecture.md)
/// does not hold: the layer was handed a Config that did not pass the stage (a programmatic
/// Config in a test or a benchmark), or qevolve has a bug. Input errors are raised only by the
/// stage; a precondition failure is exit code 1. The engine layers assert theirs with
/// precondition() below (tests/architecture/check_layers.py refuses unvalidated() there); this
/// type is left to io's own preconditions.
class UnvalidatedInput : public Error {
 public:
  UnvalidatedInput(std::string key_path, std::string problem, std::string expected = {});
  [[nodiscard]] const std::string& key_path() const noexcept { return key_path_; }
  [[nodiscard]] const std::string& problem() const noexcept { return problem_; }
  [[nodiscard]] const std::string& expected() const noexcept { return expected_; }

 private:
  std::string key_path_;
  std::string problem_;
  std::string expected_;
};

/// An engine precondition (docs/architecture.md "Errors"): the resolution stage refuses such
/// input first with its located message, so a failure here is a programming error:
/// std::logic_error("WHERE: KEY: WHAT (the resolution stage refuses it)") when `holds` is false.
void precondition(bool holds, const char* where, const std::string& key_path, const char* what);

/// Throws UnvalidatedInput(key_path, problem, expected).
[[noreturn]] void unvalidated(const std::string& key_path, const std::string& problem,
                              const std::string& expected = {});

/// A numerical failure: NaN, non-convergence, lost unitarity beyond tolerance. Exit code 3.
class NumericalError : public Error {
 public:
  using Error::Error;
};

}  // namespace qevolve
