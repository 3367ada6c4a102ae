// The class `size` of the bad-input corpus (tests/cli/corpus_cases.hpp) through the executable:
// 2^64 and 1000^64 states, 70 resonators, basis_size 100000, a matrix_file declaring 2^20 x 2^20
// entries, sweeps and bench runs that cannot fit. Each is refused with its estimate before any
// allocation (exit 2). Here, in an executable labelled `sanitize`, so that the ASan/UBSan build
// runs them against its own instrumented qevolve.
#include <gtest/gtest.h>

#include "cli/corpus_cases.hpp"

namespace qevolve::testing {
namespace {

class SizeCorpus : public ::testing::TestWithParam<CorpusCase> {};

TEST_P(SizeCorpus, IsRefusedBeforeAnyAllocation) {
  expect_refused(GetParam());
}

INSTANTIATE_TEST_SUITE_P(Hostile, SizeCorpus, ::testing::ValuesIn(hostile_corpus(true)),
                         corpus_case_name);

}  // namespace
}  // namespace qevolve::testing
