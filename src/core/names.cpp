// The tables of include/qevolve/names.hpp: one per enum of the config.
#include "qevolve/names.hpp"

namespace qevolve {
namespace {

using enum ShapeFamily;

constexpr EnumRow<ModeType> kModeTypes[] = {{ModeType::fluxonium, "fluxonium"},
                                            {ModeType::transmon, "transmon"},
                                            {ModeType::resonator, "resonator"},
                                            {ModeType::duffing, "duffing"}};
constexpr EnumRow<ModeRole> kModeRoles[] = {{ModeRole::qubit, "qubit"}, {ModeRole::coupler, "coupler"}};

/// A new shape: its row here, its envelope in src/pulse/envelope.cpp (docs/pulses.md).
constexpr EnumRow<Shape> kShapes[] = {
    {Shape::cos, "cos", length, {}, true},
    {Shape::rampcos, "rampcos", ramps, {"plateau", "ramp"}, false},
    {Shape::trapezoid, "trapezoid", ramps, {"plateau", "ramp"}, false},
    {Shape::gaussian, "gaussian", gauss, {"sigma", "c"}, true},
    {Shape::tanh, "tanh", edges, {"sigma", "c"}, false},
    {Shape::erf, "erf", edges, {"sigma", "c"}, false},
    {Shape::drag, "drag", length, {}, false},
    {Shape::piecewise_constant, "piecewise_constant", values, {"values"}, false},
    {Shape::spline, "spline", values, {"values"}, false},
};

/// `value` is written as a number, not by name.
constexpr EnumRow<FrequencyMode> kFrequencyModes[] = {{FrequencyMode::auto_bare, "auto"},
                                                      {FrequencyMode::auto_dressed, "auto_dressed"}};

constexpr EnumRow<Solver> kSolvers[] = {{Solver::expm, "expm"},
                                        {Solver::trotter, "trotter"},
                                        {Solver::magnus4, "magnus4"},
                                        {Solver::adaptive, "adaptive"}};
constexpr EnumRow<Splitting> kSplittings[] = {
    {Splitting::terms, "terms"}, {Splitting::bonds, "bonds"}, {Splitting::dense, "dense"},
    {Splitting::chebyshev, "chebyshev"}};
constexpr EnumRow<Basis> kBases[] = {{Basis::product, "product"}, {Basis::dressed, "dressed"}};
constexpr EnumRow<Frame> kFrames[] = {{Frame::lab, "lab"}, {Frame::rotating, "rotating"}};
constexpr EnumRow<Precision> kPrecisions[] = {{Precision::double_, "double"},
                                              {Precision::single, "single"}};
constexpr EnumRow<ComputeDevice> kDevices[] = {
    {ComputeDevice::cpu, "cpu"}, {ComputeDevice::cuda, "cuda"}, {ComputeDevice::auto_, "auto"}};
/// `list` is written as a list of labels, not by name.
constexpr EnumRow<InitialStates::Kind> kStateSets[] = {
    {InitialStates::Kind::computational, "computational"}, {InitialStates::Kind::all, "all"}};
constexpr EnumRow<Compensation> kCompensations[] = {{Compensation::none, "none"},
                                                    {Compensation::vz, "vz"},
                                                    {Compensation::single_qubit, "single_qubit"}};
constexpr EnumRow<OptimizerMethod> kMethods[] = {{OptimizerMethod::lbfgs, "lbfgs"},
                                                 {OptimizerMethod::adam, "adam"}};
constexpr EnumRow<FilterType> kFilters[] = {{FilterType::gaussian, "gaussian"},
                                            {FilterType::highpass, "highpass"},
                                            {FilterType::exponential, "exponential"},
                                            {FilterType::fir, "fir"}};
constexpr EnumRow<EnsembleObjective> kObjectives[] = {{EnsembleObjective::mean, "mean"},
                                                      {EnsembleObjective::worst, "worst"}};
constexpr EnumRow<EnsembleDistribution> kDistributions[] = {{EnsembleDistribution::normal, "normal"},
                                                            {EnsembleDistribution::uniform, "uniform"}};

/// Whether `rows` lists the values 0, 1, 2, ... in order (enum_row's one look-up). Every table
/// but kFrequencyModes (whose value 0 has no name) is.
template <typename E, std::size_t N>
constexpr bool in_enum_order(const EnumRow<E> (&rows)[N]) {
  for (std::size_t k = 0; k < N; ++k)
    if (static_cast<std::size_t>(rows[k].value) != k) return false;
  return true;
}
static_assert(in_enum_order(kModeTypes) && in_enum_order(kModeRoles) && in_enum_order(kShapes) && in_enum_order(kSolvers) &&
              in_enum_order(kSplittings) && in_enum_order(kBases) && in_enum_order(kFrames) &&
              in_enum_order(kPrecisions) && in_enum_order(kDevices) && in_enum_order(kStateSets) &&
              in_enum_order(kCompensations) && in_enum_order(kMethods) && in_enum_order(kFilters) &&
              in_enum_order(kObjectives) && in_enum_order(kDistributions));

}  // namespace

template <> std::span<const EnumRow<ModeType>> enum_table<ModeType>() { return kModeTypes; }
template <> std::span<const EnumRow<ModeRole>> enum_table<ModeRole>() { return kModeRoles; }
template <> std::span<const EnumRow<Shape>> enum_table<Shape>() { return kShapes; }
template <> std::span<const EnumRow<FrequencyMode>> enum_table<FrequencyMode>() {
  return kFrequencyModes;
}
template <> std::span<const EnumRow<Solver>> enum_table<Solver>() { return kSolvers; }
template <> std::span<const EnumRow<Splitting>> enum_table<Splitting>() { return kSplittings; }
template <> std::span<const EnumRow<Basis>> enum_table<Basis>() { return kBases; }
template <> std::span<const EnumRow<Frame>> enum_table<Frame>() { return kFrames; }
template <> std::span<const EnumRow<Precision>> enum_table<Precision>() { return kPrecisions; }
template <> std::span<const EnumRow<ComputeDevice>> enum_table<ComputeDevice>() { return kDevices; }
template <> std::span<const EnumRow<InitialStates::Kind>> enum_table<InitialStates::Kind>() {
  return kStateSets;
}
template <> std::span<const EnumRow<Compensation>> enum_table<Compensation>() {
  return kCompensations;
}
template <> std::span<const EnumRow<OptimizerMethod>> enum_table<OptimizerMethod>() {
  return kMethods;
}
template <> std::span<const EnumRow<FilterType>> enum_table<FilterType>() { return kFilters; }
template <> std::span<const EnumRow<EnsembleObjective>> enum_table<EnsembleObjective>() {
  return kObjectives;
}
template <> std::span<const EnumRow<EnsembleDistribution>> enum_table<EnsembleDistribution>() {
  return kDistributions;
}

}  // namespace qevolve
