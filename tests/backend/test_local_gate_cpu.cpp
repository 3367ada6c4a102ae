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

/// The host/device functors themselves (ApplyGate<Real, G>, ApplyGateDynamic), evaluated at
/// every (l, m, n) on the host: the arithmetic the CUDA kernels run, which the CPU driver
/// (explicit vectors for the compiled sizes) no longer goes through.
struct FunctorBackend {
  static constexpr const char* name = "functor";
  static std::string unavailable() { return {}; }
  static constexpr bool has_accumulate = false;
  template <class Real>
  static void apply(Real* re, Real* im, const GateGeometry& geo, const Real* gate, std::size_t) {
    auto run = [&](const auto& f) {
      for (std::ptrdiff_t l = 0; l < geo.outer; ++l)
        for (std::ptrdiff_t m = 0; m < geo.middle; ++m)
          for (std::ptrdiff_t n = 0; n < geo.inner; ++n) f(l, m, n);
    };
    dispatch_gate_size(
        geo.size(), [&](auto g) { run(ApplyGate<Real, decltype(g)::value>{re, im, gate, geo}); },
        [&] { run(ApplyGateDynamic<Real>{re, im, gate, geo}); });
  }
  template <class Real>
  static void accumulate(const Real*, const Real*, Real*, Real*, const GateGeometry&, const Real*, Real, Real,
                         std::size_t) {}
};

using CpuTypes = ::testing::Types<Combo<CpuBackend, double>, Combo<CpuBackend, float>,
                                  Combo<FunctorBackend, double>, Combo<FunctorBackend, float>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Cpu, LocalGateTest, CpuTypes);

}  // namespace
}  // namespace qevolve::backend::testing
