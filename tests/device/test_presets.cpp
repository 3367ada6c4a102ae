// Presets, the documented normal generator, and merging explicit entries (resolve_device).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "qevolve/presets.hpp"
#include "qevolve/resolve.hpp"
#include "qevolve/device.hpp"

namespace qevolve::device {
namespace {

Config preset_config(const std::string& name, int qubits, bool periodic = false, int levels = 2) {
  Config c;
  c.source_file = "test.yaml";
  PresetSpec p;
  p.name = name;
  p.qubits = qubits;
  p.periodic = periodic;
  p.levels = levels;
  c.device.preset = p;
  return c;
}

TEST(NormalGenerator, MatchesTheDocumentedBoxMuller) {
  // The engine is std::mt19937_64, whose sequence the C++ standard fixes
  // ([rand.predef]: the 10000th output of a default-constructed engine is 9981545732273789042).
  std::mt19937_64 check;
  check.discard(9999);
  EXPECT_EQ(check(), 9981545732273789042ULL);
  // Box-Muller exactly as documented in include/qevolve/presets.hpp, recomputed here.
  std::mt19937_64 eng(42);
  NormalGenerator gen(42);
  for (int pair = 0; pair < 4; ++pair) {
    const double u1 = static_cast<double>(eng() >> 11) * 0x1.0p-53;
    const double u2 = static_cast<double>(eng() >> 11) * 0x1.0p-53;
    const double r = std::sqrt(-2.0 * std::log(1.0 - u1));
    EXPECT_EQ(gen.next(), r * std::cos(2.0 * M_PI * u2));
    EXPECT_EQ(gen.next(), r * std::sin(2.0 * M_PI * u2));
  }
}

TEST(NormalGenerator, IsStandardNormal) {
  NormalGenerator gen(7);
  const int n = 200000;
  double s = 0, s2 = 0;
  for (int i = 0; i < n; ++i) {
    const double x = gen.next();
    s += x;
    s2 += x * x;
  }
  // Sample mean and variance of n standard normals: standard errors 1/sqrt(n) and
  // sqrt(2/n) (~0.0022, 0.0032); 5 sigma bounds.
  EXPECT_NEAR(s / n, 0.0, 0.012);
  EXPECT_NEAR(s2 / n - (s / n) * (s / n), 1.0, 0.016);
}

TEST(Presets, MpcChainParameters) {
  const auto r = io::resolve_device(preset_config("mpc_fluxonium_1d", 4));
  ASSERT_EQ(r.modes.size(), 4u);
  const double el[4] = {0.9, 1.0, 1.1, 0.9};
  for (int i = 0; i < 4; ++i) {
    const auto& m = r.modes[static_cast<std::size_t>(i)];
    EXPECT_EQ(m.name, "q" + std::to_string(i));
    EXPECT_EQ(m.type, ModeType::fluxonium);
    EXPECT_EQ(m.ec, 1.0);
    EXPECT_EQ(m.ej, 4.0);
    EXPECT_EQ(m.el, el[i]);
    EXPECT_EQ(m.flux, 0.5);
    EXPECT_EQ(m.levels, 2);
  }
  ASSERT_EQ(r.couplings.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(r.couplings[static_cast<std::size_t>(i)].a, i);
    EXPECT_EQ(r.couplings[static_cast<std::size_t>(i)].b, i + 1);
    EXPECT_EQ(r.couplings[static_cast<std::size_t>(i)].capacitive, 0.020);
    EXPECT_EQ(r.couplings[static_cast<std::size_t>(i)].inductive, -0.002);
  }
}

TEST(Presets, MpcRingClosesTheChain) {
  const auto r = io::resolve_device(preset_config("mpc_fluxonium_1d", 5, true));
  ASSERT_EQ(r.couplings.size(), 5u);
  EXPECT_EQ(r.couplings.back().a, 4);
  EXPECT_EQ(r.couplings.back().b, 0);
}

TEST(Presets, VarianceDrawsInModeOrderEcEjEl) {
  Config c = preset_config("mpc_fluxonium_1d", 3);
  c.device.preset->variance = 0.05;
  c.device.preset->seed = 1234;
  const auto r = io::resolve_device(c);
  NormalGenerator gen(1234);
  const double el[3] = {0.9, 1.0, 1.1};
  for (int i = 0; i < 3; ++i) {
    const auto& m = r.modes[static_cast<std::size_t>(i)];
    EXPECT_DOUBLE_EQ(m.ec, 1.0 * (1 + 0.05 * gen.next()));
    EXPECT_DOUBLE_EQ(m.ej, 4.0 * (1 + 0.05 * gen.next()));
    EXPECT_DOUBLE_EQ(m.el, el[i] * (1 + 0.05 * gen.next()));
  }
}

TEST(Presets, TransmonCouplerChain) {
  Config c = preset_config("transmon_coupler_1d", 3, false, 4);
  const auto r = io::resolve_device(c);
  // q0 c0 q1 c1 q2
  ASSERT_EQ(r.modes.size(), 5u);
  const char* names[5] = {"q0", "c0", "q1", "c1", "q2"};
  for (int i = 0; i < 5; ++i) EXPECT_EQ(r.modes[static_cast<std::size_t>(i)].name, names[i]);
  EXPECT_EQ(r.modes[0].ec, 0.105);
  EXPECT_EQ(r.modes[0].ej, 33.063);
  EXPECT_EQ(r.modes[2].ec, 0.120);
  EXPECT_EQ(r.modes[2].ej, 22.234);
  EXPECT_EQ(r.modes[1].ec, 0.185);
  EXPECT_EQ(r.modes[1].ej, 30.694);
  EXPECT_EQ(r.modes[1].levels, 3);
  EXPECT_EQ(r.modes[0].levels, 4);
  for (const auto& m : r.modes) EXPECT_EQ(m.ng, 0.5);
  ASSERT_EQ(r.couplings.size(), 6u);
  // (q0, q1) 0.012, (q0, c0) 0.122, (c0, q1) 0.105
  EXPECT_EQ(r.couplings[0].a, 0);
  EXPECT_EQ(r.couplings[0].b, 2);
  EXPECT_EQ(r.couplings[0].capacitive, 0.012);
  EXPECT_EQ(r.couplings[1].a, 0);
  EXPECT_EQ(r.couplings[1].b, 1);
  EXPECT_EQ(r.couplings[1].capacitive, 0.122);
  EXPECT_EQ(r.couplings[2].a, 1);
  EXPECT_EQ(r.couplings[2].b, 2);
  EXPECT_EQ(r.couplings[2].capacitive, 0.105);
  // Couplers are held in their ground state: the computational subspace is the qubits'.
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(r.modes[static_cast<std::size_t>(i)].role, i % 2 == 0 ? ModeRole::qubit : ModeRole::coupler);
  EXPECT_EQ(mode_roles(r.modes), (std::vector<std::string>{"qubit", "coupler", "qubit", "coupler", "qubit"}));
  EXPECT_EQ(describe_roles(r.modes), "3 qubits, 2 couplers");
}

TEST(Presets, CouplersStayInZeroInTheComputationalSubspace) {
  // q0 (3 levels) c0 (2 levels) q1 (3 levels): the computational states are q0 q1 in {0, 1}
  // with c0 in 0, d = 4, flat indices (q0 * 2 + c0) * 3 + q1.
  Config c = preset_config("transmon_coupler_1d", 2, false, 3);
  c.device.preset->coupler_levels = 2;
  const Device d = io::build_device(c);
  EXPECT_EQ(d.qubit_modes(), (std::vector<int>{0, 2}));
  EXPECT_EQ(d.computational_indices(), (std::vector<Index>{0, 1, 6, 7}));
  // `role: qubit` on the coupler makes it a qubit again (d = 8, c0 the middle bit).
  ModeEntry e;
  e.name = "c0";
  e.role = ModeRole::qubit;
  e.path = "device.qubits[0]";
  c.device.qubits.push_back(e);
  const Device q = io::build_device(c);
  EXPECT_EQ(q.qubit_modes(), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(q.computational_indices(), (std::vector<Index>{0, 1, 3, 4, 6, 7, 9, 10}));
}

TEST(Resolve, OverridesPresetModeByName) {
  Config c = preset_config("mpc_fluxonium_1d", 3);
  ModeEntry e;
  e.name = "q1";
  e.levels = 4;
  e.el = 1.3;
  e.path = "device.qubits[0]";
  c.device.qubits.push_back(e);
  ModeEntry extra;
  extra.name = "r0";
  extra.type = ModeType::resonator;
  extra.levels = 5;
  extra.frequency = 7.0;
  extra.path = "device.qubits[1]";
  c.device.qubits.push_back(extra);
  const auto r = io::resolve_device(c);
  ASSERT_EQ(r.modes.size(), 4u);
  EXPECT_EQ(r.modes[1].levels, 4);
  EXPECT_EQ(r.modes[1].el, 1.3);
  EXPECT_EQ(r.modes[1].ec, 1.0);
  EXPECT_EQ(r.modes[3].name, "r0");
}

std::string error_of(const Config& c) {
  try {
    (void)io::resolve_device(c);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Resolve, ErrorsAreLocated) {
  Config c = preset_config("mpc_fluxonium_1d", 2);
  c.where["device.qubits[0]"] = {"test.yaml", 7, 7};
  c.where["device.couplings[0]"] = {"test.yaml", 9, 7};
  c.where["device.couplings[0].qubits"] = {"test.yaml", 9, 17};
  ModeEntry e;
  e.name = "q0";
  e.frequency = 5.0;
  e.path = "device.qubits[0]";
  c.device.qubits.push_back(e);
  EXPECT_EQ(error_of(c),
            "test.yaml:7:7: device.qubits[0].frequency: `frequency` is not a parameter of "
            "fluxonium mode `q0` (expected one of: ec, ej, el, flux)");
  c.device.qubits.clear();
  ModeEntry n;
  n.name = "x9";
  n.levels = 3;
  n.path = "device.qubits[0]";
  c.device.qubits.push_back(n);
  EXPECT_EQ(error_of(c),
            "test.yaml:7:7: device.qubits[0]: mode `x9` is not a preset mode and has no `type` "
            "(expected type: fluxonium | transmon | resonator | duffing)");
  c.device.qubits.clear();
  CouplingEntry ce;
  ce.a = "q0";
  ce.b = "q7";
  ce.capacitive = 0.01;
  ce.path = "device.couplings[0]";
  c.device.couplings.push_back(ce);
  EXPECT_EQ(error_of(c),
            "test.yaml:9:17: device.couplings[0].qubits: unknown mode `q7` (expected a mode "
            "name of the device: q0, q1)");
}

TEST(Resolve, RolesAreChecked) {
  Config c = preset_config("mpc_fluxonium_1d", 1);
  c.where["device.qubits[0].role"] = {"test.yaml", 5, 40};
  c.where["device.qubits[1].role"] = {"test.yaml", 6, 50};
  ModeEntry r;
  r.name = "r0";
  r.type = ModeType::resonator;
  r.levels = 4;
  r.frequency = 7.0;
  r.role = ModeRole::qubit;
  r.path = "device.qubits[0]";
  c.device.qubits.push_back(r);
  EXPECT_EQ(error_of(c),
            "test.yaml:5:40: device.qubits[0].role: resonator `r0` cannot be a qubit: a resonator is "
            "held in its ground state (expected role: coupler or no role)");
  c.device.qubits[0].role = ModeRole::coupler;  // allowed, and what a resonator is anyway
  EXPECT_EQ(error_of(c), "no error");
  // Every mode a coupler or a resonator: no computational subspace.
  ModeEntry q;
  q.name = "q0";
  q.role = ModeRole::coupler;
  q.path = "device.qubits[1]";
  c.device.qubits.push_back(q);
  EXPECT_EQ(error_of(c),
            "test.yaml:6:50: device.qubits[1].role: the device has no qubit: every mode is a coupler or "
            "a resonator (expected at least one fluxonium, transmon or duffing mode whose role is qubit, "
            "the default)");
}

TEST(Resolve, InductiveCouplingOnTransmonIsAnError) {
  Config c = preset_config("transmon_coupler_1d", 2);
  CouplingEntry ce;
  ce.a = "q0";
  ce.b = "q1";
  ce.inductive = 0.01;
  ce.path = "device.couplings[0]";
  c.device.couplings.push_back(ce);
  EXPECT_EQ(error_of(c),
            "test.yaml:1:1: device.couplings[0].inductive: transmon `q0` has no flux-like operator "
            "for an inductive coupling (expected capacitive for transmons)");
}

}  // namespace
}  // namespace qevolve::device
