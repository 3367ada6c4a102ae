// Which communicator carries what in a gradient run (issue 35, item 8; docs/distributed.md
// "NCCL"): `run` and `optimize` give GradientProblem the world (MPI) communicator and, on GPUs,
// an NCCL one for the reductions. The gather of the output columns must stay on the host
// communicator (NCCL's gather is a padded all-gather: every rank would receive every column);
// the reductions of the fidelity and the gradient go to the reduce communicator. Two counting
// one-rank communicators stand in for MPI and NCCL.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "qevolve/plan.hpp"
#include "qevolve/comm.hpp"
#include "qevolve/config_loader.hpp"
#include "qevolve/gradient.hpp"
#include "qevolve/simulator.hpp"

namespace qevolve::testing {
namespace {

/// One rank; every collective is the identity, counted by kind and by doubles carried.
class CountingCommunicator final : public comm::Communicator {
 public:
  explicit CountingCommunicator(std::string kind) : kind_(std::move(kind)) {}
  [[nodiscard]] int rank() const override { return 0; }
  [[nodiscard]] int size() const override { return 1; }
  [[nodiscard]] std::string kind() const override { return kind_; }
  void allreduce_sum(std::span<double> v) override { ++reductions; count_bytes(v.size()); }
  void allreduce_max(std::span<double> v) override { ++reductions; count_bytes(v.size()); }
  void broadcast(std::span<double> v, int) override { ++broadcasts; count_bytes(v.size()); }
  std::vector<double> gather(std::span<const double> local, int) override {
    ++gathers;
    gathered_doubles += local.size();
    count_bytes(local.size());
    return {local.begin(), local.end()};
  }
  std::vector<double> allgather(std::span<const double> local) override {
    ++allgathers;
    count_bytes(local.size());
    return {local.begin(), local.end()};
  }
  void barrier() override {}
  void abort(int) override {}
  using Communicator::allreduce_max;
  using Communicator::allreduce_sum;
  using Communicator::broadcast;

  int reductions = 0, broadcasts = 0, gathers = 0, allgathers = 0;
  std::size_t gathered_doubles = 0;

 private:
  std::string kind_;
};

// A fluxonium X gate with a trainable amplitude and frequency; vz compensation, so the
// fidelity's reductions include the compensation solve.
constexpr const char* kConfig = R"(
device:
  qubits:
    - {name: q0, type: fluxonium, ec: 1.0, ej: 4.0, el: 1.0, flux: 0.5, levels: 4}
pulses:
  - {qubit: q0, shape: cos, amplitude: 0.082, frequency: 0.585, phase: 0.6, duration: 40.0,
     optimize: [amplitude, frequency]}
evolution: {solver: trotter, order: 2, steps: 200}
target:
  gates: [{gate: X, qubits: [q0]}]
  compensation: vz
)";

TEST(GradientProblemComms, TheGatherGoesToTheHostAndTheReductionsToTheReduceCommunicator) {
  const Config config = io::parse_config(kConfig, "case.yaml");
  CountingCommunicator host("mpi"), reduce("nccl");
  gradient::GradientProblem problem(io::gradient_plan(config), 1, host, reduce);
  const gradient::Evaluation ev = problem.evaluate(true);
  ASSERT_EQ(ev.gradient.size(), 2);
  const solver::Simulator& sim = problem.simulator();
  // The output: the D x n evolved columns, once, on the host communicator.
  EXPECT_EQ(host.gathers, 1);
  const auto columns = static_cast<std::size_t>(sim.device().dim() * sim.states().initial_indices().size());
  EXPECT_EQ(host.gathered_doubles, 2 * columns);  // complex: two doubles each
  EXPECT_EQ(host.allgathers, 0);
  EXPECT_EQ(host.reductions, 0);
  // The fidelity's partial sums, the compensation solve and the gradient: reductions only.
  EXPECT_EQ(reduce.gathers, 0);
  EXPECT_EQ(reduce.allgathers, 0);
  EXPECT_GE(reduce.reductions, 2);

  // The step-error estimate (coarser runs): their gathers and broadcast on the host as well.
  const int reductions = reduce.reductions;
  const gradient::StepError e = problem.estimate_step_error(ev);
  EXPECT_EQ(host.gathers, e.first_coarse_steps > 0 ? 3 : 2);  // one or two coarser runs
  EXPECT_GE(host.broadcasts, 1);
  EXPECT_EQ(reduce.gathers + reduce.allgathers, 0);
  EXPECT_EQ(reduce.reductions, reductions);  // no objective on the coarse run: rank 0 evaluates it
}

TEST(GradientProblemComms, TwoCommunicatorsGiveTheSameBitsAsOne) {
  const Config config = io::parse_config(kConfig, "case.yaml");
  CountingCommunicator host("mpi"), reduce("nccl");
  comm::SerialCommunicator serial;
  gradient::GradientProblem split(io::gradient_plan(config), 1, host, reduce);
  gradient::GradientProblem one(io::gradient_plan(config), 1, serial);
  const gradient::Evaluation a = split.evaluate(true);
  const gradient::Evaluation b = one.evaluate(true);
  EXPECT_EQ(a.infidelity, b.infidelity);
  EXPECT_EQ(a.gradient, b.gradient);
  EXPECT_EQ(a.columns, b.columns);
}

}  // namespace
}  // namespace qevolve::testing
