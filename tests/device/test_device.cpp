// Product-basis bookkeeping of the composite device and the local-term form of H0.
#include <gtest/gtest.h>

#include "qevolve/device.hpp"

namespace qevolve::device {
namespace {

Mode oscillator(const std::string& name, ModeType type, int levels, double f, double alpha = 0) {
  ModeParams p;
  p.name = name;
  p.type = type;
  p.levels = levels;
  p.frequency = f;
  p.anharmonicity = alpha;
  return diagonalise(p);
}

CMatrix kron(const CMatrix& a, const CMatrix& b) {
  CMatrix out(a.rows() * b.rows(), a.cols() * b.cols());
  for (Index i = 0; i < a.rows(); ++i)
    for (Index j = 0; j < a.cols(); ++j)
      out.block(i * b.rows(), j * b.cols(), b.rows(), b.cols()) = a(i, j) * b;
  return out;
}

Device three_modes() {
  std::vector<Mode> modes{oscillator("a", ModeType::duffing, 3, 5.0, -0.2),
                          oscillator("r", ModeType::resonator, 4, 7.0),
                          oscillator("b", ModeType::duffing, 2, 4.6, -0.25)};
  std::vector<Coupling> couplings(2);
  couplings[0].a = 0;  // non-adjacent pair, given in descending order below
  couplings[0].b = 2;
  couplings[0].capacitive = 0.01;
  couplings[0].inductive = 0.003;
  couplings[0].cross_kerr = -0.0004;
  couplings[1].a = 1;
  couplings[1].b = 0;
  couplings[1].dipole = 0.05;
  return Device(std::move(modes), std::move(couplings));
}

TEST(Device, DimensionsAndLabels) {
  const Device d = three_modes();
  EXPECT_EQ(d.dim(), 24);
  EXPECT_EQ(d.dims(), (std::vector<int>{3, 4, 2}));
  EXPECT_EQ(d.flat_index({2, 1, 1}), 2 * 8 + 1 * 2 + 1);
  EXPECT_EQ(d.levels_of(19), (std::vector<int>{2, 1, 1}));
  EXPECT_EQ(d.label(19), "211");
  EXPECT_EQ(d.find("r"), 1);
  EXPECT_EQ(d.find("zz"), -1);
  EXPECT_EQ(d.qubit_modes(), (std::vector<int>{0, 2}));
  // Qubits a, b in {0,1}; resonator in 0; order "ab" = 00, 01, 10, 11.
  EXPECT_EQ(d.computational_indices(), (std::vector<Index>{0, 1, 8, 9}));
}

TEST(Device, DenseH0EqualsKroneckerAssembly) {
  const Device d = three_modes();
  const auto& m = d.modes();
  const CMatrix Ia = CMatrix::Identity(3, 3), Ir = CMatrix::Identity(4, 4),
                Ib = CMatrix::Identity(2, 2);
  auto diag = [](const Mode& x) { return CMatrix(x.energies.cast<cplx>().asDiagonal()); };
  CMatrix H = kron(kron(diag(m[0]), Ir), Ib) + kron(kron(Ia, diag(m[1])), Ib) +
              kron(kron(Ia, Ir), diag(m[2]));
  H += 0.01 * kron(kron(m[0].charge, Ir), m[2].charge);
  H += 0.003 * kron(kron(m[0].flux, Ir), m[2].flux);
  H += -0.0004 * kron(kron(m[0].number, Ir), m[2].number);
  const CMatrix& a = m[0].lowering;
  const CMatrix& r = m[1].lowering;
  H += 0.05 * (kron(kron(a, r.adjoint()), Ib) + kron(kron(a.adjoint(), r), Ib));
  EXPECT_LT((d.dense_h0() - H).cwiseAbs().maxCoeff(), 1e-14);
  EXPECT_LT((H - H.adjoint()).cwiseAbs().maxCoeff(), 1e-15);
}

TEST(Device, StaticTermsAreLocalAndOrdered) {
  const Device d = three_modes();
  const auto terms = d.static_terms();
  ASSERT_EQ(terms.size(), 5u);
  for (int q = 0; q < 3; ++q) EXPECT_EQ(terms[static_cast<std::size_t>(q)].modes, std::vector<int>{q});
  EXPECT_EQ(terms[3].modes, (std::vector<int>{0, 2}));
  EXPECT_EQ(terms[4].modes, (std::vector<int>{0, 1}));  // given as (1, 0): normalised
  EXPECT_EQ(terms[3].matrix.rows(), 6);
  EXPECT_EQ(terms[4].matrix.rows(), 12);
}

}  // namespace
}  // namespace qevolve::device
