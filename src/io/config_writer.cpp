#include "qevolve/config_writer.hpp"

#include <yaml-cpp/yaml.h>

#include <cstdio>
#include <regex>
#include <string>

#include "qevolve/error.hpp"

namespace qevolve {
namespace {

std::string number(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

/// The entry of device.qubits named `mode`, appended if absent.
YAML::Node mode_entry(YAML::Node& root, const std::string& mode) {
  YAML::Node device = root["device"];
  if (!device["qubits"]) device["qubits"] = YAML::Node(YAML::NodeType::Sequence);
  YAML::Node qubits = device["qubits"];
  for (std::size_t i = 0; i < qubits.size(); ++i)
    if (qubits[i]["name"] && qubits[i]["name"].as<std::string>() == mode) return qubits[i];
  YAML::Node entry(YAML::NodeType::Map);
  entry["name"] = mode;
  qubits.push_back(entry);
  return qubits[qubits.size() - 1];
}

}  // namespace

std::string write_back_yaml(const Config& original, const Config& frozen,
                            const std::vector<std::string>& names, const RVector& values) {
  YAML::Node root = YAML::Load(original.yaml_text);
  if (!root.IsMap()) throw Error("write_back_yaml: the config is not a YAML map");

  // Frozen `auto` values and the total time.
  YAML::Node pulses = root["pulses"];
  for (std::size_t p = 0; p < original.pulses.size() && p < frozen.pulses.size(); ++p) {
    YAML::Node node = pulses[p];
    if (original.pulses[p].amplitude_auto) {
      node["amplitude"] = number(frozen.pulses[p].amplitude);
      node.remove("angle");
    }
    if (original.pulses[p].frequency_mode != FrequencyMode::value)
      node["frequency"] = number(frozen.pulses[p].frequency);
  }
  if (frozen.evolution.duration) {
    if (!root["evolution"]) root["evolution"] = YAML::Node(YAML::NodeType::Map);
    root["evolution"]["duration"] = number(*frozen.evolution.duration);
  }

  static const std::regex pulse_re(R"(pulses\[(\d+)\]\.(\w+)(?:\[(\d+)\])?)");
  static const std::regex mode_re(R"(device\.qubits\[([^\]]+)\]\.(\w+))");
  static const std::regex coupling_re(R"(device\.couplings\[(\d+)\]\.(\w+))");
  std::vector<std::string> skipped;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string v = number(values(static_cast<Index>(i)));
    std::smatch m;
    if (std::regex_match(names[i], m, pulse_re)) {
      YAML::Node node = pulses[static_cast<std::size_t>(std::stoul(m[1]))];
      if (m[3].matched)
        node[m[2].str()][static_cast<std::size_t>(std::stoul(m[3]))] = v;
      else
        node[m[2].str()] = v;
    } else if (std::regex_match(names[i], m, mode_re)) {
      YAML::Node entry = mode_entry(root, m[1]);
      entry[m[2].str()] = v;
    } else if (std::regex_match(names[i], m, coupling_re)) {
      root["device"]["couplings"][static_cast<std::size_t>(std::stoul(m[1]))][m[2].str()] = v;
    } else {
      skipped.push_back(names[i]);
    }
  }

  YAML::Emitter out;
  out << root;
  std::string text = "# written by qevolve optimize: the optimised parameters of " +
                     original.source_file + "\n";
  for (const auto& s : skipped) text += "# not representable in the config (not written): " + s + "\n";
  return text + out.c_str() + "\n";
}

}  // namespace qevolve
