#include <chrono>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <string>

#include "stopwatch.hpp"
#include "config_input.hpp"
#include "run_output.hpp"
#include "qevolve/ensemble.hpp"
#include "qevolve/text.hpp"
#include "qevolve/resolve.hpp"
#include "qevolve/commands.hpp"
#include "qevolve/config_loader.hpp"
#include "qevolve/device.hpp"
#include "qevolve/hdf5_file.hpp"
#include "qevolve/memory_estimate.hpp"
#include "qevolve/output_path.hpp"
#include "qevolve/plausibility.hpp"
#include "qevolve/spectrum.hpp"
#include "qevolve/version.hpp"

namespace qevolve::commands {
namespace {

using Clock = std::chrono::steady_clock;

std::string fmt(int decimals, double v) {
  if (std::isnan(v)) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

void write_spectrum_h5(const std::string& path, const Config& config,
                       const device::Device& dev, const device::DressedBasis& dressed,
                       const device::SpectrumReport& report) {
  io::Hdf5Writer w(path);
  w.write("/energies", dressed.energies);
  std::vector<std::string> labels;
  labels.reserve(dressed.labels.size());
  for (Index l : dressed.labels) labels.push_back(dev.label(l));
  w.write("/labels", labels);
  for (const auto& m : report.modes) {
    // Qubits under /qubits, couplers and resonators (held in 0) under /couplers.
    const std::string g = (m.qubit ? "/qubits/" : "/couplers/") + m.name + "/";
    w.write_scalar(g + "f01_bare", m.f01_bare);
    w.write_scalar(g + "f12_bare", m.f12_bare);
    w.write_scalar(g + "f01_dressed", m.f01_dressed);
    w.write_scalar(g + "phi01", m.phi01);
    w.write_scalar(g + "n01", m.n01);
  }
  std::vector<double> zz;
  std::vector<std::string> pairs;
  for (const auto& p : report.zz) {
    zz.push_back(p.zz_khz);
    pairs.push_back(p.a + "," + p.b);
  }
  w.write("/zz", zz);
  w.write("/zz_pairs", pairs);
  write_mode_attributes(w, device::mode_params(dev));
  w.attribute("qevolve_version", std::string(kVersion));
  w.attribute("command", std::string("spectrum"));
  write_config_attributes(w, config);
  w.commit();
}

}  // namespace

int spectrum(const SpectrumOptions& options, Streams io) {
  const auto t0 = Clock::now();
  comm::SerialCommunicator serial;
  Config config = load_command_config(options.config_path, options.sets, serial);
  io::refuse_ensemble(config, "spectrum");
  if (options.levels) {
    // --levels K truncates every mode to K levels (preset modes through preset_args).
    if (config.device.preset) {
      config.device.preset->levels = *options.levels;
      config.device.preset->coupler_levels = *options.levels;
    }
    for (auto& q : config.device.qubits) q.levels = *options.levels;
  }
  const device::ResolvedDevice resolved = io::resolve_device(config);
  (void)io::check_memory(config, resolved, io::Purpose::inspect, options.max_memory);  // before any allocation
  io::check_output_path(config, options.output, io::Replacing{"spectrum", options.force});  // -o or output.file, before the diagonalisation
  const device::Device dev = device::build_device(resolved);
  if (!io.quiet)  // likely unit mistakes (docs/config.md "Plausibility warnings")
    print_warning_lines(io.err, io::plausibility_warnings(config, resolved.modes));
  const double t_build = seconds_since(t0);
  const auto t1 = Clock::now();
  const device::DressedBasis dressed = device::dress(dev);
  const double t_dress = seconds_since(t1);
  const device::SpectrumReport report = device::analyse_spectrum(dev, dressed);
  if (dressed.degenerate && !io.quiet)
    io.err << "qevolve: warning: exactly degenerate bare levels (identical modes): the dressed "
              "basis is not unique; use preset_args.variance or distinct parameters\n";

  auto& out = io.out;
  out << "qevolve spectrum: " << options.config_path << "\n";
  out << "device: " << counted(dev.num_modes(), "mode") << " (" << device::describe_roles(device::mode_params(dev))
      << "), D = " << dev.dim() << " (levels";
  for (int d : dev.dims()) out << ' ' << d;
  out << ")\n\n";
  char line[256];
  std::snprintf(line, sizeof line, "%-8s %-10s %-8s %14s %14s %12s %12s %16s\n", "mode", "type",
                "role", "f01 bare GHz", "f12 bare GHz", "|<0|phi|1>|", "|<0|n|1>|", "f01 dressed GHz");
  out << line;
  for (const auto& m : report.modes) {
    std::snprintf(line, sizeof line, "%-8s %-10s %-8s %14s %14s %12s %12s %16s\n", m.name.c_str(),
                  m.type.c_str(), m.qubit ? "qubit" : "coupler", fmt(9, m.f01_bare).c_str(), fmt(9, m.f12_bare).c_str(),
                  fmt(6, m.phi01).c_str(), fmt(6, m.n01).c_str(),
                  fmt(10, m.f01_dressed).c_str());
    out << line;
  }
  if (!report.zz.empty()) {
    out << "\nstatic ZZ (dressed, levels as configured):\n";
    for (const auto& p : report.zz) {
      std::snprintf(line, sizeof line, "  %-8s %-8s %14.6f kHz\n", p.a.c_str(), p.b.c_str(),
                    p.zz_khz);
      out << line;
    }
  }
  const std::string output = options.output.empty() ? config.output.file : options.output;
  const auto t2 = Clock::now();
  if (!output.empty()) write_spectrum_h5(output, config, dev, dressed, report);
  std::snprintf(line, sizeof line,
                "\nwall time: build %.3f s, dressed basis %.3f s, output %.3f s\n", t_build,
                t_dress, seconds_since(t2));
  out << line;
  if (!output.empty()) out << "wrote " << output << "\n";
  return 0;
}

}  // namespace qevolve::commands
