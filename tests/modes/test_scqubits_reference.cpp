// Independent cross-check against scqubits: data/mode_reference.csv is written by
// scripts/gen_mode_reference.py (scqubits solves the fluxonium in a harmonic-oscillator basis
// and the transmon in its own charge basis; both converged there to < 1e-11 GHz). Energies
// must agree to 1e-8 GHz; |<j|n|k>| and |<j|phi|k>| to 1e-8 relative (absolute below 1).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "mode_test_util.hpp"
#include "qevolve/mode.hpp"

namespace qevolve::device {
namespace {

struct ReferenceRow {
  ModeParams params;
  std::vector<double> energies;
  double n01 = 0.0, n12 = 0.0;
  std::optional<double> phi01, phi12;
};

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  std::string cell;
  while (std::getline(ss, cell, ',')) out.push_back(cell);
  if (!line.empty() && line.back() == ',') out.emplace_back();
  return out;
}

std::vector<ReferenceRow> load_reference() {
  const std::string path = std::string(QEVOLVE_SOURCE_DIR) + "/data/mode_reference.csv";
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  std::vector<ReferenceRow> rows;
  std::string line;
  std::vector<std::string> header;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (header.empty()) {
      header = split(line);
      continue;
    }
    const std::vector<std::string> c = split(line);
    EXPECT_EQ(c.size(), header.size()) << line;
    if (c.size() != header.size()) continue;
    ReferenceRow r;
    ModeParams& p = r.params;
    p.name = "ref";
    p.type = c[0] == "fluxonium" ? ModeType::fluxonium : ModeType::transmon;
    p.ec = std::stod(c[1]);
    p.ej = std::stod(c[2]);
    p.el = std::stod(c[3]);
    p.flux = std::stod(c[4]);
    p.ng = std::stod(c[5]);
    if (!c[6].empty()) {
      p.has_asymmetry = true;
      p.asymmetry = std::stod(c[6]);
    }
    std::size_t i = 7;
    for (; i < header.size() && header[i][0] == 'E'; ++i) r.energies.push_back(std::stod(c[i]));
    p.levels = static_cast<int>(r.energies.size());
    r.n01 = std::stod(c[i]);
    r.n12 = std::stod(c[i + 1]);
    if (!c[i + 2].empty()) r.phi01 = std::stod(c[i + 2]);
    if (!c[i + 3].empty()) r.phi12 = std::stod(c[i + 3]);
    rows.push_back(r);
  }
  return rows;
}

double element_error(double got, double ref) { return std::abs(got - ref) / std::max(1.0, ref); }

TEST(ScqubitsReference, EnergiesAndMatrixElements) {
  const std::vector<ReferenceRow> rows = load_reference();
  int fluxonia = 0, transmons = 0;
  double worst_e = 0.0, worst_m = 0.0;
  for (const ReferenceRow& r : rows) {
    const Mode m = diagonalise(r.params);
    (r.params.type == ModeType::fluxonium ? fluxonia : transmons) += 1;
    for (int k = 0; k < r.params.levels; ++k) {
      const double err = std::abs(m.energies(k) - r.energies[static_cast<std::size_t>(k)]);
      worst_e = std::max(worst_e, err);
      EXPECT_LT(err, 1e-8) << testing::describe(r.params) << " k=" << k;
    }
    std::vector<std::pair<double, double>> elements = {{std::abs(m.charge(0, 1)), r.n01},
                                                       {std::abs(m.charge(1, 2)), r.n12}};
    if (r.phi01) {
      elements.emplace_back(std::abs(m.flux(0, 1)), *r.phi01);
      elements.emplace_back(std::abs(m.flux(1, 2)), *r.phi12);
    }
    for (const auto& [got, ref] : elements) {
      worst_m = std::max(worst_m, element_error(got, ref));
      EXPECT_LT(element_error(got, ref), 1e-8) << testing::describe(r.params) << " ref " << ref;
    }
  }
  EXPECT_GE(fluxonia, 8);
  EXPECT_GE(transmons, 6);
  std::cout << "scqubits reference: " << rows.size() << " rows, max |dE| = " << worst_e
            << " GHz, max element error = " << worst_m << "\n";
}

}  // namespace
}  // namespace qevolve::device
