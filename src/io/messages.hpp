// Every user-facing text of the config loader, in one table (messages.cpp) keyed by Msg.
//
// A message has a `problem` template and, for errors, an `expected` template; both may use
// named placeholders `${NAME}` that are filled from the arguments given at the call site.
// Entries whose names start with `Noun`, `Relation`, `Formula`, `Condition`, `Expect` or
// `Context` are fragments used to build other messages (the "expected ..." part of a range,
// "a list", "a `cos` pulse", ...); they have no expected part. Tests assert the rendered texts.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "qevolve/error.hpp"

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

/// True when every Msg has exactly one table entry, in enum order (checked by the tests).
[[nodiscard]] bool message_table_complete();

}  // namespace qevolve::io
