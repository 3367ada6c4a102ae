// `qevolve check`: the loader and the whole resolution stage (include/qevolve/resolve.hpp), no
// evolution: whatever `run` or `optimize` would reject as input is rejected here too.
#include <ostream>

#include "config_input.hpp"
#include "qevolve/commands.hpp"
#include "qevolve/config_loader.hpp"
#include "qevolve/device.hpp"
#include "qevolve/memory_estimate.hpp"
#include "qevolve/output_path.hpp"
#include "qevolve/resolve.hpp"

namespace qevolve::commands {

int check(const CheckOptions& options, Streams io) {
  comm::SerialCommunicator serial;  // under mpirun `check` runs on rank 0 alone
  const Config config = load_command_config(options.config_path, options.sets, serial);
  const std::string& config_path = options.config_path;
  // A config with an `optimize` section is meant for `qevolve optimize` (its requirements too);
  // one with a device alone (no pulses, evolution or target) for `qevolve spectrum`.
  const bool device_only = config.pulses.empty() && !config.has_evolution && !config.target;
  const io::Purpose purpose = config.optimize ? io::Purpose::optimize
                              : device_only   ? io::Purpose::inspect
                                              : io::Purpose::evolve;
  const device::ResolvedDevice dev = io::resolve(config, purpose);
  // The memory estimate of the command the config is for (refused as `run` would refuse it).
  const io::MemoryEstimate memory =
      io::check_memory(config, dev, purpose, options.max_memory, !config.output.file.empty());
  io::check_output_path(config, "");  // output.file, as run, optimize and spectrum check it
  io::check_checkpoint_path(config);  // optimize.checkpoint, as optimize checks it
  io.out << io::source_name(config_path) << ": ok (" << dev.modes.size() << " modes, " << memory.dim_text << ", "
         << dev.couplings.size() << " couplings, " << config.pulses.size() << " pulses"
         << (device_only ? "; a device alone: for `qevolve spectrum`" : "") << ")\n";
  io.out << "memory: " << io::describe(memory) << "\n";
  return 0;
}

}  // namespace qevolve::commands
