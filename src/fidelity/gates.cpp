// Target gates (docs/fidelity.md "Targets", docs/config.md "`target`"): named gates, matrix_file
// gates, and their composition into the target unitary.
#include <algorithm>
#include <cmath>
#include <numbers>

#include "qevolve/error.hpp"
#include "qevolve/fidelity.hpp"

namespace qevolve::fidelity {

CMatrix standard_gate(const std::string& name, double angle) {
  const cplx I(0.0, 1.0);
  const double r2 = 1.0 / std::numbers::sqrt2;
  const double c = std::cos(0.5 * angle), s = std::sin(0.5 * angle);
  precondition(gate_arity(name) != 0, "standard_gate", "target.gates", "an unknown gate");
  CMatrix m;
  if (gate_arity(name) == 1) {
    m.resize(2, 2);
    if (name == "I")
      m << 1.0, 0.0, 0.0, 1.0;
    else if (name == "X")
      m << 0.0, 1.0, 1.0, 0.0;
    else if (name == "Y")
      m << 0.0, -I, I, 0.0;
    else if (name == "Z")
      m << 1.0, 0.0, 0.0, -1.0;
    else if (name == "H")
      m << r2, r2, r2, -r2;
    else if (name == "S")
      m << 1.0, 0.0, 0.0, I;
    else if (name == "T")
      m << 1.0, 0.0, 0.0, std::polar(1.0, std::numbers::pi / 4.0);
    else if (name == "SX")
      m << 0.5 * (1.0 + I), 0.5 * (1.0 - I), 0.5 * (1.0 - I), 0.5 * (1.0 + I);
    else if (name == "RX")
      m << c, -I * s, -I * s, c;
    else if (name == "RY")
      m << c, -s, s, c;
    else
      m << std::polar(1.0, -0.5 * angle), 0.0, 0.0, std::polar(1.0, 0.5 * angle);  // RZ
    return m;
  }
  m = CMatrix::Identity(4, 4);  // a two-qubit gate
  if (name == "CNOT") {
    m(2, 2) = m(3, 3) = 0.0;
    m(2, 3) = m(3, 2) = 1.0;
  } else if (name == "CZ") {
    m(3, 3) = -1.0;
  } else if (name == "CPHASE") {
    m(3, 3) = std::polar(1.0, angle);  // diag(1, 1, 1, e^{i angle})
  } else if (name == "SWAP") {
    m(1, 1) = m(2, 2) = 0.0;
    m(1, 2) = m(2, 1) = 1.0;
  } else if (name == "ISWAP") {
    m(1, 1) = m(2, 2) = 0.0;
    m(1, 2) = m(2, 1) = I;
  } else {  // SQRT_ISWAP: principal root of the {01, 10} block iX = exp(i pi/2 X)
    m(1, 1) = m(2, 2) = r2;
    m(1, 2) = m(2, 1) = I * r2;
  }
  return m;
}

void apply_gate(CMatrix& u, const CMatrix& gate, const std::vector<int>& qubits, int num_qubits) {
  const int k = static_cast<int>(qubits.size());
  const Index g = Index{1} << k;
  if (gate.rows() != g || gate.cols() != g || (Index{1} << num_qubits) != u.rows())
    throw Error("apply_gate: size mismatch");
  // Offsets of the gate's basis states (first listed qubit = most significant gate bit).
  std::vector<Index> offset(static_cast<std::size_t>(g), 0);
  Index mask = 0;
  for (Index j = 0; j < g; ++j)
    for (int t = 0; t < k; ++t)
      if ((j >> (k - 1 - t)) & 1)
        offset[static_cast<std::size_t>(j)] |=
            Index{1} << (num_qubits - 1 - qubits[static_cast<std::size_t>(t)]);
  for (int t = 0; t < k; ++t)
    mask |= Index{1} << (num_qubits - 1 - qubits[static_cast<std::size_t>(t)]);
  CVector in(g), out(g);
  for (Index col = 0; col < u.cols(); ++col) {
    for (Index base = 0; base < u.rows(); ++base) {
      if (base & mask) continue;
      for (Index j = 0; j < g; ++j) in(j) = u(base + offset[static_cast<std::size_t>(j)], col);
      out.noalias() = gate * in;
      for (Index j = 0; j < g; ++j) u(base + offset[static_cast<std::size_t>(j)], col) = out(j);
    }
  }
}

CMatrix target_unitary(const TargetSpec& target, const std::vector<std::string>& qubit_names,
                       const std::vector<CMatrix>& file_gates) {
  const int n = static_cast<int>(qubit_names.size());
  const Index d = Index{1} << n;
  CMatrix u = CMatrix::Identity(d, d);
  for (std::size_t k = 0; k < target.gates.size(); ++k) {
    const GateSpec& g = target.gates[k];
    // The gate, its angle, its qubits and their count are the resolution stage's checks
    // (io::resolve: UnknownGate, NotAQubit, GateQubitCount, GateMatrixShape); asserted here.
    const bool from_file = g.gate.empty();
    const std::string qkey = g.path + ".qubits";
    std::vector<int> pos;
    for (const std::string& name : g.qubits) {
      const auto it = std::find(qubit_names.begin(), qubit_names.end(), name);
      precondition(it != qubit_names.end(), "target_unitary", qkey, "a gate on a mode that is not a qubit of the device");
      pos.push_back(static_cast<int>(it - qubit_names.begin()));
    }
    precondition(!from_file || (k < file_gates.size() && file_gates[k].size() > 0), "target_unitary", g.path,
                 "a matrix_file gate whose matrix was not read");
    const CMatrix gate = from_file ? file_gates[k] : standard_gate(g.gate, g.angle.value_or(0.0));
    precondition(gate.rows() == Index{1} << pos.size(), "target_unitary", qkey,
                 "a gate on another number of qubits than listed");
    apply_gate(u, gate, pos, n);  // U_t <- G U_t: later gates act after earlier ones
  }
  return u;
}

}  // namespace qevolve::fidelity
