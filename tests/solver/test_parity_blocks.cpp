// Parity blocks of the Trotter gates (docs/solvers.md "Parity blocks"): at half flux a coupling
// of two fluxonia conserves the total parity of their levels, so a gate of static factors only
// is block diagonal; the gates are built block by block with exact zeros between the blocks,
// and their matrices equal the products of the full exponentials up to rounding. Off half
// flux nothing changes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "../../src/solver/block_evolution.hpp"
#include "../../src/solver/trotter_gates.hpp"
#include "qevolve/resolve.hpp"
#include "qevolve/device.hpp"
#include "qevolve/linalg.hpp"
#include "solver_fixtures.hpp"

namespace qevolve::solver {
namespace {

struct Built {
  device::Device device;
  std::vector<DriveEigen> drives;
  TermList terms;
};

Built build(const Config& c) {
  Built b{io::build_device(c), {}, {}};
  for (int m = 0; m < static_cast<int>(b.device.modes().size()); ++m) {
    DriveEigen de;
    de.mode = m;
    de.op = *b.device.modes()[static_cast<std::size_t>(m)].op("phi");
    linalg::hermitian_eigen(de.op, de.lambda, de.V);
    b.drives.push_back(std::move(de));
  }
  b.terms = make_term_list(b.device, b.drives);
  return b;
}

/// The total-parity groups of a gate on two modes of d levels each.
std::vector<std::vector<int>> parity_groups(int d) {
  std::vector<std::vector<int>> groups(2);
  for (int j = 0; j < d * d; ++j)
    groups[static_cast<std::size_t>((j / d + j % d) % 2)].push_back(j);
  return groups;
}

/// A gate's static segment recomputed from its factors with the full exponential.
CMatrix full_static(const TrotterGates::Gate& gate, const TermList& terms, double dt) {
  CMatrix m = CMatrix::Identity(gate.g, gate.g);
  for (const auto& f : gate.segments.front().factors) {
    CMatrix e = linalg::expm_hermitian(terms.static_matrix[static_cast<std::size_t>(f.term)],
                                       kTwoPi * dt * f.frac);
    if (f.position >= 0) e = embed_in_gate(e, f.position, gate.d0, gate.d1);
    m = e * m;
  }
  return m;
}

TEST(ParityBlocks, StaticGatesOfAHalfFluxChainSplitByTotalParity) {
  for (int levels : {2, 3}) {
    const Built b = build(testing::driven_chain(4, levels));
    const double dt = 0.04;
    const TrotterGates gates(b.device, b.terms, b.drives, 2, dt);
    const std::vector<double> c(b.drives.size(), 0.013);
    const auto matrices = gates.matrices(c);
    int blocked = 0;
    for (int k = 0; k < gates.num_gates(); ++k) {
      const auto& gate = gates.gate(k);
      const bool static_only = gate.segments.size() == 1 && gate.segments.front().is_static;
      if (!static_only || k < gates.boundary_gates()) {
        if (gate.factor_position < 0) {
          EXPECT_TRUE(gates.blocks(k).empty()) << "gate " << k;
        }
        continue;
      }
      ASSERT_EQ(gates.blocks(k), parity_groups(levels))
          << "gate " << k << ", " << levels << " levels";
      ++blocked;
      const CMatrix& m = matrices[static_cast<std::size_t>(k)];
      for (int i = 0; i < gate.g; ++i)
        for (int j = 0; j < gate.g; ++j)
          if ((i / levels + i % levels + j / levels + j % levels) % 2 != 0) {
            EXPECT_EQ(m(i, j), cplx{}) << "gate " << k << " (" << i << ", " << j << ")";
          }
      // The dropped entries are rounding (<= 1e-12 of each coupling term): the blockwise gate
      // equals the full product to 1e-13.
      EXPECT_LT((m - full_static(gate, b.terms, dt)).cwiseAbs().maxCoeff(), 1e-13) << "gate " << k;
    }
    EXPECT_EQ(blocked, 2) << levels << " levels";  // the chain's N - 2 backward half steps
  }
}

TEST(ParityBlocks, DrivenGatesOfTwoLevelFluxoniaAreFactored) {
  // 2 levels: each forward gate [static S, drive of phi on its first mode] is factored as
  // G = D S; phi's off-diagonal element is exactly imaginary, so D is real (kind 0). The
  // factor region reproduces the full gate to rounding. The middle gate (two drives, static
  // factors on both sides) stays dense, and 3 levels are never factored.
  const Built b = build(testing::driven_chain(5, 2));
  const double dt = 0.05;
  const TrotterGates gates(b.device, b.terms, b.drives, 2, dt);
  const std::vector<double> c{0.021, -0.013, 0.017, 0.008, -0.011};
  const auto matrices = gates.matrices(c);
  std::vector<double> buffer(gates.step_size());
  gates.compute(c, buffer.data());
  int factored = 0;
  for (int k = 0; k < gates.num_gates(); ++k) {
    const auto& gate = gates.gate(k);
    if (gate.factor_position < 0) continue;
    ++factored;
    EXPECT_EQ(gate.factor_position, 0) << "gate " << k;
    EXPECT_EQ(gate.factor_kind, 0) << "gate " << k;
    EXPECT_EQ(gate.blocks, parity_groups(2)) << "gate " << k;
    const double* f = buffer.data() + gates.factor_offset(k);
    CMatrix S(4, 4), D(2, 2);
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) S(i, j) = {f[i * 4 + j], f[16 + i * 4 + j]};
    const double* w = f + 32;  // R = D / cos(a), stored with cos(a) S
    EXPECT_EQ(w[1], 0.0);      // kind 0: w01 and w10 real
    EXPECT_EQ(w[3], 0.0);
    D << 1.0, cplx(w[0], w[1]), cplx(w[2], w[3]), 1.0;
    const CMatrix G = embed_in_gate(D, gate.factor_position, 2, 2) * S;
    EXPECT_LT((G - matrices[static_cast<std::size_t>(k)]).cwiseAbs().maxCoeff(), 1e-14)
        << "gate " << k;
  }
  EXPECT_EQ(factored, 3);  // forward gates on bonds (0, 1), (1, 2), (2, 3); (3, 4) is the middle
  const Built three = build(testing::driven_chain(4, 3));
  const TrotterGates gates3(three.device, three.terms, three.drives, 2, dt);
  for (int k = 0; k < gates3.num_gates(); ++k) EXPECT_EQ(gates3.gate(k).factor_position, -1);
}

TEST(ParityBlocks, StructuredEvolutionEqualsTheFullGates) {
  // The CPU executor with parity blocks and factored gates against every gate applied as its
  // full matrix: 300 steps (two chunks, so the boundary gate's carry across chunks as well),
  // all 32 columns, 1 and 2 threads; agreement to rounding.
  const Built b = build(testing::driven_chain(5, 2));
  const double dt = 0.1;
  const TrotterGates gates(b.device, b.terms, b.drives, 2, dt);
  BlockEvolution job;
  job.device = &b.device;
  job.gates = &gates;
  job.coefficients = [](int u, std::vector<double>& c) {
    c.resize(5);
    for (int j = 0; j < 5; ++j) c[static_cast<std::size_t>(j)] = 0.03 * std::sin(0.07 * u + j);
  };
  job.steps = 300;
  job.dt = dt;
  const CMatrix start = CMatrix::Identity(32, 32);
  for (int threads : {1, 2}) {
    job.threads = threads;
    CMatrix structured = start, full = start;
    job.structured = true;
    evolve_blocks<double>(job, structured, {});
    job.structured = false;
    evolve_blocks<double>(job, full, {});
    EXPECT_LT((structured - full).cwiseAbs().maxCoeff(), 1e-12) << threads << " threads";
    EXPECT_LT((structured.adjoint() * structured - CMatrix::Identity(32, 32)).cwiseAbs().maxCoeff(),
              1e-12);
  }
}

TEST(ParityBlocks, NoBlocksOffHalfFlux) {
  Config c = testing::driven_chain(3, 2);
  for (int q = 0; q < 3; ++q) {  // override the preset's flux 0.5
    ModeEntry m;
    m.name = std::string("q").append(std::to_string(q));
    m.flux = 0.45;
    m.path = std::string("device.qubits[").append(std::to_string(q)).append("]");
    c.device.qubits.push_back(m);
  }
  const Built b = build(c);
  ASSERT_EQ(b.device.modes()[0].params.flux, 0.45);
  const TrotterGates gates(b.device, b.terms, b.drives, 2, 0.04);
  for (int k = 0; k < gates.num_gates(); ++k) EXPECT_TRUE(gates.blocks(k).empty()) << "gate " << k;
}

}  // namespace
}  // namespace qevolve::solver
