// The `evolution` section (docs/solvers.md "Time stepping", "Bases and frames", "Open systems").
#include <climits>
#include <set>

#include "physical_ranges.hpp"
#include "config_sections.hpp"

namespace qevolve::io::detail {
namespace {

constexpr std::string_view kEvolutionKeys[] = {
    "solver", "order", "splitting", "steps",          "duration",  "rtol",   "atol",
    "basis",  "frame", "precision", "initial_states", "device",    "noise", "collapse",
    "tolerance", "error_estimate"};
constexpr std::string_view kCollapseKeys[] = {"qubit", "operator", "matrix", "rate"};
constexpr std::string_view kCollapseOperators[] = {"lowering", "number", "phi", "n", "x", "y", "matrix"};
constexpr std::string_view kNoiseKeys[] = {"t1", "tphi", "optimize"};
constexpr std::string_view kNoiseParams[] = {"t1", "tphi"};

constexpr long long kOrders[] = {1, 2, 4};

InitialStates read_initial_states(Doc& doc, const Item& item) {
  InitialStates states;
  if (!item.node.IsSequence()) {
    if (item.node.IsMap())
      doc.fail(item.mark(), item.path, Msg::WrongType,
               {{"FOUND", describe(item.node)}, {"EXPECTED", message(Msg::ExpectInitialStates)}});
    states.kind = get_enum(doc, item, enum_table<InitialStates::Kind>());
    return states;
  }
  const std::string want = message(Msg::ExpectInitialStates);
  states.kind = InitialStates::Kind::list;
  const std::vector<Item> labels = get_list(doc, item, want);
  if (labels.empty()) doc.fail(item.mark(), item.path, Msg::EmptyList, {{"EXPECTED", want}});
  std::set<std::string> seen;
  for (const Item& l : labels) {
    const std::string& text = get_scalar(doc, l, want);
    const bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
    if (!digits) doc.fail(l.mark(), l.path, Msg::BadLabel, {{"VALUE", text}});
    const std::string& first = states.labels.empty() ? text : states.labels.front();
    if (text.size() != first.size())
      doc.fail(l.mark(), l.path, Msg::LabelLength,
               {{"VALUE", text},
                {"COUNT", std::to_string(text.size())},
                {"FIRST", std::to_string(first.size())}});
    if (!seen.insert(text).second) doc.fail(l.mark(), l.path, Msg::DuplicateLabel, {{"VALUE", text}});
    states.labels.push_back(text);
  }
  return states;
}

std::vector<NoiseSpec> read_noise(Doc& doc, const Item& item) {
  const MapView m(doc, item);
  if (m.entries().empty()) doc.fail(m.mark(), m.path(), Msg::EmptyNoise);
  std::vector<NoiseSpec> out;
  for (const auto& [name, entry] : m.entries()) {
    check_name(doc, name, entry.anchor, entry.path);
    const MapView rates(doc, entry);
    rates.check_keys(kNoiseKeys);
    NoiseSpec n;
    n.qubit = name;
    if (const Item* t1 = rates.find("t1")) n.t1 = get_number(doc, *t1, physical::kCoherenceTime);
    if (const Item* tp = rates.find("tphi")) n.tphi = get_number(doc, *tp, physical::kCoherenceTime);
    if (!n.t1 && !n.tphi) doc.fail(rates.mark(), rates.path(), Msg::NoNoiseRate);
    if (const Item* o = rates.find("optimize")) {
      n.optimize = read_trainables(doc, *o, kNoiseParams, message(Msg::ContextNoise));
      for (std::size_t k = 0; k < n.optimize.size(); ++k)
        if ((n.optimize[k] == "t1" && !n.t1) || (n.optimize[k] == "tphi" && !n.tphi))
          doc.fail(o->mark(), o->path, Msg::TrainableRateMissing, {{"NAME", n.optimize[k]}});
    }
    out.push_back(std::move(n));
  }
  return out;
}

std::vector<CollapseSpec> read_collapse(Doc& doc, const Item& item) {
  std::vector<CollapseSpec> out;
  for (const Item& entry : get_list(doc, item, message(Msg::ExpectList))) {
    const MapView m(doc, entry);
    m.check_keys(kCollapseKeys);
    CollapseSpec c;
    c.path = entry.path;
    c.qubit = get_name(doc, m.require("qubit", message(Msg::ExpectString)));
    const Item& op = m.require("operator", message(Msg::ExpectString));
    c.op = std::string(kCollapseOperators[get_choice(doc, op, kCollapseOperators)]);
    c.rate = get_number(doc, m.require("rate", physical::kRate.text()), physical::kRate);
    const Item* matrix = m.find("matrix");
    if (c.op == "matrix" && matrix == nullptr) doc.fail(op.mark(), op.path, Msg::CollapseMatrixMissing);
    if (c.op != "matrix" && matrix != nullptr)
      doc.fail(matrix->anchor, matrix->path, Msg::CollapseMatrixUnused, {{"OPERATOR", c.op}});
    if (matrix != nullptr) {
      for (const Item& row : get_list(doc, *matrix, message(Msg::ExpectList))) {
        auto& r = c.matrix.emplace_back();
        for (const Item& x : get_list(doc, row, message(Msg::ExpectList)))
          r.push_back(get_number(doc, x, Range::any()));
      }
      for (std::size_t i = 0; i < c.matrix.size(); ++i)
        if (c.matrix[i].size() != c.matrix.size())
          doc.fail(matrix->mark(), matrix->path, Msg::CollapseMatrixNotSquare,
                   {{"ROWS", std::to_string(c.matrix.size())}, {"ROW", std::to_string(i)},
                    {"COLS", std::to_string(c.matrix[i].size())}});
      if (c.matrix.empty()) doc.fail(matrix->mark(), matrix->path, Msg::CollapseMatrixNotSquare,
                                     {{"ROWS", "0"}, {"ROW", "0"}, {"COLS", "0"}});
    }
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace

void read_evolution(Doc& doc, const Item& item, EvolutionSpec& ev) {
  const MapView m(doc, item);
  m.check_keys(kEvolutionKeys);
  if (const Item* it = m.find("solver")) ev.solver = get_enum(doc, *it, enum_table<Solver>());
  if (const Item* it = m.find("order")) {
    ev.order = static_cast<int>(get_int_choice(doc, *it, kOrders));
    ev.order_given = true;
  }
  if (const Item* it = m.find("splitting")) ev.splitting = get_enum(doc, *it, enum_table<Splitting>());
  if (const Item* it = m.find("steps")) {
    ev.steps_auto = it->node.IsScalar() && it->node.Scalar() == "auto";
    if (!ev.steps_auto) ev.steps = static_cast<int>(get_integer(doc, *it, 1, INT_MAX));
  }
  if (const Item* it = m.find("tolerance")) ev.tolerance = get_number(doc, *it, Range::open_closed(0.0, 0.1));
  if (const Item* it = m.find("error_estimate")) ev.error_estimate = get_bool(doc, *it);
  if (const Item* it = m.find("duration")) ev.duration = get_number(doc, *it, physical::kDuration);
  if (const Item* it = m.find("rtol")) ev.rtol = get_number(doc, *it, Range::gt(0.0));
  if (const Item* it = m.find("atol")) ev.atol = get_number(doc, *it, Range::gt(0.0));
  if (const Item* it = m.find("basis")) ev.basis = get_enum(doc, *it, enum_table<Basis>());
  if (const Item* it = m.find("frame")) ev.frame = get_enum(doc, *it, enum_table<Frame>());
  if (const Item* it = m.find("initial_states")) ev.initial_states = read_initial_states(doc, *it);
  if (const Item* it = m.find("precision")) ev.precision = get_enum(doc, *it, enum_table<Precision>());
  if (const Item* it = m.find("device")) ev.device = get_enum(doc, *it, enum_table<ComputeDevice>());
  if (const Item* it = m.find("noise")) ev.noise = read_noise(doc, *it);
  if (const Item* it = m.find("collapse")) ev.collapse = read_collapse(doc, *it);
}

}  // namespace qevolve::io::detail
