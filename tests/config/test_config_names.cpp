// The tables of names (include/qevolve/names.hpp): every spelling reads back as its value, the
// loader reads each value by its table name, and the pulse layer's shape keys are the row's.
#include <gtest/gtest.h>

#include <string>

#include "qevolve/config_loader.hpp"
#include "qevolve/names.hpp"
#include "qevolve/pulse.hpp"

namespace qevolve::test {
namespace {

template <typename E>
void expect_round_trip() {
  for (const EnumRow<E>& row : enum_table<E>()) {
    EXPECT_EQ(enum_value<E>(row.name), row.value) << row.name;
    EXPECT_STREQ(enum_name(row.value), row.name);
  }
}

TEST(Names, EverySpellingReadsBackAsItsValue) {
  expect_round_trip<ModeType>();
  expect_round_trip<Shape>();
  expect_round_trip<FrequencyMode>();
  expect_round_trip<Solver>();
  expect_round_trip<Splitting>();
  expect_round_trip<Basis>();
  expect_round_trip<Frame>();
  expect_round_trip<Precision>();
  expect_round_trip<ComputeDevice>();
  expect_round_trip<InitialStates::Kind>();
  expect_round_trip<Compensation>();
  expect_round_trip<OptimizerMethod>();
}

TEST(Names, ValuesWithoutASpelling) {
  EXPECT_STREQ(enum_name(InitialStates::Kind::list), "?");
  EXPECT_STREQ(enum_name(FrequencyMode::value), "?");
  EXPECT_FALSE(enum_value<Solver>("trotter2").has_value());
}

TEST(Names, LoaderReadsEachSolverAndMethodByItsTableName) {
  for (const EnumRow<Solver>& row : enum_table<Solver>()) {
    const std::string text =
        "device: {preset: mpc_fluxonium_1d}\nevolution: {solver: " + std::string(row.name) + "}\n";
    EXPECT_EQ(io::parse_config(text, "names.yaml").evolution.solver, row.value) << row.name;
  }
  for (const EnumRow<OptimizerMethod>& row : enum_table<OptimizerMethod>()) {
    const std::string text = "device: {preset: mpc_fluxonium_1d}\noptimize: {method: " +
                             std::string(row.name) + "}\n";
    EXPECT_EQ(io::parse_config(text, "names.yaml").optimize->method, row.value) << row.name;
  }
}

TEST(Names, PulseParametersAreTheRowsShapeKeys) {
  for (const EnumRow<Shape>& row : enum_table<Shape>()) {
    if (row.value == Shape::drag) continue;  // takes its base's keys
    for (const char* key : {"ramp", "plateau", "sigma", "c"})
      EXPECT_EQ(!pulse::parse_param(key, row.value, 0).empty(), takes_key(row, key))
          << row.name << " " << key;
  }
}

}  // namespace
}  // namespace qevolve::test
