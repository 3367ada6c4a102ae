// What a GradientProblem is built from (docs/architecture.md "Call order"): the resolution
// stage's plan for gradients (io::gradient_plan, include/qevolve/plan.hpp) -- the evolution
// plan with every `auto` value resolved, the resolved device that device parameters move, the
// trainable parameters with their ranges and scales, and the objective with its target read.
#pragma once

#include <vector>

#include "qevolve/device.hpp"
#include "qevolve/device_derivative.hpp"
#include "qevolve/evolution_plan.hpp"
#include "qevolve/fidelity.hpp"
#include "qevolve/gradient.hpp"
#include "qevolve/line.hpp"
#include "qevolve/pulse.hpp"

namespace qevolve::gradient {

/// One trainable parameter: where it lives in the plan.
struct Trainable {
  enum class Kind { pulse, device, angle, noise, line };
  Kind kind = Kind::pulse;
  int pulse = 0;           ///< Kind::pulse: the pulse
  pulse::ParamRef ref;     ///< Kind::pulse: the parameter
  int device = 0;          ///< Kind::device: index into GradientPlan::device_params
  int angle = 0;           ///< Kind::angle: the compensation angle
  int noise = 0;           ///< Kind::noise: the noise entry
  bool t1 = true;          ///< Kind::noise: T1 (else Tphi)
  int line = 0;            ///< Kind::line: index into the drive's lines
  pulse::LineParam lref;   ///< Kind::line: the parameter
};

struct GradientPlan {
  /// The evolution, its device built from `resolved` (the first build's internal bases are kept
  /// for every rebuild), its pulses' `auto` values and its duration resolved once.
  solver::EvolutionPlan evolution;
  device::ResolvedDevice resolved;
  std::vector<device::DeviceParam> device_params;  ///< the trainable device parameters
  /// In parameter order: pulses (config order), lines, device, noise rates, compensation angles;
  /// `info` holds each one's name, range and scale.
  std::vector<Trainable> params;
  std::vector<ParameterInfo> info;
  fidelity::ObjectiveSpec objective;  ///< the target on the device's qubits, the compensation
  bool angles_trainable = false;      ///< target.compensation_trainable with a compensation
};

}  // namespace qevolve::gradient
