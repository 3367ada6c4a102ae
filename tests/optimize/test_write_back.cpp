// write_back_yaml: the named parameters are written into the config's YAML text (pulses,
// values[k], device.qubits entries -- appended for a preset-only mode -- couplings and the
// filters of control lines; `auto`
// amplitude and frequency replaced, `angle` removed), comments and layout are kept, unknown
// names are listed in a comment, and the result loads to the same config except for the
// changed values, which round-trip exactly.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "qevolve/config.hpp"
#include "qevolve/config_loader.hpp"
#include "qevolve/config_writer.hpp"

namespace qevolve::testing {
namespace {

// --- field-by-field comparison of two configs (locations and the text aside) ----------------

void expect_same(const ModeEntry& a, const ModeEntry& b) {
  SCOPED_TRACE("mode " + a.name);
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.type, b.type);
  EXPECT_EQ(a.levels, b.levels);
  EXPECT_EQ(a.ec, b.ec);
  EXPECT_EQ(a.ej, b.ej);
  EXPECT_EQ(a.el, b.el);
  EXPECT_EQ(a.flux, b.flux);
  EXPECT_EQ(a.ng, b.ng);
  EXPECT_EQ(a.asymmetry, b.asymmetry);
  EXPECT_EQ(a.frequency, b.frequency);
  EXPECT_EQ(a.anharmonicity, b.anharmonicity);
  EXPECT_EQ(a.basis_size, b.basis_size);
  EXPECT_EQ(a.optimize, b.optimize);
}

void expect_same(const PulseSpec& a, const PulseSpec& b) {
  SCOPED_TRACE(a.path);
  EXPECT_EQ(a.qubit, b.qubit);
  EXPECT_EQ(a.op, b.op);
  EXPECT_EQ(a.shape, b.shape);
  EXPECT_EQ(a.amplitude_auto, b.amplitude_auto);
  EXPECT_EQ(a.amplitude, b.amplitude);
  EXPECT_EQ(a.angle, b.angle);
  EXPECT_EQ(a.frequency_mode, b.frequency_mode);
  EXPECT_EQ(a.frequency, b.frequency);
  EXPECT_EQ(a.phase, b.phase);
  EXPECT_EQ(a.duration, b.duration);
  EXPECT_EQ(a.delay, b.delay);
  EXPECT_EQ(a.ramp, b.ramp);
  EXPECT_EQ(a.plateau, b.plateau);
  EXPECT_EQ(a.sigma, b.sigma);
  EXPECT_EQ(a.c, b.c);
  EXPECT_EQ(a.lambda, b.lambda);
  EXPECT_EQ(a.base, b.base);
  EXPECT_EQ(a.values, b.values);
  EXPECT_EQ(a.crosstalk, b.crosstalk);
  EXPECT_EQ(a.optimize, b.optimize);
  EXPECT_EQ(a.line, b.line);
}

void expect_same(const LineSpec& a, const LineSpec& b) {
  SCOPED_TRACE(a.path);
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.sample_rate, b.sample_rate);
  EXPECT_EQ(a.predistort, b.predistort);
  ASSERT_EQ(a.filters.size(), b.filters.size());
  for (std::size_t j = 0; j < a.filters.size(); ++j) {
    const FilterSpec &x = a.filters[j], &y = b.filters[j];
    EXPECT_EQ(x.type, y.type) << x.path;
    EXPECT_EQ(x.sigma, y.sigma) << x.path;
    EXPECT_EQ(x.tau, y.tau) << x.path;
    EXPECT_EQ(x.amplitude, y.amplitude) << x.path;
    EXPECT_EQ(x.taps, y.taps) << x.path;
    EXPECT_EQ(x.optimize, y.optimize) << x.path;
  }
}

void expect_same(const Config& a, const Config& b) {
  ASSERT_EQ(a.device.preset.has_value(), b.device.preset.has_value());
  if (a.device.preset) {
    EXPECT_EQ(a.device.preset->name, b.device.preset->name);
    EXPECT_EQ(a.device.preset->qubits, b.device.preset->qubits);
    EXPECT_EQ(a.device.preset->levels, b.device.preset->levels);
  }
  ASSERT_EQ(a.device.qubits.size(), b.device.qubits.size());
  for (std::size_t i = 0; i < a.device.qubits.size(); ++i)
    expect_same(a.device.qubits[i], b.device.qubits[i]);
  ASSERT_EQ(a.device.couplings.size(), b.device.couplings.size());
  for (std::size_t i = 0; i < a.device.couplings.size(); ++i) {
    const CouplingEntry &x = a.device.couplings[i], &y = b.device.couplings[i];
    EXPECT_EQ(x.a, y.a);
    EXPECT_EQ(x.b, y.b);
    EXPECT_EQ(x.capacitive, y.capacitive);
    EXPECT_EQ(x.inductive, y.inductive);
    EXPECT_EQ(x.dipole, y.dipole);
    EXPECT_EQ(x.cross_kerr, y.cross_kerr);
    EXPECT_EQ(x.optimize, y.optimize);
  }
  ASSERT_EQ(a.pulses.size(), b.pulses.size());
  for (std::size_t i = 0; i < a.pulses.size(); ++i) expect_same(a.pulses[i], b.pulses[i]);
  ASSERT_EQ(a.lines.size(), b.lines.size());
  for (std::size_t i = 0; i < a.lines.size(); ++i) expect_same(a.lines[i], b.lines[i]);
  EXPECT_EQ(a.evolution.steps, b.evolution.steps);
  EXPECT_EQ(a.evolution.duration, b.evolution.duration);
  EXPECT_EQ(a.evolution.solver, b.evolution.solver);
  ASSERT_EQ(a.target.has_value(), b.target.has_value());
  if (a.target) {
    EXPECT_EQ(a.target->compensation, b.target->compensation);
    ASSERT_EQ(a.target->gates.size(), b.target->gates.size());
    for (std::size_t i = 0; i < a.target->gates.size(); ++i) {
      EXPECT_EQ(a.target->gates[i].gate, b.target->gates[i].gate);
      EXPECT_EQ(a.target->gates[i].qubits, b.target->gates[i].qubits);
    }
  }
  ASSERT_EQ(a.optimize.has_value(), b.optimize.has_value());
  if (a.optimize) {
    EXPECT_EQ(a.optimize->max_iterations, b.optimize->max_iterations);
  }
}

const ModeEntry* mode(const Config& c, const std::string& name) {
  for (const auto& m : c.device.qubits)
    if (m.name == name) return &m;
  return nullptr;
}

// A config in mixed block and flow style, with comments, autos, a preset and every kind of
// parameter.
const char* const kConfig = R"(# a comment that must survive
device:
  preset: mpc_fluxonium_1d
  preset_args: {qubits: 3, levels: 3}
  qubits:
    - {name: q0, levels: 4, optimize: [el]}   # el comes from the preset
    - name: t1
      type: transmon
      ec: 0.2
      ej: 15.0
      levels: 3
      optimize: [ej, flux]
  # the couplings
  couplings:
    - {qubits: [q0, t1], capacitive: 0.02, optimize: [capacitive, inductive]}
pulses:
  - qubit: q0
    shape: cos
    amplitude: auto      # a pi pulse
    angle: 3.141592653589793
    frequency: auto
    phase: 0.0
    duration: 40.0
    optimize: [amplitude, frequency, phase]
  - {qubit: t1, operator: n, shape: piecewise_constant, values: [0.01, 0.02, 0.03], frequency: 5.0, duration: 30.0, optimize: [values]}
  - qubit: q1
    shape: gaussian
    amplitude: 0.1
    frequency: auto_dressed
    duration: 20
    sigma: 5.0
    optimize: [sigma, delay]
evolution:
  steps: 100
target:
  gates:
    - {gate: X, qubits: [q0]}
  compensation: vz
optimize:
  max_iterations: 5
)";

TEST(WriteBack, WithoutChangesTheTextIsUnchanged) {
  const Config c = io::parse_config(kConfig, "wb.yaml");
  EXPECT_EQ(write_back_yaml(c, {}, RVector()), c.yaml_text);
}

TEST(WriteBack, EveryKindOfParameterReloadsToTheSameConfigWithTheNewValues) {
  const Config c = io::parse_config(kConfig, "wb.yaml");
  const double odd = 0.1 + 0.2;  // 0.30000000000000004: needs 17 digits
  const std::vector<std::string> names = {"pulses[0].amplitude",
                                          "pulses[0].frequency",
                                          "pulses[0].phase",
                                          "pulses[1].values[1]",
                                          "pulses[2].sigma",
                                          "pulses[2].delay",
                                          "device.qubits[q0].el",
                                          "device.qubits[t1].ej",
                                          "device.qubits[t1].flux",
                                          "device.qubits[q2].el",
                                          "device.couplings[0].capacitive",
                                          "device.couplings[0].inductive",
                                          "compensation.angles[3]",
                                          "pulses[9].amplitude"};
  RVector v(static_cast<Index>(names.size()));
  v << 0.123456789012345678, 0.5823664862818624, -odd, 0.025, 4.5, 1.5, 0.95, 14.5, odd, 1.05,
      0.021, -0.001, 0.3, 0.7;
  const std::string text = write_back_yaml(c, names, v);

  // Unknown names: listed at the top, not written.
  EXPECT_EQ(text.rfind("# not representable in the config (not written): compensation.angles[3]\n"
                       "# not representable in the config (not written): pulses[9].amplitude\n",
                       0),
            0U)
      << text;
  // Comments and layout kept.
  for (const char* kept :
       {"# a comment that must survive", "# el comes from the preset", "# the couplings",
        "# a pi pulse", "  preset_args: {qubits: 3, levels: 3}"})
    EXPECT_NE(text.find(kept), std::string::npos) << kept << "\n" << text;
  EXPECT_EQ(text.find("angle:"), std::string::npos) << text;

  const Config r = io::parse_config(text, "written.yaml");
  Config expected = c;
  PulseSpec& p0 = expected.pulses[0];
  p0.amplitude_auto = false;
  p0.amplitude = v(0);
  p0.angle.reset();
  p0.frequency_mode = FrequencyMode::value;
  p0.frequency = v(1);
  p0.phase = v(2);
  expected.pulses[1].values[1] = v(3);
  expected.pulses[2].sigma = v(4);
  expected.pulses[2].delay = v(5);
  expected.device.qubits[0].el = v(6);
  expected.device.qubits[1].ej = v(7);
  expected.device.qubits[1].flux = v(8);
  ModeEntry q2;  // the preset-only mode gets an entry of its own, at the end
  q2.name = "q2";
  q2.el = v(9);
  expected.device.qubits.push_back(q2);
  expected.device.couplings[0].capacitive = v(10);
  expected.device.couplings[0].inductive = v(11);
  expect_same(r, expected);
  EXPECT_EQ(r.pulses[2].frequency_mode, FrequencyMode::auto_dressed);  // not named: stays auto
}

TEST(WriteBack, BlockListsAndMapsGetNewEntriesInTheirOwnStyle) {
  const char* const text = R"(device:
  preset: mpc_fluxonium_1d
  qubits:
  - name: q0
    optimize: [el]
  # after the list
pulses:
- qubit: q0
  shape: cos
  amplitude: 0.1
  frequency: 0.5
  duration: 40.0
  optimize: [delay]
)";
  const Config c = io::parse_config(text, "block.yaml");
  RVector v(3);
  v << 0.9, 1.1, 2.0;
  const std::string out =
      write_back_yaml(c, {"device.qubits[q0].el", "device.qubits[q1].el", "pulses[0].delay"}, v);
  EXPECT_EQ(out, R"(device:
  preset: mpc_fluxonium_1d
  qubits:
  - name: q0
    el: 0.90000000000000002
    optimize: [el]
  - {name: q1, el: 1.1000000000000001}
  # after the list
pulses:
- qubit: q0
  shape: cos
  amplitude: 0.1
  frequency: 0.5
  duration: 40.0
  delay: 2
  optimize: [delay]
)");
  const Config r = io::parse_config(out, "out.yaml");
  ASSERT_NE(mode(r, "q1"), nullptr);
  EXPECT_EQ(mode(r, "q1")->el, 1.1);
  EXPECT_EQ(mode(r, "q0")->el, 0.9);
  EXPECT_EQ(r.pulses[0].delay, 2.0);
}

TEST(WriteBack, APresetOnlyModeCreatesTheQubitsList) {
  const char* const text =
      "device: {preset: mpc_fluxonium_1d, couplings: [{qubits: [q0, q1], inductive: 0.01, "
      "optimize: [inductive]}]}\n"
      "pulses: [{qubit: q0, shape: cos, amplitude: 0.1, frequency: 0.5, duration: 40}]\n";
  const Config c = io::parse_config(text, "flow.yaml");
  RVector v(2);
  v << 1.25, -0.02;
  const std::string out =
      write_back_yaml(c, {"device.qubits[q1].flux", "device.couplings[0].inductive"}, v);
  EXPECT_NE(out.find("qubits: [{name: q1, flux: 1.25}]"), std::string::npos) << out;
  const Config r = io::parse_config(out, "out.yaml");
  ASSERT_EQ(r.device.qubits.size(), 1U);
  EXPECT_EQ(r.device.qubits[0].name, "q1");
  EXPECT_EQ(r.device.qubits[0].flux, 1.25);
  EXPECT_EQ(r.device.couplings[0].inductive, -0.02);
  EXPECT_EQ(r.pulses[0].amplitude, 0.1);
}

TEST(WriteBack, MultiLineFlowMappingsKeepTheirComments) {
  const char* const text = R"(device:
  qubits:
    - {name: t0, type: transmon, ec: 0.2,   # GHz, "quoted}" in a comment
       ej: 15.0, levels: 3, flux: 0.0,
       optimize: [ng, ej]}
pulses:
  - {qubit: t0, shape: cos, amplitude: 0.1, frequency: 5.0, duration: 40}
)";
  const Config c = io::parse_config(text, "multi.yaml");
  RVector v(2);
  v << 0.25, 14.75;
  const std::string out = write_back_yaml(c, {"device.qubits[t0].ng", "device.qubits[t0].ej"}, v);
  EXPECT_EQ(out, R"(device:
  qubits:
    - {name: t0, type: transmon, ec: 0.2,   # GHz, "quoted}" in a comment
       ej: 14.75, levels: 3, flux: 0.0,
       optimize: [ng, ej], ng: 0.25}
pulses:
  - {qubit: t0, shape: cos, amplitude: 0.1, frequency: 5.0, duration: 40}
)");
  const Config r = io::parse_config(out, "out.yaml");
  EXPECT_EQ(r.device.qubits[0].ng, 0.25);
  EXPECT_EQ(r.device.qubits[0].ej, 14.75);
}

TEST(WriteBack, ALayoutThatCannotBePatchedIsEmittedWithTheSameData) {
  // An alias: patching the anchored scalar would change both pulses, so the tree is emitted.
  const char* const text = R"(device:
  qubits:
    - {name: q0, type: duffing, frequency: 5.0, anharmonicity: -0.2, levels: 3}
pulses:
  - {qubit: q0, shape: cos, amplitude: &a 0.1, frequency: 5.0, duration: 40, optimize: [amplitude]}
  - {qubit: q0, shape: cos, amplitude: *a, frequency: 5.0, duration: 40, delay: 40}
)";
  const Config c = io::parse_config(text, "alias.yaml");
  const std::string out = write_back_yaml(c, {"pulses[1].amplitude"}, RVector::Constant(1, 0.25));
  const Config r = io::parse_config(out, "out.yaml");
  Config expected = c;
  expected.pulses[1].amplitude = 0.25;
  expect_same(r, expected);
}

TEST(WriteBack, FrozenAutosAndTheDurationAreWrittenToo) {
  const Config c = io::parse_config(kConfig, "wb.yaml");
  Config frozen = c;
  frozen.pulses[0].amplitude = 0.0625;
  frozen.pulses[0].frequency = 0.58;
  frozen.pulses[2].frequency = 0.61;
  frozen.evolution.duration = 40.0;
  const std::string out =
      write_back_yaml(c, frozen, {"pulses[0].phase"}, RVector::Constant(1, 0.5));
  EXPECT_EQ(out.rfind("# written by qevolve optimize: the optimised parameters of wb.yaml\n", 0),
            0U);
  const Config r = io::parse_config(out, "out.yaml");
  Config expected = c;
  expected.pulses[0].amplitude_auto = false;
  expected.pulses[0].amplitude = 0.0625;
  expected.pulses[0].angle.reset();
  expected.pulses[0].frequency_mode = FrequencyMode::value;
  expected.pulses[0].frequency = 0.58;
  expected.pulses[0].phase = 0.5;
  expected.pulses[2].frequency_mode = FrequencyMode::value;
  expected.pulses[2].frequency = 0.61;
  expected.evolution.duration = 40.0;
  expect_same(r, expected);
  EXPECT_NE(out.find("# a comment that must survive"), std::string::npos);

  // Without an evolution section, one is added.
  const char* const bare = R"(device:
  qubits:
    - {name: q0, type: duffing, frequency: 5.0, anharmonicity: -0.2, levels: 3}
pulses:
  - {qubit: q0, shape: cos, amplitude: 0.1, frequency: 5.0, duration: 40, optimize: [amplitude]}
)";
  const Config b = io::parse_config(bare, "bare.yaml");
  Config fb = b;
  fb.evolution.duration = 40.0;
  const Config rb = io::parse_config(
      write_back_yaml(b, fb, {"pulses[0].amplitude"}, RVector::Constant(1, 0.2)), "out.yaml");
  EXPECT_EQ(rb.evolution.duration, std::optional<double>(40.0));
  EXPECT_EQ(rb.pulses[0].amplitude, 0.2);
}

// Control lines in block and flow style, every filter type trainable, pulses on two lines.
const char* const kLines = R"(device:
  qubits:
    - {name: q, type: transmon, ec: 0.2, ej: 15, levels: 3}
    - {name: c, type: transmon, role: coupler, ec: 0.2, ej: 30, asymmetry: 0.3, flux: 0.0, levels: 3}
lines:
  - name: zline
    sample_rate: 2.4   # GS/s
    filters:
      - {type: gaussian, sigma: 0.5, optimize: [sigma]}
      - type: highpass   # the bias tee
        tau: 1000.0
        optimize: [tau]
      - {type: exponential, amplitude: -0.02, tau: 30.0, optimize: [amplitude, tau]}
      - {type: fir, taps: [0.1, 0.8, 0.1], optimize: [taps]}
    predistort: true
  - {name: xy, filters: [{type: highpass, tau: 500}]}
pulses:
  - {qubit: c, operator: flux, shape: rampcos, amplitude: 0.1545, ramp: 24, duration: 50, delay: 5, line: zline}
  - {qubit: q, shape: cos, amplitude: 0.1, frequency: 4.6, duration: 40, line: xy}
)";

TEST(WriteBack, ControlLinesRoundTripWithTheirTrainedFilters) {
  const Config c = io::parse_config(kLines, "lines.yaml");
  EXPECT_EQ(write_back_yaml(c, {}, RVector()), c.yaml_text);
  const Config same = io::parse_config(write_back_yaml(c, {}, RVector()), "same.yaml");
  expect_same(same, c);

  const std::vector<std::string> names = {"lines[0].filters[0].sigma",
                                          "lines[zline].filters[1].tau",
                                          "lines[0].filters[2].amplitude",
                                          "lines[zline].filters[2].tau",
                                          "lines[0].filters[3].taps[1]",
                                          "lines[xy].filters[0].tau",
                                          "lines[0].filters[0].tau",     // not a gaussian's key
                                          "lines[0].filters[3].taps[3]",  // past the taps
                                          "lines[2].filters[0].tau",      // no such line
                                          "lines[zline].filters[4].tau"};
  RVector v(static_cast<Index>(names.size()));
  v << 0.625, 1250.0, -0.0375, 27.5, 0.75, 480.0, 1.0, 2.0, 3.0, 4.0;
  const std::string text = write_back_yaml(c, names, v);
  for (const char* skipped : {"lines[0].filters[0].tau", "lines[0].filters[3].taps[3]",
                              "lines[2].filters[0].tau", "lines[zline].filters[4].tau"})
    EXPECT_NE(text.find(std::string("# not representable in the config (not written): ") + skipped),
              std::string::npos)
        << skipped << "\n" << text;
  for (const char* kept : {"sample_rate: 2.4   # GS/s", "type: highpass   # the bias tee"})
    EXPECT_NE(text.find(kept), std::string::npos) << kept << "\n" << text;

  const Config r = io::parse_config(text, "written.yaml");
  Config expected = c;
  expected.lines[0].filters[0].sigma = v(0);
  expected.lines[0].filters[1].tau = v(1);
  expected.lines[0].filters[2].amplitude = v(2);
  expected.lines[0].filters[2].tau = v(3);
  expected.lines[0].filters[3].taps[1] = v(4);
  expected.lines[1].filters[0].tau = v(5);
  expect_same(r, expected);
}

TEST(WriteBack, ControlLinesSurviveSetOverrides) {
  const std::vector<io::Override> set = {
      io::parse_override("lines[zline].filters[0].sigma=0.25", "--set"),
      io::parse_override("pulses[1].line=zline", "--set")};
  const Config c = io::parse_config(kLines, "lines.yaml", set);
  ASSERT_EQ(c.pulses[1].line, "zline");
  const std::string text =
      write_back_yaml(c, {"lines[0].filters[3].taps[2]"}, RVector::Constant(1, 0.125));
  const Config r = io::parse_config(text, "written.yaml");
  Config expected = c;
  expected.lines[0].filters[3].taps[2] = 0.125;
  expect_same(r, expected);
  EXPECT_EQ(r.lines[0].filters[0].sigma, 0.25);
  EXPECT_EQ(r.pulses[1].line, "zline");
}

TEST(WriteBack, MismatchedNamesAndValuesAreAnError) {
  const Config c = io::parse_config(kConfig, "wb.yaml");
  EXPECT_THROW((void)write_back_yaml(c, {"pulses[0].phase"}, RVector::Zero(2)), Error);
}

}  // namespace
}  // namespace qevolve::testing
