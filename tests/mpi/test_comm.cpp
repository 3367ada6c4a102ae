// The shard arithmetic, the serial communicator and the Open MPI start-up settings (the MPI
// communicator itself is exercised by test_mpi_identity through real mpirun runs).
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <map>
#include <stdexcept>
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

TEST(PmixServerEndpoint, ReadsTheNewestUriVariable) {
  const auto env_of = [](std::map<std::string, std::string> vars) {
    return [vars = std::move(vars)](const char* name) -> const char* {
      const auto it = vars.find(name);
      return it == vars.end() ? nullptr : it->second.c_str();
    };
  };
  const auto v4 = comm::pmix_server_endpoint(env_of({{"PMIX_SERVER_URI41", "1055522816.0;tcp4://127.0.0.1:39883"},
                                                     {"PMIX_SERVER_URI2", "1.0;tcp4://127.0.0.1:1"}}));
  ASSERT_TRUE(v4.has_value());
  EXPECT_EQ(v4->address, "127.0.0.1");
  EXPECT_EQ(v4->port, 39883);
  EXPECT_FALSE(v4->ipv6);
  const auto v6 = comm::pmix_server_endpoint(env_of({{"PMIX_SERVER_URI3", "7.0;tcp6://[::1]:4242"}}));
  ASSERT_TRUE(v6.has_value());
  EXPECT_EQ(v6->address, "::1");
  EXPECT_EQ(v6->port, 4242);
  EXPECT_TRUE(v6->ipv6);
  EXPECT_FALSE(comm::pmix_server_endpoint(env_of({})).has_value());  // not under a PMIx launcher
  for (const char* bad : {"1.0;usock://tmp/x", "1.0;tcp4://127.0.0.1", "1.0;tcp4://127.0.0.1:0",
                          "1.0;tcp4://127.0.0.1:70000", "1.0;tcp4://127.0.0.1:12x", "1.0;tcp6://::1:5"})
    EXPECT_FALSE(comm::pmix_server_endpoint(env_of({{"PMIX_SERVER_URI4", bad}})).has_value()) << bad;
}

/// A loopback listener on a free port; closed with the object.
struct Listener {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  int port = 0;
  Listener() {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (bind(fd, reinterpret_cast<sockaddr*>(&a), len) != 0 || listen(fd, 4) != 0 ||
        getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0)
      throw std::runtime_error("loopback listener");
    port = ntohs(a.sin_port);
  }
  [[nodiscard]] int connect_client() const {
    const int c = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    if (connect(c, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) throw std::runtime_error("loopback connect");
    return c;
  }
  Listener(const Listener&) = delete;
  Listener& operator=(const Listener&) = delete;
  ~Listener() { close(fd); }
};

int nodelay(int fd) {
  int value = -1;
  socklen_t len = sizeof value;
  getsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &value, &len);
  return value;
}

TEST(DisableNagleTowards, ChangesOnlyTheSocketsConnectedToThatServer) {
  const Listener server, other;
  const int to_server = server.connect_client(), to_other = other.connect_client();
  ASSERT_EQ(nodelay(to_server), 0);
  EXPECT_EQ(comm::disable_nagle_towards({"127.0.0.1", server.port, false}), 1);
  EXPECT_NE(nodelay(to_server), 0);
  EXPECT_EQ(nodelay(to_other), 0);  // another connection is left as it was
  EXPECT_EQ(comm::disable_nagle_towards({"::1", server.port, true}), 0);  // IPv6 never matches an IPv4 peer
  close(to_server);
  close(to_other);
}

}  // namespace
}  // namespace qevolve::testing
