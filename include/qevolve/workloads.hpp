// Standard workloads shared by `qevolve bench`, the benchmarks and the peer scripts.
#pragma once

#include "qevolve/config.hpp"

namespace qevolve::commands {

/// The standard workload (issue "closed-system evolution"): simultaneous X gates (`cos`,
/// 50 ns, `amplitude: auto` with angle pi, `frequency: auto`, phase -pi/2) on every qubit of an
/// `mpc_fluxonium_1d` chain with 2 levels per qubit, all 2^N computational columns,
/// trotter order 2 (terms splitting), `steps` steps, target X on every qubit.
[[nodiscard]] Config standard_workload(int qubits, int steps = 500,
                                      Splitting splitting = Splitting::terms);

}  // namespace qevolve::commands
