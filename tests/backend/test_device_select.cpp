// evolution.device: which backend runs, what the run summary says, and the exact input errors
// (docs/backend.md "Selection"). The expectations depend on the build (with or without the
// CUDA backend) and on the machine (a CUDA device or none); each test checks the case it is in.
#include <gtest/gtest.h>

#include <string>

#include "cli/cli_util.hpp"
#include "device_config.hpp"
#include "qevolve/plan.hpp"
#include "qevolve/resolve.hpp"
#include "qevolve/backend/backend.hpp"
#include "qevolve/backend/capabilities.hpp"
#include "qevolve/scheme_traits.hpp"
#include "qevolve/backend/cuda.hpp"
#include "qevolve/backend/cuda_plugin.hpp"
#include "qevolve/device.hpp"
#include "qevolve/error.hpp"
#include "qevolve/simulator.hpp"
#include "solver/solver_fixtures.hpp"

namespace qevolve::testing {
namespace {

enum class Machine { no_cuda_build, no_device, device };

/// Whether an NVIDIA driver is there (what `device: auto` asks first).
bool driver_present() {
  if constexpr (!backend::kCudaBuilt)
    return false;
  else
    return backend::cuda::driver_present();
}

/// What this build and machine offer, and cudaGetDeviceCount's words when no device is found.
Machine machine(std::string* said = nullptr) {
  if constexpr (!backend::kCudaBuilt) {
    return Machine::no_cuda_build;
  } else {
    const backend::cuda::DeviceQuery q = backend::cuda::query_devices();
    if (said != nullptr) *said = q.said;
    return q.count > 0 ? Machine::device : Machine::no_device;
  }
}

solver::Options options_for(const Config& c) {
  return solver::Simulator(io::evolution_plan(c), 1).options();
}

/// The InputError the resolution stage raises for `c` ("" when none).
std::string input_error(const Config& c) {
  try {
    (void)io::resolve(c, io::Purpose::evolve);
  } catch (const InputError& e) {
    EXPECT_EQ(e.key_path(), "evolution.device");
    return e.problem();
  }
  return {};
}

Config fluxonium(Solver solver, ComputeDevice device) {
  Config c = single_fluxonium_x(solver, 20);
  c.evolution.device = device;
  return c;
}

const std::string kSupported = solver::what_runs_on(ComputeDevice::cuda);

// The words are made from the schemes' table and the backends' executor kinds
// (backend/capabilities.hpp); this pins them.
TEST(DeviceSelect, WhatCudaRunsIsMadeFromTheTables) {
  EXPECT_EQ(kSupported,
            " (it runs trotter, magnus4 and expm, gradients of closed systems with trotter or magnus4 on local gates, "
            "and the forward pass of open systems with trotter on local gates)");
  EXPECT_EQ(solver::what_runs_on(ComputeDevice::cpu),
            " (it runs trotter, magnus4, expm and adaptive, gradients of closed systems with trotter, magnus4 or expm, "
            "the forward pass of open systems with trotter, expm or adaptive, and gradients of open systems with "
            "trotter)");
  EXPECT_TRUE(backend::runs(ComputeDevice::cuda, backend::kind_bit(backend::ExecutorKind::gate)));
  EXPECT_FALSE(backend::runs(ComputeDevice::cuda, backend::kind_bit(backend::ExecutorKind::open_adjoint)));
  // The dense adjoint has a CPU executor only: nothing claims it for CUDA.
  EXPECT_FALSE(backend::runs(ComputeDevice::cuda, backend::kind_bit(backend::ExecutorKind::dense_adjoint)));
  EXPECT_TRUE(backend::runs(ComputeDevice::cpu, backend::kind_bit(backend::ExecutorKind::dense_adjoint)));
  EXPECT_TRUE(backend::runs(ComputeDevice::cpu, backend::kEveryExecutor));
}

TEST(DeviceSelect, CpuIsTheCpuWithoutANote) {
  const solver::Options o = options_for(fluxonium(Solver::trotter, ComputeDevice::cpu));
  EXPECT_EQ(o.device, ComputeDevice::cpu);
  EXPECT_EQ(o.device_note, "");
}

TEST(DeviceSelect, CudaIsTheCudaBackendOrAnExactError) {
  std::string said;
  const Config c = fluxonium(Solver::trotter, ComputeDevice::cuda);
  switch (machine(&said)) {
    case Machine::no_cuda_build:
      EXPECT_EQ(input_error(c), "this qevolve was built without a CUDA backend");
      break;
    case Machine::no_device:
      EXPECT_FALSE(said.empty());
      EXPECT_EQ(input_error(c), "no CUDA device found (cudaGetDeviceCount said: " + said + ")");
      break;
    case Machine::device: {
      const solver::Options o = options_for(c);
      EXPECT_EQ(o.device, ComputeDevice::cuda);
      EXPECT_EQ(o.device_note.rfind("CUDA device 0", 0), 0u) << o.device_note;
      break;
    }
  }
}

TEST(DeviceSelect, AutoSaysWhereAndWhy) {
  for (Solver s : {Solver::trotter, Solver::magnus4, Solver::expm}) {
    const solver::Options o = options_for(fluxonium(s, ComputeDevice::auto_));
    switch (machine()) {
      case Machine::no_cuda_build:
        EXPECT_EQ(o.device, ComputeDevice::cpu);
        EXPECT_EQ(o.device_note, "auto: built without CUDA");
        break;
      case Machine::no_device:
        EXPECT_EQ(o.device, ComputeDevice::cpu);
        EXPECT_EQ(o.device_note, "auto: no CUDA device found");
        break;
      case Machine::device:
        EXPECT_EQ(o.device, ComputeDevice::cuda);
        EXPECT_EQ(o.device_note.rfind("auto: CUDA device 0", 0), 0u) << o.device_note;
        break;
    }
  }
}

TEST(DeviceSelect, WhatOnlyTheCpuHas) {
  Config adaptive = fluxonium(Solver::adaptive, ComputeDevice::cuda);
  // Gradients of closed systems on local gates run on CUDA (the adjoint executor); the dense
  // adjoint and the open-system adjoint do not.
  Config dense_gradient = fluxonium(Solver::expm, ComputeDevice::cuda);
  dense_gradient.pulses[0].optimize = {"amplitude"};
  Config open = fluxonium(Solver::expm, ComputeDevice::cuda);  // an open expm: dense Liouvillian
  open.device.qubits[0].levels = 4;  // a dissipator acts on d^2 levels (at most 64)
  open.evolution.noise.push_back({"q0", 5000.0, 8000.0, {}});
  Config open_gradient = fluxonium(Solver::trotter, ComputeDevice::cuda);
  open_gradient.device.qubits[0].levels = 4;
  open_gradient.evolution.noise.push_back({"q0", 5000.0, 8000.0, {}});
  open_gradient.pulses[0].optimize = {"phase"};
  const std::pair<Config*, std::string> cases[] = {
      {&adaptive, "solver: adaptive"},
      {&dense_gradient, "gradients with solver expm or splitting: dense (trainable parameters in `pulses[0].optimize`)"},
      {&open, "open systems with solver expm, adaptive or splitting: dense (evolution.noise / evolution.collapse)"},
      {&open_gradient, "gradients of open systems (trainable parameters in `pulses[0].optimize`)"}};
  Config closed_gradient = fluxonium(Solver::trotter, ComputeDevice::cuda);
  closed_gradient.pulses[0].optimize = {"amplitude"};
  EXPECT_EQ(solver::cpu_only_part(closed_gradient.evolution, closed_gradient.first_trainable()), "") << "closed gradients on local gates run on CUDA";
  for (const auto& [config, part] : cases) {
    if (machine() == Machine::no_cuda_build)
      EXPECT_EQ(input_error(*config), "this qevolve was built without a CUDA backend");
    else
      EXPECT_EQ(input_error(*config), "the CUDA backend does not support " + part + kSupported);
    config->evolution.device = ComputeDevice::auto_;
    const solver::Options o = options_for(*config);
    EXPECT_EQ(o.device, ComputeDevice::cpu);
    // `auto` says first that no driver is there (the reason whatever the run), then the part.
    EXPECT_EQ(o.device_note, machine() == Machine::no_cuda_build ? "auto: built without CUDA"
                             : !driver_present()                 ? "auto: no CUDA device found"
                                                                  : "auto: the CUDA backend does not support " + part);
  }
}

// The command line: the summary line and the located error message.
const std::string& kConfig = kDeviceConfig;

TEST(DeviceSelectCli, RunSummaryNamesTheDevice) {
  TempDir dir;
  const auto cfg = dir.write("auto.yaml", kConfig + "auto\n");
  const auto r = run_qevolve("run '" + cfg.string() + "' --threads 1", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  switch (machine()) {
    case Machine::no_cuda_build:
      EXPECT_NE(r.out.find("\ndevice: cpu (auto: built without CUDA)\n"), std::string::npos) << r.out;
      break;
    case Machine::no_device:
      EXPECT_NE(r.out.find("\ndevice: cpu (auto: no CUDA device found)\n"), std::string::npos) << r.out;
      break;
    case Machine::device:
      EXPECT_NE(r.out.find("\ndevice: cuda (auto: CUDA device 0"), std::string::npos) << r.out;
      break;
  }
  const auto cpu = run_qevolve("run '" + dir.write("cpu.yaml", kConfig + "cpu\n").string() + "' --threads 1", dir);
  ASSERT_EQ(cpu.exit_code, 0) << cpu.err;
  EXPECT_NE(cpu.out.find("\ndevice: cpu\n"), std::string::npos) << cpu.out;
}

TEST(DeviceSelectCli, CudaWithoutItIsAnInputError) {
  std::string said;
  const Machine m = machine(&said);
  if (m == Machine::device) GTEST_SKIP() << "a CUDA device is present: `device: cuda` runs";
  TempDir dir;
  const auto cfg = dir.write("cuda.yaml", kConfig + "cuda\n");
  const auto r = run_qevolve("run '" + cfg.string() + "'", dir);
  EXPECT_EQ(r.exit_code, 2);
  const std::string problem = m == Machine::no_cuda_build
                                  ? "this qevolve was built without a CUDA backend"
                                  : "no CUDA device found (cudaGetDeviceCount said: " + said + ")";
  EXPECT_EQ(r.err, "qevolve: error: " + cfg.string() + ":8:3: evolution.device: " + problem +
                       " (expected device: cpu | auto)\n");
}

}  // namespace
}  // namespace qevolve::testing
