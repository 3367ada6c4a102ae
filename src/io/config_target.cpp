// The `target`, `optimize` and `output` sections (docs/fidelity.md, docs/gradients.md, docs/optimize.md).
#include <climits>
#include <set>

#include "config_sections.hpp"
#include "qevolve/gates.hpp"

namespace qevolve::io::detail {
namespace {

constexpr std::string_view kTargetKeys[] = {"gates", "compensation", "compensation_trainable"};
constexpr std::string_view kGateKeys[] = {"gate", "angle", "matrix_file", "qubits"};
constexpr std::string_view kRotationKeys[] = {"gate", "angle", "qubits"};
constexpr std::string_view kFixedGateKeys[] = {"gate", "qubits"};
constexpr std::string_view kMatrixGateKeys[] = {"matrix_file", "qubits"};
constexpr std::string_view kOptimizeKeys[] = {"method", "max_iterations", "target_infidelity",
                                              "learning_rate", "checkpoint", "leakage_weight"};
constexpr std::string_view kOutputKeys[] = {"file", "trace", "ensemble_unitaries"};
constexpr std::string_view kTraceKeys[] = {"every", "times"};

GateSpec read_gate(Doc& doc, const Item& item) {
  const MapView m(doc, item);
  m.check_keys(kGateKeys);
  GateSpec g;
  g.path = item.path;
  const Item* name = m.find("gate");
  const Item* file = m.find("matrix_file");
  if (name != nullptr && file != nullptr) doc.fail(m.mark(), m.path(), Msg::GateBoth);
  if (name == nullptr && file == nullptr) doc.fail(m.mark(), m.path(), Msg::GateMissing);
  std::span<const std::string_view> applicable = kMatrixGateKeys;
  std::string context = message(Msg::ContextMatrixGate);
  if (name != nullptr) {
    const std::vector<std::string_view> gates = gate_names();
    g.gate = std::string(gates[get_choice(doc, *name, gates)]);
    const bool rotation = gate_takes_angle(g.gate);
    applicable = rotation ? std::span<const std::string_view>(kRotationKeys) : kFixedGateKeys;
    context = message(Msg::ContextGate, {{"GATE", g.gate}});
  } else {
    g.matrix_file = get_string(doc, *file);
  }
  m.check_keys(applicable, kGateKeys, context);
  if (gate_takes_angle(g.gate))
    g.angle = get_number(doc, m.require("angle", message(Msg::ExpectAngle)), Range::any("rad"));

  const std::string want = message(Msg::ExpectGateQubits);
  const Item& q = m.require("qubits", want);
  const std::vector<Item> qubits = get_list(doc, q, want);
  std::set<std::string> seen;
  for (const Item& e : qubits) {
    std::string n = get_name(doc, e);
    if (!seen.insert(n).second) doc.fail(e.mark(), e.path, Msg::DuplicateGateQubit, {{"NAME", n}});
    g.qubits.push_back(std::move(n));
  }
  if (g.gate.empty()) {
    if (qubits.empty()) doc.fail(q.mark(), q.path, Msg::EmptyList, {{"EXPECTED", want}});
  } else {
    const auto arity = static_cast<std::size_t>(gate_arity(g.gate));
    if (qubits.size() != arity)
      doc.fail(q.mark(), q.path, arity == 2 ? Msg::GateArityTwo : Msg::GateArityOne,
               {{"GATE", g.gate}, {"COUNT", std::to_string(qubits.size())}});
  }
  return g;
}

}  // namespace

void read_target(Doc& doc, const Item& item, TargetSpec& target) {
  const MapView m(doc, item);
  m.check_keys(kTargetKeys);
  const Item& gates = m.require("gates", message(Msg::ExpectGates));
  for (const Item& g : get_list(doc, gates, message(Msg::ExpectGates)))
    target.gates.push_back(read_gate(doc, g));
  if (const Item* it = m.find("compensation"))
    target.compensation = get_enum(doc, *it, enum_table<Compensation>());
  if (const Item* it = m.find("compensation_trainable"))
    target.compensation_trainable = get_bool(doc, *it);
}

void read_optimize(Doc& doc, const Item& item, OptimizeSpec& opt) {
  const MapView m(doc, item);
  m.check_keys(kOptimizeKeys);
  if (const Item* it = m.find("method")) opt.method = get_enum(doc, *it, enum_table<OptimizerMethod>());
  if (const Item* it = m.find("max_iterations"))
    opt.max_iterations = static_cast<int>(get_integer(doc, *it, 1, INT_MAX));
  if (const Item* it = m.find("target_infidelity"))
    opt.target_infidelity = get_number(doc, *it, Range::open(0.0, 1.0));
  if (const Item* it = m.find("learning_rate"))
    opt.learning_rate = get_number(doc, *it, Range::gt(0.0));
  if (const Item* it = m.find("checkpoint")) opt.checkpoint = get_string(doc, *it);
  if (const Item* it = m.find("leakage_weight")) opt.leakage_weight = get_number(doc, *it, Range::ge(0.0));
}

void read_output(Doc& doc, const Item& item, OutputSpec& out) {
  const MapView m(doc, item);
  m.check_keys(kOutputKeys);
  if (const Item* it = m.find("file")) out.file = get_string(doc, *it);
  if (const Item* it = m.find("ensemble_unitaries")) out.ensemble_unitaries = get_bool(doc, *it);
  if (const Item* it = m.find("trace")) {
    const MapView t(doc, *it);
    t.check_keys(kTraceKeys);
    if (const Item* e = t.find("every")) out.trace.every = static_cast<int>(get_integer(doc, *e, 1, INT_MAX));
    if (const Item* e = t.find("times"))
      for (const Item& x : get_list(doc, *e, "a list of times in ns"))
        out.trace.times.push_back(get_number(doc, x, Range::ge(0.0, "ns")));
  }
}

}  // namespace qevolve::io::detail
