// Strict YAML config loading (docs/config.md): the top level, the
// sections in a fixed order, and the checks that span sections.
#include "qevolve/config_loader.hpp"

#include "config_sections.hpp"
#include "qevolve/names.hpp"
#include "qevolve/scheme_traits.hpp"
#include "yaml_source.hpp"

namespace qevolve::io {
namespace {

constexpr std::string_view kTopKeys[] = {"device", "pulses", "lines",  "evolution",
                                         "target", "optimize", "output", "ensemble"};

/// Problems that only show when two sections are read together.
void check_across(const Config& cfg) {
  const EvolutionSpec& ev = cfg.evolution;
  // What the scheme can do (its row of the schemes' table, qevolve/scheme_traits.hpp).
  const solver::SchemeTraits& scheme = solver::scheme_traits(ev);
  const std::string solver_name = enum_name(ev.solver);
  if (!scheme.adjoint) {
    if (const std::string list = cfg.first_trainable_list(); !list.empty())
      throw input_error(cfg.locate("evolution.solver"), "evolution.solver", Msg::SolverWithoutGradient,
                        {{"PATH", list},
                         {"SOLVER", solver_name},
                         {"SOLVERS", solver::solvers_with(&solver::SchemeTraits::adjoint)}});
  }
  if (ev.steps_auto && !scheme.steps)
    throw input_error(cfg.locate("evolution.steps"), "evolution.steps", Msg::StepsAutoWithoutSteps,
                      {{"SOLVER", solver_name}, {"SOLVERS", solver::solvers_with(&solver::SchemeTraits::steps)}});
  if (ev.steps_auto && !ev.error_estimate)
    throw input_error(cfg.locate("evolution.error_estimate"), "evolution.error_estimate",
                      Msg::StepsAutoWithoutEstimate);
  if (ev.steps_auto && (!cfg.target || ev.initial_states.kind != InitialStates::Kind::computational))
    throw input_error(cfg.locate("evolution.steps"), "evolution.steps", Msg::StepsAutoWithoutFidelity,
                      {{"WHY", !cfg.target ? "no target" : "initial_states is not computational"}});
  if (ev.is_open() && !solver::solver_has(ev.solver, &solver::SchemeTraits::open_systems))
    throw input_error(cfg.locate("evolution.solver"), "evolution.solver", Msg::SolverClosedOnly,
                      {{"SOLVER", solver_name}});
  if (ev.splitting == Splitting::chebyshev && ev.order_given) {
    const int natural = ev.solver == Solver::magnus4 ? 4 : 2;
    if (ev.order != natural)
      throw input_error(cfg.locate("evolution.order"), "evolution.order", Msg::ChebyshevOrder,
                        {{"ORDER", std::to_string(ev.order)},
                         {"SOLVER", std::string(enum_name(ev.solver))},
                         {"NATURAL", std::to_string(natural)}});
  }
  if (ev.solver == Solver::magnus4 && ev.order_given && ev.order != 4)
    throw input_error(cfg.locate("evolution.order"), "evolution.order", Msg::MagnusOrder,
                      {{"ORDER", std::to_string(ev.order)}});
  if (ev.splitting == Splitting::chebyshev && ev.solver != Solver::trotter && ev.solver != Solver::magnus4)
    throw input_error(cfg.locate("evolution.splitting"), "evolution.splitting", Msg::ChebyshevSolver,
                      {{"SOLVER", std::string(enum_name(ev.solver))}});
  if (ev.is_open() && !scheme.open_systems)  // the solver runs open systems (above), not with this splitting
    throw input_error(cfg.locate("evolution.splitting"), "evolution.splitting", Msg::SplittingClosedOnly,
                      {{"SPLITTING", std::string(enum_name(ev.splitting))}});
  if (cfg.target && cfg.target->compensation_trainable &&
      cfg.target->compensation == Compensation::none)
    throw input_error(cfg.locate("target.compensation_trainable"), "target.compensation_trainable",
                      Msg::CompensationTrainableNone);
}

/// The YAML of the overridden tree, after a comment naming the file and the overrides.
std::string overridden_text(const YAML::Node& root, const std::string& name, const Config& cfg) {
  YAML::Emitter out;
  out << root;
  std::string text = "# " + name + " with";
  for (const AppliedOverride& o : cfg.overrides) text += " " + o.label;
  return text + "\n" + out.c_str() + "\n";
}

/// The loader proper: every section of the (possibly overridden) tree into `cfg`.
void read_tree(const YAML::Node& root, const std::string& name, Config& cfg) {
  Doc doc(name, cfg);
  if (!root.IsMap())
    doc.fail(root.Mark(), {}, Msg::TopNotMap, {{"FOUND", describe(root)}});

  const MapView top(doc, Item{root, {}, root.Mark()});
  top.check_keys(kTopKeys);
  detail::read_device(doc, top.require("device", message(Msg::ExpectDevice)), cfg.device);
  // The lines before the pulses: a pulse's `line` must name one of them.
  if (const Item* it = top.find("lines")) detail::read_lines(doc, *it, cfg.lines);
  if (const Item* it = top.find("pulses")) detail::read_pulses(doc, *it, cfg.pulses);
  if (const Item* it = top.find("evolution")) {
    cfg.has_evolution = true;
    detail::read_evolution(doc, *it, cfg.evolution);
  }
  if (const Item* it = top.find("target")) detail::read_target(doc, *it, cfg.target.emplace());
  if (const Item* it = top.find("optimize"))
    detail::read_optimize(doc, *it, cfg.optimize.emplace());
  if (const Item* it = top.find("output")) detail::read_output(doc, *it, cfg.output);
  if (const Item* it = top.find("ensemble")) detail::read_ensemble(doc, *it, cfg.ensemble.emplace());
  check_across(cfg);
}

}  // namespace

std::string source_name(const std::string& path) { return path == "-" ? "<stdin>" : path; }

InputError source_unreadable(const std::string& path, const std::string& reason) {
  return input_error({source_name(path), 0, 0}, {}, Msg::FileUnreadable, {{"REASON", reason}});
}

std::string read_config_source(const std::string& path) {
  return path == "-" ? read_config_stream(0, source_name(path)) : read_config_file(path);
}

struct ParsedConfig::Tree {
  YAML::Node root;
};

ParsedConfig::ParsedConfig(std::string text, std::string name)
    : text_(std::move(text)), name_(std::move(name)), tree_(std::make_shared<Tree>(Tree{parse_yaml(text_, name_)})) {}

Config ParsedConfig::read(const std::vector<Override>& overrides, bool keep_text) const {
  Config cfg;
  cfg.source_file = name_;
  if (keep_text) cfg.yaml_text = text_;
  YAML::Node root = tree_->root;
  if (!overrides.empty()) {
    root.reset(YAML::Clone(tree_->root));  // the shared tree stays as parsed (reset: rebinds)
    apply_overrides(root, overrides, cfg);
    if (keep_text) cfg.yaml_text = overridden_text(root, name_, cfg);
  }
  read_tree(root, name_, cfg);
  return cfg;
}

std::string ParsedConfig::text_with(const std::vector<Override>& overrides) const {
  if (overrides.empty()) return text_;
  Config cfg;
  cfg.source_file = name_;
  YAML::Node root = YAML::Clone(tree_->root);
  apply_overrides(root, overrides, cfg);
  return overridden_text(root, name_, cfg);
}

Config parse_config(const std::string& text, const std::string& name, const std::vector<Override>& overrides) {
  // The tree itself, not a copy: YAML::Clone drops the marks, i.e. the file's locations.
  Config cfg;
  cfg.source_file = name;
  cfg.yaml_text = text;
  const YAML::Node root = parse_yaml(text, name);
  if (!overrides.empty()) {
    apply_overrides(root, overrides, cfg);
    cfg.yaml_text = overridden_text(root, name, cfg);
  }
  read_tree(root, name, cfg);
  return cfg;
}

Config load_config(const std::string& path, const std::vector<Override>& overrides) {
  return parse_config(read_config_source(path), source_name(path), overrides);
}

}  // namespace qevolve::io
