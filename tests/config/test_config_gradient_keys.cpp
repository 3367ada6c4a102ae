// Keys of device parameters (io::device_params_of_keys, what Simulation.spectrum(gradient=[...])
// differentiates): the spellings `--set` takes resolve to the parameter and its /gradient_names
// name; every other key is an InputError at FILE `gradient` that says what is wrong.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "qevolve/config_loader.hpp"
#include "qevolve/device_param_key.hpp"
#include "qevolve/error.hpp"
#include "qevolve/resolve.hpp"

namespace qevolve::test {
namespace {

constexpr const char* kText =
    "device:\n"
    "  preset: mpc_fluxonium_1d\n"
    "  preset_args: {qubits: 3, levels: 3}\n"
    "  qubits:\n"
    "    - {name: q1, el: 1.05}\n"
    "    - {name: t, type: transmon, ec: 0.2, ej: 15, levels: 3}\n"
    "  couplings:\n"
    "    - {qubits: [q0, q1], capacitive: 0.02}\n"
    "    - {qubits: [q2, t], capacitive: 0.01}\n";

std::vector<device::DeviceParam> params(const std::vector<std::string>& keys) {
  const Config c = io::parse_config(kText, "t.yaml");
  return io::device_params_of_keys(c, io::resolve_device(c), keys, "gradient");
}

std::string error(const std::string& key) {
  try {
    (void)params({key});
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(GradientKeys, SpellingsOfSetResolveToTheParameter) {
  const auto p = params({"device.qubits[q0].ej", "device.qubits[0].el", "device.qubits[t].ng",
                         "device.couplings[1].capacitive", "device.qubits[q2].flux"});
  ASSERT_EQ(p.size(), 5u);
  EXPECT_EQ(p[0].name, "device.qubits[q0].ej");  // a preset mode, by name
  EXPECT_EQ(p[0].kind, device::DeviceParam::Kind::mode);
  EXPECT_EQ(p[0].index, 0);
  EXPECT_EQ(p[1].name, "device.qubits[q1].el");  // entry 0 of device.qubits is q1
  EXPECT_EQ(p[1].index, 1);
  EXPECT_EQ(p[2].name, "device.qubits[t].ng");
  EXPECT_EQ(p[2].index, 3);
  EXPECT_EQ(p[3].name, "device.couplings[1].capacitive");
  EXPECT_EQ(p[3].kind, device::DeviceParam::Kind::coupling);
  EXPECT_EQ(p[4].key, "flux");
}

TEST(GradientKeys, BadKeysSayWhatIsWrong) {
  EXPECT_EQ(error("device.qubits[q0].ejj"),
            "gradient: device.qubits[q0].ejj: unknown key `ejj`, did you mean `ej`? (expected one of: ec, ej, el, "
            "flux)");
  EXPECT_EQ(error("device.qubits[q0].ng"),
            "gradient: device.qubits[q0].ng: `ng` is not a parameter of fluxonium mode `q0` (expected one of: ec, ej, "
            "el, flux)");
  EXPECT_EQ(error("device.qubits[q0].levels"),
            "gradient: device.qubits[q0].levels: `levels` is not a parameter of fluxonium mode `q0` (expected one of: "
            "ec, ej, el, flux)");
  EXPECT_EQ(error("device.qubits[Q1].ej"),
            "gradient: device.qubits[Q1].ej: unknown mode `Q1`, did you mean `q1`? (expected a mode name of the "
            "device: q0, q1, q2, t)");
  EXPECT_EQ(error("device.qubits[5].ej"),
            "gradient: device.qubits[5].ej: there are 2 qubits (expected an index below 2)");
  EXPECT_EQ(error("device.couplings[0].capacitiv"),
            "gradient: device.couplings[0].capacitiv: unknown key `capacitiv`, did you mean `capacitive`? (expected "
            "one of: capacitive, inductive, dipole, cross_kerr)");
  EXPECT_EQ(error("device.couplings[q0].capacitive"),
            "gradient: device.couplings[q0].capacitive: `device.couplings[q0].capacitive` is not a device parameter "
            "(expected device.qubits[MODE].PARAMETER or device.couplings[INDEX].PARAMETER, e.g. device.qubits[q0].ej)");
  EXPECT_EQ(error("pulses[0].amplitude").rfind("gradient: pulses[0].amplitude: `pulses[0].amplitude` is not a device "
                                                "parameter", 0), 0u);
  EXPECT_NE(error("device.qubits[q0]").find("is not a device parameter"), std::string::npos);
  // A coupling kind the modes' operators cannot carry: the config's own message, at the coupling.
  const std::string dipole = error("device.couplings[0].dipole");
  EXPECT_NE(dipole.find("t.yaml:8:"), std::string::npos) << dipole;
  EXPECT_NE(dipole.find("a dipole coupling needs oscillators, but `q0` is a fluxonium"), std::string::npos) << dipole;
  EXPECT_NE(error("device.couplings[1].inductive").find("transmon `t` has no flux-like operator"), std::string::npos);
  try {
    (void)params({"device.qubits[q1].el", "device.qubits[0].el"});
    ADD_FAILURE() << "a parameter asked for twice";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "gradient: device.qubits[0].el: `device.qubits[q1].el` is asked for twice (expected each parameter "
              "once)");
  }
}

}  // namespace
}  // namespace qevolve::test
