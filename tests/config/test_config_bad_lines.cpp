// Bad configs, part 3 (control lines: `lines` and the pulses' `line` key): each gives exactly one
// InputError whose full text `FILE:LINE:COL: key.path: problem (expected ...)` is asserted
// (texts: src/io/messages.cpp).
#include <gtest/gtest.h>

#include <iterator>
#include <set>
#include <string>

#include "bad_cases_lines.hpp"

namespace qevolve::test {
namespace {

INSTANTIATE_TEST_SUITE_P(Lines, BadConfig, ::testing::ValuesIn(kLinesCases), bad_case_name);

/// Every case is a different input with a different message.
TEST(BadConfigTable, LinesCasesAreDistinct) {
  std::set<std::string> inputs, messages;
  for (const BadCase& c : kLinesCases) {
    inputs.insert(c.yaml);
    messages.insert(c.message);
  }
  EXPECT_EQ(inputs.size(), std::size(kLinesCases));
  EXPECT_EQ(messages.size(), std::size(kLinesCases));
}

}  // namespace
}  // namespace qevolve::test
