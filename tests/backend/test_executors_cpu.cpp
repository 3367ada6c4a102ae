// The executors and the phase functor on the CPU backend (always available).
#include "adjoint_executor_test_body.hpp"
#include "executor_test_body.hpp"
#include "chebyshev_adjoint_executor_test_body.hpp"
#include "chebyshev_executor_test_body.hpp"
#include "dense_adjoint_executor_test_body.hpp"
#include "open_adjoint_executor_test_body.hpp"
#include "propagator_executor_test_body.hpp"
#include "term_executor_test_body.hpp"
#include "qevolve/backend/phase.hpp"

namespace qevolve::backend::testing {
namespace {

struct CpuExecutors {
  static constexpr const char* name = "cpu";
  static std::string unavailable() { return {}; }
  template <class Real>
  static std::unique_ptr<GateExecutor<Real>> gate_executor(const GateSchedule& s, Index columns, Index width,
                                                           int threads, int) {
    return make_cpu_gate_executor<Real>(s, columns, width, threads);
  }
  static std::unique_ptr<DenseExecutor> dense_executor(Index, Index) { return make_cpu_dense_executor(); }
  static std::unique_ptr<PropagatorExecutor> propagator_executor() { return make_cpu_propagator_executor(); }
  static std::unique_ptr<ChebyshevAdjointExecutor> chebyshev_adjoint_executor() {
    return make_cpu_chebyshev_adjoint_executor();
  }
  static std::unique_ptr<DenseAdjointExecutor> dense_adjoint_executor() { return make_cpu_dense_adjoint_executor(); }
  static std::unique_ptr<AdjointExecutor> adjoint_executor(const GateSchedule& s, std::vector<bool> environment,
                                                           Index columns, Index width, int threads) {
    return make_cpu_adjoint_executor(s, std::move(environment), columns, width, threads);
  }
  static std::unique_ptr<OpenAdjointExecutor> open_adjoint_executor(const OpenAdjointSchedule& s, Index columns,
                                                                     Index width, int threads) {
    return make_cpu_open_adjoint_executor(s, columns, width, threads);
  }
  static std::unique_ptr<TermExecutor> term_executor(const TermSchedule& s, Index columns, Index width, int threads) {
    return make_cpu_term_executor(s, columns, width, threads);
  }
  static std::unique_ptr<ChebyshevExecutor> chebyshev_executor(Index dim, Index columns, Index width, int threads,
                                                               double run_flops) {
    return make_cpu_chebyshev_executor(dim, columns, width, threads, run_flops);
  }
  static void apply_phases(const double* v, double* w, const double* lambda, double scale, std::ptrdiff_t rows,
                           std::ptrdiff_t cols) {
    backend::apply_phases(v, w, lambda, scale, rows, cols);
  }
};

using CpuGateTypes = ::testing::Types<Combo<CpuExecutors, double>, Combo<CpuExecutors, float>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Cpu, GateExecutorTest, CpuGateTypes);
INSTANTIATE_TYPED_TEST_SUITE_P(Cpu, DenseExecutorTest, CpuExecutors);
INSTANTIATE_TYPED_TEST_SUITE_P(Cpu, PhaseTest, CpuExecutors);
INSTANTIATE_TYPED_TEST_SUITE_P(Cpu, AdjointExecutorTest, CpuExecutors);
INSTANTIATE_TYPED_TEST_SUITE_P(Cpu, OpenAdjointExecutorTest, CpuExecutors);
INSTANTIATE_TYPED_TEST_SUITE_P(Cpu, TermExecutorTest, CpuExecutors);
INSTANTIATE_TYPED_TEST_SUITE_P(Cpu, ChebyshevExecutorTest, CpuExecutors);
INSTANTIATE_TYPED_TEST_SUITE_P(Cpu, PropagatorExecutorTest, CpuExecutors);
INSTANTIATE_TYPED_TEST_SUITE_P(Cpu, ChebyshevAdjointExecutorTest, CpuExecutors);
INSTANTIATE_TYPED_TEST_SUITE_P(Cpu, DenseAdjointExecutorTest, CpuExecutors);

TEST(CpuGateExecutor, ResultsDoNotDependOnThreadsOrBlockWidth) {
  std::mt19937 rng(1);
  const std::vector<int> dims{3, 3, 2};
  GateSchedule s;
  s.dims = dims;
  for (const auto& [a, b] : std::vector<GateModes>{{0, 1}, {1, 2}, {0, -1}}) {
    s.gates.push_back({a, b, s.step_size, {}});
    const auto g = static_cast<std::size_t>(dims[static_cast<std::size_t>(a)] * (b >= 0 ? dims[static_cast<std::size_t>(b)] : 1));
    s.step_size += 2 * g * g;
  }
  s.steps = 4;
  std::vector<double> buffer(4 * s.step_size);
  std::normal_distribution<double> nd;
  for (double& x : buffer) x = 0.3 * nd(rng);
  const CMatrix start = random_matrix(rng, s.dim(), 13);
  auto run = [&](Index width, int threads) {
    CMatrix state = start;
    const auto e = make_cpu_gate_executor<double>(s, 13, width, threads);
    e->upload(state);
    e->apply(buffer.data(), 0, 3);
    e->apply(buffer.data() + 3 * s.step_size, 3, 4);
    e->download(state);
    return state;
  };
  const CMatrix one = run(4, 1);
  EXPECT_EQ(one, run(4, 2));  // the same blocks on another thread: bitwise
  EXPECT_LT((one - run(13, 2)).cwiseAbs().maxCoeff(), 1e-14);
  EXPECT_LT((one - run(1, 2)).cwiseAbs().maxCoeff(), 1e-14);
}

}  // namespace
}  // namespace qevolve::backend::testing
