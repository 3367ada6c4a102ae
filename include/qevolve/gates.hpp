// The target gates qevolve knows by name (docs/fidelity.md "Target"): one table, used by the
// resolution stage (io::resolve) to check `target.gates` and by the fidelity layer to build
// the matrices (fidelity::standard_gate).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace qevolve {

/// 1 or 2 for a known gate name, 0 otherwise.
[[nodiscard]] int gate_arity(const std::string& name);
/// Whether the gate takes an `angle` (RX, RY, RZ, CPHASE).
[[nodiscard]] bool gate_takes_angle(const std::string& name);
/// "RX, RY, RZ and CPHASE": the gates that take an `angle`, for messages.
[[nodiscard]] std::string gates_with_angle();
/// Every known name (I, X, Y, ..., SWAP, CPHASE), in the order messages list them.
[[nodiscard]] std::vector<std::string_view> gate_names();
/// "I, X, Y, ..., CPHASE": every known name, for messages.
[[nodiscard]] std::string known_gates();
/// The path of a `matrix_file` gate: as written when absolute or when there is no config file,
/// else relative to the folder of `config_file`.
[[nodiscard]] std::string gate_file_path(const std::string& file, const std::string& config_file);

}  // namespace qevolve
