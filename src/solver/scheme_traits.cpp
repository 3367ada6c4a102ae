// The schemes' table (include/qevolve/scheme_traits.hpp): one row per scheme kind, with its
// factory (make_scheme), and the questions the other layers ask of it. A new scheme adds its
// file and one row here.
#include "qevolve/scheme_traits.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string_view>

#include "qevolve/names.hpp"
#include "qevolve/text.hpp"
#include "scheme.hpp"

namespace qevolve::solver {

// The schemes' factories, one in each scheme's file (src/solver/<name>_scheme.cpp).
std::unique_ptr<Scheme> make_local_gate_scheme(const Simulator& sim, SharedCache& shared);
std::unique_ptr<Scheme> make_dense_scheme(const Simulator& sim, SharedCache& shared);
std::unique_ptr<Scheme> make_chebyshev_scheme(const Simulator& sim, SharedCache& shared);
std::unique_ptr<Scheme> make_adaptive_scheme(const Simulator& sim, SharedCache& shared);

namespace {

constexpr double kComplex = 16.0;  // bytes of a complex double
// splitting: chebyshev with a gradient keeps every term of one step's series, about
// R + 15 of them (R = pi dt times the spectral width, docs/solvers.md); counted as 64.
constexpr double kChebyshevKeptTerms = 64.0;

constexpr unsigned bit(Splitting s) { return 1u << static_cast<unsigned>(s); }
constexpr unsigned kLocal = bit(Splitting::terms) | bit(Splitting::bonds);

// --- time orders (docs/accuracy.md) --------------------------------------------------------
int midpoint_order(int order) { return std::min(order, 2); }  // Lie splitting (order 1) is first order
int second_order(int /*order*/) { return 2; }                  // expm's midpoint rule
int fourth_order(int /*order*/) { return 4; }  // magnus4: Gauss points, order-4 splitting or exact exponentials
int no_fixed_step(int /*order*/) { return 0; }  // adaptive: its error follows its tolerances

// --- working memory beside the states (src/io/resolve_memory.cpp) ---------------------------
std::vector<SchemeMemoryTerm> no_memory(const SchemeMemoryInput& /*in*/) { return {}; }
std::vector<SchemeMemoryTerm> dense_memory(const SchemeMemoryInput& in) {  // H, the exponential, Pade workspace
  return {{7.0 * in.side * in.side * kComplex, "the dense propagator needs", "evolution.solver"}};
}
std::vector<SchemeMemoryTerm> chebyshev_memory(const SchemeMemoryInput& in) {
  // H0, the step's H and one D x D operator per drive channel; the series' recurrence (three
  // blocks of the columns; the gradient keeps every term of one step and its D x D M).
  return {{(2.0 + in.channels + (in.gradient ? 1.0 : 0.0)) * in.side * in.side * kComplex,
           "the dense generator needs", "evolution.splitting"},
          {(in.gradient ? kChebyshevKeptTerms : 4.0) * in.state, "the series needs", "evolution.splitting"}};
}
std::vector<SchemeMemoryTerm> adaptive_memory(const SchemeMemoryInput& in) {  // dense H0, one operator per pulse
  return {{(1.0 + in.channels) * in.side * in.side * kComplex, "the dense propagator needs", "evolution.solver"}};
}

// --- the run summary's words after the solver's name ----------------------------------------
std::string no_summary(const Simulator& /*sim*/) { return {}; }
std::string trotter_summary(const Simulator& sim) {
  return " order " + std::to_string(sim.options().order) + " (" + counted(sim.work().gates_per_step, "local gate") +
         " per step)";
}
std::string exact_summary(const Simulator& sim) {  // splitting dense | chebyshev: exact exponentials
  return std::string(", splitting ") + enum_name(sim.options().splitting) + " (exact exponentials" +
         (sim.options().solver == Solver::trotter ? ", midpoint rule)" : ")");
}

// The table. Columns: solver, splittings, named by splitting, memory label; adjoint, open
// systems, open adjoint, steps; the executor kinds of the forward, adjoint, open and open
// adjoint paths, its splittings in words; exact static part, dt-dependent cost; time order,
// memory, summary, factory.
using backend::ExecutorKind;
constexpr backend::ExecutorKinds kGate = backend::kind_bit(ExecutorKind::gate);
constexpr backend::ExecutorKinds kDense = backend::kind_bit(ExecutorKind::dense);
constexpr backend::ExecutorKinds kAdjoint = backend::kind_bit(ExecutorKind::adjoint);
constexpr backend::ExecutorKinds kOpenAdjoint = ExecutorKind::gate | ExecutorKind::open_adjoint;  // recompute + sweep
constexpr backend::ExecutorKinds kTerms = backend::kind_bit(ExecutorKind::terms);
constexpr backend::ExecutorKinds kChebyshev = backend::kind_bit(ExecutorKind::chebyshev);
constexpr backend::ExecutorKinds kPropagator = backend::kind_bit(ExecutorKind::propagator);
constexpr backend::ExecutorKinds kChebyshevAdjoint = backend::kind_bit(ExecutorKind::chebyshev_adjoint);
constexpr backend::ExecutorKinds kDenseAdjoint = backend::kind_bit(ExecutorKind::dense_adjoint);
constexpr backend::ExecutorKinds kNone = backend::kNoExecutor;
// clang-format off
const std::array kSchemes{
  SchemeTraits{Solver::trotter,  kLocal,                    false, "",
               true,  true,  true,  true,  kGate,      kAdjoint, kGate,  kOpenAdjoint, "on local gates",
               false, false, midpoint_order, no_memory,        trotter_summary, make_local_gate_scheme},
  SchemeTraits{Solver::magnus4,  kLocal,                    false, "",
               true,  false, false, true,  kGate,      kAdjoint, kNone,  kNone,        "on local gates",
               false, false, fourth_order,   no_memory,        no_summary,      make_local_gate_scheme},
  SchemeTraits{Solver::expm,     kAnySplitting,             false, "",
               true,  true,  false, true,  kDense,     kDenseAdjoint, kPropagator, kNone,   "",
               true,  false, second_order,   dense_memory,     no_summary,      make_dense_scheme},
  SchemeTraits{Solver::trotter,  bit(Splitting::dense),     true,  " (dense)",
               true,  true,  false, true,  kDense,     kDenseAdjoint, kPropagator, kNone,   "with splitting: dense",
               true,  false, midpoint_order, dense_memory,     exact_summary,   make_dense_scheme},
  SchemeTraits{Solver::magnus4,  bit(Splitting::dense),     true,  " (dense)",
               true,  false, false, true,  kDense,     kDenseAdjoint, kNone,  kNone,        "with splitting: dense",
               true,  false, fourth_order,   dense_memory,     exact_summary,   make_dense_scheme},
  SchemeTraits{Solver::trotter,  bit(Splitting::chebyshev), true,  " (chebyshev)",
               true,  false, false, true,  kChebyshev, kChebyshevAdjoint, kNone, kNone, "with splitting: chebyshev",
               true,  true,  midpoint_order, chebyshev_memory, exact_summary,   make_chebyshev_scheme},
  SchemeTraits{Solver::magnus4,  bit(Splitting::chebyshev), true,  " (chebyshev)",
               true,  false, false, true,  kChebyshev, kChebyshevAdjoint, kNone, kNone, "with splitting: chebyshev",
               true,  true,  fourth_order,   chebyshev_memory, exact_summary,   make_chebyshev_scheme},
  SchemeTraits{Solver::adaptive, kAnySplitting,             false, "",
               false, true,  false, false, kTerms,     kNone,    kTerms, kNone,        "",
               false, false, no_fixed_step,  adaptive_memory,  no_summary,      make_adaptive_scheme},
};
// clang-format on

/// "a", "a or b", "a, b or c".
std::string or_list(const std::vector<std::string>& items) {
  std::string s;
  for (std::size_t k = 0; k < items.size(); ++k)
    s += (k == 0 ? "" : k + 1 == items.size() ? " or " : ", ") + items[k];
  return s;
}

/// The rows with `has`, named as messages name them: "solver expm, adaptive or splitting: dense"
/// (the solvers in the solver table's order, then the splittings in theirs).
std::string rows_with(bool (*has)(const SchemeTraits&)) {
  std::vector<std::string> solvers, splittings;
  for (const EnumRow<Solver>& s : enum_table<Solver>())
    for (const SchemeTraits& row : kSchemes)
      if (row.solver == s.value && !row.named_by_splitting && has(row) &&
          std::find(solvers.begin(), solvers.end(), s.name) == solvers.end())
        solvers.emplace_back(s.name);
  for (const EnumRow<Splitting>& s : enum_table<Splitting>())
    for (const SchemeTraits& row : kSchemes)
      if ((row.splittings & bit(s.value)) != 0 && row.named_by_splitting && has(row) &&
          std::find(splittings.begin(), splittings.end(), s.name) == splittings.end())
        splittings.emplace_back(s.name);
  if (!solvers.empty()) solvers.front() = "solver " + solvers.front();
  if (!splittings.empty()) splittings.front() = "splitting: " + splittings.front();
  solvers.insert(solvers.end(), splittings.begin(), splittings.end());
  return or_list(solvers);
}

/// "solver: adaptive", "splitting: chebyshev".
std::string row_name(const SchemeTraits& row, Splitting splitting) {
  return row.named_by_splitting ? std::string("splitting: ") + enum_name(splitting)
                                : std::string("solver: ") + enum_name(row.solver);
}

}  // namespace

const SchemeTraits& scheme_traits(Solver solver, Splitting splitting) {
  for (const SchemeTraits& row : kSchemes)
    if (row.solver == solver && (row.splittings & bit(splitting)) != 0) return row;
  throw std::logic_error(std::string("scheme_traits: no scheme for solver ") + enum_name(solver) + " with splitting " +
                         enum_name(splitting));
}

bool solver_has(Solver solver, bool SchemeTraits::*trait) {
  return std::any_of(kSchemes.begin(), kSchemes.end(),
                     [&](const SchemeTraits& row) { return row.solver == solver && row.*trait; });
}

std::string solvers_with(bool SchemeTraits::*trait) {
  std::vector<std::string> names;
  for (const EnumRow<Solver>& s : enum_table<Solver>())
    if (solver_has(s.value, trait)) names.emplace_back(s.name);
  return or_list(names);
}

std::string cpu_only_part(const EvolutionSpec& e, const std::string& trainable) {
  const SchemeTraits& t = scheme_traits(e);
  const bool open = e.is_open();
  const auto cuda = [](backend::ExecutorKinds kinds) { return backend::runs(ComputeDevice::cuda, kinds); };
  // Open systems on a scheme that runs them but not on CUDA (a closed-only scheme's open
  // system is the loader's refusal; its forward pass is named below).
  if (open && !cuda(t.open_uses) && (t.open_systems || cuda(t.forward_uses)))
    return "open systems with " +
           rows_with([](const SchemeTraits& r) {
             return r.open_systems && !backend::runs(ComputeDevice::cuda, r.open_uses);
           }) +
           " (evolution.noise / evolution.collapse)";
  if (!cuda(t.forward_uses)) return row_name(t, e.splitting);
  if (trainable.empty()) return {};
  if (open)
    return cuda(t.open_adjoint_uses) ? std::string()
                                     : "gradients of open systems (trainable parameters in `" + trainable + "`)";
  if (!cuda(t.adjoint_uses))
    return "gradients with " + rows_with([](const SchemeTraits& r) {
             return r.adjoint && backend::runs(ComputeDevice::cuda, r.forward_uses) &&
                    !backend::runs(ComputeDevice::cuda, r.adjoint_uses);
           }) +
           " (trainable parameters in `" + trainable + "`)";
  return {};
}

namespace {

/// One part of what_runs_on's words: the rows that have the path (`has` null: every row) and
/// run it on `device` with the paths it needs (`uses`, `before`: the forward pass it follows).
struct RunsPart {
  const char* words;
  bool SchemeTraits::*has;
  backend::ExecutorKinds SchemeTraits::*uses;
  backend::ExecutorKinds SchemeTraits::*before;
  bool all;  ///< "a, b and c" (else "a, b or c")
};

/// The part's solvers in the table's row order, and the rows' `where` when they share one and
/// another row of these solvers with the path does not run on `device`; empty: no row runs it.
std::string runs_part(ComputeDevice device, const RunsPart& p) {
  const auto has = [&](const SchemeTraits& r) { return p.has == nullptr || r.*(p.has); };
  const auto runs = [&](const SchemeTraits& r) {
    return has(r) && backend::runs(device, r.*(p.uses)) && (p.before == nullptr || backend::runs(device, r.*(p.before)));
  };
  std::vector<std::string> solvers;
  std::vector<const SchemeTraits*> rows;
  for (const SchemeTraits& r : kSchemes)
    if (runs(r)) {
      rows.push_back(&r);
      if (std::find(solvers.begin(), solvers.end(), enum_name(r.solver)) == solvers.end())
        solvers.emplace_back(enum_name(r.solver));
    }
  if (solvers.empty()) return {};
  std::string list;
  for (std::size_t k = 0; k < solvers.size(); ++k)
    list += (k == 0 ? "" : k + 1 < solvers.size() ? ", " : p.all ? " and " : " or ") + solvers[k];
  const bool one_where = std::all_of(rows.begin(), rows.end(), [&](const SchemeTraits* r) {
    return std::string_view(r->where) == rows.front()->where;
  });
  const bool partly = std::any_of(kSchemes.begin(), kSchemes.end(), [&](const SchemeTraits& r) {
    return has(r) && !runs(r) &&
           std::find(solvers.begin(), solvers.end(), enum_name(r.solver)) != solvers.end();
  });
  if (one_where && partly && *rows.front()->where != '\0') list += std::string(" ") + rows.front()->where;
  return p.words + list;
}

}  // namespace

std::string what_runs_on(ComputeDevice device) {
  const RunsPart parts[] = {
      {"", nullptr, &SchemeTraits::forward_uses, nullptr, true},
      {"gradients of closed systems with ", &SchemeTraits::adjoint, &SchemeTraits::adjoint_uses,
       &SchemeTraits::forward_uses, false},
      {"the forward pass of open systems with ", &SchemeTraits::open_systems, &SchemeTraits::open_uses, nullptr,
       false},
      {"gradients of open systems with ", &SchemeTraits::open_adjoint, &SchemeTraits::open_adjoint_uses,
       &SchemeTraits::open_uses, false},
  };
  std::vector<std::string> said;
  for (const RunsPart& p : parts)
    if (std::string s = runs_part(device, p); !s.empty()) said.push_back(std::move(s));
  std::string out = " (it runs ";
  for (std::size_t k = 0; k < said.size(); ++k)
    out += (k == 0 ? "" : k + 1 < said.size() ? ", " : ", and ") + said[k];
  return out + (said.empty() ? "nothing)" : ")");
}

}  // namespace qevolve::solver
