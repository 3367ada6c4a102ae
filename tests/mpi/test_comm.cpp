// The shard arithmetic, the serial communicator and the Open MPI start-up settings (the MPI
// communicator itself is exercised by test_mpi_identity through real mpirun runs).
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "qevolve/comm.hpp"
#include "qevolve/error.hpp"

namespace qevolve::testing {
namespace {

TEST(BalancedShard, CoversEveryItemOnceAndDiffersByAtMostOne) {
  for (Index n : {0, 1, 4, 7, 8, 64, 4097})
    for (int size : {1, 2, 3, 4, 8}) {
      Index next = 0, lo = n, hi = 0;
      for (int r = 0; r < size; ++r) {
        const comm::Shard s = comm::balanced_shard(n, r, size);
        EXPECT_EQ(s.first, next) << n << " " << size << " " << r;
        next += s.count;
        lo = std::min(lo, s.count);
        hi = std::max(hi, s.count);
      }
      EXPECT_EQ(next, n);
      EXPECT_LE(hi - lo, 1);
    }
  // The first n % size ranks take the extra item: 7 over 3 is 3, 2, 2.
  EXPECT_EQ(comm::balanced_shard(7, 0, 3).count, 3);
  EXPECT_EQ(comm::balanced_shard(7, 2, 3).first, 5);
  EXPECT_THROW((void)comm::balanced_shard(4, 3, 3), Error);
}

TEST(SerialCommunicator, CollectivesAreIdentitiesAndCountNothing) {
  comm::SerialCommunicator c;
  EXPECT_EQ(c.size(), 1);
  EXPECT_TRUE(c.is_root());
  EXPECT_EQ(c.allreduce_sum(2.5), 2.5);
  EXPECT_EQ(c.allreduce_max(-1.0), -1.0);
  CMatrix m = CMatrix::Random(3, 2);
  const CMatrix m0 = m;
  c.allreduce_sum(m);
  EXPECT_EQ(m, m0);
  EXPECT_EQ(c.gather_columns(m, 3, 0), m0);
  EXPECT_EQ(c.allgather_columns(m, 3), m0);
  RVector v(2);
  v << 1.0, 2.0;
  c.broadcast(v, 0);
  EXPECT_EQ(v(1), 2.0);
  EXPECT_EQ(c.bytes_sent(), 0u);
  const comm::Shard all = c.shard(5);
  EXPECT_EQ(all.first, 0);
  EXPECT_EQ(all.count, 5);
}

// The Open MPI settings added before MPI_Init (docs/distributed.md "Start-up on one machine"),
// with the environment and the parameter files given as maps.
struct Launch {
  std::map<std::string, std::string> env;
  std::map<std::string, std::string> files;
  [[nodiscard]] std::vector<std::pair<std::string, std::string>> defaults() const {
    return comm::single_node_mca_defaults(
        [this](const char* name) -> const char* {
          const auto it = env.find(name);
          return it == env.end() ? nullptr : it->second.c_str();
        },
        [this](const std::string& path) {
          const auto it = files.find(path);
          return it == files.end() ? std::string() : it->second;
        });
  }
};
using Settings = std::vector<std::pair<std::string, std::string>>;
const std::string kUserFile = "/home/u/.openmpi/mca-params.conf";
const std::string kSystemFile = "/etc/openmpi/openmpi-mca-params.conf";
const std::string kDebianSystem = "btl_base_warn_component_unused=0\nmtl = ^ofi\nbtl = ^uct,openib,ofi\npml = ^ucx\n";

Launch one_node(int ranks) {
  return {{{"OMPI_COMM_WORLD_SIZE", std::to_string(ranks)},
           {"OMPI_COMM_WORLD_LOCAL_SIZE", std::to_string(ranks)},
           {"HOME", "/home/u"}},
          {}};
}

TEST(SingleNodeMcaDefaults, LeaveCmOutOnlyWhenEveryRankIsLocalAndNothingWasChosen) {
  EXPECT_EQ(Launch{}.defaults(), Settings{});  // not started by Open MPI's mpirun
  EXPECT_EQ(one_node(2).defaults(), (Settings{{"OMPI_MCA_pml", "^cm"}}));
  EXPECT_EQ(one_node(1).defaults(), (Settings{{"OMPI_MCA_pml", "^cm"}}));
  Launch two_nodes = one_node(4);
  two_nodes.env["OMPI_COMM_WORLD_LOCAL_SIZE"] = "2";
  EXPECT_EQ(two_nodes.defaults(), Settings{});  // a cluster run keeps Open MPI's choice
  // mpirun --mca pml|mtl, -x, the environment; mpirun -am FILE and --tune FILE
  for (const char* chosen : {"OMPI_MCA_pml", "OMPI_MCA_mtl", "OMPI_MCA_mca_base_param_file_prefix",
                             "OMPI_MCA_mca_base_envar_file_prefix"}) {
    Launch l = one_node(2);
    l.env[chosen] = "^psm";
    EXPECT_EQ(l.defaults(), Settings{}) << chosen;
  }
}

TEST(SingleNodeMcaDefaults, TheUsersFileIsAChoiceTheSystemFileADefault) {
  Launch debian = one_node(2);
  debian.files[kSystemFile] = kDebianSystem;  // Debian's exclusions stay, cm joins them
  EXPECT_EQ(debian.defaults(), (Settings{{"OMPI_MCA_pml", "^ucx,cm"}}));
  // Any pml or mtl line in the user's own file is a choice, exclusions included; other keys
  // are not, and the system file's pml then applies.
  const std::map<std::string, Settings> user_files = {
      {"pml = ob1\n", {}},
      {"pml = ^ucx\n", {}},
      {"mtl = psm2\n", {}},
      {"mtl = ^psm\n", {}},
      {"# pml = cm\nbtl = self,vader\n", {{"OMPI_MCA_pml", "^ucx,cm"}}},
  };
  for (const auto& [text, expected] : user_files) {
    Launch l = debian;
    l.files[kUserFile] = text;
    EXPECT_EQ(l.defaults(), expected) << text;
  }
  // The system file: its exclusions are defaults (cm added; an mtl exclusion is no request for
  // cm), a list of components to use is the administrator's choice.
  const std::map<std::string, Settings> system_files = {
      {"pml = ^ucx # note\nmtl = ^ofi\n", {{"OMPI_MCA_pml", "^ucx,cm"}}},
      {"mtl = ^ofi\n", {{"OMPI_MCA_pml", "^cm"}}},
      {"pml = ob1\n", {}},
      {"pml=^ucx, cm\n", {}},
      {"mtl = psm2\n", {}},
  };
  for (const auto& [text, expected] : system_files) {
    Launch l = one_node(2);
    l.files[kSystemFile] = text;
    EXPECT_EQ(l.defaults(), expected) << text;
  }
  // OMPI_MCA_mca_base_param_files replaces the default list; a system path in it stays system.
  Launch listed = one_node(2);
  listed.env["OMPI_MCA_mca_base_param_files"] = "/a.conf:" + kSystemFile;
  listed.files[kSystemFile] = kDebianSystem;
  listed.files[kUserFile] = "pml = ob1\n";  // not read: the list replaces the default files
  EXPECT_EQ(listed.defaults(), (Settings{{"OMPI_MCA_pml", "^ucx,cm"}}));
  listed.files["/a.conf"] = "mtl = ^psm\n";
  EXPECT_EQ(listed.defaults(), Settings{});
  const auto files = comm::mca_param_files(
      [](const char* n) -> const char* { return std::string(n) == "HOME" ? "/home/u" : nullptr; });
  ASSERT_EQ(files.size(), 2U);
  EXPECT_EQ(files[0].path, kUserFile);
  EXPECT_FALSE(files[0].system);
  EXPECT_EQ(files[1].path, kSystemFile);
  EXPECT_TRUE(files[1].system);
}

TEST(NcclCommunicator, AbsentBuildSaysWhy) {
  if (comm::nccl_available()) GTEST_SKIP() << "built with NCCL: see test_nccl";
  comm::SerialCommunicator boot;
  try {
    (void)comm::make_nccl_communicator(boot);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "this qevolve was built without NCCL (it needs the CUDA backend and MPI)");
  }
  // A serial run never asks for NCCL, even when it computes on a GPU.
  EXPECT_EQ(comm::gpu_reductions(boot, true), nullptr);
}

}  // namespace
}  // namespace qevolve::testing
