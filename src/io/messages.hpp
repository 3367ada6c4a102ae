// Every user-facing error text of the config loader and of the resolution stage
// (include/qevolve/resolve.hpp and the src/io/resolve*.cpp checks, with `qevolve converge`'s and
// a resumed checkpoint's: resolve_converge.cpp, optimize_record.cpp), in one table (messages.cpp)
// keyed by Msg: no input error is written inline (docs/architecture.md "Errors").
//
// A message has a `problem` template and, for errors, an `expected` template; both may use
// named placeholders `${NAME}` that are filled from the arguments given at the call site.
// Lists, counts and formatted numbers are computed at the call site and passed as values.
// Entries whose names start with `Noun`, `Relation`, `Formula`, `Condition`, `Expect` or
// `Context` are fragments used to build other messages (the "expected ..." part of a range,
// "a list", "a `cos` pulse", ...); they have no expected part. A rule checked both by the
// loader and, for configs built without it, by the stage raises the same entry in both, except
// a pulse entry's own rules (Pulse*, resolve_pulse_spec.cpp), which keep the pulse layer's texts.
// The loader raises with Doc::fail, the stage with fail(config, key, Msg, args) below (located
// by Config::fail), a flag's check with input_error. Tests assert the rendered texts.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "qevolve/error.hpp"

namespace qevolve {
struct Config;
}

namespace qevolve::io {

enum class Msg {
  // --- reading the file --------------------------------------------------------------------
  FileNotFound,
  FileIsDirectory,
  FileNotRegular,
  FileUnreadable,
  FileTooLarge,
  FileEmpty,
  BinaryByte,
  InvalidUtf8,
  // --- YAML structure ----------------------------------------------------------------------
  YamlSyntax,
  TooDeep,
  TooManyNodes,
  RecursiveAlias,
  MultipleDocuments,
  UnsupportedTag,
  TopNotMap,
  KeyNotString,
  UnknownKey,
  UnknownKeySuggest,
  KeyNotApplicable,
  DuplicateKey,
  MissingKey,
  // --- values ------------------------------------------------------------------------------
  NullValue,
  WrongType,
  NotANumber,
  NotAnInteger,
  NotFinite,
  NotABool,
  OutOfRange,
  BadEnum,
  BadEnumSuggest,
  EmptyString,
  BadName,
  EmptyList,
  // --- device ------------------------------------------------------------------------------
  NoModes,
  PresetArgsWithoutPreset,
  DuplicateModeName,
  BasisSmallerThanLevels,
  PairCount,
  SelfCoupling,
  NoCouplingTerm,
  // --- pulses ------------------------------------------------------------------------------
  AutoNeedsAngle,
  AngleWithoutAuto,
  ShapeKeysMissing,
  ShapeKeysInconsistent,
  EdgeKeysMissing,
  EdgesOverlap,
  ShapeKeyNegative,
  ShapeKeyNotPositive,
  DerivedDurationTooLong,
  GaussianTooFlat,
  TooFewValues,
  CrosstalkSelf,
  // --- lines -------------------------------------------------------------------------------
  BadLineName,
  DuplicateLineName,
  FirWithoutRate,
  PredistortNotInvertible,
  UnknownLine,
  UnknownLineSuggest,
  NoLines,
  // --- trainable parameters ----------------------------------------------------------------
  NotTrainable,
  DuplicateTrainable,
  ShapeKeyNotGiven,
  // --- evolution ---------------------------------------------------------------------------
  BadLabel,
  LabelLength,
  DuplicateLabel,
  NoNoiseRate,
  TrainableRateMissing,
  CollapseMatrixMissing,
  CollapseMatrixUnused,
  CollapseMatrixNotSquare,
  EmptyNoise,
  // --- target ------------------------------------------------------------------------------
  GateMissing,
  GateBoth,
  GateArityOne,
  GateArityTwo,
  DuplicateGateQubit,
  // --- across sections ---------------------------------------------------------------------
  SolverWithoutGradient,
  SolverClosedOnly,
  MagnusOrder,
  ChebyshevSolver,
  SplittingClosedOnly,
  StepsAutoWithoutSteps,
  StepsAutoWithoutEstimate,
  StepsAutoWithoutFidelity,
  ChebyshevOrder,
  CompensationTrainableNone,
  // --- ensemble (config_ensemble.cpp, ensemble_check.cpp) --------------------------------
  EnsembleBoth,
  EnsembleNeither,
  EnsembleSetEmpty,
  EnsembleSetBlock,
  EnsembleKeyReserved,
  EnsembleLowHigh,
  EnsembleTooMany,
  EnsembleVaryTwice,
  EnsembleKeyTrained,
  EnsembleStructure,
  EnsembleCommand,
  EnsembleAxis,
  // --- overrides (--set, --vary) -----------------------------------------------------------
  SetNoEquals,
  SetBadKey,
  SetBadByte,
  SetInvalidUtf8,
  SetEmptyValue,
  SetIndexRange,
  SetNoEntry,
  SetNotMap,
  SetNotList,
  VaryBadRange,
  VaryBadList,
  VaryScope,
  VaryRole,
  VaryTooMany,
  // --- keys of derivatives (Simulation.spectrum(gradient=[...])) ---------------------------
  GradientNotDevice,
  GradientIndexRange,
  NotModeParameter,
  GradientTwice,
  // --- resolution stage: device (resolve_device.cpp, unknown_mode.cpp) --------------------
  PresetUnknown,
  PresetTooFewQubits,
  PresetRingTooSmall,
  PresetVariance,
  PresetTypeFixed,
  ResonatorQubitRole,
  BasisSizeExact,
  NewModeNoType,
  NewModeNoLevels,
  NewModeNeedsKey,
  NoQubit,
  CouplingPairTwice,
  InductiveTransmon,
  DipoleOscillators,
  UnknownMode,
  UnknownModeSuggest,
  // --- resolution stage: pulses, duration, trace, lines (resolve.cpp) --------------------
  PulseFluxFixedTransmon,
  PulseNoFlux,
  PulseNumberOperator,
  PulseNoOperator,
  AutoAmplitudeFlux,
  AutoAmplitudeNumber,
  AutoFrequencyParametric,
  CrosstalkNoFlux,
  CrosstalkNoNumber,
  CrosstalkNoOperator,
  DurationShort,
  ZeroLength,
  TraceTimesEmpty,
  TraceEveryOrTimes,
  TraceTimeAfterEnd,
  TraceTimesOneStep,
  LinePanels,
  // --- resolution stage: one pulse entry (resolve_pulse_spec.cpp) -------------------------
  PulseDragBase,
  PulseBaseNotDrag,
  PulseKeyForeign,
  PulseNotFinite,
  PulseDelayNegative,
  PulseNotPositive,
  PulsePlateauNegative,
  PulseNeedsDuration,
  PulseNeedsValue,
  PulseSplineValues,
  PulseTwoOfThree,
  PulseRampsInconsistent,
  PulseRampTooLong,
  PulseNoRamp,
  PulseGaussInconsistent,
  PulseEdgesMissing,
  PulseEdgesOrder,
  PulseAutoValues,
  PulseAutoNeedsAngle,
  PulseAngleWithoutAuto,
  PulseNotParameter,
  PulseNotParameterHere,
  PulseParamDerived,
  // --- resolution stage: evolution (resolve.cpp, sweep_axis.cpp) -------------------------
  SingleOpen,
  SingleNotSplitSplitting,
  SingleNotSplitSolver,
  LabelModeCount,
  LabelLevelNotKept,
  DissipatorTooLarge,
  CollapseMatrixSize,
  CollapseNoOperator,
  DenseLiouvillian,
  SweepNotComputational,
  // --- resolution stage: target and gradients (resolve.cpp) ------------------------------
  UnknownGate,
  GateNeedsAngle,
  AngleUnused,
  GateQubitCount,
  NotAQubit,
  NotAQubitNone,
  GateMatrixTooLarge,
  GateMatrixUnreadable,
  GateMatrixShape,
  GateMatrixNotFinite,
  GateMatrixNotUnitary,
  GradientNeedsTarget,
  GradientSinglePrecision,
  GradientInitialStates,
  OpenGradientSolver,
  OpenGradientSplitting,
  OpenCompensationTrainable,
  OpenGradientBasis,
  NothingTrainable,
  // --- resolution stage: memory (resolve_memory.cpp) -------------------------------------
  MemoryOverLimit,
  MemoryOverLimitPoints,
  NotAMemorySize,
  // --- resolution stage: output files (resolve_output.cpp) -------------------------------
  OutputNameEmpty,
  OutputNamesFolder,
  OutputSpecialFloat,
  OutputIsFolder,
  OutputFolderMissing,
  OutputNotAFolder,
  OutputFolderNotWritable,
  OutputCreateFails,
  OutputIsConfig,
  ReplaceForeign,
  ReplaceCheckpoint,
  ReplaceResult,
  WriteBackOverConfig,
  WriteBackOverForeign,
  // --- resuming an optimisation (optimize_record.cpp) --------------------------------------
  CheckpointMismatch,
  // --- `qevolve converge` (resolve_converge.cpp) ------------------------------------------
  ConvergeTolerance,
  ConvergeSolverSteps,
  ConvergeNeedsFidelity,
  ConvergeLevelsCap,
  ConvergeRefinement,
  // --- fragments ---------------------------------------------------------------------------
  NounList,
  NounMap,
  NounQuoted,
  NounScalar,
  NounNull,
  NounNone,
  NounOnly,
  RelationRamp,
  RelationSigma,
  FormulaPlateau,
  FormulaRamp,
  ConditionPlateau,
  ConditionRamp,
  ExpectMap,
  ExpectList,
  ExpectString,
  ExpectName,
  ExpectBool,
  ExpectOneOf,
  ExpectFinite,
  ExpectGt,
  ExpectGe,
  ExpectClosed,
  ExpectOpen,
  ExpectOpenClosed,
  ExpectInt,
  ExpectNumberList,
  ExpectAmplitude,
  ExpectFluxAmplitude,
  ExpectPulseFrequency,
  ExpectInitialStates,
  ExpectDevice,
  ExpectGates,
  ExpectModeType,
  ExpectTypeKeys,
  ExpectAngle,
  ExpectPulseQubit,
  ExpectGateQubits,
  ExpectTrainable,
  ExpectValuesIndex,
  ExpectLineName,
  ExpectPulseLine,
  ExpectFilterKeys,
  ExpectTapsIndex,
  ContextModeType,
  ContextPulseShape,
  ContextDragBase,
  ContextPreset,
  ContextGate,
  ContextMatrixGate,
  ContextMode,
  ContextCoupling,
  ContextNoise,
  ContextFilter,
  ContextResonatorHeld,
  ContextCouplerHeld,
  ContextColumn,
  ContextColumns,
  ContextMemoryTotal,
  ContextPerPoint,
  ContextLargestPoint,
  NounOtherName,
  NounOtherNameSuch,
  NounOutputFlag,
  ContextPulseNamed,
  ContextDragNamed,
  NounGivenNone,
  NounGivenOnly,
  ContextResumeCount,
  ContextResumeStart,
  ContextResumeMethod,
  ContextResumeRate,
  ContextReplayPoint,
  ContextReplayGradient,
  ContextReplayObjective,
  ContextNotComputational,
  ContextNoTarget,
  ExpectEnsembleSet,
  ExpectEnsembleEntries,
  ExpectSetValue,
  ExpectVaryKey,
  ExpectDistributionKeys,
  ContextDistribution,
  kCount  // number of messages; keep last
};

/// One named placeholder value: `${NAME}` in a template is replaced by `value`.
struct MsgArg {
  std::string_view name;
  std::string value;
};
using MsgArgs = std::initializer_list<MsgArg>;

/// The problem text of `id` with its placeholders filled.
/// Throws std::logic_error if a placeholder has no argument (a bug in the caller).
[[nodiscard]] std::string message(Msg id, MsgArgs args = {});

/// The expected text of `id` (empty if the message has none).
[[nodiscard]] std::string expected(Msg id, MsgArgs args = {});

/// The located InputError of `id`: problem and expected rendered with `args`.
[[nodiscard]] InputError input_error(SourceLocation where, std::string key_path, Msg id,
                                     MsgArgs args = {});

/// A message kept with its values: what a check returns when it finds a problem, leaving the
/// raising (at a config key, or at a command-line flag) to its caller. Empty: no problem.
struct MsgProblem {
  Msg id = Msg::kCount;
  std::vector<MsgArg> args;
  [[nodiscard]] explicit operator bool() const { return id != Msg::kCount; }
};

/// The located InputError of a kept message.
[[nodiscard]] InputError input_error(SourceLocation where, std::string key_path, const MsgProblem& p);

/// The resolution stage's error: `id` rendered with `args`, raised by Config::fail at
/// `key_path` (located at the key or its closest present parent, with the overrides that
/// wrote its entry).
[[noreturn]] void fail(const Config& config, const std::string& key_path, Msg id, MsgArgs args = {});
[[noreturn]] void fail(const Config& config, const std::string& key_path, const MsgProblem& p);

/// True when every Msg has exactly one table entry, in enum order (checked by the tests).
[[nodiscard]] bool message_table_complete();

}  // namespace qevolve::io
