// The wall-time estimate of a run (docs/cli.md "Time estimate"): printed by `check` and by
// `run` before it starts. The work is counted per phase (build, evolution per step, fidelity,
// gradient per step, output) and timed on this machine by a probe: the same config evolved for
// a few steps with the same solver, device, columns and threads; the per-step costs are
// extrapolated to the configured steps. Probe results are cached (XDG cache folder) per kind of
// work, and every completed run refines the cache with what it measured.
#pragma once

#include <optional>
#include <string>

#include "qevolve/config.hpp"
#include "qevolve/memory_estimate.hpp"

namespace qevolve::solver {
class Simulator;
}

namespace qevolve::commands {

struct TimeEstimate {
  double startup = 0.0;       ///< the process's start-up and config loading: its age when estimated, s
  double build = 0.0;         ///< device and simulator build, s
  double evolve_step = 0.0;   ///< forward pass per step (all columns), s
  double once = 0.0;          ///< what a run costs once besides build and output (fidelity, compensation), s
  double gradient_step = 0.0; ///< adjoint pass per step, s (0 without trainable parameters)
  double output = 0.0;        ///< the HDF5 file (with /energies up to D = 4096), s
  double flops_per_step = 0.0;  ///< forward flops per step where the solver counts them (0: not counted)
  int steps = 0;              ///< the configured steps
  int check_steps = 0;        ///< the step-error estimate's coarser run (docs/accuracy.md; 0: none)
  int probe_steps = 0;        ///< steps of the probe (0: taken from the cache; -1: the run's own
                              ///< first steps, splitting: chebyshev)
  [[nodiscard]] double evolve() const { return evolve_step * steps; }
  [[nodiscard]] double gradient() const { return gradient_step * steps; }
  [[nodiscard]] double check() const { return evolve_step * check_steps; }
  int members = 1;            ///< an ensemble's members: each a run on the nominal's figures (docs/ensembles.md)
  /// An ensemble: the members' runs and the nominal's build besides.
  [[nodiscard]] double total() const {
    return startup + members * (build + evolve() + check() + once + gradient()) + (members > 1 ? build : 0.0) + output;
  }
};

/// The estimate of `qevolve run` of `config` (with its gradient when something is trainable)
/// on `threads` threads; `memory`: the resolution stage's estimate (its D and columns size the
/// output file), `writes_output`: an HDF5 file is written. nullopt where there is none
/// (solver adaptive: its steps are chosen as it runs), and, without a cached estimate, when a
/// quick look (build and a 4-step forward pass, extrapolated) gives less than `refine_above`
/// seconds (`run` asks for 10 s: a shorter run is over before an estimate helps, and the full
/// probe would cost it too much).
/// Serial: call it on one rank.
[[nodiscard]] std::optional<TimeEstimate> estimate_run_time(const Config& config, int threads,
                                                          const io::MemoryEstimate& memory, bool writes_output,
                                                          double refine_above = 0.0);

/// One line: "about 22 s (build 0.02 s, evolution 800 steps x 28 ms, ... ; measured here by a
/// 16-step probe)".
[[nodiscard]] std::string describe(const TimeEstimate& estimate);

/// Seconds in words: "0.4 s", "22 s", "3.5 min", "2.1 h".
[[nodiscard]] std::string duration_text(double seconds);

/// After a run: what it measured replaces the cached probe of the same kind of work.
void remember_run_time(const Config& config, int threads, double build, double evolve, double once,
                       double gradient);

}  // namespace qevolve::commands
