#include "config_input.hpp"

#include <optional>
#include <span>

#include "qevolve/ensemble.hpp"

namespace qevolve::commands {

std::vector<io::Override> parse_sets(const std::vector<std::string>& sets) {
  std::vector<io::Override> out;
  out.reserve(sets.size());
  for (const std::string& s : sets) out.push_back(io::parse_override(s, "--set"));
  return out;
}

std::string read_command_config(const std::string& path, comm::Communicator& comm) {
  if (path != "-" || comm.size() == 1) return io::read_config_source(path);
  // Standard input reaches rank 0 only: its bytes (or its error) travel as doubles.
  std::string text;
  double size = -1.0;  // -1: rank 0 could not read it (it reports the error; the others stop)
  std::optional<InputError> failure;
  if (comm.is_root()) {
    try {
      text = io::read_config_source(path);
      size = static_cast<double>(text.size());
    } catch (const InputError& e) {
      failure = e;
    }
  }
  comm.broadcast(std::span<double>(&size, 1), 0);
  if (failure) throw *failure;
  if (size < 0) throw io::source_unreadable(path, "rank 0 could not read it");
  std::vector<double> bytes(static_cast<std::size_t>(size));
  if (comm.is_root())
    for (std::size_t i = 0; i < text.size(); ++i) bytes[i] = static_cast<unsigned char>(text[i]);
  comm.broadcast(std::span<double>(bytes), 0);
  if (!comm.is_root()) {
    text.resize(bytes.size());
    for (std::size_t i = 0; i < bytes.size(); ++i) text[i] = static_cast<char>(static_cast<unsigned char>(bytes[i]));
  }
  return text;
}

std::vector<io::Override> command_overrides(const std::vector<std::string>& sets,
                                           const std::optional<int>& steps) {
  std::vector<io::Override> overrides = parse_sets(sets);
  if (steps) overrides.push_back({"evolution.steps", std::to_string(*steps), "--steps " + std::to_string(*steps)});
  return overrides;
}

Config load_command_config(const std::string& path, const std::vector<std::string>& sets,
                           comm::Communicator& comm, const std::optional<int>& steps) {
  return io::parse_config(read_command_config(path, comm), io::source_name(path),
                          command_overrides(sets, steps));
}

void check_command_ensemble(const Config& config) {
  if (!config.ensemble) return;
  // A --set (or a sweep axis, a Python override) of a key a member sets would be replaced by
  // the member's value: refused rather than silently ignored.
  for (const AppliedOverride& a : config.overrides)
    io::check_ensemble_axes(config, a.paths, a.label.substr(0, a.label.find(' ')));
  io::check_ensemble(io::ParsedConfig(config.yaml_text, config.source_file), {}, config);
}

void refuse_ensemble(const Config& config, const std::string& command) {
  io::refuse_ensemble(config, command);
}

io::Purpose command_purpose(const Config& config) {
  const bool device_only = config.pulses.empty() && !config.has_evolution && !config.target;
  return config.optimize ? io::Purpose::optimize : device_only ? io::Purpose::inspect : io::Purpose::evolve;
}

void write_config_attributes(io::Hdf5Writer& w, const Config& config) {
  w.attribute("config", config.yaml_text);
  // Which pulses drive flux (their amplitudes and values are in flux quanta, not GHz): what
  // `qevolve plot` needs to give a pulse or sweep axis its unit.
  std::vector<long long> flux;
  for (std::size_t p = 0; p < config.pulses.size(); ++p)
    if (config.pulses[p].op == "flux") flux.push_back(static_cast<long long>(p));
  if (!flux.empty()) w.attribute("flux_pulses", flux);
  if (config.overrides.empty()) return;
  std::vector<std::string> labels;
  for (const AppliedOverride& o : config.overrides) labels.push_back(o.label);
  w.attribute("overrides", labels);
}

void write_mode_attributes(io::Hdf5Writer& w, const std::vector<device::ModeParams>& modes) {
  std::vector<long long> dims;
  for (const device::ModeParams& m : modes) dims.push_back(m.levels);
  w.attribute("dims", dims);
  w.attribute("modes", device::mode_names(modes));
  w.attribute("roles", device::mode_roles(modes));
}

}  // namespace qevolve::commands
