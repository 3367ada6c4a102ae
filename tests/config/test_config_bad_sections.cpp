// Bad configs, part 2 (pulses, evolution, target, optimize, output, across sections): each gives exactly one InputError whose full text
// `FILE:LINE:COL: key.path: problem (expected ...)` is asserted (texts: src/io/messages.cpp).
#include <gtest/gtest.h>

#include <iterator>
#include <set>
#include <string>

#include "bad_cases_sections.hpp"

namespace qevolve::test {
namespace {

INSTANTIATE_TEST_SUITE_P(Sections, BadConfig, ::testing::ValuesIn(kSectionsCases), bad_case_name);

/// Every case is a different input with a different message.
TEST(BadConfigTable, SectionsCasesAreDistinct) {
  std::set<std::string> inputs, messages;
  for (const BadCase& c : kSectionsCases) {
    inputs.insert(c.yaml);
    messages.insert(c.message);
  }
  EXPECT_EQ(inputs.size(), std::size(kSectionsCases));
  EXPECT_EQ(messages.size(), std::size(kSectionsCases));
}

}  // namespace
}  // namespace qevolve::test
