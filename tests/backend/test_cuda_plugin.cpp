// The CUDA plugin (backend/cuda_plugin.hpp, docs/backend.md "The CUDA plugin"): it loads from
// the build tree, exceptions thrown inside it reach the caller with their type, a missing or
// unloadable plugin is a clear "no device" (never a crash), and `device: auto` without an NVIDIA
// driver maps no CUDA library. Built with the CUDA backend only; runs without a GPU.
#include <gtest/gtest.h>

#include <fstream>
#include <stdexcept>
#include <string>

#include "cli/cli_util.hpp"
#include "device_config.hpp"
#include "qevolve/plan.hpp"
#include "qevolve/backend/cuda.hpp"
#include "qevolve/backend/cuda_plugin.hpp"
#include "qevolve/comm.hpp"
#include "qevolve/device.hpp"
#include "qevolve/error.hpp"
#include "qevolve/resolve.hpp"
#include "qevolve/simulator.hpp"
#include "solver/solver_fixtures.hpp"

namespace qevolve::testing {
namespace {

namespace cuda = backend::cuda;

/// The CUDA libraries mapped into this process (/proc/self/maps), one per line.
std::string cuda_mappings() {
  std::ifstream maps("/proc/self/maps");
  std::string line, found;
  while (std::getline(maps, line))
    for (const char* lib : {"libcudart", "libcublas", "libcusolver", "libcusparse", "libnccl", "libqevolve_cuda"})
      if (line.find(lib) != std::string::npos && found.find(lib) == std::string::npos) found += std::string(lib) + "\n";
  return found;
}

const cuda::CudaPlugin& loaded_plugin() {
  std::string why;
  const cuda::CudaPlugin* p = cuda::plugin(&why);
  if (p == nullptr) throw std::runtime_error("the CUDA plugin did not load: " + why);
  return *p;
}

TEST(CudaPlugin, AutoWithoutADriverLoadsNothing) {
  if (cuda::driver_present()) GTEST_SKIP() << "an NVIDIA driver is present: `device: auto` loads the plugin";
  if (!cuda_mappings().empty()) GTEST_SKIP() << "this process has loaded the plugin already (another test ran first)";
  Config c = single_fluxonium_x(Solver::trotter, 20);
  c.evolution.device = ComputeDevice::auto_;
  const solver::Options o = solver::Simulator(io::evolution_plan(c), 1).options();
  EXPECT_EQ(o.device, ComputeDevice::cpu);
  EXPECT_EQ(o.device_note, "auto: no CUDA device found");
  EXPECT_EQ(cuda_mappings(), "");
}

TEST(CudaPlugin, LoadsFromTheBuildTreeWithTheRightInterface) {
  std::string why;
  const cuda::CudaPlugin* p = cuda::plugin(&why);
  ASSERT_NE(p, nullptr) << why;
  EXPECT_EQ(p->abi, cuda::kCudaPluginAbi);
  EXPECT_EQ(p->table_size, sizeof(cuda::CudaPlugin));
  EXPECT_NE(cuda_mappings().find("libqevolve_cuda"), std::string::npos);
  EXPECT_NE(cuda_mappings().find("libcudart"), std::string::npos);
}

TEST(CudaPlugin, ExceptionsKeepTheirType) {
  const cuda::CudaPlugin& p = loaded_plugin();
  try {
    p.raise(0, "plain");
    FAIL() << "nothing thrown";
  } catch (const NumericalError&) {
    FAIL() << "Error caught as NumericalError";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "plain");
  }
  try {
    p.raise(1, "numerical");
    FAIL() << "nothing thrown";
  } catch (const NumericalError& e) {
    EXPECT_STREQ(e.what(), "numerical");
  }
  EXPECT_THROW(p.raise(2, "argument"), std::invalid_argument);
}

TEST(CudaPlugin, NoDeviceIsAnErrorFromInsideThePlugin) {
  const cuda::DeviceQuery q = cuda::query_devices();
  if (q.count > 0) GTEST_SKIP() << "a CUDA device is present";
  EXPECT_FALSE(q.said.empty());
  // cudaStreamCreate (or the first allocation) fails inside the plugin: qevolve::Error.
  try {
    (void)cuda::make_dense_executor(4, 2);
    FAIL() << "no exception without a device";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("CUDA: ", 0), 0u) << e.what();
  }
  EXPECT_THROW(cuda::use_device(0), Error);
}

TEST(CudaPlugin, NcclWithoutADeviceIsAnErrorFromInsideThePlugin) {
  if (!comm::nccl_available()) GTEST_SKIP() << "built without NCCL (it needs the CUDA backend and MPI)";
  if (cuda::query_devices().count > 0) GTEST_SKIP() << "a CUDA device is present: see test_nccl";
  comm::SerialCommunicator boot;
  try {
    (void)comm::make_nccl_communicator(boot);
    FAIL() << "no exception without a device";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("cudaGetDeviceCount failed: ", 0), 0u) << e.what();
  }
}

// A plugin that cannot be loaded: `device: cuda` is the usual input error, naming dlopen's
// reason; `device: auto` runs on the CPU.
const std::string& kConfig = kDeviceConfig;

TEST(CudaPluginCli, AMissingPluginIsNoDevice) {
  TempDir dir;
  const std::string env = std::string(cuda::kCudaPluginEnv) + "='" + (dir / "missing.so").string() + "' ";
  const auto cfg = dir.write("cuda.yaml", kConfig + "cuda\n");
  const auto r = run_command(env + "'" + QEVOLVE_EXE + "' run '" + cfg.string() + "'", dir);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("evolution.device: no CUDA device found (cudaGetDeviceCount said: the CUDA plugin could "
                       "not be loaded: " +
                       (dir / "missing.so").string() + ": cannot open shared object file"),
            std::string::npos)
      << r.err;
  const auto a = run_command(env + "'" + QEVOLVE_EXE + "' run '" + dir.write("auto.yaml", kConfig + "auto\n").string() +
                                 "' --threads 1",
                             dir);
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_NE(a.out.find("\ndevice: cpu (auto: no CUDA device found)\n"), std::string::npos) << a.out;
}

TEST(CudaPluginCli, APluginOfAnotherKindIsRefused) {
  // A shared library without the entry point (libm): loaded, then refused, not called.
  TempDir dir;
  const std::string env = std::string(cuda::kCudaPluginEnv) + "=libm.so.6 ";
  const auto r = run_command(env + "'" + QEVOLVE_EXE + "' run '" + dir.write("cuda.yaml", kConfig + "cuda\n").string() + "'", dir);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("the CUDA plugin could not be loaded: libm.so.6: no qevolve_cuda_plugin"), std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace qevolve::testing
