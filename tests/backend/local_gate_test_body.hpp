// Test bodies of the local-gate kernels, written once and instantiated per backend (the qsim
// fixture pattern): a backend's test file supplies a `Backend` type with
//   static constexpr const char* name;
//   static std::string unavailable();   // empty, or why the test skips ("no CUDA device: ...")
//   static constexpr bool has_accumulate;  // the accumulate kernel (adaptive solver) exists
//   template <class Real> static void apply(Real* re, Real* im, const GateGeometry&, const Real* gate, std::size_t n);
//   template <class Real> static void accumulate(const Real* xre, const Real* xim, Real* yre, Real* yim,
//                                                const GateGeometry&, const Real* gate, Real ar, Real ai, std::size_t n);
//       (only with has_accumulate)
// and instantiates LocalGateTest<Backend, Real>. The reference is a dense D x D embedding of the
// gate applied column by column.
#pragma once

#include <gtest/gtest.h>

#include <complex>
#include <random>
#include <string>
#include <vector>

#include "qevolve/backend/local_gate.hpp"
#include "qevolve/types.hpp"

namespace qevolve::backend::testing {

template <typename Backend, typename Real>
struct Combo {
  using backend = Backend;
  using real = Real;
};

/// Dense embedding of gate G on modes (a, b) (b = -1: one mode) of a state with dims.
inline CMatrix dense_gate(const std::vector<int>& dims, int a, int b, const CMatrix& G) {
  Index D = 1;
  for (int d : dims) D *= d;
  std::vector<Index> stride(dims.size());
  Index s = 1;
  for (int q = static_cast<int>(dims.size()) - 1; q >= 0; --q) {
    stride[static_cast<std::size_t>(q)] = s;
    s *= dims[static_cast<std::size_t>(q)];
  }
  const Index da = dims[static_cast<std::size_t>(a)];
  const Index db = b >= 0 ? dims[static_cast<std::size_t>(b)] : 1;
  CMatrix out = CMatrix::Zero(D, D);
  for (Index col = 0; col < D; ++col) {
    const Index ja = (col / stride[static_cast<std::size_t>(a)]) % da;
    const Index jb = b >= 0 ? (col / stride[static_cast<std::size_t>(b)]) % db : 0;
    const Index base = col - ja * stride[static_cast<std::size_t>(a)] -
                       (b >= 0 ? jb * stride[static_cast<std::size_t>(b)] : 0);
    for (Index ia = 0; ia < da; ++ia)
      for (Index ib = 0; ib < db; ++ib)
        out(base + ia * stride[static_cast<std::size_t>(a)] +
                (b >= 0 ? ib * stride[static_cast<std::size_t>(b)] : 0),
            col) = G(ia * db + ib, ja * db + jb);
  }
  return out;
}

template <typename C>
class LocalGateTest : public ::testing::Test {
 protected:
  using Backend = typename C::backend;
  using Real = typename C::real;
  void SetUp() override {
    if (const std::string why = Backend::unavailable(); !why.empty()) GTEST_SKIP() << why;
  }
  // Tolerance: double rounding ~1e-15 per operation; float ~6e-8 per operation, amplified by
  // a sum of g terms of O(1) magnitude.
  static double tolerance() { return sizeof(Real) == 8 ? 1e-13 : 2e-5; }

  void check(const std::vector<int>& dims, int a, int b, Index width, bool accumulate) {
    std::mt19937 rng(static_cast<unsigned>(dims.size() * 100 + a * 10 + b + width));
    std::normal_distribution<double> nd;
    Index D = 1;
    for (int d : dims) D *= d;
    const Index g = dims[static_cast<std::size_t>(a)] * (b >= 0 ? dims[static_cast<std::size_t>(b)] : 1);
    CMatrix G(g, g), X(D, width), Y0(D, width);
    for (Index i = 0; i < G.size(); ++i) G.data()[i] = {nd(rng), nd(rng)};
    for (Index i = 0; i < X.size(); ++i) X.data()[i] = {nd(rng), nd(rng)};
    for (Index i = 0; i < Y0.size(); ++i) Y0.data()[i] = {nd(rng), nd(rng)};
    const cplx alpha{0.3, -1.7};
    const CMatrix expected =
        accumulate ? CMatrix(Y0 + alpha * dense_gate(dims, a, b, G) * X) : CMatrix(dense_gate(dims, a, b, G) * X);

    auto to_split = [&](const CMatrix& M, std::vector<Real>& re, std::vector<Real>& im) {
      re.assign(static_cast<std::size_t>(D * width), Real(0));
      im = re;
      for (Index i = 0; i < D; ++i)
        for (Index c = 0; c < width; ++c) {
          re[static_cast<std::size_t>(i * width + c)] = static_cast<Real>(M(i, c).real());
          im[static_cast<std::size_t>(i * width + c)] = static_cast<Real>(M(i, c).imag());
        }
    };
    std::vector<Real> xr, xi, yr, yi, gate(2 * static_cast<std::size_t>(g * g));
    for (Index o = 0; o < g; ++o)
      for (Index j = 0; j < g; ++j) {
        gate[static_cast<std::size_t>(o * g + j)] = static_cast<Real>(G(o, j).real());
        gate[static_cast<std::size_t>(g * g + o * g + j)] = static_cast<Real>(G(o, j).imag());
      }
    to_split(X, xr, xi);
    to_split(Y0, yr, yi);
    const auto geo = make_geometry(dims.data(), static_cast<int>(dims.size()), a, b, width);
    if constexpr (Backend::has_accumulate) {
      if (accumulate)
        Backend::template accumulate<Real>(xr.data(), xi.data(), yr.data(), yi.data(), geo,
                                           gate.data(), static_cast<Real>(alpha.real()),
                                           static_cast<Real>(alpha.imag()), xr.size());
    }
    if (!accumulate) {
      Backend::template apply<Real>(xr.data(), xi.data(), geo, gate.data(), xr.size());
      yr = xr;
      yi = xi;
    }
    double worst = 0.0;
    for (Index i = 0; i < D; ++i)
      for (Index c = 0; c < width; ++c) {
        const cplx got(static_cast<double>(yr[static_cast<std::size_t>(i * width + c)]),
                       static_cast<double>(yi[static_cast<std::size_t>(i * width + c)]));
        worst = std::max(worst, std::abs(got - expected(i, c)) / (1.0 + std::abs(expected(i, c))));
      }
    EXPECT_LT(worst, tolerance() * static_cast<double>(g))
        << "dims size " << dims.size() << " modes (" << a << ", " << b << ") width " << width;
  }
};

TYPED_TEST_SUITE_P(LocalGateTest);

TYPED_TEST_P(LocalGateTest, OneModeGatesOnEveryMode) {
  const std::vector<int> dims{3, 2, 4, 2};
  for (int a = 0; a < 4; ++a)
    for (Index w : {1, 3, 8}) this->check(dims, a, -1, w, false);
}

TYPED_TEST_P(LocalGateTest, AdjacentAndDistantTwoModeGates) {
  const std::vector<int> dims{2, 3, 2, 2, 3};
  for (int a = 0; a < 5; ++a)
    for (int b = a + 1; b < 5; ++b)
      for (Index w : {1, 4, 5}) this->check(dims, a, b, w, false);
}

TYPED_TEST_P(LocalGateTest, CompileTimeAndRuntimeGateSizes) {
  // g = 4, 9, 16, 25 (compile-time) and 7 * 7 = 49, 6 * 5 = 30 (runtime loop).
  for (int d : {2, 3, 4, 5, 7}) this->check({d, d, 2}, 0, 1, 4, false);
  this->check({6, 2, 5}, 0, 2, 3, false);
}

TYPED_TEST_P(LocalGateTest, AccumulateAddsAlphaTimesGate) {
  if constexpr (!TestFixture::Backend::has_accumulate)
    GTEST_SKIP() << TestFixture::Backend::name
                 << " backend: no accumulate kernel (the adaptive solver runs on the CPU only)";
  const std::vector<int> dims{2, 3, 4};
  for (int a = 0; a < 3; ++a) {
    this->check(dims, a, -1, 4, true);
    for (int b = a + 1; b < 3; ++b) this->check(dims, a, b, 2, true);
  }
}

REGISTER_TYPED_TEST_SUITE_P(LocalGateTest, OneModeGatesOnEveryMode, AdjacentAndDistantTwoModeGates,
                            CompileTimeAndRuntimeGateSizes, AccumulateAddsAlphaTimesGate);

}  // namespace qevolve::backend::testing
