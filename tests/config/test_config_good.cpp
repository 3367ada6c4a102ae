// Good configs parse to the expected values: the example of docs/config.md (a valid config, kept
// verbatim in data/interface_example.yaml), the defaults of a minimal config, and a config that
// uses every remaining key and YAML spelling the loader accepts.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <sstream>
#include <string>

#include "qevolve/config_loader.hpp"
#include "qevolve/error.hpp"

namespace qevolve::test {
namespace {

std::string example_path() {
  return std::string(QEVOLVE_SOURCE_DIR) + "/tests/config/data/interface_example.yaml";
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void expect_at(const Config& c, const std::string& path, int line, int column) {
  const auto it = c.where.find(path);
  ASSERT_NE(it, c.where.end()) << path << " not recorded";
  EXPECT_EQ(it->second.line, line) << path;
  EXPECT_EQ(it->second.column, column) << path;
  EXPECT_EQ(it->second.file, c.source_file) << path;
}

TEST(GoodConfig, InterfaceExampleDevice) {
  const Config c = io::load_config(example_path());
  EXPECT_EQ(c.source_file, example_path());
  EXPECT_EQ(c.yaml_text, read_file(example_path()));

  ASSERT_TRUE(c.device.preset.has_value());
  const PresetSpec& p = *c.device.preset;
  EXPECT_EQ(p.name, "mpc_fluxonium_1d");
  EXPECT_EQ(p.qubits, 4);
  EXPECT_FALSE(p.periodic);
  EXPECT_EQ(p.levels, 2);
  EXPECT_EQ(p.variance, 0.0);
  EXPECT_EQ(p.seed, 42u);
  EXPECT_FALSE(p.coupler_levels.has_value());

  ASSERT_EQ(c.device.qubits.size(), 5u);
  const ModeEntry& q0 = c.device.qubits[0];
  EXPECT_EQ(q0.name, "q0");
  EXPECT_FALSE(q0.type.has_value());
  EXPECT_EQ(q0.levels, 3);
  EXPECT_FALSE(q0.ec.has_value());
  EXPECT_EQ(q0.optimize, std::vector<std::string>{"el"});
  EXPECT_EQ(q0.path, "device.qubits[0]");

  const ModeEntry& f9 = c.device.qubits[1];
  EXPECT_EQ(f9.type, ModeType::fluxonium);
  EXPECT_EQ(f9.ec, 1.0);
  EXPECT_EQ(f9.ej, 4.0);
  EXPECT_EQ(f9.el, 0.9);
  EXPECT_EQ(f9.flux, 0.5);
  EXPECT_EQ(f9.levels, 3);
  EXPECT_FALSE(f9.basis_size.has_value());

  const ModeEntry& t1 = c.device.qubits[2];
  EXPECT_EQ(t1.name, "t1");
  EXPECT_EQ(t1.type, ModeType::transmon);
  EXPECT_EQ(t1.ec, 0.2);
  EXPECT_EQ(t1.ej, 15.0);
  EXPECT_EQ(t1.ng, 0.0);
  EXPECT_EQ(t1.flux, 0.0);
  EXPECT_EQ(t1.asymmetry, 0.3);
  EXPECT_EQ(t1.levels, 4);

  const ModeEntry& d0 = c.device.qubits[3];
  EXPECT_EQ(d0.type, ModeType::duffing);
  EXPECT_EQ(d0.frequency, 4.8);
  EXPECT_EQ(d0.anharmonicity, -0.22);
  const ModeEntry& r0 = c.device.qubits[4];
  EXPECT_EQ(r0.type, ModeType::resonator);
  EXPECT_EQ(r0.frequency, 7.1);
  EXPECT_EQ(r0.levels, 6);
  EXPECT_EQ(r0.path, "device.qubits[4]");

  ASSERT_EQ(c.device.couplings.size(), 2u);
  const CouplingEntry& k0 = c.device.couplings[0];
  EXPECT_EQ(k0.a, "q3");
  EXPECT_EQ(k0.b, "f9");
  EXPECT_EQ(k0.capacitive, 0.020);
  EXPECT_EQ(k0.inductive, -0.002);
  EXPECT_FALSE(k0.dipole.has_value());
  EXPECT_EQ(k0.optimize, std::vector<std::string>{"capacitive"});
  const CouplingEntry& k1 = c.device.couplings[1];
  EXPECT_EQ(k1.a, "d0");
  EXPECT_EQ(k1.b, "r0");
  EXPECT_EQ(k1.dipole, 0.05);
  EXPECT_EQ(k1.cross_kerr, -0.0001);
  EXPECT_EQ(k1.path, "device.couplings[1]");
}

TEST(GoodConfig, InterfaceExamplePulsesAndRun) {
  const Config c = io::load_config(example_path());
  ASSERT_EQ(c.pulses.size(), 1u);
  const PulseSpec& p = c.pulses[0];
  EXPECT_EQ(p.qubit, "q0");
  EXPECT_EQ(p.op, "phi");
  EXPECT_EQ(p.shape, Shape::cos);
  EXPECT_TRUE(p.amplitude_auto);
  EXPECT_EQ(p.angle, std::numbers::pi);
  EXPECT_EQ(p.frequency_mode, FrequencyMode::auto_bare);
  EXPECT_EQ(p.phase, -std::numbers::pi / 2);
  EXPECT_EQ(p.duration, 50.0);
  EXPECT_EQ(p.delay, 0.0);
  ASSERT_EQ(p.crosstalk.size(), 1u);
  EXPECT_EQ(p.crosstalk[0].first, "q1");
  EXPECT_EQ(p.crosstalk[0].second, 0.05);
  EXPECT_EQ(p.optimize, (std::vector<std::string>{"amplitude", "frequency", "phase"}));
  EXPECT_EQ(p.path, "pulses[0]");

  EXPECT_TRUE(c.has_evolution);
  const EvolutionSpec& e = c.evolution;
  EXPECT_EQ(e.solver, Solver::trotter);
  EXPECT_EQ(e.order, 2);
  EXPECT_EQ(e.splitting, Splitting::terms);
  EXPECT_EQ(e.steps, 2000);
  EXPECT_EQ(e.duration, 60.0);
  EXPECT_EQ(e.rtol, 1.0e-10);
  EXPECT_EQ(e.atol, 1.0e-12);
  EXPECT_EQ(e.basis, Basis::product);
  EXPECT_EQ(e.frame, Frame::lab);
  EXPECT_EQ(e.initial_states.kind, InitialStates::Kind::computational);
  EXPECT_EQ(e.precision, Precision::double_);
  EXPECT_EQ(e.device, ComputeDevice::auto_);
  ASSERT_EQ(e.noise.size(), 1u);
  EXPECT_EQ(e.noise[0].qubit, "q0");
  EXPECT_EQ(e.noise[0].t1, 50000.0);
  EXPECT_EQ(e.noise[0].tphi, 80000.0);

  ASSERT_TRUE(c.target.has_value());
  ASSERT_EQ(c.target->gates.size(), 3u);
  EXPECT_EQ(c.target->gates[0].gate, "X");
  EXPECT_EQ(c.target->gates[0].qubits, std::vector<std::string>{"q0"});
  EXPECT_FALSE(c.target->gates[0].angle.has_value());
  EXPECT_EQ(c.target->gates[1].gate, "RX");
  EXPECT_EQ(c.target->gates[1].angle, std::numbers::pi / 2);
  EXPECT_EQ(c.target->gates[2].gate, "CNOT");
  EXPECT_EQ(c.target->gates[2].qubits, (std::vector<std::string>{"q1", "q2"}));
  EXPECT_EQ(c.target->gates[2].path, "target.gates[2]");
  EXPECT_EQ(c.target->compensation, Compensation::vz);
  EXPECT_FALSE(c.target->compensation_trainable);

  ASSERT_TRUE(c.optimize.has_value());
  EXPECT_EQ(c.optimize->method, OptimizerMethod::lbfgs);
  EXPECT_EQ(c.optimize->max_iterations, 200);
  EXPECT_EQ(c.optimize->target_infidelity, 1.0e-4);
  EXPECT_EQ(c.optimize->checkpoint, "ckpt.h5");
  EXPECT_EQ(c.output.file, "result.h5");
}

TEST(GoodConfig, InterfaceExampleLocations) {
  const Config c = io::load_config(example_path());
  expect_at(c, "device", 1, 1);
  expect_at(c, "device.qubits[2].ec", 7, 34);
  expect_at(c, "device.qubits[f9]", 6, 7);        // alias by name (gradient-name spelling)
  expect_at(c, "device.qubits[t1].ec", 7, 34);
  expect_at(c, "device.couplings[0].capacitive", 11, 26);
  expect_at(c, "pulses[0]", 14, 5);
  expect_at(c, "pulses[0].crosstalk.q1", 25, 17);
  expect_at(c, "pulses[0].optimize[2]", 26, 38);
  expect_at(c, "evolution.steps", 31, 3);
  expect_at(c, "evolution.noise.q0.t1", 41, 10);
  expect_at(c, "target.gates[1].angle", 45, 18);
  expect_at(c, "output.file", 55, 3);
  // Later layers report through Config::fail, located at the key or its closest parent.
  try {
    c.fail("device.qubits[2].ej", "too small", "more");
    FAIL() << "Config::fail returned";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              example_path() + ":7:43: device.qubits[2].ej: too small (expected more)");
  }
  try {
    c.fail("pulses[0].ramp", "not given");
    FAIL() << "Config::fail returned";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), example_path() + ":14:5: pulses[0].ramp: not given");
  }
}

TEST(GoodConfig, MinimalConfigHasTheDocumentedDefaults) {
  const Config c = io::parse_config("device: {preset: mpc_fluxonium_1d}\n", "min.yaml");
  EXPECT_EQ(c.source_file, "min.yaml");
  ASSERT_TRUE(c.device.preset.has_value());
  EXPECT_EQ(c.device.preset->qubits, 2);
  EXPECT_EQ(c.device.preset->levels, 2);
  EXPECT_FALSE(c.device.preset->periodic);
  EXPECT_EQ(c.device.preset->seed, 42u);
  EXPECT_TRUE(c.device.qubits.empty());
  EXPECT_TRUE(c.pulses.empty());
  EXPECT_FALSE(c.has_evolution);
  EXPECT_EQ(c.evolution.solver, Solver::trotter);
  EXPECT_EQ(c.evolution.order, 2);
  EXPECT_EQ(c.evolution.steps, 1000);
  EXPECT_FALSE(c.evolution.duration.has_value());
  EXPECT_EQ(c.evolution.initial_states.kind, InitialStates::Kind::computational);
  EXPECT_FALSE(c.target.has_value());
  EXPECT_FALSE(c.optimize.has_value());
  EXPECT_TRUE(c.output.file.empty());
}

/// Every shape, the remaining keys, and the YAML spellings the loader accepts: CRLF line ends,
/// a byte order mark, comments, quoted strings, 0x / + / .5 / 5. / e-notation numbers,
/// True/FALSE, plain digit labels (leading zeros kept), and a benign alias.
constexpr const char* kEverything =
    "\xEF\xBB\xBF# every key\r\n"
    "device:\r\n"
    "  preset: transmon_coupler_1d\r\n"
    "  preset_args: {qubits: 3, periodic: True, levels: 3, coupler_levels: 4, variance: .5,"
    " seed: 0x10}\r\n"
    "  qubits:\r\n"
    "    - {name: \"q1\", ec: 0.21, basis_size: 31}\r\n"
    "    - {name: extra_d, type: duffing, role: coupler, frequency: 5., anharmonicity: -2e-1, levels: 4,"
    " optimize: [anharmonicity]}\r\n"
    "pulses:\r\n"
    "  - &base {qubit: q0, operator: n, shape: rampcos, amplitude: +0.1, frequency: auto_dressed,"
    " duration: 40, ramp: 10, optimize: [duration, ramp, lambda_free]}\r\n"
    "  - {qubit: q0, shape: trapezoid, amplitude: 0.1, plateau: 20, ramp: 5, delay: 3}\r\n"
    "  - {qubit: q1, shape: gaussian, amplitude: -0.05, sigma: 5, c: 2, optimize: [sigma, c]}\r\n"
    "  - {qubit: q1, shape: tanh, amplitude: 0.05, duration: 30, sigma: 3, c: 2}\r\n"
    "  - {qubit: q1, shape: erf, amplitude: 0.05, duration: 30, sigma: 3, c: 3}\r\n"
    "  - {qubit: q2, shape: drag, base: gaussian, amplitude: auto, angle: 1.5, duration: 20,"
    " c: 2, lambda: 0.3, optimize: [lambda, c]}\r\n"
    "  - {qubit: q2, shape: drag, amplitude: 0.1, duration: 20}\r\n"
    "  - {qubit: q2, shape: piecewise_constant, duration: 30, values: [0, 0.1, -0.1],"
    " optimize: [values]}\r\n"
    "  - {qubit: q2, shape: spline, duration: 30, values: [0, 0.1, 0.2, 0.1, 0],"
    " optimize: [\"values[1]\", \"values[4]\", frequency]}\r\n"
    "  - *base\r\n"
    "evolution:\r\n"
    "  solver: adaptive\r\n"
    "  rtol: 1e-8\r\n"
    "  atol: 1.0E-10\r\n"
    "  basis: dressed\r\n"
    "  frame: rotating\r\n"
    "  precision: single\r\n"
    "  device: cpu\r\n"
    "  initial_states: [00000, '01000', \"10000\"]\r\n"
    "  noise: {q0: {t1: 2.5e4, optimize: [t1]}, c0: {tphi: 1e5}}\r\n"
    "  collapse: [{qubit: q0, operator: phi, rate: 1.0e-6}, {qubit: c0, operator: matrix, matrix: [[0, 1], [0, 0]], rate: 2e-6}]\r\n"
    "target:\r\n"
    "  gates:\r\n"
    "    - {matrix_file: u3.h5, qubits: [q0, q1, q2]}\r\n"
    "    - {gate: SQRT_ISWAP, qubits: [q0, q1]}\r\n"
    "    - {gate: CPHASE, angle: -0.25, qubits: [q2, q0]}\r\n"
    "  compensation: single_qubit\r\n"
    "  compensation_trainable: FALSE\r\n"
    "optimize: {method: adam, learning_rate: 0.01, max_iterations: 7}\r\n";

/// kEverything as accepted: lambda_free is not a parameter, so the text is refused as is (checked
/// here) and the real one drops it; the adaptive solver gives no gradient, so a config with
/// trainables uses expm.
Config everything() {
  std::string text = kEverything;
  const std::string bad = ", lambda_free";
  EXPECT_THROW((void)io::parse_config(text, "all.yaml"), InputError);
  text.erase(text.find(bad), bad.size());
  text.replace(text.find("solver: adaptive"), 16, "solver: expm    ");
  return io::parse_config(text, "all.yaml");
}

TEST(GoodConfig, EveryDeviceAndPulseKeyAndSpelling) {
  const Config c = everything();

  ASSERT_TRUE(c.device.preset.has_value());
  EXPECT_EQ(c.device.preset->name, "transmon_coupler_1d");
  EXPECT_EQ(c.device.preset->qubits, 3);
  EXPECT_TRUE(c.device.preset->periodic);
  EXPECT_EQ(c.device.preset->coupler_levels, 4);
  EXPECT_EQ(c.device.preset->variance, 0.5);
  EXPECT_EQ(c.device.preset->seed, 16u);
  ASSERT_EQ(c.device.qubits.size(), 2u);
  EXPECT_EQ(c.device.qubits[0].name, "q1");
  EXPECT_EQ(c.device.qubits[0].ec, 0.21);
  EXPECT_EQ(c.device.qubits[0].basis_size, 31);
  EXPECT_EQ(c.device.qubits[1].frequency, 5.0);
  EXPECT_EQ(c.device.qubits[1].anharmonicity, -0.2);
  EXPECT_FALSE(c.device.qubits[0].role.has_value());  // the preset's role
  EXPECT_EQ(c.device.qubits[1].role, ModeRole::coupler);

  ASSERT_EQ(c.pulses.size(), 10u);
  const PulseSpec& rc = c.pulses[0];
  EXPECT_EQ(rc.op, "n");
  EXPECT_EQ(rc.shape, Shape::rampcos);
  EXPECT_EQ(rc.amplitude, 0.1);
  EXPECT_EQ(rc.frequency_mode, FrequencyMode::auto_dressed);
  EXPECT_EQ(rc.ramp, 10.0);
  EXPECT_FALSE(rc.plateau.has_value());
  EXPECT_EQ(rc.optimize, (std::vector<std::string>{"duration", "ramp"}));
  EXPECT_EQ(c.pulses[1].plateau, 20.0);
  EXPECT_FALSE(c.pulses[1].duration.has_value());
  EXPECT_EQ(c.pulses[1].delay, 3.0);
  EXPECT_EQ(c.pulses[1].op, "");  // the mode's default operator
  EXPECT_EQ(c.pulses[2].amplitude, -0.05);
  EXPECT_EQ(c.pulses[2].c, 2.0);
  EXPECT_EQ(c.pulses[3].shape, Shape::tanh);
  EXPECT_EQ(c.pulses[4].shape, Shape::erf);
  const PulseSpec& drag = c.pulses[5];
  EXPECT_EQ(drag.shape, Shape::drag);
  EXPECT_EQ(drag.base, Shape::gaussian);
  EXPECT_TRUE(drag.amplitude_auto);
  EXPECT_EQ(drag.angle, 1.5);
  EXPECT_EQ(drag.lambda, 0.3);
  EXPECT_EQ(c.pulses[6].base, Shape::cos);
  EXPECT_EQ(c.pulses[7].values, (std::vector<double>{0.0, 0.1, -0.1}));
  EXPECT_EQ(c.pulses[7].optimize, std::vector<std::string>{"values"});
  EXPECT_EQ(c.pulses[8].values.size(), 5u);
  EXPECT_EQ(c.pulses[8].optimize,
            (std::vector<std::string>{"values[1]", "values[4]", "frequency"}));
  // The alias repeats pulse 0 with its own path.
  EXPECT_EQ(c.pulses[9].shape, Shape::rampcos);
  EXPECT_EQ(c.pulses[9].path, "pulses[9]");
}

TEST(GoodConfig, EveryEvolutionTargetAndOptimizeKey) {
  const Config c = everything();
  const EvolutionSpec& e = c.evolution;
  EXPECT_EQ(e.solver, Solver::expm);
  EXPECT_EQ(e.rtol, 1e-8);
  EXPECT_EQ(e.atol, 1e-10);
  EXPECT_EQ(e.basis, Basis::dressed);
  EXPECT_EQ(e.frame, Frame::rotating);
  EXPECT_EQ(e.precision, Precision::single);
  EXPECT_EQ(e.device, ComputeDevice::cpu);
  EXPECT_EQ(e.initial_states.kind, InitialStates::Kind::list);
  EXPECT_EQ(e.initial_states.labels, (std::vector<std::string>{"00000", "01000", "10000"}));
  ASSERT_EQ(e.noise.size(), 2u);
  EXPECT_EQ(e.noise[0].t1, 25000.0);
  EXPECT_FALSE(e.noise[0].tphi.has_value());
  EXPECT_EQ(e.noise[1].qubit, "c0");
  EXPECT_EQ(e.noise[1].tphi, 1e5);
  EXPECT_EQ(e.noise[0].optimize, (std::vector<std::string>{"t1"}));
  ASSERT_EQ(e.collapse.size(), 2u);
  EXPECT_EQ(e.collapse[0].op, "phi");
  EXPECT_EQ(e.collapse[0].rate, 1e-6);
  EXPECT_EQ(e.collapse[1].qubit, "c0");
  EXPECT_EQ(e.collapse[1].matrix, (std::vector<std::vector<double>>{{0, 1}, {0, 0}}));
  EXPECT_EQ(e.collapse[1].path, "evolution.collapse[1]");

  ASSERT_TRUE(c.target.has_value());
  EXPECT_EQ(c.target->gates[0].gate, "");
  EXPECT_EQ(c.target->gates[0].matrix_file, "u3.h5");
  EXPECT_EQ(c.target->gates[0].qubits.size(), 3u);
  EXPECT_EQ(c.target->gates[1].gate, "SQRT_ISWAP");
  EXPECT_EQ(c.target->gates[2].gate, "CPHASE");
  EXPECT_EQ(c.target->gates[2].angle, -0.25);
  EXPECT_EQ(c.target->gates[2].qubits, (std::vector<std::string>{"q2", "q0"}));
  EXPECT_EQ(c.target->compensation, Compensation::single_qubit);
  EXPECT_FALSE(c.target->compensation_trainable);
  ASSERT_TRUE(c.optimize.has_value());
  EXPECT_EQ(c.optimize->method, OptimizerMethod::adam);
  EXPECT_EQ(c.optimize->learning_rate, 0.01);
  EXPECT_EQ(c.optimize->max_iterations, 7);

  // CRLF and the byte order mark do not shift locations.
  expect_at(c, "device", 2, 1);
  expect_at(c, "evolution.noise.c0.tphi", 28, 49);
  expect_at(c, "evolution.collapse[1].rate", 29, 112);
}

TEST(GoodConfig, NewModesWithoutPreset) {
  const Config c = io::parse_config(
      "device:\n"
      "  qubits:\n"
      "    - {name: a, type: transmon, ec: 0.2, ej: 15, levels: 3}\n"
      "    - {name: b, type: resonator, frequency: 7, levels: 5, optimize: [frequency]}\n"
      "  couplings:\n"
      "    - {qubits: [a, b], capacitive: 0.01}\n",
      "new.yaml");
  ASSERT_EQ(c.device.qubits.size(), 2u);
  EXPECT_FALSE(c.device.qubits[0].asymmetry.has_value());  // fixed-frequency transmon
  EXPECT_FALSE(c.device.qubits[0].ng.has_value());
  EXPECT_EQ(c.device.qubits[1].optimize, std::vector<std::string>{"frequency"});
  EXPECT_EQ(c.device.couplings[0].capacitive, 0.01);
}

}  // namespace
}  // namespace qevolve::test
