// `qevolve check`: the loader and the whole resolution stage (include/qevolve/resolve.hpp), no
// evolution: whatever `run` or `optimize` would reject as input is rejected here too.
#include <ostream>
#include <string>

#include "config_input.hpp"
#include "run_output.hpp"
#include "time_estimate.hpp"
#include "qevolve/commands.hpp"
#include "qevolve/config_loader.hpp"
#include "qevolve/device.hpp"
#include "qevolve/memory_estimate.hpp"
#include "qevolve/output_path.hpp"
#include "qevolve/plausibility.hpp"
#include "qevolve/resolve.hpp"
#include "qevolve/text.hpp"

namespace qevolve::commands {
namespace {

/// d = 2^qubits, the size of the computational block (a number, as 2^64 does not fit).
std::string computational_dim(const device::ResolvedDevice& dev) {
  int qubits = 0;
  for (const device::ModeParams& m : dev.modes) qubits += device::is_qubit(m) ? 1 : 0;
  return qubits < 63 ? std::to_string(1LL << qubits) : "2^" + std::to_string(qubits);
}

}  // namespace

int check(const CheckOptions& options, Streams io) {
  comm::SerialCommunicator serial;  // under mpirun `check` runs on rank 0 alone
  const Config config = load_command_config(options.config_path, options.sets, serial);
  const std::string& config_path = options.config_path;
  // A config with an `optimize` section is meant for `qevolve optimize` (its requirements too);
  // one with a device alone (no pulses, evolution or target) for `qevolve spectrum`.
  const io::Purpose purpose = command_purpose(config);
  const device::ResolvedDevice dev = io::resolve(config, purpose);
  check_command_ensemble(config);  // each member's overrides, as `run` checks them
  // The memory estimate of the command the config is for (refused as `run` would refuse it).
  const io::MemoryEstimate memory =
      io::check_memory(config, dev, purpose, options.max_memory, !config.output.file.empty());
  io::check_output_path(config, "");  // output.file, as run, optimize and spectrum check it
  io::check_checkpoint_path(config);  // optimize.checkpoint, as optimize checks it
  if (!io.quiet)  // likely unit mistakes (docs/config.md "Plausibility warnings")
    print_warning_lines(io.err, io::plausibility_warnings(config, dev.modes));
  io.out << io::source_name(config_path) << ": ok (" << counted(dev.modes.size(), "mode") << ": "
         << device::describe_roles(dev.modes) << ", " << memory.dim_text << ", d = " << computational_dim(dev) << ", "
         << counted(dev.couplings.size(), "coupling") << ", " << counted(config.pulses.size(), "pulse")
         << (config.lines.empty() ? "" : ", " + counted(config.lines.size(), "line"))
         << (purpose == io::Purpose::inspect ? "; a device alone: for `qevolve spectrum`" : "") << ")\n";
  io.out << "memory: " << io::describe(memory) << "\n";
  if (purpose != io::Purpose::inspect && options.estimate_time) {
    const auto time = estimate_run_time(config, options.threads, memory, !config.output.file.empty());
    const std::string threads = options.threads == 1   ? "1 thread"
                                : options.threads > 1 ? std::to_string(options.threads) + " threads"
                                                      : "all cores";
    if (time)
      io.out << "time: " << describe(*time) << " for `qevolve run` on " << threads
             << (purpose == io::Purpose::optimize ? "; `optimize` repeats it once per evaluation" : "") << "\n";
    else
      io.out << "time: no estimate for solver adaptive (it chooses its steps as it runs)\n";
  }
  return 0;
}

}  // namespace qevolve::commands
