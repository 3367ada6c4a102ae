// Shared fixture of the bad-config tables (test_config_bad_*.cpp): each case is a YAML text
// that parse_config() must refuse with exactly one InputError whose what() is `message`.
#pragma once

#include <gtest/gtest.h>

#include <string>

namespace qevolve::test {

struct BadCase {
  const char* name;     ///< test name suffix
  const char* yaml;     ///< the config text, parsed as FILE "bad.yaml"
  const char* message;  ///< the full expected what()
};

class BadConfig : public ::testing::TestWithParam<BadCase> {};

inline std::string bad_case_name(const ::testing::TestParamInfo<BadCase>& info) {
  return info.param.name;
}

}  // namespace qevolve::test
