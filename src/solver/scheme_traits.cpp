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
// systems, open adjoint, steps; CUDA forward, adjoint, open; exact static part, dt-dependent
// cost; time order, memory, summary, factory. (magnus4 runs no open system; its local gates
// would run one on CUDA as trotter's do.)
// clang-format off
const std::array kSchemes{
  SchemeTraits{Solver::trotter,  kLocal,                    false, "",
               true,  true,  true,  true,  true,  true,  true,  false, false,
               midpoint_order, no_memory,        trotter_summary, make_local_gate_scheme},
  SchemeTraits{Solver::magnus4,  kLocal,                    false, "",
               true,  false, false, true,  true,  true,  true,  false, false,
               fourth_order,   no_memory,        no_summary,      make_local_gate_scheme},
  SchemeTraits{Solver::expm,     kAnySplitting,             false, "",
               true,  true,  false, true,  true,  false, false, true,  false,
               second_order,   dense_memory,     no_summary,      make_dense_scheme},
  SchemeTraits{Solver::trotter,  bit(Splitting::dense),     true,  " (dense)",
               true,  true,  false, true,  true,  false, false, true,  false,
               midpoint_order, dense_memory,     exact_summary,   make_dense_scheme},
  SchemeTraits{Solver::magnus4,  bit(Splitting::dense),     true,  " (dense)",
               true,  false, false, true,  true,  false, false, true,  false,
               fourth_order,   dense_memory,     exact_summary,   make_dense_scheme},
  SchemeTraits{Solver::trotter,  bit(Splitting::chebyshev), true,  " (chebyshev)",
               true,  false, false, true,  false, false, false, true,  true,
               midpoint_order, chebyshev_memory, exact_summary,   make_chebyshev_scheme},
  SchemeTraits{Solver::magnus4,  bit(Splitting::chebyshev), true,  " (chebyshev)",
               true,  false, false, true,  false, false, false, true,  true,
               fourth_order,   chebyshev_memory, exact_summary,   make_chebyshev_scheme},
  SchemeTraits{Solver::adaptive, kAnySplitting,             false, "",
               false, true,  false, false, false, false, false, false, false,
               no_fixed_step,  adaptive_memory,  no_summary,      make_adaptive_scheme},
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
  // Open systems on a scheme that runs them but not on CUDA (a closed-only scheme's open
  // system is the loader's refusal; its forward pass is named below).
  if (open && !t.cuda_open && (t.open_systems || t.cuda_forward))
    return "open systems with " +
           rows_with([](const SchemeTraits& r) { return r.open_systems && !r.cuda_open; }) +
           " (evolution.noise / evolution.collapse)";
  if (!t.cuda_forward) return row_name(t, e.splitting);
  if (trainable.empty()) return {};
  if (open) return "gradients of open systems (trainable parameters in `" + trainable + "`)";
  if (!t.cuda_adjoint)
    return "gradients with " +
           rows_with([](const SchemeTraits& r) { return r.adjoint && r.cuda_forward && !r.cuda_adjoint; }) +
           " (trainable parameters in `" + trainable + "`)";
  return {};
}

}  // namespace qevolve::solver
