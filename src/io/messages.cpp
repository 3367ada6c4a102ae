// The one table of user-facing texts of the config loader and the resolution stage (see
// messages.hpp).
#include "messages.hpp"

#include <array>
#include <span>
#include <stdexcept>
#include <utility>

#include "qevolve/config.hpp"

namespace qevolve::io {
namespace {

struct Entry {
  Msg id;
  const char* problem;
  const char* expected;  // nullptr: none
};

// Texts shared by entries that differ in one part only.
constexpr const char* kNewFile = "a new or writable file such as out.h5 in an existing, writable folder";
constexpr const char* kReplaceInstead = "${INSTEAD}, or --force to replace it";
constexpr const char* kSingleNotSplit =
    "precision: single is supported by the split solvers (trotter, magnus4 with splitting terms or bonds) only";
constexpr const char* kAutoAmplitude = "`amplitude: auto` is for drives of a rotation angle, not `operator: ${OP}`";
constexpr const char* kNotAQubit = "`${NAME}` is not a qubit of the device${WHY}";
constexpr const char* kOverLimit =
    "${DIM} states${COLUMNS}${CONTEXT}: ${PART} ${PART_BYTES}${TOTAL}; ${LIMIT} available (${SOURCE})";
constexpr const char* kModeNames = "a mode name of the device: ${NAMES}";
constexpr const char* kDriveOperators = "${OPERATORS}";
constexpr const char* kPulseNotParameter = "'${NAME}' is not a parameter of ${DESC}";

constexpr std::array kTable{
    // --- reading the file ------------------------------------------------------------------
    Entry{Msg::FileNotFound, "cannot open the config file: no such file", "an existing YAML file"},
    Entry{Msg::FileIsDirectory, "cannot read the config file: it is a directory", "a YAML file"},
    Entry{Msg::FileNotRegular,
          "cannot read the config file: it is not a regular file (a device, pipe or socket)",
          "a regular YAML file"},
    Entry{Msg::FileUnreadable, "cannot read the config file: ${REASON}", "a readable YAML file"},
    Entry{Msg::FileTooLarge, "the config file is larger than the limit of ${LIMIT} bytes",
          "a config file of at most ${LIMIT} bytes"},
    Entry{Msg::FileEmpty, "the config is empty (no YAML document)",
          "a mapping with at least the key `device`"},
    Entry{Msg::BinaryByte, "byte 0x${BYTE} is not text (a binary file?)", "a UTF-8 text file"},
    Entry{Msg::InvalidUtf8, "invalid UTF-8 sequence starting with byte 0x${BYTE}",
          "a UTF-8 text file"},
    // --- YAML structure --------------------------------------------------------------------
    Entry{Msg::YamlSyntax, "YAML syntax error: ${DETAIL}", "valid YAML"},
    Entry{Msg::TooDeep, "lists and mappings nested deeper than ${LIMIT} levels",
          "at most ${LIMIT} levels of nesting"},
    Entry{Msg::TooManyNodes, "more than ${LIMIT} YAML nodes (counting every alias expansion)",
          "a config of at most ${LIMIT} nodes"},
    Entry{Msg::RecursiveAlias, "alias `*${ANCHOR}` refers to a node that contains it",
          "aliases of complete, earlier nodes"},
    Entry{Msg::MultipleDocuments, "a second YAML document starts here", "a single YAML document"},
    Entry{Msg::UnsupportedTag, "YAML tag `${TAG}` is not supported",
          "plain or quoted values without tags"},
    Entry{Msg::TopNotMap, "the top level is ${FOUND}",
          "a mapping with the keys device, pulses, lines, evolution, target, optimize, output, ensemble"},
    Entry{Msg::KeyNotString, "a key must be a string, but got ${FOUND}", "a plain or quoted key"},
    Entry{Msg::UnknownKey, "unknown key `${KEY}`", "one of: ${ALLOWED}"},
    Entry{Msg::UnknownKeySuggest, "unknown key `${KEY}`, did you mean `${SUGGESTION}`?",
          "one of: ${ALLOWED}"},
    Entry{Msg::KeyNotApplicable, "key `${KEY}` does not apply to ${CONTEXT}", "one of: ${ALLOWED}"},
    Entry{Msg::DuplicateKey, "duplicate key `${KEY}` (first given at line ${LINE})",
          "each key at most once per mapping"},
    Entry{Msg::MissingKey, "missing required key `${KEY}`", "${EXPECTED}"},
    // --- values ----------------------------------------------------------------------------
    Entry{Msg::NullValue, "no value given", "${EXPECTED}"},
    Entry{Msg::WrongType, "got ${FOUND}", "${EXPECTED}"},
    Entry{Msg::NotANumber, "`${VALUE}` is not a number", "${EXPECTED}"},
    Entry{Msg::NotAnInteger, "`${VALUE}` is not an integer", "${EXPECTED}"},
    Entry{Msg::NotFinite, "`${VALUE}` is not a finite number", "${EXPECTED}"},
    Entry{Msg::NotABool, "`${VALUE}` is not a boolean (YAML 1.2 has only true and false)",
          "true or false"},
    Entry{Msg::OutOfRange, "`${VALUE}` is out of range", "${EXPECTED}"},
    Entry{Msg::BadEnum, "unknown value `${VALUE}`", "one of: ${ALLOWED}"},
    Entry{Msg::BadEnumSuggest, "unknown value `${VALUE}`, did you mean `${SUGGESTION}`?",
          "one of: ${ALLOWED}"},
    Entry{Msg::EmptyString, "empty string", "${EXPECTED}"},
    Entry{Msg::BadName, "`${VALUE}` is not a valid mode name",
          "letters, digits, `_` and `-`, starting with a letter or `_`"},
    Entry{Msg::EmptyList, "empty list", "${EXPECTED}"},
    // --- device ----------------------------------------------------------------------------
    Entry{Msg::NoModes, "the device has no modes", "a `preset` or a non-empty `qubits` list"},
    Entry{Msg::PresetArgsWithoutPreset, "`preset_args` given without `preset`",
          "a `preset` next to `preset_args`"},
    Entry{Msg::DuplicateModeName, "duplicate mode name `${NAME}` (first used at line ${LINE})",
          "a distinct name for every entry"},
    Entry{Msg::BasisSmallerThanLevels, "basis_size ${BASIS} is smaller than levels ${LEVELS}",
          "basis_size >= levels"},
    Entry{Msg::PairCount, "${COUNT} mode names given", "a list of exactly two mode names"},
    Entry{Msg::SelfCoupling, "mode `${NAME}` is coupled to itself", "two different modes"},
    Entry{Msg::NoCouplingTerm, "the coupling has no term",
          "at least one of: capacitive, inductive, dipole, cross_kerr"},
    // --- pulses ----------------------------------------------------------------------------
    Entry{Msg::AutoNeedsAngle, "`amplitude: auto` needs the key `angle`",
          "the rotation angle in radians"},
    Entry{Msg::AngleWithoutAuto, "`angle` is only used with `amplitude: auto`",
          "`amplitude: auto` with `angle`, or a numeric amplitude without `angle`"},
    Entry{Msg::ShapeKeysMissing, "a `${SHAPE}` pulse needs two of ${KEYS}, but ${GOT} given",
          "two of ${KEYS}; the third follows from ${RELATION}"},
    Entry{Msg::ShapeKeysInconsistent,
          "${KEYS} are inconsistent: ${RELATION} does not hold (${LHS} vs ${RHS})",
          "only two of them, or values with ${RELATION}"},
    Entry{Msg::EdgeKeysMissing, "a `${SHAPE}` pulse needs all three of duration, sigma, c, but ${GOT} given",
          "duration, sigma and c (rise centred at c*sigma, fall at duration - c*sigma, width sigma)"},
    Entry{Msg::EdgesOverlap, "duration ${L} <= 2*c*sigma = ${P}: the rise and the fall overlap",
          "duration > 2*c*sigma"},
    Entry{Msg::ShapeKeyNegative, "the derived ${KEY} = ${FORMULA} = ${VALUE} is negative",
          "${CONDITION}"},
    Entry{Msg::ShapeKeyNotPositive, "the derived ${KEY} = ${FORMULA} = ${VALUE} is not positive",
          "${CONDITION}"},
    Entry{Msg::DerivedDurationTooLong, "the derived duration = ${FORMULA} = ${VALUE} ns exceeds ${MAX} ns",
          "${KEYS} giving a duration in (0, ${MAX}] ns"},
    Entry{Msg::GaussianTooFlat,
          "${C} is too small: the Gaussian's normalisation 1/(1 - e^(-c^2/2)) loses the envelope "
          "to rounding",
          "c >= ${MIN}, c = duration/(2*sigma), usually 2 to 4"},
    Entry{Msg::TooFewValues, "${COUNT} control values given",
          "at least ${MIN} values for a `${SHAPE}` pulse"},
    Entry{Msg::CrosstalkSelf, "crosstalk onto the pulse's own mode `${NAME}`",
          "other modes only"},
    // --- lines -----------------------------------------------------------------------------
    Entry{Msg::BadLineName, "`${VALUE}` is not a valid line name",
          "letters, digits, `_` and `-`, starting with a letter or `_`"},
    Entry{Msg::DuplicateLineName, "duplicate line name `${NAME}` (first used at line ${LINE})",
          "a distinct name for every line"},
    Entry{Msg::FirWithoutRate,
          "a `fir` filter's taps are spaced by the line's sample period, but the line has no "
          "`sample_rate`",
          "a `sample_rate` (GS/s) on the line, or another filter type"},
    Entry{Msg::PredistortNotInvertible,
          "`predistort: true` inverts the line's filters, but an exponential filter with amplitude "
          "${VALUE} is not invertible (amplitude <= -1: its step response 1 + A e^(-t/tau) starts "
          "at 1 + A <= 0, and the inverse grows without bound)",
          "amplitude > -1, or predistort: false"},
    Entry{Msg::UnknownLine, "no line named `${NAME}`", "one of: ${ALLOWED}"},
    Entry{Msg::UnknownLineSuggest, "no line named `${NAME}`, did you mean `${SUGGESTION}`?",
          "one of: ${ALLOWED}"},
    Entry{Msg::NoLines, "no line named `${NAME}`: the config has no `lines`",
          "an entry of `lines` with this name, or no `line` key"},
    // --- trainable parameters --------------------------------------------------------------
    Entry{Msg::NotTrainable, "`${NAME}` is not a trainable parameter of ${CONTEXT}",
          "one of: ${ALLOWED}"},
    Entry{Msg::DuplicateTrainable, "`${NAME}` repeats a parameter listed before",
          "each parameter at most once"},
    Entry{Msg::ShapeKeyNotGiven,
          "`${NAME}` is derived from the other shape keys, so it cannot be trained",
          "one of: ${ALLOWED}"},
    // --- evolution -------------------------------------------------------------------------
    Entry{Msg::BadLabel, "`${VALUE}` is not a basis-state label",
          "a string of level digits, one per mode, like \"0110\""},
    Entry{Msg::LabelLength, "label `${VALUE}` has ${COUNT} digits, but the first label has ${FIRST}",
          "labels of equal length, one digit per mode"},
    Entry{Msg::DuplicateLabel, "label `${VALUE}` is listed twice", "distinct labels"},
    Entry{Msg::NoNoiseRate, "no noise rate given", "t1 and/or tphi in ns"},
    Entry{Msg::TrainableRateMissing, "`${NAME}` is listed as trainable but not given",
          "a value for every rate in `optimize`"},
    Entry{Msg::CollapseMatrixMissing, "operator: matrix without a `matrix`",
          "a `matrix: [[...], ...]` of the mode's levels x levels"},
    Entry{Msg::CollapseMatrixUnused, "`matrix` is only used with operator: matrix, not with `${OPERATOR}`",
          "operator: matrix, or no `matrix`"},
    Entry{Msg::CollapseMatrixNotSquare, "the matrix is not square: ${ROWS} rows, row ${ROW} has ${COLS} entries",
          "a square list of lists of numbers"},
    Entry{Msg::EmptyNoise, "empty noise mapping", "entries like `q0: {t1: 50000, tphi: 80000}`"},
    // --- target ----------------------------------------------------------------------------
    Entry{Msg::GateMissing, "missing required key `gate` or `matrix_file`",
          "a gate name or an HDF5 file holding the gate"},
    Entry{Msg::GateBoth, "both `gate` and `matrix_file` given", "exactly one of them"},
    Entry{Msg::GateArityOne, "gate `${GATE}` acts on one qubit, but ${COUNT} given",
          "a list of one mode name"},
    Entry{Msg::GateArityTwo, "gate `${GATE}` acts on two qubits, but ${COUNT} given",
          "a list of two mode names"},
    Entry{Msg::DuplicateGateQubit, "mode `${NAME}` is listed twice", "distinct modes"},
    // --- across sections -------------------------------------------------------------------
    Entry{Msg::SolverWithoutGradient,
          "solver `${SOLVER}` gives no gradient, but `${PATH}` lists trainable parameters",
          "solver ${SOLVERS} when parameters are trainable"},
    Entry{Msg::SolverClosedOnly,
          "solver `${SOLVER}` is for closed systems only, but `evolution.noise` or `collapse` is given",
          "solver trotter, adaptive (or expm for D <= 32) for an open system"},
    Entry{Msg::MagnusOrder,
          "solver `magnus4` splits each of its exponentials at order 4; order ${ORDER} would "
          "spoil its fourth-order accuracy",
          "order: 4, or no `order` key"},
    Entry{Msg::ChebyshevSolver,
          "`splitting: chebyshev` applies the exponentials of solver trotter or magnus4, but the "
          "solver is `${SOLVER}`",
          "solver: magnus4 (or trotter) with splitting: chebyshev"},
    Entry{Msg::SplittingClosedOnly,
          "`splitting: ${SPLITTING}` is for closed systems only, but `evolution.noise` or `collapse` "
          "is given",
          "splitting: terms or bonds for an open system"},
    Entry{Msg::StepsAutoWithoutSteps,
          "`steps: auto` chooses a step count, but solver `${SOLVER}` has none: its rtol and atol "
          "set its accuracy",
          "solver ${SOLVERS} with steps: auto, or a number of steps"},
    Entry{Msg::StepsAutoWithoutEstimate,
          "`steps: auto` chooses the steps by the step-error estimate, which `error_estimate: "
          "false` turns off",
          "error_estimate: true (the default) with steps: auto, or a number of steps"},
    Entry{Msg::StepsAutoWithoutFidelity,
          "`steps: auto` chooses the steps by the error of F, but this config computes no fidelity "
          "(${WHY})",
          "a target with initial_states: computational, or a number of steps"},
    Entry{Msg::ChebyshevOrder,
          "`order` is the order of the local splittings (terms, bonds); `splitting: chebyshev` applies "
          "exact exponentials, so order ${ORDER} would have no effect (${SOLVER} with it is of order "
          "${NATURAL} in time)",
          "no `order` key, or order: ${NATURAL}"},
    Entry{Msg::CompensationTrainableNone, "`compensation_trainable: true` without compensation",
          "target.compensation vz or single_qubit, or compensation_trainable: false"},
    // --- ensemble --------------------------------------------------------------------------
    Entry{Msg::EnsembleBoth, "both `members` and `vary` are given",
          "either explicit members or generated ones (vary), not both"},
    Entry{Msg::EnsembleNeither, "neither `members` nor `vary` is given", "${EXPECTED}"},
    Entry{Msg::EnsembleSetEmpty, "the member sets no key", "${EXPECTED}"},
    Entry{Msg::EnsembleSetBlock, "${FOUND} in block style", "${EXPECTED}"},
    Entry{Msg::EnsembleKeyReserved, "`${KEY}` is a key of `${SECTION}`, which is one for the whole ensemble",
          "a key under device, pulses, lines, evolution or target"},
    Entry{Msg::EnsembleLowHigh, "low ${LOW} is not below high ${HIGH}", "low < high"},
    Entry{Msg::EnsembleTooMany, "the ensemble has ${COUNT} members${HOW}", "at most ${LIMIT} members"},
    Entry{Msg::EnsembleVaryTwice, "key `${KEY}` varies twice (first at line ${LINE})",
          "each key in one entry of `vary`; several entries form the tensor grid"},
    Entry{Msg::EnsembleKeyTrained, "`${KEY}` is trained (`${LIST}` lists `${NAME}`); a trained key cannot also vary",
          "a key that no `optimize:` list names, or remove it from the list"},
    Entry{Msg::EnsembleStructure, "changes the device's structure: ${WHAT}",
          "members with the nominal device's modes (in order), levels and d = ${D}"},
    Entry{Msg::EnsembleCommand, "`qevolve ${COMMAND}` does not take an ensemble",
          "`qevolve run`, `optimize` or `sweep` for an ensemble (docs/ensembles.md), or a config without `ensemble:`"},
    Entry{Msg::EnsembleAxis, "`${FLAG} ${KEY}` sets a key the ensemble's members set: their values would replace it",
          "a key that no member of `ensemble:` sets"},
    // --- overrides (--set, --vary) ---------------------------------------------------------
    Entry{Msg::SetNoEquals, "`${ARG}` has no `=`", "KEY=VALUE, e.g. pulses[0].amplitude=0.05"},
    Entry{Msg::SetBadKey, "`${KEY}` is not a key path",
          "keys joined by `.`, list entries as [index] or [mode name], e.g. device.qubits[q0].el"},
    Entry{Msg::SetBadByte, "byte 0x${BYTE} at character ${AT} of the argument (shown as \\x${BYTE}) is a control character",
          "UTF-8 text without control characters other than tab, CR and LF"},
    Entry{Msg::SetInvalidUtf8,
          "invalid UTF-8 sequence starting with byte 0x${BYTE} at character ${AT} of the argument (shown as \\x${BYTE})",
          "UTF-8 text"},
    Entry{Msg::SetEmptyValue, "no value after `=`",
          "a YAML scalar or flow value, e.g. 0.05, [1, 2] or {every: 10}"},
    Entry{Msg::SetIndexRange, "there ${ARE}",
          "an index below ${COUNT}; [${COUNT}] appends a whole entry"},
    Entry{Msg::SetNoEntry, "no entry named `${NAME}`", "one of: ${NAMES}"},
    Entry{Msg::SetNotMap, "is ${FOUND}, not a mapping: it has no key `${KEY}`", nullptr},
    Entry{Msg::SetNotList, "is ${FOUND}, not a list: it has no entry [${INDEX}]", nullptr},
    Entry{Msg::VaryBadRange, "`${SPEC}`: ${WHY}",
          "START:STOP:COUNT with numbers START, STOP and an integer COUNT >= 1, e.g. 0.07:0.09:15"},
    Entry{Msg::VaryBadList, "`${SPEC}`: ${WHY}", "a list of YAML scalars v1,v2,... e.g. 500,1000,2000"},
    Entry{Msg::VaryScope, "`${KEY}` changes no result of a sweep",
          "a key under device, pulses, lines, evolution or target"},
    Entry{Msg::VaryRole, "`${KEY}` changes the computational subspace, which is the same at every point",
          "one role per sweep: set it with --set"},
    Entry{Msg::VaryTooMany, "the grid has ${COUNT} points", "at most ${LIMIT} points"},
    // --- keys of derivatives --------------------------------------------------------------
    Entry{Msg::GradientNotDevice, "`${KEY}` is not a device parameter",
          "device.qubits[MODE].PARAMETER or device.couplings[INDEX].PARAMETER, e.g. device.qubits[q0].ej"},
    Entry{Msg::GradientIndexRange, "there ${ARE}", "an index below ${COUNT}"},
    Entry{Msg::NotModeParameter, "`${KEY}` is not a parameter of ${TYPE} mode `${NAME}`",
          "one of: ${ALLOWED}"},
    Entry{Msg::GradientTwice, "`${KEY}` is asked for twice", "each parameter once"},
    // --- resolution stage: device ----------------------------------------------------------
    Entry{Msg::PresetUnknown, "unknown preset `${NAME}`", "${ALLOWED}"},
    Entry{Msg::PresetTooFewQubits, "${PRESET} needs at least ${QUBITS}", "an integer >= ${MIN}"},
    Entry{Msg::PresetRingTooSmall, "a ring needs at least 3 qubits", "qubits >= 3 or periodic: false"},
    Entry{Msg::PresetVariance, "${REASON}", "a smaller variance"},
    Entry{Msg::PresetTypeFixed, "preset mode `${NAME}` is a ${TYPE}; its type cannot be changed",
          "type: ${TYPE} or no type"},
    Entry{Msg::ResonatorQubitRole,
          "resonator `${NAME}` cannot be a qubit: a resonator is held in its ground state",
          "role: coupler or no role"},
    Entry{Msg::BasisSizeExact,
          "`basis_size` does not apply to ${TYPE} mode `${NAME}` (its Fock basis is exact)", nullptr},
    Entry{Msg::NewModeNoType, "mode `${NAME}` is not a preset mode and has no `type`",
          "type: fluxonium | transmon | resonator | duffing"},
    Entry{Msg::NewModeNoLevels, "mode `${NAME}` has no `levels`", "an integer >= 2"},
    Entry{Msg::NewModeNeedsKey, "${TYPE} mode `${NAME}` needs `${KEY}`", nullptr},
    Entry{Msg::NoQubit, "the device has no qubit: every mode is a coupler or a resonator",
          "at least one fluxonium, transmon or duffing mode whose role is qubit, the default"},
    Entry{Msg::CouplingPairTwice, "modes `${A}` and `${B}` are already coupled by ${BY}",
          "one entry per pair of modes"},
    Entry{Msg::InductiveTransmon,
          "transmon `${NAME}` has no flux-like operator for an inductive coupling",
          "capacitive for transmons"},
    Entry{Msg::DipoleOscillators, "a dipole coupling needs oscillators, but `${NAME}` is a ${TYPE}",
          "resonator or duffing modes"},
    Entry{Msg::UnknownMode, "unknown mode `${NAME}`", kModeNames},
    Entry{Msg::UnknownModeSuggest, "unknown mode `${NAME}`, did you mean `${SUGGESTION}`?", kModeNames},
    // --- resolution stage: pulses, duration, trace, lines ------------------------------------
    Entry{Msg::PulseFluxFixedTransmon,
          "mode `${NAME}` is a fixed-frequency transmon (no `asymmetry`): it takes no flux pulse",
          kDriveOperators},
    Entry{Msg::PulseNoFlux, "mode `${NAME}` is a ${TYPE}: it has no flux to pulse", kDriveOperators},
    Entry{Msg::PulseNumberOperator,
          "mode `${NAME}` is a ${TYPE}: `operator: number` drives a resonator or duffing mode",
          kDriveOperators},
    Entry{Msg::PulseNoOperator, "mode `${NAME}` has no drive operator `${OP}`", kDriveOperators},
    Entry{Msg::AutoAmplitudeFlux, kAutoAmplitude, "a number (flux quanta)"},
    Entry{Msg::AutoAmplitudeNumber, kAutoAmplitude, "a number (GHz)"},
    Entry{Msg::AutoFrequencyParametric, "`frequency: ${MODE}` is for qubit drives, not `operator: ${OP}`",
          "a number (GHz; 0 for a baseband pulse, the default)"},
    Entry{Msg::CrosstalkNoFlux, "mode `${NAME}` has no operator `flux` for crosstalk",
          "a fluxonium or a transmon with `asymmetry`"},
    Entry{Msg::CrosstalkNoNumber, "mode `${NAME}` has no operator `number` for crosstalk",
          "a resonator or duffing mode"},
    Entry{Msg::CrosstalkNoOperator, "mode `${NAME}` has no operator `${OP}` for crosstalk", nullptr},
    Entry{Msg::DurationShort, "duration ${DURATION} ns is shorter than the latest pulse end ${LATEST} ns",
          "duration >= ${LATEST}"},
    Entry{Msg::ZeroLength, "the evolution has zero length (no pulses and no duration)",
          "evolution.duration > 0 or at least one pulse"},
    Entry{Msg::TraceTimesEmpty, "the list is empty", "at least one time (ns)"},
    Entry{Msg::TraceEveryOrTimes, "give exactly one of `every` and `times`",
          "{every: K} or {times: [t1, t2, ...]} (ns)"},
    Entry{Msg::TraceTimeAfterEnd, "time ${TIME} ns is after the end of the evolution T = ${T} ns",
          "0 <= t <= T"},
    Entry{Msg::TraceTimesOneStep,
          "maps to step boundary ${STEP} (t = ${TIME} ns), as does output.trace.times[${OTHER}]",
          "times at least one step (dt = ${DT} ns) apart"},
    Entry{Msg::LinePanels,
          "the line's output over the ${T} ns evolution needs about ${PANELS} panels, more than ${LIMIT} (a "
          "panel is at most half a filter's sigma or tau, half of (1 + amplitude) tau for a pre-distorted "
          "exponential, an eighth of the carrier's period, and one sample long)",
          "larger sigma or tau, an exponential's amplitude further from -1 with predistort, fewer samples "
          "over the evolution, or a shorter evolution"},
    // --- resolution stage: one pulse entry (the texts the pulse layer gave them) ------------
    Entry{Msg::PulseDragBase, "drag base must be ${BASES}, not ${BASE}", nullptr},
    Entry{Msg::PulseBaseNotDrag, "base applies only to shape drag, not to ${SHAPE}", nullptr},
    Entry{Msg::PulseKeyForeign, "${KEY} does not apply to ${DESC}", "the keys of ${DESC}: ${KEYS}"},
    Entry{Msg::PulseNotFinite, "${KEY} must be a finite number", nullptr},
    Entry{Msg::PulseDelayNegative, "delay must be >= 0 ns, got ${VALUE}", nullptr},
    Entry{Msg::PulseNotPositive, "${KEY} must be > 0, got ${VALUE}", nullptr},
    Entry{Msg::PulsePlateauNegative, "plateau must be >= 0, got ${VALUE}", nullptr},
    Entry{Msg::PulseNeedsDuration, "${DESC} needs a duration", "duration: the length in ns"},
    Entry{Msg::PulseNeedsValue, "${SHAPE} needs at least one value", "values: [v0, v1, ...] in GHz"},
    Entry{Msg::PulseSplineValues, "${SHAPE} needs at least 4 control values, got ${COUNT}",
          "values: [v0, v1, v2, v3, ...] in GHz"},
    Entry{Msg::PulseTwoOfThree, "${DESC} needs two of ${KEYS}; ${GIVEN}", "${RELATION}"},
    Entry{Msg::PulseRampsInconsistent,
          "duration ${DURATION}, plateau ${PLATEAU} and ramp ${RAMP} are inconsistent: plateau + 2*ramp = ${SUM}",
          "only two of them, or duration = plateau + 2*ramp"},
    Entry{Msg::PulseRampTooLong,
          "ramp ${RAMP} is longer than half the duration ${DURATION}: plateau = duration - 2*ramp = ${PLATEAU}",
          "ramp <= duration/2"},
    Entry{Msg::PulseNoRamp, "plateau ${PLATEAU} leaves no ramp in duration ${DURATION}", "plateau < duration"},
    Entry{Msg::PulseGaussInconsistent,
          "duration ${DURATION}, sigma ${SIGMA} and c ${C} are inconsistent: 2*c*sigma = ${PRODUCT}",
          "only two of them, or duration = 2*c*sigma"},
    Entry{Msg::PulseEdgesMissing,
          "${DESC} needs all three of duration, sigma, c (independent: the rise is centred at c*sigma, the "
          "fall at duration - c*sigma); ${KEY} is missing",
          nullptr},
    Entry{Msg::PulseEdgesOrder,
          "duration ${DURATION} must exceed 2*c*sigma = ${PRODUCT} (the rise centre c*sigma must come before "
          "the fall centre duration - c*sigma)",
          nullptr},
    Entry{Msg::PulseAutoValues, "amplitude: auto does not apply to ${DESC}: its values are the drive in GHz",
          nullptr},
    Entry{Msg::PulseAutoNeedsAngle, "amplitude: auto needs an angle", "angle: the rotation angle in rad"},
    Entry{Msg::PulseAngleWithoutAuto, "angle is only used with amplitude: auto", nullptr},
    Entry{Msg::PulseNotParameter, kPulseNotParameter, "one of ${ALLOWED}"},
    Entry{Msg::PulseNotParameterHere, kPulseNotParameter, nullptr},
    Entry{Msg::PulseParamDerived,
          "'${NAME}' of ${DESC} is derived from the given ${HELD}; to train it, give ${NAME} and only one of them",
          nullptr},
    // --- resolution stage: evolution -------------------------------------------------------
    Entry{Msg::SingleOpen, "precision: single is for closed systems, but `evolution.noise` is given",
          "precision: double for an open system"},
    Entry{Msg::SingleNotSplitSplitting, kSingleNotSplit, "precision: double, or splitting: terms | bonds"},
    Entry{Msg::SingleNotSplitSolver, kSingleNotSplit, "precision: double, or solver: trotter"},
    Entry{Msg::LabelModeCount, "label `${LABEL}` has ${DIGITS} digits but the device has ${MODES}",
          "one digit per mode"},
    Entry{Msg::LabelLevelNotKept, "level ${LEVEL} of mode `${NAME}` is not kept (levels ${LEVELS})",
          "a digit below the mode's levels"},
    Entry{Msg::DissipatorTooLarge,
          "mode `${NAME}` keeps ${LEVELS} levels; its dissipator would act on ${PAIRS} (column, row) "
          "levels, more than the local kernels take (${LIMIT})",
          "at most 8 levels on a mode with noise"},
    Entry{Msg::CollapseMatrixSize, "mode `${NAME}` keeps ${LEVELS} levels but the matrix is ${SIZE} x ${SIZE}",
          "a ${LEVELS} x ${LEVELS} matrix"},
    Entry{Msg::CollapseNoOperator, "mode `${NAME}` has no operator `${OP}`",
          "lowering | number | matrix, or an operator of the mode's model"},
    Entry{Msg::DenseLiouvillian,
          "the dense Liouvillian of an open system with D = ${D} would be ${D2} x ${D2} (limit ${LIMIT})",
          "solver: trotter for D > 32"},
    Entry{Msg::SweepNotComputational,
          "a sweep stores the computational block, so it starts from the computational states",
          "initial_states: computational"},
    // --- resolution stage: target and gradients --------------------------------------------
    Entry{Msg::UnknownGate, "unknown gate `${GATE}`", "one of ${GATES}"},
    Entry{Msg::GateNeedsAngle, "gate `${GATE}` needs an `angle`", "angle: <radians>"},
    Entry{Msg::AngleUnused, "`angle` is only used by ${GATES}", "no angle for this gate"},
    Entry{Msg::GateQubitCount, "gate acts on ${ARITY} qubit(s), but ${COUNT} given",
          "a list of ${MIN} qubit name(s)"},
    Entry{Msg::NotAQubit, kNotAQubit, "one of ${QUBITS}"},
    Entry{Msg::NotAQubitNone, kNotAQubit, "a qubit mode (the device has none)"},
    Entry{Msg::GateMatrixTooLarge,
          "a gate on ${COUNT} qubits is a 2^${COUNT} x 2^${COUNT} matrix: it needs ${BYTES}; ${LIMIT} "
          "available (${SOURCE})",
          "a gate on fewer qubits"},
    Entry{Msg::GateMatrixUnreadable, "cannot read the gate matrix: ${REASON}",
          "an HDF5 file with a complex dataset /unitary"},
    Entry{Msg::GateMatrixShape, "${FILE}: /unitary is ${ROWS} x ${COLS} but the gate acts on ${COUNT} qubit(s)",
          "${WANT} x ${WANT}"},
    Entry{Msg::GateMatrixNotFinite, "${FILE}: /unitary contains NaN or inf", "a unitary matrix"},
    Entry{Msg::GateMatrixNotUnitary, "${FILE}: /unitary is not unitary (max |G^dag G - I| = ${ERROR})",
          "a unitary matrix, to 1e-10"},
    Entry{Msg::GradientNeedsTarget, "gradients need a `target`", "a target section"},
    Entry{Msg::GradientSinglePrecision, "gradients are computed in double precision only", "precision: double"},
    Entry{Msg::GradientInitialStates, "gradients need the computational initial states",
          "initial_states: computational"},
    Entry{Msg::OpenGradientSolver, "open-system gradients are computed for solver ${SOLVERS} only",
          "solver: ${SOLVERS}"},
    Entry{Msg::OpenGradientSplitting,
          "open-system gradients with solver ${SOLVER} are computed on local gates only (the checkpointed "
          "adjoint of the split Lindblad step)",
          "splitting: ${SPLITTINGS}"},
    Entry{Msg::OpenCompensationTrainable,
          "trainable compensation angles are not available for open systems (they are re-optimised)",
          "compensation_trainable: false"},
    Entry{Msg::OpenGradientBasis,
          "open-system gradients for device parameters are computed in the product basis and the lab "
          "frame only",
          "basis: product, frame: lab"},
    Entry{Msg::NothingTrainable, "nothing is trainable: no `optimize:` list names a parameter",
          "an `optimize: [...]` list on a pulse, qubit or coupling"},
    // --- resolution stage: memory ----------------------------------------------------------
    Entry{Msg::MemoryOverLimit, kOverLimit, "fewer modes, levels or columns, or a machine with more memory"},
    Entry{Msg::MemoryOverLimitPoints, kOverLimit, "fewer points, or a machine with more memory"},
    Entry{Msg::NotAMemorySize, "`${TEXT}` is not a memory size", "a positive size such as 8G, 500M or 2GiB"},
    // --- resolution stage: output files ----------------------------------------------------
    Entry{Msg::OutputNameEmpty, "the file name is empty", kNewFile},
    Entry{Msg::OutputNamesFolder, "`${PATH}` names a folder, not a file", kNewFile},
    Entry{Msg::OutputSpecialFloat, "`${NAME}` is a YAML special float, not a file name", kNewFile},
    Entry{Msg::OutputIsFolder, "`${PATH}` is a folder", kNewFile},
    Entry{Msg::OutputFolderMissing, "the folder `${DIR}` does not exist", kNewFile},
    Entry{Msg::OutputNotAFolder, "`${DIR}` is not a folder", kNewFile},
    Entry{Msg::OutputFolderNotWritable, "the folder `${DIR}` is not writable", kNewFile},
    Entry{Msg::OutputCreateFails, "the folder `${DIR}` is not writable (creating a file there fails: ${REASON})",
          kNewFile},
    Entry{Msg::OutputIsConfig, "`${PATH}` is the config file itself", kNewFile},
    Entry{Msg::ReplaceForeign, "`${PATH}` exists and was not written by qevolve; this command would replace it",
          kReplaceInstead},
    Entry{Msg::ReplaceCheckpoint, "`${PATH}` is an `optimize` checkpoint; this command would replace it",
          kReplaceInstead},
    Entry{Msg::ReplaceResult, "`${PATH}` holds the result of `qevolve ${OWNER}`; this command would replace it",
          kReplaceInstead},
    Entry{Msg::WriteBackOverConfig,
          "the optimised config `${PATH}` would replace the config being optimised",
          "another output name (the optimised config is named after it: OUT.h5 -> OUT.optimized.yaml)"},
    Entry{Msg::WriteBackOverForeign,
          "the optimised config would replace `${PATH}`, which qevolve optimize did not write",
          "another output name, or --force to replace it"},
    // --- resuming an optimisation ---------------------------------------------------------
    Entry{Msg::CheckpointMismatch, "checkpoint does not match this configuration (${WHY})", nullptr},
    // --- `qevolve converge` ----------------------------------------------------------------
    Entry{Msg::ConvergeTolerance, "the tolerance ${TOLERANCE} is not in (0, ${MAX}]", "an absolute error of F, e.g. 1e-6"},
    Entry{Msg::ConvergeSolverSteps, "converge refines evolution.steps, which solver ${SOLVER} chooses itself",
          "${SOLVERS}"},
    Entry{Msg::ConvergeNeedsFidelity, "converge needs F, and ${WHY}", "a target and the computational initial states"},
    Entry{Msg::ConvergeLevelsCap,
          "mode `${NAME}` keeps ${LEVELS} levels: converge raises a mode's levels up to ${MAX} and cannot check it",
          "fewer levels than ${MAX}"},
    Entry{Msg::ConvergeRefinement,
          "converge's first refinement of mode `${NAME}`, ${NAME} levels ${FROM} \u2192 ${TO}, cannot be run: ${PROBLEM}",
          "a larger --max-memory, or fewer levels"},
    // --- fragments -------------------------------------------------------------------------
    Entry{Msg::NounList, "a list", nullptr},
    Entry{Msg::NounMap, "a mapping", nullptr},
    Entry{Msg::NounQuoted, "the quoted string \"${VALUE}\"", nullptr},
    Entry{Msg::NounScalar, "the value `${VALUE}`", nullptr},
    Entry{Msg::NounNull, "no value", nullptr},
    Entry{Msg::NounNone, "none", nullptr},
    Entry{Msg::NounOnly, "only `${KEY}`", nullptr},
    Entry{Msg::RelationRamp, "duration = plateau + 2*ramp", nullptr},
    Entry{Msg::RelationSigma, "duration = 2*c*sigma", nullptr},
    Entry{Msg::FormulaPlateau, "duration - 2*ramp", nullptr},
    Entry{Msg::FormulaRamp, "(duration - plateau)/2", nullptr},
    Entry{Msg::ConditionPlateau, "duration >= 2*ramp", nullptr},
    Entry{Msg::ConditionRamp, "duration > plateau", nullptr},
    Entry{Msg::ExpectMap, "a mapping", nullptr},
    Entry{Msg::ExpectList, "a list", nullptr},
    Entry{Msg::ExpectString, "a non-empty string", nullptr},
    Entry{Msg::ExpectName, "a mode name", nullptr},
    Entry{Msg::ExpectBool, "true or false", nullptr},
    Entry{Msg::ExpectOneOf, "one of: ${ALLOWED}", nullptr},
    Entry{Msg::ExpectFinite, "a finite number${UNIT}", nullptr},
    Entry{Msg::ExpectGt, "a number > ${MIN}${UNIT}", nullptr},
    Entry{Msg::ExpectGe, "a number >= ${MIN}${UNIT}", nullptr},
    Entry{Msg::ExpectClosed, "a number in [${MIN}, ${MAX}]${UNIT}", nullptr},
    Entry{Msg::ExpectOpen, "a number in (${MIN}, ${MAX})${UNIT}", nullptr},
    Entry{Msg::ExpectOpenClosed, "a number in (${MIN}, ${MAX}]${UNIT}", nullptr},
    Entry{Msg::ExpectInt, "an integer in [${MIN}, ${MAX}]", nullptr},
    Entry{Msg::ExpectNumberList, "a list of finite numbers${UNIT}", nullptr},
    Entry{Msg::ExpectAmplitude, "a number in [-100, 100] (GHz), or auto with angle", nullptr},
    Entry{Msg::ExpectFluxAmplitude, "a number in [-1000, 1000] (flux quanta)", nullptr},
    Entry{Msg::ExpectPulseFrequency, "a number in [0, 1000] (GHz), auto or auto_dressed", nullptr},
    Entry{Msg::ExpectInitialStates, "computational, all, or a list of labels like \"0110\"",
          nullptr},
    Entry{Msg::ExpectDevice, "a mapping with a `preset` and/or a `qubits` list", nullptr},
    Entry{Msg::ExpectGates, "a list of gates like {gate: X, qubits: [q0]}", nullptr},
    Entry{Msg::ExpectModeType,
          "one of: fluxonium, transmon, resonator, duffing (without a preset every entry is a "
          "new mode)",
          nullptr},
    Entry{Msg::ExpectTypeKeys, "the keys ${KEYS} of a ${TYPE} mode", nullptr},
    Entry{Msg::ExpectAngle, "the gate's angle in radians: the rotation of RX RY RZ, the phase of |11> of CPHASE", nullptr},
    Entry{Msg::ExpectPulseQubit, "the name of the driven mode", nullptr},
    Entry{Msg::ExpectGateQubits, "a list of the mode names the gate acts on", nullptr},
    Entry{Msg::ExpectTrainable, "a list of parameter names", nullptr},
    Entry{Msg::ExpectValuesIndex, "values[k] with 0 <= k < ${COUNT}", nullptr},
    Entry{Msg::ExpectLineName, "the line's name, as pulses give it in their `line` key", nullptr},
    Entry{Msg::ExpectPulseLine, "the name of an entry of `lines`", nullptr},
    Entry{Msg::ExpectFilterKeys, "the ${KEYS} of a filter of type `${TYPE}`", nullptr},
    Entry{Msg::ExpectTapsIndex, "taps[k] with 0 <= k < ${COUNT}", nullptr},
    Entry{Msg::ContextModeType, "a ${TYPE} mode", nullptr},
    Entry{Msg::ContextPulseShape, "a `${SHAPE}` pulse", nullptr},
    Entry{Msg::ContextDragBase, "a `drag` pulse with base `${BASE}`", nullptr},
    Entry{Msg::ContextPreset, "preset `${PRESET}`", nullptr},
    Entry{Msg::ContextGate, "gate `${GATE}`", nullptr},
    Entry{Msg::ContextMatrixGate, "a `matrix_file` gate", nullptr},
    Entry{Msg::ContextMode, "a mode", nullptr},
    Entry{Msg::ContextCoupling, "a coupling", nullptr},
    Entry{Msg::ContextNoise, "a noise entry", nullptr},
    Entry{Msg::ContextFilter, "a filter of type `${TYPE}`", nullptr},
    Entry{Msg::ContextResonatorHeld, " (a resonator, held in its ground state)", nullptr},
    Entry{Msg::ContextCouplerHeld, " (role: coupler, held in its ground state)", nullptr},
    Entry{Msg::ContextColumn, ", ${COUNT} column", nullptr},
    Entry{Msg::ContextColumns, ", ${COUNT} columns", nullptr},
    Entry{Msg::ContextMemoryTotal, " (${BYTES} in all)", nullptr},
    Entry{Msg::ContextPerPoint, " per point${LARGEST}, ${POINTS} points, ${AT_ONCE} at once", nullptr},
    Entry{Msg::ContextLargestPoint, " (the largest: ${POINT})", nullptr},
    Entry{Msg::NounOtherName, "another file name", nullptr},
    Entry{Msg::NounOtherNameSuch, "another file name such as ${NAME}", nullptr},
    Entry{Msg::NounOutputFlag, "-o ${NAME}", nullptr},
    Entry{Msg::ContextPulseNamed, "a ${SHAPE} pulse", nullptr},
    Entry{Msg::ContextDragNamed, "a drag pulse with base ${BASE}", nullptr},
    Entry{Msg::NounGivenNone, "none is given", nullptr},
    Entry{Msg::NounGivenOnly, "only ${KEYS} is given", nullptr},
    Entry{Msg::ContextResumeCount, "${RECORDED} parameters recorded, ${NOW} now", nullptr},
    Entry{Msg::ContextResumeStart, "another start point", nullptr},
    Entry{Msg::ContextResumeMethod, "method ${RECORDED} recorded, ${NOW} now", nullptr},
    Entry{Msg::ContextResumeRate, "another learning_rate", nullptr},
    Entry{Msg::ContextReplayPoint, "evaluation ${K} is at another point", nullptr},
    Entry{Msg::ContextReplayGradient, "gradient length", nullptr},
    Entry{Msg::ContextReplayObjective,
          "the objective at the start point is ${NOW} now but ${RECORDED} in the checkpoint: another device, pulse, "
          "solver, number of steps or optimize.leakage_weight?",
          nullptr},
    Entry{Msg::ContextNotComputational, "initial_states is not computational", nullptr},
    Entry{Msg::ContextNoTarget, "the config has no target", nullptr},
    Entry{Msg::ExpectEnsembleSet, "the member's overrides in --set syntax, e.g. {\"device.qubits[0].el\": 0.99}",
          nullptr},
    Entry{Msg::ExpectEnsembleEntries,
          "members: [{set: {KEY: VALUE, ...}, weight: W}, ...] or vary: [{key: KEY, distribution: normal, mean: M, "
          "std: S, points: N}, ...]",
          nullptr},
    Entry{Msg::ExpectSetValue, "a YAML scalar or flow value, e.g. 0.99, [1, 2] or {every: 10}", nullptr},
    Entry{Msg::ExpectVaryKey, "a key path in --set syntax, e.g. device.qubits[0].el", nullptr},
    Entry{Msg::ExpectDistributionKeys, "the keys ${KEYS} of a `${DIST}` distribution", nullptr},
    Entry{Msg::ContextDistribution, "a `${DIST}` distribution", nullptr},
};

static_assert(kTable.size() == static_cast<std::size_t>(Msg::kCount),
              "every Msg needs exactly one entry in kTable");

const Entry& entry(Msg id) {
  const auto k = static_cast<std::size_t>(id);
  if (k >= kTable.size() || kTable[k].id != id)
    throw std::logic_error("qevolve::io::messages: table out of order at message " +
                           std::to_string(k));
  return kTable[k];
}

std::string render(const char* tmpl, std::span<const MsgArg> args, Msg id) {
  std::string out;
  const std::string_view t(tmpl);
  std::size_t pos = 0;
  while (pos < t.size()) {
    const std::size_t open = t.find("${", pos);
    if (open == std::string_view::npos) {
      out.append(t.substr(pos));
      break;
    }
    out.append(t.substr(pos, open - pos));
    const std::size_t close = t.find('}', open + 2);
    if (close == std::string_view::npos)
      throw std::logic_error("unterminated placeholder in message " +
                             std::to_string(static_cast<int>(id)));
    const std::string_view name = t.substr(open + 2, close - open - 2);
    const MsgArg* found = nullptr;
    for (const MsgArg& a : args)
      if (a.name == name) found = &a;
    if (found == nullptr)
      throw std::logic_error("message " + std::to_string(static_cast<int>(id)) +
                             ": no value for placeholder ${" + std::string(name) + "}");
    out += found->value;
    pos = close + 1;
  }
  return out;
}

std::string problem_text(Msg id, std::span<const MsgArg> args) { return render(entry(id).problem, args, id); }

std::string expected_text(Msg id, std::span<const MsgArg> args) {
  const Entry& e = entry(id);
  return e.expected == nullptr ? std::string{} : render(e.expected, args, id);
}

std::span<const MsgArg> span(MsgArgs args) { return {args.begin(), args.size()}; }

}  // namespace

std::string message(Msg id, MsgArgs args) { return problem_text(id, span(args)); }

std::string expected(Msg id, MsgArgs args) { return expected_text(id, span(args)); }

InputError input_error(SourceLocation where, std::string key_path, Msg id, MsgArgs args) {
  return InputError(std::move(where), std::move(key_path), message(id, args), expected(id, args));
}

InputError input_error(SourceLocation where, std::string key_path, const MsgProblem& p) {
  return InputError(std::move(where), std::move(key_path), problem_text(p.id, p.args), expected_text(p.id, p.args));
}

void fail(const Config& config, const std::string& key_path, Msg id, MsgArgs args) {
  config.fail(key_path, message(id, args), expected(id, args));
}

void fail(const Config& config, const std::string& key_path, const MsgProblem& p) {
  config.fail(key_path, problem_text(p.id, p.args), expected_text(p.id, p.args));
}

bool message_table_complete() {
  for (std::size_t k = 0; k < kTable.size(); ++k)
    if (static_cast<std::size_t>(kTable[k].id) != k) return false;
  return kTable.size() == static_cast<std::size_t>(Msg::kCount);
}

}  // namespace qevolve::io
