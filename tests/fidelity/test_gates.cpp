// Target gates and their composition against independent textbook constructions (Pauli
// algebra, Eigen's matrix exponential and square root, explicit Kronecker products).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <numbers>
#include <random>
#include <stdexcept>

#include "fidelity_test_util.hpp"
#include "qevolve/fidelity.hpp"
#include "qevolve/hdf5_file.hpp"
#include "qevolve/plan.hpp"
#include "qevolve/resolve.hpp"

namespace qevolve::fidelity {
namespace {

using namespace testing;

// Gate matrices are built from a few flops on O(1) numbers: agreement to 1e-14 is rounding.
constexpr double kTol = 1e-14;

double maxdiff(const CMatrix& a, const CMatrix& b) {
  EXPECT_EQ(a.rows(), b.rows());
  EXPECT_EQ(a.cols(), b.cols());
  return (a - b).cwiseAbs().maxCoeff();
}

CMatrix proj(int k) {
  CMatrix p = CMatrix::Zero(2, 2);
  p(k, k) = 1.0;
  return p;
}

TEST(Gates, SingleQubitTextbook) {
  const CMatrix I2 = pauli('I');
  const double r2 = 1.0 / std::sqrt(2.0);
  CMatrix s(2, 2), t(2, 2);
  s << 1, 0, 0, kI;
  t << 1, 0, 0, std::exp(kI * (std::numbers::pi / 4));
  EXPECT_LT(maxdiff(standard_gate("I"), I2), kTol);
  EXPECT_LT(maxdiff(standard_gate("X"), pauli('X')), kTol);
  EXPECT_LT(maxdiff(standard_gate("Y"), pauli('Y')), kTol);
  EXPECT_LT(maxdiff(standard_gate("Z"), pauli('Z')), kTol);
  EXPECT_LT(maxdiff(standard_gate("H"), r2 * (pauli('X') + pauli('Z'))), kTol);
  EXPECT_LT(maxdiff(standard_gate("S"), s), kTol);
  EXPECT_LT(maxdiff(standard_gate("T"), t), kTol);
  // SX = e^{i pi/4} RX(pi/2), the square root of X with eigenvalues 1 and i.
  const CMatrix sx = std::exp(kI * (std::numbers::pi / 4)) * rotation('X', std::numbers::pi / 2);
  EXPECT_LT(maxdiff(standard_gate("SX"), sx), kTol);
  EXPECT_LT(maxdiff(standard_gate("SX") * standard_gate("SX"), pauli('X')), kTol);
  EXPECT_LT(maxdiff(standard_gate("T") * standard_gate("T"), standard_gate("S")), kTol);
  EXPECT_LT(maxdiff(standard_gate("S") * standard_gate("S"), pauli('Z')), kTol);
  for (double th : {0.0, 0.3, -1.7, 2.5, 7.0}) {
    EXPECT_LT(maxdiff(standard_gate("RX", th), rotation('X', th)), kTol) << th;
    EXPECT_LT(maxdiff(standard_gate("RY", th), rotation('Y', th)), kTol) << th;
    EXPECT_LT(maxdiff(standard_gate("RZ", th), rotation('Z', th)), kTol) << th;
  }
}

TEST(Gates, TwoQubitTextbook) {
  const CMatrix I2 = pauli('I'), X = pauli('X'), Y = pauli('Y'), Z = pauli('Z');
  EXPECT_LT(maxdiff(standard_gate("CNOT"), kron(proj(0), I2) + kron(proj(1), X)), kTol);
  EXPECT_LT(maxdiff(standard_gate("CZ"), kron(proj(0), I2) + kron(proj(1), Z)), kTol);
  EXPECT_LT(
      maxdiff(standard_gate("SWAP"), 0.5 * (kron(I2, I2) + kron(X, X) + kron(Y, Y) + kron(Z, Z))),
      kTol);
  const CMatrix xy = kron(X, X) + kron(Y, Y);
  const CMatrix iswap = expm(kI * (std::numbers::pi / 4) * xy);
  EXPECT_LT(maxdiff(standard_gate("ISWAP"), iswap), kTol);
  CMatrix iswap_spec = CMatrix::Zero(4, 4);  // docs/fidelity.md "Targets", literally
  iswap_spec(0, 0) = iswap_spec(3, 3) = 1.0;
  iswap_spec(1, 2) = iswap_spec(2, 1) = kI;
  EXPECT_LT(maxdiff(standard_gate("ISWAP"), iswap_spec), kTol);
  // Principal square root: exp(i pi/8 (XX + YY)) (eigenphases +-pi/4), and Eigen's sqrt().
  const CMatrix root = expm(kI * (std::numbers::pi / 8) * xy);
  EXPECT_LT(maxdiff(standard_gate("SQRT_ISWAP"), root), kTol);
  const CMatrix eigen_root = sqrtm(iswap_spec);
  EXPECT_LT(maxdiff(standard_gate("SQRT_ISWAP"), eigen_root), 1e-12);  // Schur-based sqrt
  EXPECT_LT(maxdiff(standard_gate("SQRT_ISWAP") * standard_gate("SQRT_ISWAP"), iswap_spec), kTol);
  // CPHASE(theta) = exp(i theta |11><11|) = diag(1, 1, 1, e^{i theta}); CPHASE(pi) = CZ.
  for (double th : {-2.1, 0.0, 0.4, std::numbers::pi / 2, 3.0}) {
    const CMatrix p11 = kron(proj(1), proj(1));
    EXPECT_LT(maxdiff(standard_gate("CPHASE", th), expm(kI * th * p11)), kTol) << th;
  }
  EXPECT_LT(maxdiff(standard_gate("CPHASE", std::numbers::pi), standard_gate("CZ")), kTol);
}

TEST(Gates, ArityAndUnknown) {
  EXPECT_EQ(gate_arity("H"), 1);
  EXPECT_EQ(gate_arity("SQRT_ISWAP"), 2);
  EXPECT_EQ(gate_arity("CCX"), 0);
  EXPECT_TRUE(gate_takes_angle("RY"));
  EXPECT_FALSE(gate_takes_angle("X"));
  EXPECT_EQ(gate_arity("CPHASE"), 2);
  EXPECT_TRUE(gate_takes_angle("CPHASE"));
  EXPECT_FALSE(gate_takes_angle("CZ"));
  EXPECT_EQ(gates_with_angle(), "RX, RY, RZ and CPHASE");
  EXPECT_THROW(static_cast<void>(standard_gate("CCX")), std::logic_error);  // io::resolve rejects it
}

// --- composition --------------------------------------------------------------------------

Config test_config() {
  Config c;
  c.source_file = "cfg.yaml";
  c.where["target.gates[0]"] = SourceLocation{"cfg.yaml", 7, 7};
  c.where["target.gates[0].qubits"] = SourceLocation{"cfg.yaml", 7, 30};
  c.where["target.gates[1]"] = SourceLocation{"cfg.yaml", 8, 7};
  c.where["target.gates[1].qubits"] = SourceLocation{"cfg.yaml", 8, 30};
  return c;
}

GateSpec gate(const std::string& name, std::vector<std::string> qubits, int index,
              std::optional<double> angle = std::nullopt) {
  GateSpec g;
  g.gate = name;
  g.qubits = std::move(qubits);
  g.angle = angle;
  g.path = "target.gates[" + std::to_string(index) + "]";
  return g;
}

CMatrix build(const std::vector<GateSpec>& gates, const std::vector<std::string>& names) {
  TargetSpec t;
  t.gates = gates;
  return target_unitary(t, names);
}

/// `base` with a device of two-level fluxonia named `names`, a 10 ns evolution and the target
/// `gates`, through the resolution stage (io::resolve), where target errors are raised.
void resolve_target(Config base, const std::vector<GateSpec>& gates, const std::vector<std::string>& names) {
  for (std::size_t k = 0; k < names.size(); ++k) {
    ModeEntry e;
    e.name = names[k];
    e.type = ModeType::fluxonium;
    e.levels = 2;
    e.ec = 1.0, e.ej = 4.0, e.el = 1.0, e.flux = 0.5;
    e.path = "device.qubits[" + std::to_string(k) + "]";
    base.device.qubits.push_back(e);
  }
  base.evolution.duration = 10.0;
  TargetSpec t;
  t.gates = gates;
  base.target = t;
  (void)io::resolve(base, io::Purpose::evolve);
}
void resolve_target(const std::vector<GateSpec>& gates, const std::vector<std::string>& names) {
  resolve_target(test_config(), gates, names);
}

TEST(Target, QubitPlacement) {
  const CMatrix I2 = pauli('I'), X = pauli('X');
  const std::vector<std::string> two{"q0", "q1"}, three{"q0", "q1", "q2"};
  // CNOT with control q0 (the most significant qubit) and with control q1.
  EXPECT_LT(
      maxdiff(build({gate("CNOT", {"q0", "q1"}, 0)}, two), kron(proj(0), I2) + kron(proj(1), X)),
      kTol);
  EXPECT_LT(
      maxdiff(build({gate("CNOT", {"q1", "q0"}, 0)}, two), kron(I2, proj(0)) + kron(X, proj(1))),
      kTol);
  // X on q2 of three: I (x) I (x) X.
  EXPECT_LT(maxdiff(build({gate("X", {"q2"}, 0)}, three), kron_all({I2, I2, X})), kTol);
  // A non-adjacent pair in reverse order: control q2, target q0.
  EXPECT_LT(maxdiff(build({gate("CNOT", {"q2", "q0"}, 0)}, three),
                    kron_all({I2, I2, proj(0)}) + kron_all({X, I2, proj(1)})),
            kTol);
  // Names need not be q0..: the device order decides the bit order.
  EXPECT_LT(maxdiff(build({gate("X", {"f9"}, 0)}, {"t1", "f9"}), kron(I2, X)), kTol);
}

TEST(Target, TimeOrderAndRandomSequence) {
  const CMatrix I2 = pauli('I');
  const std::vector<std::string> names{"a", "b", "c"};
  // First listed acts first: [X, H] on one qubit is H X.
  EXPECT_LT(maxdiff(build({gate("X", {"a"}, 0), gate("H", {"a"}, 1)}, {"a"}),
                    standard_gate("H") * pauli('X')),
            kTol);
  // A longer sequence against explicit Kronecker products, multiplied right to left.
  std::mt19937_64 rng(7);
  const char* one[] = {"X", "Y", "Z", "H", "S", "T", "SX", "RX", "RY", "RZ"};
  const char* two[] = {"CNOT", "CZ", "ISWAP", "SQRT_ISWAP", "SWAP", "CPHASE"};
  std::vector<GateSpec> seq;
  CMatrix ref = CMatrix::Identity(8, 8);
  for (int k = 0; k < 24; ++k) {
    const int q = static_cast<int>(rng() % 3);
    if (rng() % 2 == 0) {
      const std::string name = one[rng() % 10];
      const double th = 0.37 * (k + 1);
      const bool rot = gate_takes_angle(name);
      seq.push_back(gate(name, {names[static_cast<std::size_t>(q)]}, k,
                         rot ? std::optional<double>(th) : std::nullopt));
      CMatrix g = rot ? rotation(name[1], th) : standard_gate(name);
      std::vector<CMatrix> f{I2, I2, I2};
      f[static_cast<std::size_t>(q)] = g;
      ref = kron_all(f) * ref;
    } else {
      const std::string name = two[rng() % 6];
      const int p = (q + 1 + static_cast<int>(rng() % 2)) % 3;  // another qubit
      const double th = 0.41 * (k + 1);
      const bool phase = gate_takes_angle(name);  // CPHASE
      seq.push_back(gate(name, {names[static_cast<std::size_t>(q)], names[static_cast<std::size_t>(p)]}, k,
                         phase ? std::optional<double>(th) : std::nullopt));
      // Reference: sum over the 4x4 entries, each a Kronecker product of |a><b| factors.
      CMatrix g4 = standard_gate(name);
      if (phase) g4 = expm(kI * th * kron(proj(1), proj(1)));
      CMatrix full = CMatrix::Zero(8, 8);
      for (int r = 0; r < 4; ++r) {
        for (int c = 0; c < 4; ++c) {
          std::vector<CMatrix> f{I2, I2, I2};
          CMatrix eq = CMatrix::Zero(2, 2), ep = CMatrix::Zero(2, 2);
          eq(r >> 1, c >> 1) = 1.0;
          ep(r & 1, c & 1) = 1.0;
          f[static_cast<std::size_t>(q)] = eq;
          f[static_cast<std::size_t>(p)] = ep;
          full += g4(r, c) * kron_all(f);
        }
      }
      ref = full * ref;
    }
  }
  EXPECT_LT(maxdiff(build(seq, names), ref), 1e-13);
}

TEST(Target, LocatedErrors) {
  try {
    resolve_target({gate("X", {"q0"}, 0), gate("CZ", {"q0", "r0"}, 1)}, {"q0", "q1"});
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key_path(), "target.gates[1].qubits");
    EXPECT_EQ(e.where().line, 8);
    EXPECT_EQ(e.where().column, 30);
    EXPECT_NE(std::string(e.what()).find("r0"), std::string::npos) << e.what();
  }
  EXPECT_THROW(resolve_target({gate("CZ", {"q0", "q0"}, 0)}, {"q0", "q1"}), InputError);
  EXPECT_THROW(resolve_target({gate("CZ", {"q0"}, 0)}, {"q0", "q1"}), InputError);
  EXPECT_THROW(resolve_target({gate("RX", {"q0"}, 0)}, {"q0"}), InputError);
  EXPECT_THROW(resolve_target({gate("X", {"q0"}, 0, 1.0)}, {"q0"}), InputError);
  EXPECT_THROW(resolve_target({gate("CPHASE", {"q0", "q1"}, 0)}, {"q0", "q1"}), InputError);  // no angle
  EXPECT_NO_THROW(resolve_target({gate("CPHASE", {"q1", "q0"}, 0, 0.3)}, {"q0", "q1"}));
  EXPECT_THROW(resolve_target({gate("CCX", {"q0"}, 0)}, {"q0"}), InputError);
  // The fidelity layer itself only checks its preconditions.
  EXPECT_THROW(static_cast<void>(build({gate("CCX", {"q0"}, 0)}, {"q0"})), std::logic_error);
}

// --- matrix_file ----------------------------------------------------------------------------

class MatrixFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("qevolve_fid_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  void write(const std::string& name, const CMatrix& m) {
    io::Hdf5Writer w((dir_ / name).string());
    w.write("/unitary", m);
    w.commit();
  }
  Config config() const {
    Config c;
    c.source_file = (dir_ / "run.yaml").string();
    c.where["target.gates[0].matrix_file"] = SourceLocation{c.source_file, 5, 20};
    return c;
  }
  static GateSpec file_gate(const std::string& file, std::vector<std::string> qubits) {
    GateSpec g;
    g.matrix_file = file;
    g.qubits = std::move(qubits);
    g.path = "target.gates[0]";
    return g;
  }
  std::filesystem::path dir_;
};

TEST_F(MatrixFile, PlacedLikeANamedGate) {
  std::mt19937_64 rng(3);
  const CMatrix g = random_unitary(4, rng);
  write("g.h5", g);
  TargetSpec t;
  t.gates = {file_gate("g.h5", {"q2", "q0"})};  // relative to the config's folder
  Config with_target = config();
  with_target.target = t;
  const CMatrix u = io::target_unitary(with_target, {"q0", "q1", "q2"});  // the file read by the stage
  const CMatrix I2 = pauli('I');
  CMatrix ref = CMatrix::Zero(8, 8);  // first listed (q2) is the gate's most significant bit
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) {
      CMatrix e2 = CMatrix::Zero(2, 2), e0 = CMatrix::Zero(2, 2);
      e2(r >> 1, c >> 1) = 1.0;
      e0(r & 1, c & 1) = 1.0;
      ref += g(r, c) * kron_all({e0, I2, e2});
    }
  EXPECT_LT(maxdiff(u, ref), 1e-14);
}

TEST_F(MatrixFile, Errors) {
  std::mt19937_64 rng(4);
  CMatrix bad = random_unitary(2, rng);
  bad(0, 0) += 1e-8;  // not unitary to 1e-10
  write("bad.h5", bad);
  write("small.h5", random_unitary(2, rng));
  auto expect_error = [&](const std::string& file, std::vector<std::string> qubits,
                          const std::string& needle) {
    try {
      resolve_target(config(), {file_gate(file, std::move(qubits))}, {"q0", "q1"});
      ADD_FAILURE() << "expected InputError for " << file;
    } catch (const InputError& e) {
      EXPECT_EQ(e.key_path(), "target.gates[0].matrix_file");
      EXPECT_EQ(e.where().line, 5);
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  expect_error("bad.h5", {"q0"}, "not unitary");
  expect_error("small.h5", {"q0", "q1"}, "2 x 2");
  expect_error("missing.h5", {"q0"}, "missing.h5");
}

}  // namespace
}  // namespace qevolve::fidelity
