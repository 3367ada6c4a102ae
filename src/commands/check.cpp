#include <ostream>

#include "qevolve/commands.hpp"
#include "qevolve/config_loader.hpp"
#include "qevolve/device.hpp"

namespace qevolve::commands {

int check(const std::string& config_path, Streams io) {
  const Config config = io::load_config(config_path);
  const device::ResolvedDevice dev = device::resolve_device(config);
  long long dim = 1;
  for (const auto& m : dev.modes) dim *= m.levels;
  io.out << config_path << ": ok (" << dev.modes.size() << " modes, D = " << dim << ", "
         << dev.couplings.size() << " couplings, " << config.pulses.size() << " pulses)\n";
  return 0;
}

}  // namespace qevolve::commands
