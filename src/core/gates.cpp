#include "qevolve/gates.hpp"

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <string>
#include <vector>

namespace qevolve {
namespace {

struct GateName {
  const char* name;
  int arity;
  bool angle;
};

constexpr GateName kGates[] = {
    {"I", 1, false},    {"X", 1, false},     {"Y", 1, false},     {"Z", 1, false},
    {"H", 1, false},    {"S", 1, false},     {"T", 1, false},     {"SX", 1, false},
    {"RX", 1, true},    {"RY", 1, true},     {"RZ", 1, true},     {"CNOT", 2, false},
    {"CZ", 2, false},   {"ISWAP", 2, false}, {"SQRT_ISWAP", 2, false}, {"SWAP", 2, false},
    {"CPHASE", 2, true},
};

const GateName* find_gate(const std::string& name) {
  const auto it = std::find_if(std::begin(kGates), std::end(kGates),
                               [&](const GateName& g) { return name == g.name; });
  return it == std::end(kGates) ? nullptr : it;
}

}  // namespace

int gate_arity(const std::string& name) {
  const GateName* g = find_gate(name);
  return g ? g->arity : 0;
}

bool gate_takes_angle(const std::string& name) {
  const GateName* g = find_gate(name);
  return g && g->angle;
}

std::string gates_with_angle() {
  std::vector<std::string> names;
  for (const GateName& g : kGates)
    if (g.angle) names.emplace_back(g.name);
  std::string s;
  for (std::size_t k = 0; k < names.size(); ++k)
    s += (k == 0 ? "" : k + 1 == names.size() ? " and " : ", ") + names[k];
  return s;
}

std::vector<std::string_view> gate_names() {
  std::vector<std::string_view> names;
  for (const GateName& g : kGates) names.emplace_back(g.name);
  return names;
}

std::string known_gates() {
  std::string s;
  for (const GateName& g : kGates) s += std::string(s.empty() ? "" : ", ") + g.name;
  return s;
}

std::string gate_file_path(const std::string& file, const std::string& config_file) {
  namespace fs = std::filesystem;
  const fs::path p(file);
  if (p.is_absolute() || config_file.empty()) return file;
  return (fs::path(config_file).parent_path() / p).string();
}

}  // namespace qevolve
