// Couplers outside the computational space (docs/device.md "Qubits and couplers",
// docs/fidelity.md "Conventions"): on a transmon-coupler-transmon device (the
// transmon_coupler_1d preset) the run's d, fidelity, leakage and vz compensation against an
// independent dense reference written here from docs/models.md and docs/pulses.md alone (charge-
// basis transmons, Kronecker products, midpoint rule with dense exponentials, and a vz optimum by
// coordinate ascent), the coupler-mediated static ZZ, and the placement of two-qubit targets on
// qubits separated by couplers.
//
// Tolerances: the reference and `solver: expm` take the same midpoint steps, so the propagators
// differ only by the single-mode diagonalisations (both converged to ~1e-13 GHz in energy; over
// 60 ns that is a phase of ~1e-10) and by the product of per-mode eigenvector phases, which F,
// leakage and |U| do not see (a diagonal product phase is linear in the bits: vz absorbs it and
// Tr(U) and |U_ij| are unchanged). 1e-9 leaves a factor 10 for rounding over 600 steps.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "qevolve/plan.hpp"
#include "qevolve/config_loader.hpp"
#include "qevolve/gradient.hpp"
#include "qevolve/resolve.hpp"
#include "qevolve/simulator.hpp"
#include "qevolve/spectrum.hpp"

namespace qevolve::testing {
namespace {

constexpr double kTol = 1e-9;

// --- the independent reference -------------------------------------------------------------

/// A transmon 4EC (n - ng)^2 - EJ cos(phi) in the charge basis |n|<=40, kept `keep` levels:
/// energies and the coupling operator n - ng in that eigenbasis (real, any eigenvector signs).
struct RefMode {
  RVector energies;
  RMatrix charge;
};

RefMode ref_transmon(double ec, double ej, double ng, int keep) {
  const int cut = 40, m = 2 * cut + 1;
  RMatrix h = RMatrix::Zero(m, m);
  RVector n(m);
  for (int k = 0; k < m; ++k) {
    n(k) = (k - cut) - ng;
    h(k, k) = 4.0 * ec * n(k) * n(k);
    if (k + 1 < m) h(k, k + 1) = h(k + 1, k) = -0.5 * ej;
  }
  const Eigen::SelfAdjointEigenSolver<RMatrix> es(h);
  const RMatrix v = es.eigenvectors().leftCols(keep);
  return {es.eigenvalues().head(keep), v.transpose() * n.asDiagonal() * v};
}

/// I (x) ... (x) op (x) ... (x) I on mode `at` of `dims`, mode 0 most significant.
RMatrix embed(const RMatrix& op, int at, const std::vector<int>& dims) {
  RMatrix out = RMatrix::Ones(1, 1);
  for (std::size_t q = 0; q < dims.size(); ++q) {
    const RMatrix f = static_cast<int>(q) == at ? op : RMatrix::Identity(dims[q], dims[q]);
    RMatrix next(out.rows() * f.rows(), out.cols() * f.cols());
    for (Index i = 0; i < out.rows(); ++i)
      for (Index j = 0; j < out.cols(); ++j) next.block(i * f.rows(), j * f.cols(), f.rows(), f.cols()) = out(i, j) * f;
    out = std::move(next);
  }
  return out;
}

/// The transmon_coupler_1d preset with two qubits (docs/presets.md): q0 c0 q1, every mode with
/// `levels` levels, capacitive couplings on n - ng; plus the drive operator n - ng of c0.
struct RefDevice {
  RMatrix h0, drive;
  double coupler_f01 = 0.0;
  std::vector<int> dims;
};

RefDevice ref_device(int levels) {
  const RefMode q0 = ref_transmon(0.105, 33.063, 0.5, levels), c0 = ref_transmon(0.185, 30.694, 0.5, levels),
                q1 = ref_transmon(0.120, 22.234, 0.5, levels);
  RefDevice d;
  d.dims = {levels, levels, levels};
  d.h0 = embed(q0.energies.asDiagonal().toDenseMatrix(), 0, d.dims) +
         embed(c0.energies.asDiagonal().toDenseMatrix(), 1, d.dims) +
         embed(q1.energies.asDiagonal().toDenseMatrix(), 2, d.dims);
  const RMatrix n0 = embed(q0.charge, 0, d.dims), nc = embed(c0.charge, 1, d.dims), n1 = embed(q1.charge, 2, d.dims);
  d.h0 += 0.012 * n0 * n1 + 0.122 * n0 * nc + 0.105 * nc * n1;
  d.drive = nc;
  d.coupler_f01 = c0.energies(1) - c0.energies(0);
  return d;
}

/// prod_k exp(-2 pi i H(t_k) dt), t_k the step midpoints, H = H0 + f(t) drive with the `cos`
/// pulse f = A (1 - cos(2 pi t / L))/2 cos(2 pi freq t) of docs/pulses.md on [0, L], L = T.
CMatrix ref_propagator(const RefDevice& d, double amplitude, double freq, double duration, int steps) {
  const double dt = duration / steps;
  CMatrix u = CMatrix::Identity(d.h0.rows(), d.h0.cols());
  for (int k = 0; k < steps; ++k) {
    const double t = (k + 0.5) * dt;
    const double f = amplitude * 0.5 * (1.0 - std::cos(kTwoPi * t / duration)) * std::cos(kTwoPi * freq * t);
    const Eigen::SelfAdjointEigenSolver<RMatrix> es(d.h0 + f * d.drive);
    CVector phase(es.eigenvalues().size());
    for (Index i = 0; i < phase.size(); ++i) phase(i) = std::polar(1.0, -kTwoPi * es.eigenvalues()(i) * dt);
    const CMatrix v = es.eigenvectors().cast<cplx>();
    u = (v * phase.asDiagonal() * v.adjoint() * u).eval();
  }
  return u;
}

/// The computational block: q0, q1 in {0, 1}, c0 in 0 (flat index (q0 L + c0) L + q1).
CMatrix qubit_block(const CMatrix& u, int levels) {
  const Index idx[4] = {0, 1, Index{levels} * levels, Index{levels} * levels + 1};
  CMatrix b(4, 4);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) b(i, j) = u(idx[i], idx[j]);
  return b;
}

/// max over vz layers (docs/fidelity.md "Compensation": Z(a) = diag(e^{ia}, e^{-ia}) per qubit,
/// before and after) of |Tr(T^dag L_post B L_pre)|, by exact coordinate ascent from 16 random
/// starts: for one angle the trace is alpha e^{ia} + beta e^{-ia}, whose modulus is largest at
/// 2a = arg(beta) - arg(alpha).
double ref_vz_overlap(const CMatrix& b, const CMatrix& target) {
  auto tau = [&](const std::vector<double>& a) {
    cplx s = 0.0;
    for (int i = 0; i < 4; ++i)
      for (int k = 0; k < 4; ++k) {
        const double post = ((i >> 1) & 1 ? -a[2] : a[2]) + (i & 1 ? -a[3] : a[3]);
        const double pre = ((k >> 1) & 1 ? -a[0] : a[0]) + (k & 1 ? -a[1] : a[1]);
        s += std::conj(target(i, k)) * std::polar(1.0, post + pre) * b(i, k);
      }
    return s;
  };
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> angle(-kPi, kPi);
  double best = 0.0;
  for (int start = 0; start < 16; ++start) {
    std::vector<double> a{angle(rng), angle(rng), angle(rng), angle(rng)};
    for (int sweep = 0; sweep < 400; ++sweep)
      for (int s = 0; s < 4; ++s) {
        a[static_cast<std::size_t>(s)] = 0.0;
        const cplx t0 = tau(a);
        a[static_cast<std::size_t>(s)] = kPi / 2;
        const cplx t1 = tau(a);
        const cplx alpha = 0.5 * (t0 - cplx(0, 1) * t1), beta = 0.5 * (t0 + cplx(0, 1) * t1);
        a[static_cast<std::size_t>(s)] = 0.5 * (std::arg(beta) - std::arg(alpha));
      }
    best = std::max(best, std::abs(tau(a)));
  }
  return best;
}

// --- qevolve -------------------------------------------------------------------------------

std::string preset_config(int levels, const std::string& pulses, const std::string& extra_modes,
                          const std::string& gates, double duration, int steps) {
  return "device:\n  preset: transmon_coupler_1d\n  preset_args: {qubits: 2, levels: " + std::to_string(levels) +
         ", coupler_levels: " + std::to_string(levels) + "}\n" + extra_modes + "pulses: " + pulses +
         "\nevolution: {solver: expm, steps: " + std::to_string(steps) + ", duration: " + std::to_string(duration) +
         "}\ntarget: {gates: " + gates + ", compensation: vz}\n";
}

struct Outcome {
  std::vector<std::string> labels;
  CMatrix unitary;
  fidelity::FidelityResult fid;
};

Outcome evolve(const std::string& text) {
  const Config c = io::parse_config(text, "coupler.yaml");
  (void)io::resolve(c, io::Purpose::evolve);
  const solver::Simulator sim(io::evolution_plan(c), 1);
  comm::SerialCommunicator serial;
  const auto spec = io::objective_spec(c, sim);
  EXPECT_TRUE(spec.has_value());
  gradient::Evaluation ev = gradient::evaluate(sim, spec, serial, serial);
  return {sim.states().initial_labels(), ev.unitary, *ev.fidelity};
}

double gate_fidelity(const CMatrix& u, double overlap) {
  const double d = static_cast<double>(u.rows());
  return ((u.adjoint() * u).trace().real() + overlap * overlap) / (d * (d + 1));
}

TEST(Couplers, IdleGateOnTheQubitBlockMatchesTheDenseReference) {
  const int levels = 3, steps = 1;  // no pulse: one exact step
  const double T = 60.0;
  const Outcome r = evolve(preset_config(levels, "[]", "", "[]", T, steps));
  // d = 2^qubits: the coupler is held in 0 (labels q0 c0 q1).
  EXPECT_EQ(r.labels, (std::vector<std::string>{"000", "001", "100", "101"}));
  ASSERT_EQ(r.unitary.rows(), 4);
  ASSERT_EQ(r.fid.angles.size(), 4);  // vz: pre q0 q1, post q0 q1; none for c0
  EXPECT_EQ(r.fid.pre_factors.size(), 2u);

  const RefDevice d = ref_device(levels);
  const CMatrix b = qubit_block(ref_propagator(d, 0.0, 0.0, T, steps), levels);
  const CMatrix id = CMatrix::Identity(4, 4);
  EXPECT_LT((r.unitary.cwiseAbs() - b.cwiseAbs()).cwiseAbs().maxCoeff(), kTol);
  const double f_none = gate_fidelity(b, std::abs(b.trace()));
  const double f_vz = gate_fidelity(b, ref_vz_overlap(b, id));
  const double leak = 1.0 - (b.adjoint() * b).trace().real() / 4.0;
  EXPECT_NEAR(r.fid.fidelity_uncompensated, f_none, kTol);
  EXPECT_NEAR(r.fid.fidelity, f_vz, kTol);
  EXPECT_NEAR(r.fid.leakage, leak, kTol);
  std::printf("[ couplers ] idle %.0f ns, qubit block: F (vz) %.12f (reference %.12f), uncompensated %.6f, "
              "leakage %.3e\n",
              T, r.fid.fidelity, f_vz, r.fid.fidelity_uncompensated, r.fid.leakage);
  EXPECT_GT(1.0 - f_vz, 1e-6);  // the coupler-mediated ZZ is visible: the test can fail
}

TEST(Couplers, DressedBasisNamesStatesWithTheCouplerInZero) {
  // basis: dressed: the computational states are the eigenstates of H0 labelled q0 0 q1. The
  // reference labels its own eigenvectors by the largest overlap with those bare states; the
  // idle gate is then diag(e^{-2 pi i E T}) on them, without leakage.
  const int levels = 3;
  const double T = 60.0;
  std::string text = preset_config(levels, "[]", "", "[]", T, 1);
  text.replace(text.find("solver: expm"), 12, "solver: expm, basis: dressed");
  const Outcome r = evolve(text);
  const RefDevice d = ref_device(levels);
  const Eigen::SelfAdjointEigenSolver<RMatrix> es(d.h0);
  CMatrix b = CMatrix::Zero(4, 4);
  const Index bare[4] = {0, 1, Index{levels} * levels, Index{levels} * levels + 1};
  double e[4];
  for (int k = 0; k < 4; ++k) {
    Index best = 0;
    es.eigenvectors().row(bare[k]).cwiseAbs().maxCoeff(&best);
    e[k] = es.eigenvalues()(best);
    b(k, k) = std::polar(1.0, -kTwoPi * e[k] * T);
  }
  // The static ZZ of `qevolve spectrum`: the pair (q0, q1) joined through the coupler, which
  // stays in 0 (kHz; dense eigenvalues of a 27 x 27 H0 of norm ~30 GHz agree to ~1e-12 GHz).
  const Config c = io::parse_config(text, "coupler.yaml");
  const device::Device dev = io::build_device(c);
  const device::SpectrumReport spec = device::analyse_spectrum(dev, device::dress(dev));
  ASSERT_EQ(spec.zz.size(), 1u);
  EXPECT_EQ(spec.zz[0].a + "," + spec.zz[0].b, "q0,q1");
  EXPECT_NEAR(spec.zz[0].zz_khz, (e[3] - e[2] - e[1] + e[0]) * 1e6, 1e-5);
  EXPECT_LT((r.unitary - b).cwiseAbs().maxCoeff(), kTol);  // the dressed phases fix the signs
  EXPECT_LT(r.fid.leakage, kTol);
  EXPECT_NEAR(r.fid.fidelity, gate_fidelity(b, ref_vz_overlap(b, CMatrix::Identity(4, 4))), kTol);
  std::printf("[ couplers ] idle %.0f ns, dressed basis: F (vz) %.12f, leakage %.1e, ZZ(q0, q1) %.6f kHz\n", T,
              r.fid.fidelity, r.fid.leakage, spec.zz[0].zz_khz);
}

TEST(Couplers, LeakageCountsCouplerExcitation) {
  // A resonant charge drive on the coupler (frequency: auto = its bare f01) excites it: the
  // population left in coupler excitations is leakage, though every qubit stays in {0, 1}.
  const int levels = 3, steps = 600;
  const double T = 30.0, amplitude = 0.04;
  const RefDevice d = ref_device(levels);
  const std::string pulse = "[{qubit: c0, shape: cos, amplitude: " + std::to_string(amplitude) +
                            ", frequency: auto, duration: " + std::to_string(T) + "}]";
  const Outcome r = evolve(preset_config(levels, pulse, "", "[]", T, steps));
  const CMatrix u = ref_propagator(d, amplitude, d.coupler_f01, T, steps);
  const CMatrix b = qubit_block(u, levels);
  double coupler_excited = 0.0;  // population with c0 >= 1, summed over the 4 inputs
  for (int j = 0; j < 4; ++j) {
    const Index in = j < 2 ? j : Index{levels} * levels + (j - 2);
    for (Index i = 0; i < u.rows(); ++i)
      if ((i / levels) % levels != 0) coupler_excited += std::norm(u(i, in));
  }
  const double leak = 1.0 - (b.adjoint() * b).trace().real() / 4.0;
  EXPECT_NEAR(r.fid.leakage, leak, kTol);
  // The drive did excite the coupler, and that is most of the leakage (the rest: qubits in 2).
  EXPECT_GT(coupler_excited / 4.0, 0.1);
  EXPECT_GT(coupler_excited / 4.0, 0.5 * leak);
  EXPECT_LE(coupler_excited / 4.0, leak + 1e-12);
  EXPECT_NEAR(r.fid.fidelity, gate_fidelity(b, ref_vz_overlap(b, CMatrix::Identity(4, 4))), kTol);
  EXPECT_LT((r.unitary.cwiseAbs() - b.cwiseAbs()).cwiseAbs().maxCoeff(), kTol);
  std::printf("[ couplers ] coupler drive: leakage %.6f (reference %.6f, coupler excited %.6f), F %.6f\n",
              r.fid.leakage, leak, coupler_excited / 4.0, r.fid.fidelity);
}

TEST(Couplers, CouplerAsQubitIsTheOldEightDimensionalBlock) {
  // The idle gate in the dressed basis with `role: qubit` on c0 (what the preset did before
  // couplers had a role): d = 8, and the coupler-qubit ZZ (MHz) spoils F although the qubits'
  // block is the one of DressedBasisNamesStatesWithTheCouplerInZero.
  std::string text = preset_config(3, "[]", "", "[]", 60.0, 1);
  text.replace(text.find("solver: expm"), 12, "solver: expm, basis: dressed");
  const std::string as_qubit = "  qubits: [{name: c0, role: qubit}]\n";
  std::string text8 = text;
  text8.insert(text8.find("pulses:"), as_qubit);
  const Outcome coupler = evolve(text);
  const Outcome qubit = evolve(text8);
  EXPECT_EQ(coupler.unitary.rows(), 4);
  EXPECT_EQ(qubit.unitary.rows(), 8);
  EXPECT_EQ(qubit.fid.angles.size(), 6);
  EXPECT_EQ(qubit.labels[2], "010");
  EXPECT_LT(qubit.fid.fidelity, coupler.fid.fidelity - 0.1);
  std::printf("[ couplers ] idle 60 ns, dressed: c0 a coupler: d = 4, F = %.6f; c0 a qubit: d = 8, F = %.6f\n",
              coupler.fid.fidelity, qubit.fid.fidelity);
}

TEST(Couplers, TwoQubitTargetsOnAnyPairOfQubits) {
  // Three qubits and two couplers (q0 c0 q1 c1 q2): the target acts on the 3 qubits only, a
  // gate on (a, b) is sum_rc G(r, c) |r_a><c_a| (x) |r_b><c_b| (x) I on the third qubit.
  const char* names[] = {"CZ", "ISWAP", "SQRT_ISWAP", "CNOT", "CPHASE"};
  const std::vector<std::pair<int, int>> pairs{{0, 2}, {2, 0}, {1, 2}, {1, 0}};
  for (const char* g : names) {
    for (const auto& [a, b] : pairs) {
      const std::string angle = std::string(g) == "CPHASE" ? ", angle: 0.7" : "";
      const std::string text = "device:\n  preset: transmon_coupler_1d\n  preset_args: {qubits: 3}\n"
                               "evolution: {duration: 1, steps: 1}\ntarget: {gates: [{gate: " + std::string(g) +
                               angle + ", qubits: [q" + std::to_string(a) + ", q" + std::to_string(b) + "]}]}\n";
      const Config c = io::parse_config(text, "pair.yaml");
      (void)io::resolve(c, io::Purpose::evolve);
      const solver::Simulator sim(io::evolution_plan(c), 1);
      const auto spec = io::objective_spec(c, sim);
      ASSERT_TRUE(spec.has_value());
      const CMatrix g4 = fidelity::standard_gate(g, 0.7);
      CMatrix ref = CMatrix::Zero(8, 8);
      for (Index out = 0; out < 8; ++out)
        for (Index in = 0; in < 8; ++in) {
          auto bit = [](Index s, int q) { return static_cast<int>((s >> (2 - q)) & 1); };
          const int third = 3 - a - b;
          if (bit(out, third) != bit(in, third)) continue;
          ref(out, in) = g4(2 * bit(out, a) + bit(out, b), 2 * bit(in, a) + bit(in, b));
        }
      EXPECT_LT((spec->target - ref).cwiseAbs().maxCoeff(), 1e-15) << g << " on q" << a << ", q" << b;
      EXPECT_EQ(spec->computational.size(), 8u);
    }
  }
}

}  // namespace
}  // namespace qevolve::testing
