// The test body shared by every bad-config table (test_config_bad_device.cpp,
// test_config_bad_sections.cpp, test_config_bad_lines.cpp).
#include <set>
#include <string>

#include "bad_config_case.hpp"
#include "qevolve/config_loader.hpp"
#include "qevolve/error.hpp"

namespace qevolve::test {
namespace {

TEST_P(BadConfig, GivesOneLocatedInputError) {
  const BadCase& c = GetParam();
  try {
    (void)io::parse_config(c.yaml, "bad.yaml");
    ADD_FAILURE() << c.name << ": accepted, expected: " << c.message;
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), c.message);
    EXPECT_EQ(e.where().file, "bad.yaml");
    EXPECT_GT(e.where().line, 0) << "every problem inside a document has a line";
    EXPECT_GT(e.where().column, 0);
  }
}

}  // namespace
}  // namespace qevolve::test
