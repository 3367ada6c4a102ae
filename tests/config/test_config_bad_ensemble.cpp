// Bad configs, part 4 (ensemble): each gives exactly one InputError whose full text
// `FILE:LINE:COL: key.path: problem (expected ...)` is asserted (texts: src/io/messages.cpp).
#include <gtest/gtest.h>

#include <iterator>
#include <set>
#include <string>

#include "bad_cases_ensemble.hpp"

namespace qevolve::test {
namespace {

INSTANTIATE_TEST_SUITE_P(Ensemble, BadConfig, ::testing::ValuesIn(kEnsembleCases), bad_case_name);

/// Every case is a different input with a different message.
TEST(BadConfigTable, EnsembleCasesAreDistinct) {
  std::set<std::string> inputs, messages;
  for (const BadCase& c : kEnsembleCases) {
    inputs.insert(c.yaml);
    messages.insert(c.message);
  }
  EXPECT_EQ(inputs.size(), std::size(kEnsembleCases));
  EXPECT_EQ(messages.size(), std::size(kEnsembleCases));
}

}  // namespace
}  // namespace qevolve::test
