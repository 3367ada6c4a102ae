// value(), envelope() and derivatives() are called per time step per pulse: they must not
// allocate. This binary replaces the global operator new to count allocations.
#include <gtest/gtest.h>

#include <cstdlib>
#include <new>
#include <vector>

#include "pulse_test_util.hpp"
#include "qevolve/pulse.hpp"

namespace {
long g_allocations = 0;  // gtest runs tests on one thread
}  // namespace

// The canonical malloc/free pair of a replaced operator new; GCC's -Wmismatched-new-delete
// cannot tell that this operator new is the replacement that returns malloc memory.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void* operator new(std::size_t n) {
  ++g_allocations;
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
#pragma GCC diagnostic pop

namespace qevolve::pulse {
namespace {

TEST(PulseAlloc, EvaluationDoesNotAllocate) {
  const Config config = testing::make_config();
  for (const auto& [name, spec] : testing::all_cases()) {
    SCOPED_TRACE(name);
    const Pulse pulse(spec, 0.0, 1.0);
    const std::vector<ParamRef> params = pulse.parameters();
    std::vector<double> out(params.size());
    double sink = 0.0;
    const long before = g_allocations;
    for (int i = 0; i < 100; ++i) {
      const double t = spec.delay + pulse.duration() * (i + 0.5) / 100.0;
      sink += pulse.value(t) + pulse.envelope(t - spec.delay);
      pulse.derivatives(t, params, out);
      sink += out[0];
    }
    EXPECT_EQ(g_allocations, before);
    EXPECT_TRUE(std::isfinite(sink));
  }
}

}  // namespace
}  // namespace qevolve::pulse
