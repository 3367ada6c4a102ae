// Bad configs, part 1 (YAML structure, device): each gives exactly one InputError whose full text
// `FILE:LINE:COL: key.path: problem (expected ...)` is asserted (texts: src/io/messages.cpp).
#include <gtest/gtest.h>

#include <iterator>
#include <set>
#include <string>

#include "bad_cases_device.hpp"

namespace qevolve::test {
namespace {

INSTANTIATE_TEST_SUITE_P(Device, BadConfig, ::testing::ValuesIn(kDeviceCases), bad_case_name);

/// Every case is a different input with a different message.
TEST(BadConfigTable, DeviceCasesAreDistinct) {
  std::set<std::string> inputs, messages;
  for (const BadCase& c : kDeviceCases) {
    inputs.insert(c.yaml);
    messages.insert(c.message);
  }
  EXPECT_EQ(inputs.size(), std::size(kDeviceCases));
  EXPECT_EQ(messages.size(), std::size(kDeviceCases));
}

}  // namespace
}  // namespace qevolve::test
