// The bad-input corpus through the executable (corpus.hpp, docs/cli.md "Bad input"): every row of
// corpus_cases.hpp but the class `size` (tests/config/test_config_corpus.cpp runs those, in the
// sanitizer build too) and every config of the loader's tables (tests/config/bad_cases_*.hpp),
// each given to `check` and to `run`: both refuse with the same located line, exit 2.
#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "cli/corpus_cases.hpp"
#include "config/bad_cases_device.hpp"
#include "config/bad_cases_lines.hpp"
#include "config/bad_cases_sections.hpp"

namespace qevolve::testing {
namespace {

/// The loader's tables as corpus rows (class `config`).
std::vector<CorpusCase> config_rows() {
  std::vector<CorpusCase> rows;
  for (const auto& [table, part] :
       {std::pair{std::span<const test::BadCase>(test::kDeviceCases), "Device"},
        std::pair{std::span<const test::BadCase>(test::kSectionsCases), "Sections"},
        std::pair{std::span<const test::BadCase>(test::kLinesCases), "Lines"}})
    for (const test::BadCase& c : table)
      rows.push_back({"config",
                      std::string(part) + c.name,
                      {{"bad.yaml", c.yaml}},
                      "bad.yaml",
                      c.message,
                      true});
  return rows;
}

class Corpus : public ::testing::TestWithParam<CorpusCase> {};

TEST_P(Corpus, IsRefusedCleanly) {
  expect_refused(GetParam());
}

INSTANTIATE_TEST_SUITE_P(Hostile, Corpus, ::testing::ValuesIn(hostile_corpus(false)),
                         corpus_case_name);
INSTANTIATE_TEST_SUITE_P(Config, Corpus, ::testing::ValuesIn(config_rows()), corpus_case_name);

/// The corpus covers every class of hostile input (issue 23) with several rows each; the sizes
/// quoted in docs/cli.md "Bad input" are printed.
TEST(CorpusSize, EveryClassHasRows) {
  std::map<std::string, int> count;
  int total = 0;
  for (const auto& rows : {hostile_corpus(false), hostile_corpus(true), config_rows()})
    for (const CorpusCase& c : rows) {
      ++count[c.cls];
      ++total;
    }
  std::string line = "corpus: " + std::to_string(total) + " rows:";
  for (const auto& [cls, n] : count) line += " " + cls + " " + std::to_string(n);
  std::cout << line << "\n";
  for (const char* cls :
       {"yaml", "size", "flags", "output", "checkpoint", "matrix", "stage", "config"})
    EXPECT_GE(count[cls], 5) << cls;
}

}  // namespace
}  // namespace qevolve::testing
