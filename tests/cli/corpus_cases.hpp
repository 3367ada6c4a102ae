// The rows of the bad-input corpus (corpus.hpp), by class (docs/cli.md "Bad input"):
//   yaml        hostile files: empty, binary, alias bombs, deep nesting, huge documents, numbers
//               that overflow, files that are not files, standard input;
//   size        sizes that overflow or cannot fit: refused with the estimate before any
//               allocation (run by the sanitizer build too: tests/config/test_config_corpus.cpp);
//   flags       the command line;
//   output      output paths, checked before any work;
//   checkpoint  `optimize --resume` with missing, foreign or corrupted checkpoints;
//   matrix      a target's `matrix_file`;
//   stage       errors that need the merged device or several sections (`check` = `run`).
// The config mutations of tests/config/bad_cases_*.hpp are the class `config`.
#pragma once

#include <hdf5.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "cli/corpus.hpp"
#include "cli/corpus_stage_cases.hpp"
#include "qevolve/hdf5_file.hpp"

namespace qevolve::testing {
namespace corpus_detail {

namespace fs = std::filesystem;

/// One transmon, one pulse: valid (the base of the rows that break one thing).
inline const std::string kSmall =
    "device:\n"
    "  qubits:\n"
    "    - {name: t0, type: transmon, ec: 0.2, ej: 15.0, levels: 3}\n"
    "pulses:\n"
    "  - {qubit: t0, shape: cos, amplitude: 0.01, duration: 20}\n"
    "evolution: {steps: 100}\n";

/// A trainable X gate on the same transmon (optimize, checkpoints).
inline const std::string kOptimize =
    "device:\n"
    "  qubits:\n"
    "    - {name: t0, type: transmon, ec: 0.2, ej: 15.0, levels: 3}\n"
    "pulses:\n"
    "  - {qubit: t0, shape: cos, amplitude: 0.01, duration: 20, optimize: [amplitude, phase]}\n"
    "evolution: {steps: 1200}\n"
    "target: {gates: [{gate: X, qubits: [t0]}]}\n"
    "optimize: {max_iterations: 1, checkpoint: ckpt.h5}\n";

inline std::string small_with(const std::string& more) {
  return kSmall + more;
}

inline std::string chain(int qubits, int levels, const std::string& pulse_keys = "") {
  return "device:\n  preset: mpc_fluxonium_1d\n  preset_args: {qubits: " + std::to_string(qubits) +
         ", levels: " + std::to_string(levels) +
         "}\npulses:\n  - {qubit: q0, shape: cos, amplitude: 0.01, duration: 20" + pulse_keys +
         "}\n";
}

/// `count` uncoupled transmons of `levels` levels, one pulse.
inline std::string transmons(int count, int levels) {
  std::string yaml = "device:\n  qubits:\n";
  for (int k = 0; k < count; ++k)
    yaml += "    - {name: t" + std::to_string(k) +
            ", type: transmon, ec: 0.2, ej: 15.0, levels: " + std::to_string(levels) + "}\n";
  return yaml +
         "pulses:\n  - {qubit: t0, shape: cos, amplitude: 0.01, duration: 20}\nevolution: {steps: "
         "1200}\n";
}

inline std::string alias_bomb() {
  std::string bomb = "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
  for (int k = 1; k < 10; ++k) {
    const std::string name = std::to_string(k), prev = std::to_string(k - 1);
    bomb.append("a").append(name).append(": &a").append(name).append(" [");
    for (int j = 0; j < 10; ++j) bomb.append(j ? ", *a" : "*a").append(prev);
    bomb.append("]\n");
  }
  return bomb + "device: {preset: mpc_fluxonium_1d}\n";
}

inline std::string block_nesting(int depth) {
  std::string block;
  for (int k = 0; k < depth; ++k) block += std::string(static_cast<std::size_t>(k), ' ') + "a:\n";
  return block;
}

inline std::string long_list(int entries) {
  std::string text = "device: {preset: mpc_fluxonium_1d}\npulses: [";
  for (int k = 0; k < entries; ++k) text += "1,";
  return text + "1]\n";
}

/// `/unitary` = `m` in `dir/name` (io::Hdf5Writer: complex entries as h5py writes them).
inline void write_unitary(const fs::path& dir, const std::string& name, const CMatrix& m,
                          const std::string& dataset = "/unitary") {
  io::Hdf5Writer w((dir / name).string());
  w.write(dataset, m);
  w.commit();
}

/// A complex dataset /unitary declaring rows x cols entries, never written (nothing allocated
/// in the file): reading it would allocate all of it.
inline void write_declared_unitary(const fs::path& dir, const std::string& name, hsize_t rows,
                                   hsize_t cols) {
  const hid_t file = H5Fcreate((dir / name).c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  const hid_t type = H5Tcreate(H5T_COMPOUND, 16);
  H5Tinsert(type, "r", 0, H5T_NATIVE_DOUBLE);
  H5Tinsert(type, "i", 8, H5T_NATIVE_DOUBLE);
  const hsize_t dims[2] = {rows, cols};
  const hid_t space = H5Screate_simple(2, dims, nullptr);
  const hid_t set = H5Dcreate2(file, "unitary", type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  H5Dclose(set);
  H5Sclose(space);
  H5Tclose(type);
  H5Fclose(file);
}

/// A real checkpoint of kOptimize (`ckpt.h5`, one iteration), written by qevolve itself.
inline void make_checkpoint(const fs::path& dir, const std::string& config = kOptimize) {
  std::ofstream(dir / "opt.yaml") << config;
  const std::string command = "cd '" + dir.string() + "' && '" + QEVOLVE_EXE +
                              "' optimize opt.yaml --quiet --threads 1 >/dev/null 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  fs::remove(dir / "opt.optimized.yaml");
}

inline void make_folder(const fs::path& dir, const std::string& name) {
  fs::create_directory(dir / name);
}

}  // namespace corpus_detail

/// Hostile YAML and config files that are not YAML at all.
inline std::vector<CorpusCase> yaml_cases() {
  using namespace corpus_detail;
  const std::string empty =
      ": the config is empty (no YAML document) (expected a mapping with at least the key "
      "`device`)";
  const std::string too_deep =
      ": lists and mappings nested deeper than 64 levels (expected at most 64 levels of nesting)";
  const std::string too_many = ": more than 200000 YAML nodes (counting every alias expansion)";
  std::string binary(4096, '\0');
  for (std::size_t k = 0; k < binary.size(); ++k)
    binary[k] = static_cast<char>((k * 2654435761u) >> 13);
  binary[0] = '\xfe';
  return {
      {"yaml", "EmptyFile", {{"bad.yaml", ""}}, "bad.yaml", "bad.yaml" + empty, true},
      {"yaml",
       "WhitespaceOnly",
       {{"bad.yaml", "   \n\t\n\r\n"}},
       "bad.yaml",
       "bad.yaml" + empty,
       true},
      {"yaml",
       "CommentsOnly",
       {{"bad.yaml", "# a comment\n  # another\n"}},
       "bad.yaml",
       "bad.yaml" + empty,
       true},
      {"yaml", "NullDocument", {{"bad.yaml", "~\n"}}, "bad.yaml", "bad.yaml" + empty, true},
      {"yaml",
       "ByteOrderMarkOnly",
       {{"bad.yaml", "\xEF\xBB\xBF"}},
       "bad.yaml",
       "bad.yaml" + empty,
       true},
      {"yaml",
       "NulByte",
       {{"bad.yaml", std::string("device:\n  pre\0set: x\n", 21)}},
       "bad.yaml",
       "bad.yaml:2:6: byte 0x00 is not text (a binary file?) (expected a UTF-8 text file)",
       true},
      {"yaml",
       "PngFile",
       {{"bad.yaml", std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16)}},
       "bad.yaml",
       "bad.yaml:1:1: invalid UTF-8 sequence starting with byte 0x89 (expected a UTF-8 text file)",
       true},
      {"yaml",
       "RandomBytes",
       {{"bad.yaml", binary}},
       "bad.yaml",
       "bad.yaml:1:1: invalid UTF-8 sequence starting with byte 0xfe (expected a UTF-8 text file)",
       true},
      {"yaml",
       "Utf16File",
       {{"bad.yaml", std::string("\xff\xfe"
                                 "d\0e\0v\0",
                                 8)}},
       "bad.yaml",
       "bad.yaml:1:1: invalid UTF-8 sequence starting with byte 0xff (expected a UTF-8 text file)",
       true},
      // A YAML stream is UTF-8 without control bytes (but tab, LF, CR), comments included.
      {"yaml",
       "ByteFFInAValue",
       {{"bad.yaml", small_with("output: {file: r\xff.h5}\n")}},
       "bad.yaml",
       "bad.yaml:7:17: invalid UTF-8 sequence starting with byte 0xff (expected a UTF-8 text file)",
       true},
      {"yaml",
       "EncodedSurrogateInAComment",
       {{"bad.yaml", small_with("# U+D800: \xED\xA0\x80\n")}},
       "bad.yaml",
       "bad.yaml:7:11: invalid UTF-8 sequence starting with byte 0xed (expected a UTF-8 text file)",
       true},
      {"yaml",
       "OverlongSlashInAComment",
       {{"bad.yaml", small_with("# a/b \xC0\xAF\n")}},
       "bad.yaml",
       "bad.yaml:7:7: invalid UTF-8 sequence starting with byte 0xc0 (expected a UTF-8 text file)",
       true},
      {"yaml",
       "EscapeInAComment",
       {{"bad.yaml", small_with("output: {file: r.h5}  # \x1b[31mred\x1b[0m\n")}},
       "bad.yaml",
       "bad.yaml:7:25: byte 0x1b is not text (a binary file?) (expected a UTF-8 text file)",
       true},
      {"yaml",
       "StandardInputEscapeInAComment",
       {{"bad.txt", small_with("# \x1b]0;title\x07\n")}},
       "- < bad.txt",
       "<stdin>:7:3: byte 0x1b is not text (a binary file?) (expected a UTF-8 text file)",
       true},
      {"yaml",
       "AliasBomb",
       {{"bad.yaml", alias_bomb()}},
       "bad.yaml",
       "bad.yaml:6:10" + too_many,
       true},
      {"yaml", "HugeFlatDocument", {{"bad.yaml", long_list(300000)}}, "bad.yaml", too_many, true},
      {"yaml",
       "DeepFlowLists",
       {{"bad.yaml", "device: " + std::string(100000, '[')}},
       "bad.yaml",
       "bad.yaml:1:41" + too_deep,
       true},
      {"yaml", "DeepFlowMaps", {{"bad.yaml", "device: " + std::string(100000, '{') + "\n"}}, "bad.yaml",
       "bad.yaml:1:72" + too_deep, true},
      {"yaml", "DeepBlockMaps", {{"bad.yaml", block_nesting(200)}}, "bad.yaml", "bad.yaml:65:65" + too_deep, true},
      // The 17 MiB file is written when the case runs (prepare): every test_cli process builds every row.
      {"yaml", "OversizedFile", {}, "bad.yaml", "bad.yaml: the config file is larger than the limit of 16777216 bytes",
       true,
       [](const fs::path& d) {
         std::ofstream(d / "bad.yaml", std::ios::binary)
             << "device: {preset: mpc_fluxonium_1d}\n" << std::string(17u << 20, '#') << "\n";
       }},
      {"yaml",
       "LongValue",
       {{"bad.yaml", "device: {preset: " + std::string(100000, 'x') + "}\n"}},
       "bad.yaml",
       "bad.yaml:1:18: device.preset: unknown value `" + std::string(40, 'x') + "...`",
       true},
      {"yaml",
       "NumberOverflowsDouble",
       {{"bad.yaml",
         "device:\n  qubits:\n    - {name: t0, type: transmon, ec: 1e400, ej: 15.0, levels: 3}\n"}},
       "bad.yaml",
       "bad.yaml:3:38: device.qubits[0].ec: `1e400` is not a finite number",
       true},
      {"yaml",
       "HugeInteger",
       {{"bad.yaml",
         "device:\n  qubits:\n    - {name: t0, type: transmon, ec: 0.2, ej: 15.0, levels: "
         "99999999999999999999}\n"}},
       "bad.yaml",
       "bad.yaml:3:61: device.qubits[0].levels: `99999999999999999999` is out of range (expected "
       "an integer in [2, 1000])",
       true},
      {"yaml",
       "TabIndentation",
       {{"bad.yaml", "device:\n\tpreset: mpc_fluxonium_1d\n"}},
       "bad.yaml",
       "bad.yaml:2:8: YAML syntax error: illegal map value (expected valid YAML)",
       true},
      {"yaml",
       "UnterminatedQuote",
       {{"bad.yaml", "device: {preset: \"mpc_fluxonium_1d}\n"}},
       "bad.yaml",
       "bad.yaml:2:1: YAML syntax error: end of map flow not found (expected valid YAML)",
       true},
      {"yaml",
       "PythonTag",
       {{"bad.yaml", "device: !!python/object:os.system {preset: x}\n"}},
       "bad.yaml",
       "YAML tag `!!python/object:os.system` is not supported",
       true},
      {"yaml",
       "MergeKey",
       {{"bad.yaml",
         "device:\n  qubits:\n    - &q {name: t0, type: transmon, ec: 0.2, ej: 15.0, levels: 3}\n"
         "    - <<: *q\n      name: t1\n"}},
       "bad.yaml",
       "bad.yaml:4:7: device.qubits[1].<<: unknown key `<<`",
       true},
      {"yaml",
       "MissingFile",
       {},
       "absent.yaml",
       "absent.yaml: cannot open the config file: no such file (expected an existing YAML file)",
       true},
      {"yaml",
       "ConfigIsAFolder",
       {},
       "sub",
       "sub: cannot read the config file: it is a directory (expected a YAML file)",
       true,
       [](const std::filesystem::path& d) { corpus_detail::make_folder(d, "sub"); }},
      {"yaml",
       "ConfigIsAFifo",
       {},
       "fifo.yaml",
       "fifo.yaml: cannot read the config file: it is not a regular file (a device, pipe or "
       "socket)",
       true,
       [](const std::filesystem::path& d) { ::mkfifo((d / "fifo.yaml").c_str(), 0600); }},
      {"yaml",
       "ConfigIsADevice",
       {},
       "/dev/zero",
       "/dev/zero: cannot read the config file: it is not a regular file",
       true},
      {"yaml",
       "ConfigUnderAFile",
       {{"bad.yaml", kSmall}},
       "bad.yaml/x.yaml",
       "bad.yaml/x.yaml: cannot read the config file: Not a directory",
       true},
      {"yaml",
       "ConfigUnreadable",
       {},
       "/proc/self/mem",
       "/proc/self/mem: cannot read the config file: Input/output error",
       true},
      {"yaml",
       "StandardInputBinary",
       {{"bad.bin", binary}},
       "- < bad.bin",
       "<stdin>:1:1: invalid UTF-8 sequence starting with byte 0xfe",
       true},
      {"yaml", "StandardInputEmpty", {}, "- < /dev/null", "<stdin>" + empty, true},
  };
}

/// Sizes that overflow 64-bit integers or cannot fit: refused with the estimate, located.
inline std::vector<CorpusCase> size_cases() {
  using namespace corpus_detail;
  // One duffing qubit (a device needs a qubit) and 69 resonators: D = 2^70.
  std::string resonators =
      "device:\n  qubits:\n"
      "    - {name: q, type: duffing, frequency: 5.0, anharmonicity: -0.2, levels: 2}\n";
  for (int k = 0; k < 69; ++k)
    resonators +=
        "    - {name: r" + std::to_string(k) + ", type: resonator, frequency: 6.0, levels: 2}\n";
  resonators += "evolution: {duration: 10}\n";
  const std::string basis =
      "device:\n  qubits:\n"
      "    - {name: q0, type: fluxonium, ec: 1.0, ej: 4.0, el: 1.0, levels: 3,\n"
      "       basis_size: 100000}\n"
      "evolution: {duration: 10}\n";
  const std::string transmons4 = transmons(4, 3), transmons6 = transmons(6, 4);
  return {
      {"size",
       "Qubits64",
       {{"chain.yaml", chain(64, 2)}},
       "chain.yaml",
       "chain.yaml:1:1: device: D = 2^64 = 1.8e19 states",
       true},
      {"size",
       "Qubits64Spectrum",
       {{"chain.yaml", chain(64, 2)}},
       "spectrum chain.yaml",
       "chain.yaml:1:1: device: D = 2^64 = 1.8e19 states"},
      {"size",
       "Qubits64Optimize",
       {{"chain.yaml", chain(64, 2, ", optimize: [amplitude]") +
                           "target: {gates: [{gate: X, qubits: [q0]}]}\n"
                           "optimize: {max_iterations: 1}\n"}},
       "optimize chain.yaml",
       "chain.yaml:1:1: device: D = 2^64 = 1.8e19 states"},
      {"size",
       "Qubits64Levels1000",
       {{"chain.yaml", chain(64, 1000)}},
       "chain.yaml",
       "chain.yaml:1:1: device: D = 1000^64 = 1e192 states",
       true},
      {"size",
       "Qubits41Levels3",
       {{"chain.yaml", chain(41, 3)}},
       "chain.yaml",
       "chain.yaml:1:1: device: D = 3^41 = 3.6e19 states",
       true},
      {"size",
       "Qubits30",
       {{"chain.yaml", chain(30, 2)}},
       "chain.yaml",
       "chain.yaml:1:1: device: D = 2^30 = 1.1e9 states, 1.1e9 columns: the states need 48 EiB",
       true},
      {"size",
       "Resonators70",
       {{"res.yaml", resonators}},
       "res.yaml",
       "res.yaml:1:1: device: D = 2^70 = 1.2e21 states",
       true},
      {"size",
       "BasisSize100000",
       {{"basis.yaml", basis}},
       "basis.yaml",
       "basis.yaml:4:8: device.qubits[0].basis_size: D = 3 states, 2 columns: the basis of one "
       "mode needs 298 GiB",
       true},
      {"size",
       "AllInitialStatesOfALargeDevice",
       {{"all.yaml", chain(20, 2) + "evolution: {initial_states: all}\n"}},
       "all.yaml",
       "all.yaml:6:13: evolution.initial_states: D = 2^20 = 1048576 states, 1048576 columns: the "
       "states need",
       true},
      {"size",
       "LindbladOfALargeDevice",
       {{"open.yaml", chain(12, 3) + "evolution: {noise: {q0: {t1: 1000}}}\n"}},
       "open.yaml",
       "open.yaml:1:1: device: D = 3^12 = 531441 states, 16777216 columns: the states need 132 EiB",
       true},
      {"size",
       "MatrixFileDeclares2To20",
       {{"gate.yaml", small_with("target: {gates: [{matrix_file: huge.h5, qubits: [t0]}]}\n")}},
       "gate.yaml",
       "gate.yaml:7:19: target.gates[0].matrix_file: cannot read the gate matrix: huge.h5: "
       "/unitary: is 1048576 x "
       "1048576 (not read: larger than 2 x 2)",
       true,
       [](const std::filesystem::path& d) {
         corpus_detail::write_declared_unitary(d, "huge.h5", 1u << 20, 1u << 20);
       }},
      {"size",
       "MaxMemoryBelowTheEstimate",
       {{"small.yaml", kSmall}},
       "small.yaml --max-memory 1M",
       "small.yaml:1:1: device: D = 3 states, 2 columns: qevolve itself needs 20 MiB",
       true},
      {"size",
       "SweepOfALargeDevice",
       {{"chain.yaml", chain(64, 2)}},
       "sweep chain.yaml --vary pulses[0].amplitude=0.01:0.02:3",
       "chain.yaml:1:1: device: D = 2^64 = 1.8e19 states"},
      {"size",
       "SweepGridResults",
       {{"t4.yaml", transmons4}},
       "sweep t4.yaml --vary pulses[0].amplitude=0.001:0.002:1000000 --threads 1 --max-memory 2G",
       "--vary: D = 3^4 = 81 states, 16 columns per point, 1000000 points, 1 at once: the grid's "
       "results need 5.81 GiB "
       "(9.6"},
      {"size",
       "SweepLaterPointLarger",
       {{"chain.yaml", chain(2, 2)}},
       "sweep chain.yaml --vary device.preset_args.qubits=2,40 --threads 1",
       "chain.yaml:1:1: device: D = 2^40 = 1.1e12 states, 1.1e12 columns per point (the largest: "
       "device.preset_args.qubits = 40), 2 points, 1 at once: the points evaluated at once need "
       "5.8e25 bytes"},
      {"size",
       "BenchAccuracyDense",
       {{"chain.yaml", chain(20, 2)}},
       "bench accuracy chain.yaml --solvers expm",
       "--solvers: variant `expm`: D = 2^20 = 1048576 states, 1048576 columns: the dense "
       "propagator needs 112 TiB"},
      {"size",
       "BenchAccuracyDenseReference",
       {{"t6.yaml", transmons6}},
       "bench accuracy t6.yaml --solvers trotter2 --reference magnus4:dense --max-memory 1G",
       "--reference: variant `magnus4:dense`: D = 4^6 = 4096 states, 64 columns: the dense "
       "propagator needs 1.75 GiB"},
  };
}

/// The command line.
inline std::vector<CorpusCase> flag_cases() {
  using namespace corpus_detail;
  const std::vector<std::pair<std::string, std::string>> small{{"small.yaml", kSmall}};
  return {
      {"flags",
       "UnknownCommand",
       {},
       "frobnicate x.yaml",
       "unknown command `frobnicate` (expected one of: check, "},
      {"flags", "NoCommand", {}, "", "a command is required (expected one of: check, "},
      {"flags",
       "UnknownBenchCommand",
       {},
       "bench foo",
       "unknown bench command `foo` (expected one of: scaling, accuracy)"},
      {"flags", "MissingConfig", {}, "run", "CONFIG is required (see `qevolve run --help`)"},
      {"flags", "UnknownFlag", small, "run small.yaml --frobnicate",
       "unknown flag `--frobnicate` (see `qevolve run --help`)"},
      // CLI11 said "not expected: 10 --step" (last word first, no suggestion).
      {"flags", "MisspeltFlagWithValue", small, "run small.yaml --step 10",
       "unknown flag `--step`, did you mean `--steps`? (see `qevolve run --help`)"},
      {"flags", "MisspeltFlagOfASubcommand", {}, "bench scaling --qubit=3",
       "unknown flag `--qubit`, did you mean `--qubits`? (see `qevolve bench scaling --help`)"},
      {"flags", "MisspeltTopLevelFlag", {}, "--verison",
       "unknown flag `--verison`, did you mean `--version`? (see `qevolve --help`)"},
      {"flags", "ShortFlagWithoutSuggestion", small, "run small.yaml -q",
       "unknown flag `-q` (see `qevolve run --help`)"},
      {"flags", "SecondConfig", small, "run small.yaml other.yaml",
       "The following argument was not expected: other.yaml (see `qevolve run --help`)"},
      {"flags", "ThreadsZero", small, "run small.yaml --threads 0",
       "--threads: Value 0 not in range 1 to 4096 (see `qevolve run --help`)"},
      {"flags", "ThreadsBeyondTheMaximum", small, "run small.yaml --threads 5000",
       "--threads: Value 5000 not in range 1 to 4096"},
      {"flags", "ThreadsNotANumber", small, "run small.yaml --threads many",
       "--threads: Value many not in range 1 to 4096"},
      {"flags", "StepsZero", small, "run small.yaml --steps 0",
       "--steps: Value 0 not in range 1 to 1000000000"},
      {"flags", "StepsOverflowInt", small, "run small.yaml --steps 99999999999999",
       "--steps: Value 99999999999999 not in range 1 to 1000000000"},
      {"flags", "MaxMemoryUnit", small, "run small.yaml --max-memory 12Q",
       "--max-memory: `12Q` is not a memory size (expected a positive size such as 8G, 500M or "
       "2GiB)"},
      {"flags", "MaxMemoryNegative", small, "run small.yaml --max-memory=-5G",
       "--max-memory: `-5G` is not a memory size"},
      {"flags", "MaxMemoryNaN", small, "check small.yaml --max-memory nan",
       "--max-memory: `nan` is not a memory size"},
      {"flags", "SpectrumLevelsOne", small, "spectrum small.yaml --levels 1",
       "--levels: Value 1 not in range 2 to 1000 (see `qevolve spectrum --help`)"},
      {"flags", "EmptyOutputName", small, "run small.yaml -o ''",
       "--output: the file name is empty (see `qevolve run --help`)"},
      {"flags", "SetWithoutValue", small, "check small.yaml --set pulses",
       "--set pulses: `pulses` has no `=` (expected KEY=VALUE, e.g. pulses[0].amplitude=0.05)"},
      {"flags", "SetUnknownKey", small, "check small.yaml --set device.colour=1",
       "--set device.colour=1: device.colour: unknown key `colour`"},
      {"flags", "SetNotANumber", small, "run small.yaml --set pulses[0].amplitude=abc",
       "pulses[0].amplitude: `abc` is not a number"},
      {"flags", "SetIndexOutOfRange", small, "check small.yaml --set pulses[7].amplitude=0.1",
       "--set pulses[7].amplitude=0.1: pulses[7]: there is 1 pulse (expected an index below 1"},
      // Bytes a YAML stream may not hold, refused with the argument shown escaped (no raw
      // control byte reaches the terminal).
      {"flags", "SetEscapeInAComment", small, "check small.yaml --set 'pulses[0].phase=0.1 # \x1b[31m'",
       "qevolve: error: --set pulses[0].phase=0.1 # \\x1b[31m: byte 0x1b at character 23 of the argument "
       "(shown as \\x1b) is a control character (expected UTF-8 text without control characters other than tab, "
       "CR and LF)"},
      {"flags", "SetEncodedSurrogate", small, "run small.yaml --set 'pulses[0].qubit=t\xED\xA0\x80'",
       "qevolve: error: --set pulses[0].qubit=t\\xed\\xa0\\x80: invalid UTF-8 sequence starting with byte 0xed at "
       "character 18 of the argument (shown as \\xed) (expected UTF-8 text)"},
      {"flags", "VaryByteFF", small, "sweep small.yaml --vary 'pulses[0].amplitude=0.01,0.02\xff'",
       "qevolve: error: --vary pulses[0].amplitude=0.01,0.02\\xff: invalid UTF-8 sequence starting with byte "
       "0xff at character 30 of the argument (shown as \\xff) (expected UTF-8 text)"},
      {"flags", "VaryWithoutCount", small, "sweep small.yaml --vary pulses[0].amplitude=1:2",
       "--vary pulses[0].amplitude=1:2: pulses[0].amplitude: `1:2`: a range has three parts"},
      {"flags", "VaryTooManyPoints", small,
       "sweep small.yaml --vary pulses[0].amplitude=0:1:2000000",
       "`0:1:2000000`: COUNT is not an integer from 1 to 1000000"},
      {"flags", "VaryOutputKey", small, "sweep small.yaml --vary output.file=a.h5,b.h5",
       "--vary output.file=a.h5,b.h5: output.file: `output.file` changes no result of a sweep"},
      {"flags", "VaryInvalidPoint", small, "sweep small.yaml --vary pulses[0].duration=20,-5",
       "(value -5): pulses[0].duration"},
      {"flags", "SweepWithoutVary", small, "sweep small.yaml",
       "--vary is required (see `qevolve sweep --help`)"},
      {"flags",
       "BenchQubitsEmptyRange",
       {},
       "bench scaling --qubits 5:3",
       "--qubits: empty range `5:3` (expected MIN:MAX with MIN <= MAX)"},
      {"flags", "BenchUnknownSolver", small, "bench accuracy small.yaml --solvers magnus2",
       "--solvers: unknown solver variant `magnus2`"},
      {"flags", "BenchUnknownReference", small, "bench accuracy small.yaml --reference abc",
       "--reference: unknown solver variant `abc`"},
      {"flags", "BenchPlotWithoutCsv", small, "bench accuracy small.yaml --plot a.png",
       "--plot: the plot is drawn from the CSV file (expected --csv FILE as well)"},
      {"flags",
       "PlotMissingFile",
       {},
       "plot absent.h5",
       "absent.h5: cannot open HDF5 file: No such file or directory"},
      {"flags", "PlotNotHdf5", small, "plot small.yaml", "small.yaml: not an HDF5 file"},
  };
}

/// Output paths: refused before any work, at the flag or the located key.
inline std::vector<CorpusCase> output_cases() {
  using namespace corpus_detail;
  const std::vector<std::pair<std::string, std::string>> small{{"small.yaml", kSmall}};
  const std::string sweep = "sweep small.yaml --vary pulses[0].amplitude=0.01,0.02 ";
  return {
      {"output", "FolderMissing", small, "run small.yaml -o absent/out.h5",
       "-o: the folder `absent` does not exist"},
      {"output", "OutputIsTheConfig", small, "run small.yaml -o small.yaml",
       "-o: `small.yaml` is the config file itself"},
      {"output", "NanFileName", small, "run small.yaml -o .nan",
       "-o: `.nan` is a YAML special float, not a file name"},
      {"output", "InfFileName", small, "run small.yaml -o -.Inf",
       "-o: `-.Inf` is a YAML special float"},
      {"output", "OutputIsAFolder", small, "run small.yaml -o sub", "-o: `sub` is a folder", false,
       [](const std::filesystem::path& d) { corpus_detail::make_folder(d, "sub"); }},
      {"output", "FolderIsAFile", small, "run small.yaml -o small.yaml/x.h5",
       "-o: `small.yaml` is not a folder"},
      {"output", "FolderRefusesFilesEvenForRoot", small, "run small.yaml -o /proc/x.h5",
       "-o: the folder `/proc` is not writable"},
      {"output",
       "FileKeyNan",
       {{"bad.yaml", small_with("output: {file: .nan}\n")}},
       "bad.yaml",
       "bad.yaml:7:10: output.file: `.nan` is a YAML special float",
       true},
      {"output",
       "FileKeyFolderMissing",
       {{"bad.yaml", small_with("output: {file: absent/x.h5}\n")}},
       "bad.yaml",
       "bad.yaml:7:10: output.file: the folder `absent` does not exist",
       true},
      {"output",
       "FileKeyIsTheConfig",
       {{"bad.yaml", small_with("output: {file: bad.yaml}\n")}},
       "bad.yaml",
       "bad.yaml:7:10: output.file: `bad.yaml` is the config file itself",
       true},
      {"output",
       "CheckpointFolderMissing",
       {{"opt.yaml", kOptimize + "output: {}\n"}},
       "optimize opt.yaml --set optimize.checkpoint=absent/c.h5",
       "--set optimize.checkpoint=absent/c.h5: optimize.checkpoint: the folder `absent` does not "
       "exist"},
      {"output", "SpectrumFolderMissing", small, "spectrum small.yaml -o absent/s.h5",
       "-o: the folder `absent` does not exist"},
      {"output",
       "OptimizeFolderMissing",
       {{"opt.yaml", kOptimize}},
       "optimize opt.yaml -o absent/o.h5",
       "-o: the folder `absent` does not exist"},
      {"output", "SweepFolderMissing", small, sweep + "-o absent/s.h5",
       "-o: the folder `absent` does not exist"},
      {"output", "SweepOutputIsTheConfig", small, sweep + "-o small.yaml",
       "-o: `small.yaml` is the config file itself"},
      {"output", "SweepPlotFolderMissing", small, sweep + "-o s.h5 --plot absent/s.png",
       "--plot: the folder `absent` does not exist"},
      {"output", "SweepPlotWithoutOutput", small, sweep + "--plot s.png",
       "--plot: the picture is drawn from the HDF5 output"},
      {"output", "BenchCsvFolderMissing", small, "bench accuracy small.yaml --csv absent/a.csv",
       "--csv: the folder `absent` does not exist"},
  };
}

/// `optimize --resume`: the checkpoint is missing, another kind of file, corrupted or another
/// optimisation's.
inline std::vector<CorpusCase> checkpoint_cases() {
  using namespace corpus_detail;
  const std::vector<std::pair<std::string, std::string>> opt{{"opt.yaml", kOptimize}};
  const std::string resume = "optimize opt.yaml --quiet --resume ";
  auto with_checkpoint = [](std::function<void(const fs::path&)> corrupt) {
    return [corrupt](const fs::path& d) {
      make_checkpoint(d);
      corrupt(d);
    };
  };
  const std::string unusable = "not a usable qevolve optimize checkpoint";
  return {
      {"checkpoint", "Missing", opt, resume + "absent.h5",
       "absent.h5: " + unusable + ": cannot open HDF5 file: No such file or directory"},
      {"checkpoint",
       "EmptyFile",
       {{"opt.yaml", kOptimize}, {"c.h5", ""}},
       resume + "c.h5",
       "c.h5: " + unusable + ": not an HDF5 file"},
      {"checkpoint", "TextFile", opt, resume + "opt.yaml",
       "opt.yaml: " + unusable + ": not an HDF5 file"},
      {"checkpoint", "Folder", opt, resume + "sub",
       "sub: " + unusable + ": cannot open HDF5 file: Is a directory", false,
       [](const fs::path& d) { make_folder(d, "sub"); }},
      {"checkpoint",
       "Truncated",
       {},
       resume + "ckpt.h5",
       "ckpt.h5: " + unusable + ": cannot open HDF5 file: unable to open file: truncated file",
       false,
       with_checkpoint([](const fs::path& d) {
         fs::resize_file(d / "ckpt.h5", fs::file_size(d / "ckpt.h5") / 2);
       })},
      {"checkpoint",
       "HeaderOnly",
       {},
       resume + "ckpt.h5",
       "ckpt.h5: " + unusable + ": cannot open HDF5 file",
       false,
       with_checkpoint([](const fs::path& d) { fs::resize_file(d / "ckpt.h5", 512); })},
      {"checkpoint",
       "RunOutput",
       {},
       resume + "run.h5",
       unusable,
       false,
       with_checkpoint([](const fs::path& d) {
         const std::string command = "cd '" + d.string() + "' && '" + QEVOLVE_EXE +
                                     "' run opt.yaml -o run.h5 --quiet --threads 1 >/dev/null 2>&1";
         ASSERT_EQ(std::system(command.c_str()), 0);
       })},
      {"checkpoint",
       "AnotherConfiguration",
       {},
       resume + "ckpt.h5",
       "ckpt.h5: checkpoint does not match this configuration (1 parameters recorded, 2 now)",
       false,
       [](const fs::path& d) {
         std::string one = kOptimize;
         one.replace(one.find("[amplitude, phase]"), 18, "[amplitude]");
         make_checkpoint(d, one);
         std::ofstream(d / "opt.yaml") << kOptimize;
       }},
      {"checkpoint",
       "AnotherMethod",
       {},
       resume + "ckpt.h5",
       "ckpt.h5: checkpoint does not match this configuration",
       false,
       [](const fs::path& d) {
         make_checkpoint(d);
         std::string adam = kOptimize;
         adam.replace(adam.find("max_iterations: 1"), 17, "max_iterations: 1, method: adam");
         std::ofstream(d / "opt.yaml") << adam;
       }},
  };
}

/// A target's matrix_file.
inline std::vector<CorpusCase> matrix_cases() {
  using namespace corpus_detail;
  const std::string config = small_with("target: {gates: [{matrix_file: g.h5, qubits: [t0]}]}\n");
  const std::string key = "bad.yaml:7:19: target.gates[0].matrix_file: ";
  const std::string unread = key + "cannot read the gate matrix: g.h5: ";
  const std::vector<std::pair<std::string, std::string>> files{{"bad.yaml", config}};
  auto matrix = [](CMatrix m, std::string dataset = "/unitary") {
    return [m, dataset](const fs::path& d) { write_unitary(d, "g.h5", m, dataset); };
  };
  CMatrix x(2, 2);
  x << 0, 1, 1, 0;
  CMatrix nan = x;
  nan(0, 1) = std::numeric_limits<double>::quiet_NaN();
  CMatrix doubled = 2.0 * x;
  return {
      {"matrix", "Missing", files, "bad.yaml",
       unread + "cannot open HDF5 file: No such file or directory", true},
      {"matrix",
       "NotHdf5",
       {{"bad.yaml", config}, {"g.h5", "not an HDF5 file\n"}},
       "bad.yaml",
       unread + "not an HDF5 file (expected an HDF5 file with a complex dataset /unitary)",
       true},
      {"matrix", "Folder", files, "bad.yaml", unread + "cannot open HDF5 file: Is a directory",
       true, [](const fs::path& d) { make_folder(d, "g.h5"); }},
      {"matrix", "NoUnitaryDataset", files, "bad.yaml", unread + "/unitary: no such dataset", true,
       matrix(x, "/gate")},
      {"matrix", "WrongSize", files, "bad.yaml",
       unread + "/unitary: is 4 x 4 (not read: larger than 2 x 2)", true,
       matrix(CMatrix::Identity(4, 4))},
      {"matrix", "TooSmall", files, "bad.yaml",
       key + "g.h5: /unitary is 1 x 1 but the gate acts on 1 qubit(s)", true,
       matrix(CMatrix::Identity(1, 1))},
      {"matrix", "NotSquare", files, "bad.yaml",
       unread + "/unitary: is 2 x 3 (not read: larger than 2 x 2)", true,
       matrix(CMatrix::Zero(2, 3))},
      {"matrix", "NotUnitary", files, "bad.yaml",
       key + "g.h5: /unitary is not unitary (max |G^dag G - I| = 3)", true, matrix(doubled)},
      {"matrix", "NaNEntry", files, "bad.yaml", key + "g.h5: /unitary contains NaN or inf", true,
       matrix(nan)},
      {"matrix",
       "EmptyName",
       {{"bad.yaml", small_with("target: {gates: [{matrix_file: '', qubits: [t0]}]}\n")}},
       "bad.yaml",
       "bad.yaml:7:32: target.gates[0].matrix_file: empty string (expected a non-empty string)",
       true},
      {"matrix", "DeclaresTooLarge", files, "bad.yaml",
       unread + "/unitary: is 64 x 64 (not read: larger than 2 x 2)", true,
       [](const fs::path& d) { write_declared_unitary(d, "g.h5", 64, 64); }},
  };
}

/// Every row of every class (the config tables excepted), with the class `size` or without it.
inline std::vector<CorpusCase> hostile_corpus(bool sizes) {
  if (sizes) return size_cases();
  std::vector<CorpusCase> all;
  for (auto part : {yaml_cases(), flag_cases(), output_cases(), checkpoint_cases(), matrix_cases(), stage_cases()})
    all.insert(all.end(), part.begin(), part.end());
  return all;
}

inline std::string corpus_case_name(const ::testing::TestParamInfo<CorpusCase>& info) {
  return info.param.cls + "_" + info.param.name;
}

}  // namespace qevolve::testing
