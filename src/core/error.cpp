#include "qevolve/error.hpp"

#include <utility>

namespace qevolve {
namespace {

std::string format_input_error(const SourceLocation& where, const std::string& key_path,
                               const std::string& problem, const std::string& expected) {
  std::string out;
  if (!where.file.empty()) {
    out += where.file;
    if (where.line > 0) {
      out += ':' + std::to_string(where.line);
      if (where.column > 0) out += ':' + std::to_string(where.column);
    }
    out += ": ";
  }
  if (!key_path.empty()) out += key_path + ": ";
  out += problem;
  if (!expected.empty()) out += " (expected " + expected + ")";
  return out;
}

}  // namespace

InputError::InputError(SourceLocation where, std::string key_path, std::string problem,
                       std::string expected)
    : Error(format_input_error(where, key_path, problem, expected)),
      where_(std::move(where)),
      key_path_(std::move(key_path)),
      problem_(std::move(problem)) {}

UnvalidatedInput::UnvalidatedInput(std::string key_path, std::string problem, std::string expected)
    : Error("input not validated by the resolution stage: " +
            format_input_error({}, key_path, problem, expected)),
      key_path_(std::move(key_path)),
      problem_(std::move(problem)),
      expected_(std::move(expected)) {}

void precondition(bool holds, const char* where, const std::string& key_path, const char* what) {
  if (!holds)
    throw std::logic_error(std::string(where) + ": " + key_path + ": " + what + " (the resolution stage refuses it)");
}

void unvalidated(const std::string& key_path, const std::string& problem, const std::string& expected) {
  throw UnvalidatedInput(key_path, problem, expected);
}

}  // namespace qevolve
