// The local-gate kernels on the CPU backend (always available).
#include "local_gate_test_body.hpp"

namespace qevolve::backend::testing {
namespace {

struct CpuBackend {
  static constexpr const char* name = "cpu";
  static std::string unavailable() { return {}; }
  static constexpr bool has_accumulate = true;
  template <class Real>
  static void apply(Real* re, Real* im, const GateGeometry& geo, const Real* gate, std::size_t) {
    apply_gate(re, im, geo, gate);
  }
  template <class Real>
  static void accumulate(const Real* xre, const Real* xim, Real* yre, Real* yim,
                         const GateGeometry& geo, const Real* gate, Real ar, Real ai, std::size_t) {
    accumulate_gate(xre, xim, yre, yim, geo, gate, ar, ai);
  }
};

using CpuTypes = ::testing::Types<Combo<CpuBackend, double>, Combo<CpuBackend, float>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Cpu, LocalGateTest, CpuTypes);

}  // namespace
}  // namespace qevolve::backend::testing
