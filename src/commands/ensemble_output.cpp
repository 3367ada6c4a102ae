// An ensemble run's output (docs/output.md "Ensembles") and summary table (docs/ensembles.md).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "qevolve/names.hpp"
#include "qevolve/text.hpp"
#include "run_output.hpp"

namespace qevolve::commands {

void write_ensemble(io::Hdf5Writer& w, const EnsembleReport& e) {
  w.write("/ensemble/fidelity", e.fidelity);
  w.write("/ensemble/fidelity_uncompensated", e.fidelity_uncompensated);
  w.write("/ensemble/leakage", e.leakage);
  w.write("/ensemble/weights", e.weights);
  w.write("/ensemble/overrides", e.overrides);
  bool any_error = false;
  for (double x : e.step_error) any_error = any_error || !std::isnan(x);
  if (any_error) w.write("/ensemble/fidelity_error_steps", e.step_error);
  // The objective's bound (docs/ensembles.md "Objectives"): mean sum_k w_k e_k, worst e_worst.
  if (!std::isnan(e.objective_step_error)) w.attribute("fidelity_error_steps", e.objective_step_error);
  w.write("/ensemble/steps", e.steps);
  w.attribute("objective", e.objective, "/ensemble/fidelity");
  w.attribute("worst", static_cast<long long>(e.worst), "/ensemble/fidelity");
  if (!e.start_fidelity.empty()) {
    w.write("/ensemble/start_fidelity", e.start_fidelity);
    w.write("/ensemble/start_leakage", e.start_leakage);
  }
  for (std::size_t k = 0; k < e.unitaries.size(); ++k) w.write("/ensemble/unitaries/" + std::to_string(k), e.unitaries[k]);
}

void print_ensemble(std::ostream& out, const EnsembleReport& e, const fidelity::FidelityResult& objective) {
  char line[512];
  const std::size_t K = e.fidelity.size();
  std::snprintf(line, sizeof line, "ensemble: %s, objective %s (weights normalised to sum 1); %ld device build%s\n",
                counted(K, "member").c_str(), e.objective.c_str(), e.device_builds, e.device_builds == 1 ? "" : "s");
  out << line;
  std::snprintf(line, sizeof line, "  %4s  %-8s  %-14s  %-10s  %-10s  %-8s  %-6s  %s\n", "#", "weight", "F",
                "1 - F", "leakage", "error", "steps", "overrides");
  out << line;
  for (std::size_t k = 0; k < K; ++k) {
    char error[16] = "-";
    if (!std::isnan(e.step_error[k])) std::snprintf(error, sizeof error, "%.1e", e.step_error[k]);
    std::snprintf(line, sizeof line, "  %4zu  %-8.4g  %.12f  %-10.4e  %-10.4e  %-8s  %-6lld  %s%s\n", k, e.weights[k],
                  e.fidelity[k], 1.0 - e.fidelity[k], e.leakage[k], error, e.steps[k], e.overrides[k].c_str(),
                  static_cast<std::int64_t>(k) == e.worst ? "  (worst)" : "");
    out << line;
  }
  char error[64] = "";
  if (!std::isnan(e.objective_step_error))
    std::snprintf(error, sizeof error, " \u00b1 %.1e (steps)", e.objective_step_error);
  std::snprintf(line, sizeof line,
                "fidelity: F = %.12f%s (1 - F = %.4e) = the %s, uncompensated F = %.12f, compensation %s\n",
                objective.fidelity, error, 1.0 - objective.fidelity,
                e.objective == "worst" ? "worst member's" : "members' weighted mean", objective.fidelity_uncompensated,
                enum_name(objective.compensation));
  out << line;
  std::snprintf(line, sizeof line, "leakage: %.4e (%s)\n", objective.leakage,
                e.objective == "worst" ? "the worst member's" : "weighted mean");
  out << line;
  if (e.start_fidelity.size() == K) {  // optimize: the same members at the start point
    double mean = 0.0, worst = 1.0;
    for (std::size_t k = 0; k < K; ++k) {
      mean += e.weights[k] * e.start_fidelity[k];
      worst = std::min(worst, e.start_fidelity[k]);
    }
    std::snprintf(line, sizeof line, "ensemble at the start point: mean 1 - F = %.4e, worst 1 - F = %.4e\n",
                  1.0 - mean, 1.0 - worst);
    out << line;
  }
}

}  // namespace qevolve::commands
