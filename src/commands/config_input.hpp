// The config a command runs: CONFIG (a file, or `-` for standard input) with the `--set`
// overrides applied (docs/cli.md "--set").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "qevolve/comm.hpp"
#include "qevolve/config.hpp"
#include "qevolve/resolve.hpp"
#include "qevolve/config_loader.hpp"
#include "qevolve/device.hpp"
#include "qevolve/hdf5_file.hpp"

namespace qevolve::commands {

/// Each `--set KEY=VALUE` argument as an override (InputError naming the argument when it is
/// not KEY=VALUE).
[[nodiscard]] std::vector<io::Override> parse_sets(const std::vector<std::string>& sets);
/// parse_sets, then with `steps` the `--steps N` flag as the last override (run, optimize and
/// sweep take it).
[[nodiscard]] std::vector<io::Override> command_overrides(const std::vector<std::string>& sets,
                                                          const std::optional<int>& steps);

/// The text of CONFIG: under mpirun only rank 0 has standard input, so for `-` rank 0 reads
/// it and broadcasts it to the others (collective on `comm`); a file is read by every rank.
[[nodiscard]] std::string read_command_config(const std::string& path, comm::Communicator& comm);

/// read_command_config + the loader with the `--set` overrides and, with `steps`, the
/// `--steps N` flag as the last override (so the config text as run and /overrides say it).
[[nodiscard]] Config load_command_config(const std::string& path, const std::vector<std::string>& sets,
                                         comm::Communicator& comm, const std::optional<int>& steps = std::nullopt);

/// io::check_ensemble of a loaded config that passed the resolution stage (nothing without
/// `ensemble:`): every member read from the text as run (Config::yaml_text: the file's, or the
/// overridden tree's with `--set`) with its overrides, checked as `check` and `run` check it.
void check_command_ensemble(const Config& config);

/// The commands that do not evaluate an ensemble (`command`: sweep, converge, spectrum, bench
/// accuracy) refuse a config with `ensemble:` (a located input error at `ensemble`).
void refuse_ensemble(const Config& config, const std::string& command);

/// The command a config is for, as `qevolve check` validates it: with an `optimize` section
/// `optimize`; a device alone (no pulses, evolution or target) `spectrum` (inspect); else `run`.
[[nodiscard]] io::Purpose command_purpose(const Config& config);

/// The root attributes `config` (the YAML text as run) and, with overrides, `overrides` (the
/// `--set` arguments in order, e.g. "--set pulses[0].amplitude=0.1").
void write_config_attributes(io::Hdf5Writer& w, const Config& config);

/// The root attributes of the device: `dims` (kept levels), `modes` (names) and `roles`
/// (`qubit` or `coupler`; a resonator's is `coupler`), in mode order (docs/output.md).
void write_mode_attributes(io::Hdf5Writer& w, const std::vector<device::ModeParams>& modes);

}  // namespace qevolve::commands
