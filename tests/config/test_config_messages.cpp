// The message table (src/io/messages.cpp), placeholder rendering, "did you mean" suggestions
// and the number syntax of the loader.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <string_view>

#include "qevolve/text.hpp"
#include "messages.hpp"
#include "qevolve/config.hpp"
#include "qevolve/config_loader.hpp"
#include "qevolve/error.hpp"
#include "yaml_values.hpp"

namespace qevolve::test {
namespace {

using io::Msg;

TEST(Messages, TableHasOneEntryPerMessageInOrder) { EXPECT_TRUE(io::message_table_complete()); }

TEST(Messages, PlaceholdersAreFilled) {
  EXPECT_EQ(io::message(Msg::UnknownKeySuggest, {{"KEY", "amplitud"}, {"SUGGESTION", "amplitude"},
                                                 {"ALLOWED", "a, b"}}),
            "unknown key `amplitud`, did you mean `amplitude`?");
  EXPECT_EQ(io::expected(Msg::UnknownKeySuggest, {{"KEY", "amplitud"},
                                                  {"SUGGESTION", "amplitude"},
                                                  {"ALLOWED", "a, b"}}),
            "one of: a, b");
  EXPECT_EQ(io::expected(Msg::NounList), "");  // fragments have no expected part
  const InputError e =
      io::input_error({"f.yaml", 3, 7}, "device.qubits[0].ec", Msg::OutOfRange,
                      {{"VALUE", "-1"}, {"EXPECTED", "a number > 0 (GHz)"}});
  EXPECT_EQ(std::string(e.what()),
            "f.yaml:3:7: device.qubits[0].ec: `-1` is out of range (expected a number > 0 (GHz))");
  EXPECT_EQ(e.problem(), "`-1` is out of range");
}

/// The resolution stage raises table entries through Config::fail: located at the key, with
/// the overrides that wrote its entry; a kept message (MsgProblem) renders the same.
TEST(Messages, StageFailIsLocatedAndRendered) {
  Config config;
  config.source_file = "f.yaml";
  config.where["evolution.duration"] = {"f.yaml", 4, 3};
  try {
    io::fail(config, "evolution.duration", Msg::DurationShort, {{"DURATION", "1.5"}, {"LATEST", "2"}});
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "f.yaml:4:3: evolution.duration: duration 1.5 ns is shorter than the latest pulse end 2 ns "
              "(expected duration >= 2)");
  }
  const io::MsgProblem none;
  EXPECT_FALSE(none);
  const io::MsgProblem p{Msg::OutputIsFolder, {{"PATH", "out"}}};
  EXPECT_TRUE(p);
  EXPECT_EQ(std::string(io::input_error({}, "-o", p).what()),
            "-o: `out` is a folder (expected a new or writable file such as out.h5 in an existing, writable "
            "folder)");
  try {
    io::fail(config, "output.file", p);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.problem(), "`out` is a folder");
  }
}

TEST(Messages, MissingPlaceholderIsAProgrammingError) {
  EXPECT_THROW((void)io::message(Msg::UnknownKey, {}), std::logic_error);
  EXPECT_THROW((void)io::expected(Msg::UnknownKey, {{"KEY", "x"}}), std::logic_error);
}

TEST(Suggest, EditDistance) {
  EXPECT_EQ(qevolve::edit_distance("", ""), 0);
  EXPECT_EQ(qevolve::edit_distance("abc", ""), 3);
  EXPECT_EQ(qevolve::edit_distance("amplitud", "amplitude"), 1);  // deletion
  EXPECT_EQ(qevolve::edit_distance("shpae", "shape"), 1);         // adjacent transposition
  EXPECT_EQ(qevolve::edit_distance("cnot", "CNOT"), 0);           // case is ignored
  EXPECT_EQ(qevolve::edit_distance("kitten", "sitting"), 3);
}

TEST(Suggest, OnlyPlausibleMisspellings) {
  constexpr std::string_view keys[] = {"levels", "el", "ec", "frequency", "optimize"};
  EXPECT_EQ(qevolve::suggest("levls", keys), "levels");
  EXPECT_EQ(qevolve::suggest("frequncy", keys), "frequency");
  EXPECT_EQ(qevolve::suggest("ell", keys), "el");
  EXPECT_EQ(qevolve::suggest("xyz", keys), "");          // distance 2 > limit 1 for 3 letters
  EXPECT_EQ(qevolve::suggest("optimise", keys), "optimize");
  EXPECT_EQ(qevolve::suggest(std::string(100, 'e'), keys), "");
}

TEST(Ranges, ExpectedTexts) {
  using io::Range;
  EXPECT_EQ(Range::gt(0.0, "GHz").text(), "a number > 0 (GHz)");
  EXPECT_EQ(Range::ge(0.0, "ns").text(), "a number >= 0 (ns)");
  EXPECT_EQ(Range::closed(0.0, 1.0).text(), "a number in [0, 1]");
  EXPECT_EQ(Range::open(0.0, 1.0).text(), "a number in (0, 1)");
  EXPECT_EQ(Range::any("rad").text(), "a finite number (rad)");
  EXPECT_TRUE(Range::open(0.0, 1.0).contains(0.5));
  EXPECT_FALSE(Range::open(0.0, 1.0).contains(1.0));
  EXPECT_TRUE(Range::closed(0.0, 1.0).contains(1.0));
  EXPECT_EQ(io::format_number(1e-10), "1e-10");
  EXPECT_EQ(io::format_number(0.5), "0.5");
}

/// YAML 1.2 core-schema numbers are accepted; other spellings are not numbers.
TEST(NumberSyntax, CoreSchemaOnly) {
  const auto duration = [](const std::string& v) {
    return io::parse_config("device: {preset: mpc_fluxonium_1d}\nevolution: {duration: " + v + "}\n",
                            "n.yaml")
        .evolution.duration.value();
  };
  EXPECT_EQ(duration("60"), 60.0);
  EXPECT_EQ(duration("+60"), 60.0);
  EXPECT_EQ(duration("6e1"), 60.0);
  EXPECT_EQ(duration("6.E1"), 60.0);
  EXPECT_EQ(duration(".5"), 0.5);
  EXPECT_EQ(duration("0x3C"), 60.0);
  EXPECT_EQ(duration("0o74"), 60.0);
  try {  // underflows to 0, which is not > 0
    (void)duration("1e-400");
    ADD_FAILURE() << "1e-400 accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.problem(), "`1e-400` is out of range");
  }
  for (const char* bad : {"1_000", "60ns", "0b11", "1.5.2", "e5", "--1", "0x", "6e"}) {
    try {
      (void)duration(bad);
      ADD_FAILURE() << bad << " accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(e.problem(), "`" + std::string(bad) + "` is not a number") << bad;
    }
  }
  for (const char* inf : {".inf", "-.Inf", ".NAN", "nan", "Infinity", "1e400"}) {
    try {
      (void)duration(inf);
      ADD_FAILURE() << inf << " accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(e.problem(), "`" + std::string(inf) + "` is not a finite number") << inf;
    }
  }
}

}  // namespace
}  // namespace qevolve::test
