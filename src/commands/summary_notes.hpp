// What `run` and `optimize` tell the user besides the numbers (docs/cli.md "Progress and
// summary"): the values `auto` and the shape rules resolved to (also stored as /resolved), the
// control line each pulse goes through, the step-size check on the fastest phase per step, and
// the lab-frame hint (the lines' warnings: line_warnings.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "qevolve/config.hpp"
#include "qevolve/simulator.hpp"

namespace qevolve::commands {

/// One resolved number: key path ("pulses[0].amplitude"), value, unit, and why it was not
/// given ("auto", "derived").
struct ResolvedValue {
  std::string key;
  double value = 0.0;
  std::string unit;
  std::string how;
};

/// Every `amplitude: auto` / `frequency: auto*`, every shape key the pulse derived from the
/// given ones (rampcos, trapezoid: the third of duration/ramp/plateau; gaussian: of
/// duration/sigma/c), and evolution.duration when it was not given; config order.
[[nodiscard]] std::vector<ResolvedValue> resolved_values(const Config& config, const solver::Simulator& sim);

/// One summary line per control line some pulse goes through (docs/lines.md), without its
/// newline: `lines: pulses[0], pulses[2] through zline (2.4 GS/s; gaussian 0.5 ns, highpass
/// 1000 ns; predistorted)`, the line's values as the simulator holds them; none without lines.
[[nodiscard]] std::vector<std::string> line_notes(const solver::Simulator& sim);

/// The step-size check: phi_m = 2 pi dt max(E_1 - E_0 of mode m, |f_p| of every pulse on m),
/// the fastest phase a fixed step has to follow on mode m: its own precession and the carrier
/// of its drive (the solvers always integrate in the lab frame; the rotating frame is applied
/// to the result).
inline constexpr double kMaxPhasePerStep = 0.5;  // rad

struct StepPhase {
  double phase = 0.0;      ///< rad, the largest phi_m
  std::string mode;        ///< the mode of it
  double frequency = 0.0;  ///< GHz, the rate behind it
  long long steps_needed = 0;  ///< the fewest steps with phi_m <= kMaxPhasePerStep
};

/// The fastest phase per step and its mode; empty for the adaptive solver (error-controlled)
/// and when nothing moves.
[[nodiscard]] std::optional<StepPhase> fastest_step_phase(const solver::Simulator& sim);

/// docs/cli.md "The step-size warning" without its `qevolve: warning: ` prefix and newline, or
/// empty when the fastest phase per step is within kMaxPhasePerStep. `where` (a sweep's point)
/// is named after the numbers when not empty.
[[nodiscard]] std::string step_size_warning(const solver::Simulator& sim, const std::string& where = {});

/// A two-qubit phase gate's conditional phase: phase = arg(U_00 U_11 conj(U_01) conj(U_10)) of
/// the computational block before compensation (single-qubit Z phases cancel in it), in
/// (-pi, pi]; target = pi for CZ, a CPHASE's angle wrapped into (-pi, pi].
struct ConditionalPhase {
  double phase = 0.0;
  double target = 0.0;
};
/// Set when the target is one CZ or CPHASE gate, the computational space that of two qubits
/// (d = 4) and `unitary` its 4 x 4 block (closed systems).
[[nodiscard]] std::optional<ConditionalPhase> conditional_phase(const Config& config, const CMatrix& unitary);

/// Whether the lab-frame hint applies: frame lab, a fidelity with compensation none.
[[nodiscard]] bool lab_frame_hint_applies(const solver::Simulator& sim, const Config& config);

}  // namespace qevolve::commands
