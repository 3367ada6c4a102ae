// Control lines (docs/config.md "lines", docs/lines.md): the `lines` section and the pulses'
// `line` key load to the expected LineSpec / FilterSpec values, with their defaults, the edge
// values the loader accepts, and their locations. The refused inputs are in bad_cases_lines.hpp.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "qevolve/config_loader.hpp"

namespace qevolve::test {
namespace {

/// The example of docs/config.md "lines", on a tunable coupler `c`.
const char* const kLinesExample =
    "device:\n"
    "  qubits:\n"
    "    - {name: q, type: transmon, ec: 0.2, ej: 15, levels: 3}\n"
    "    - {name: c, type: transmon, role: coupler, ec: 0.2, ej: 30, asymmetry: 0.3, flux: 0.0, "
    "levels: 3}\n"
    "  couplings:\n"
    "    - {qubits: [q, c], capacitive: 0.01}\n"
    "lines:\n"
    "  - name: zline\n"
    "    sample_rate: 2.4              # GS/s\n"
    "    filters:\n"
    "      - {type: gaussian, sigma: 0.5}\n"
    "      - {type: highpass, tau: 1000.0}\n"
    "      - {type: exponential, amplitude: -0.02, tau: 30.0}\n"
    "      - {type: fir, taps: [0.1, 0.8, 0.1]}\n"
    "    predistort: true\n"
    "pulses:\n"
    "  - {qubit: c, operator: flux, shape: rampcos, amplitude: 0.1545, ramp: 24, duration: 50, "
    "delay: 5, line: zline}\n";

TEST(GoodConfigLines, TheExampleLoadsEveryField) {
  const Config c = io::parse_config(kLinesExample, "lines.yaml");
  ASSERT_EQ(c.lines.size(), 1u);
  const LineSpec& line = c.lines[0];
  EXPECT_EQ(line.name, "zline");
  EXPECT_EQ(line.sample_rate, 2.4);
  EXPECT_TRUE(line.predistort);
  EXPECT_EQ(line.path, "lines[0]");
  ASSERT_EQ(line.filters.size(), 4u);

  const FilterSpec& gauss = line.filters[0];
  EXPECT_EQ(gauss.type, FilterType::gaussian);
  EXPECT_EQ(gauss.sigma, 0.5);
  EXPECT_EQ(gauss.tau, 0.0);
  EXPECT_EQ(gauss.amplitude, 0.0);
  EXPECT_TRUE(gauss.taps.empty());
  EXPECT_TRUE(gauss.optimize.empty());
  EXPECT_EQ(gauss.path, "lines[0].filters[0]");

  const FilterSpec& highpass = line.filters[1];
  EXPECT_EQ(highpass.type, FilterType::highpass);
  EXPECT_EQ(highpass.tau, 1000.0);
  EXPECT_EQ(highpass.sigma, 0.0);
  EXPECT_EQ(highpass.path, "lines[0].filters[1]");

  const FilterSpec& exponential = line.filters[2];
  EXPECT_EQ(exponential.type, FilterType::exponential);
  EXPECT_EQ(exponential.amplitude, -0.02);
  EXPECT_EQ(exponential.tau, 30.0);
  EXPECT_EQ(exponential.path, "lines[0].filters[2]");

  const FilterSpec& fir = line.filters[3];
  EXPECT_EQ(fir.type, FilterType::fir);
  EXPECT_EQ(fir.taps, (std::vector<double>{0.1, 0.8, 0.1}));
  EXPECT_EQ(fir.path, "lines[0].filters[3]");

  ASSERT_EQ(c.pulses.size(), 1u);
  const PulseSpec& p = c.pulses[0];
  EXPECT_EQ(p.line, "zline");
  EXPECT_EQ(p.qubit, "c");
  EXPECT_EQ(p.op, "flux");
  EXPECT_EQ(p.shape, Shape::rampcos);
  EXPECT_EQ(p.amplitude, 0.1545);
  EXPECT_EQ(p.ramp, 24.0);
  EXPECT_EQ(p.duration, 50.0);
  EXPECT_EQ(p.delay, 5.0);

  // Locations: the line, its keys, each filter and its keys, the pulse's `line`.
  const auto at = [&](const std::string& path, int line_no, int column) {
    const auto it = c.where.find(path);
    ASSERT_NE(it, c.where.end()) << path << " not recorded";
    EXPECT_EQ(it->second.line, line_no) << path;
    EXPECT_EQ(it->second.column, column) << path;
  };
  at("lines[0]", 8, 5);
  at("lines[0].sample_rate", 9, 5);
  at("lines[0].filters[2]", 13, 9);
  at("lines[0].filters[2].tau", 13, 47);
  at("lines[0].predistort", 15, 5);
  at("pulses[0].line", 17, 101);
}

TEST(GoodConfigLines, DefaultsEdgeValuesAndTrainables) {
  const Config c = io::parse_config(
      "device: {preset: mpc_fluxonium_1d}\n"
      "lines:\n"
      "  - {name: bare}\n"      // no sampling, no filters
      "  - name: \"xy-1\"\n"    // a quoted name
      "    sample_rate: 100\n"  // the largest rate
      "    filters: []\n"
      "  - name: _z\n"
      "    sample_rate: 0.5\n"
      "    predistort: false\n"
      "    filters:\n"
      "      - {type: gaussian, sigma: 0, optimize: [sigma]}\n"  // sigma 0: no filtering
      "      - {type: exponential, amplitude: -1, tau: 1e9, optimize: [amplitude, tau]}\n"
      "      - {type: exponential, amplitude: 5, tau: 1e-3}\n"
      "      - {type: fir, taps: [1], optimize: [taps]}\n"
      "      - {type: fir, taps: [0.25, 0.5, 0.25], optimize: [\"taps[2]\", \"taps[0]\"]}\n"
      "      - {type: highpass, tau: 0.001, optimize: [tau]}\n"
      "  - name: p\n"
      "    predistort: true\n"
      "    filters: [{type: exponential, amplitude: -0.999, tau: 10}]\n"
      "pulses:\n"
      "  - {qubit: q0, shape: cos, amplitude: 0.1, duration: 50, line: bare}\n"
      "  - {qubit: q1, shape: cos, amplitude: 0.1, duration: 50, line: \"xy-1\"}\n"
      "  - {qubit: q1, shape: piecewise_constant, values: [0.1], duration: 5, line: _z}\n"
      "  - {qubit: q2, shape: gaussian, amplitude: 0.1, duration: 40, sigma: 10, line: p}\n"
      "  - {qubit: q0, shape: cos, amplitude: 0.1, duration: 50}\n",
      "edges.yaml");
  ASSERT_EQ(c.lines.size(), 4u);
  EXPECT_EQ(c.lines[0].name, "bare");
  EXPECT_FALSE(c.lines[0].sample_rate.has_value());
  EXPECT_TRUE(c.lines[0].filters.empty());
  EXPECT_FALSE(c.lines[0].predistort);
  EXPECT_EQ(c.lines[1].name, "xy-1");
  EXPECT_EQ(c.lines[1].sample_rate, 100.0);
  EXPECT_TRUE(c.lines[1].filters.empty());

  const LineSpec& z = c.lines[2];
  EXPECT_EQ(z.sample_rate, 0.5);
  EXPECT_FALSE(z.predistort);
  ASSERT_EQ(z.filters.size(), 6u);
  EXPECT_EQ(z.filters[0].sigma, 0.0);
  EXPECT_EQ(z.filters[0].optimize, std::vector<std::string>{"sigma"});
  EXPECT_EQ(z.filters[1].amplitude, -1.0);  // invertible or not, without predistort
  EXPECT_EQ(z.filters[1].tau, 1e9);
  EXPECT_EQ(z.filters[1].optimize, (std::vector<std::string>{"amplitude", "tau"}));
  EXPECT_EQ(z.filters[2].amplitude, 5.0);
  EXPECT_EQ(z.filters[2].tau, 1e-3);
  EXPECT_TRUE(z.filters[2].optimize.empty());
  EXPECT_EQ(z.filters[3].taps, std::vector<double>{1.0});
  EXPECT_EQ(z.filters[3].optimize, std::vector<std::string>{"taps"});
  EXPECT_EQ(z.filters[4].optimize, (std::vector<std::string>{"taps[2]", "taps[0]"}));
  EXPECT_EQ(z.filters[5].type, FilterType::highpass);
  EXPECT_EQ(z.filters[5].optimize, std::vector<std::string>{"tau"});
  EXPECT_TRUE(c.lines[3].predistort);
  EXPECT_EQ(c.lines[3].filters[0].amplitude, -0.999);

  ASSERT_EQ(c.pulses.size(), 5u);
  EXPECT_EQ(c.pulses[0].line, "bare");
  EXPECT_EQ(c.pulses[1].line, "xy-1");
  EXPECT_EQ(c.pulses[2].line, "_z");  // every shape takes a line
  EXPECT_EQ(c.pulses[3].line, "p");
  EXPECT_EQ(c.pulses[4].line, "");  // no line
}

TEST(GoodConfigLines, NoLinesSectionLeavesItEmpty) {
  const Config c = io::parse_config("device: {preset: mpc_fluxonium_1d}\nlines: []\n", "e.yaml");
  EXPECT_TRUE(c.lines.empty());
  EXPECT_TRUE(io::parse_config("device: {preset: mpc_fluxonium_1d}\n", "n.yaml").lines.empty());
}

TEST(GoodConfigLines, SetReachesALineByNameAndIsCheckedLikeTheFile) {
  const std::vector<io::Override> set = {
      io::parse_override("lines[zline].filters[1].tau=500", "--set"),
      io::parse_override("lines[zline].predistort=false", "--set")};
  const Config c = io::parse_config(kLinesExample, "lines.yaml", set);
  EXPECT_EQ(c.lines[0].filters[1].tau, 500.0);
  EXPECT_FALSE(c.lines[0].predistort);
  try {
    (void)io::parse_config(kLinesExample, "lines.yaml",
                           {io::parse_override("lines[0].filters[0].sigma=-1", "--set")});
    ADD_FAILURE() << "sigma -1 accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "--set lines[0].filters[0].sigma=-1: lines[0].filters[0].sigma: `-1` is out of "
              "range (expected a number in [0, 1e9] (ns))");
  }
}

}  // namespace
}  // namespace qevolve::test
