// `qevolve converge`'s input rules (include/qevolve/resolve.hpp; docs/accuracy.md "qevolve
// converge"): the tolerance, a solver with steps, a fidelity to converge, and every mode's
// first refinement possible. The search itself (its levels, its memory estimate) is the
// command's (src/commands/converge_search.cpp), which calls these before any work.
#include <cstdio>
#include <string>

#include "messages.hpp"
#include "qevolve/config.hpp"
#include "qevolve/names.hpp"
#include "qevolve/resolve.hpp"
#include "qevolve/scheme_traits.hpp"

namespace qevolve::io {

void check_converge(const Config& config, double tolerance, const std::string& tolerance_key,
                    double max_tolerance) {
  if (!(tolerance > 0.0 && tolerance <= max_tolerance)) {
    char value[40], max[40];
    std::snprintf(value, sizeof value, "%g", tolerance);
    std::snprintf(max, sizeof max, "%g", max_tolerance);
    throw input_error({}, tolerance_key, Msg::ConvergeTolerance,
                      {{"TOLERANCE", value}, {"MAX", max}});
  }
  const EvolutionSpec& ev = config.evolution;
  if (!solver::scheme_traits(ev).steps)
    fail(config, "evolution.solver", Msg::ConvergeSolverSteps,
         {{"SOLVER", enum_name(ev.solver)},
          {"SOLVERS", solver::solvers_with(&solver::SchemeTraits::steps)}});
  if (!config.target || ev.initial_states.kind != InitialStates::Kind::computational)
    fail(config, config.target ? "evolution.initial_states" : "target", Msg::ConvergeNeedsFidelity,
         {{"WHY", message(config.target ? Msg::ContextNotComputational : Msg::ContextNoTarget)}});
}

void check_converge_refinement(const Config& config, const std::string& key,
                               const std::string& mode, int levels, int to, int max_levels,
                               const std::string& problem) {
  if (to == levels)
    fail(config, key, Msg::ConvergeLevelsCap,
         {{"NAME", mode}, {"LEVELS", std::to_string(levels)}, {"MAX", std::to_string(max_levels)}});
  if (!problem.empty())
    fail(config, key, Msg::ConvergeRefinement,
         {{"NAME", mode},
          {"FROM", std::to_string(levels)},
          {"TO", std::to_string(to)},
          {"PROBLEM", problem}});
}

}  // namespace qevolve::io
