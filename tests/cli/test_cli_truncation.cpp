// The truncation check on the command line (docs/output.md "Truncation check", docs/cli.md "The
// truncation warning"): /truncation/top_level_population, the summary line, the warning that
// names an under-truncated mode, and no warning on the shipped examples at their levels.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>

#include "cli_util.hpp"

namespace qevolve::testing {
namespace {

const std::string kSource = QEVOLVE_SOURCE_DIR;

/// The number after `key` in a run's summary.
double summary_value(const std::string& out, const std::string& key) {
  const auto at = out.find(key);
  EXPECT_NE(at, std::string::npos) << key << " not in: " << out;
  return at == std::string::npos ? 1.0 : std::strtod(out.c_str() + at + key.size(), nullptr);
}

const std::string kCz = "'" + kSource + "/examples/cz_transmon_coupler.yaml'";
// Fewer steps than shipped (the comparison is between levels) and no step-error run.
const std::string kFast = " --threads 1 --steps 200 --set evolution.error_estimate=false";

TEST(CliTruncation, ATwoLevelQubitIsNotCheckedAndSaysSo) {
  // Its top level is its |1>: NaN in the file, `-` in the summary (docs/output.md), no warning.
  TempDir dir;
  const auto cfg = dir.write("two.yaml",
                             "device:\n"
                             "  qubits:\n"
                             "    - {name: q, type: duffing, frequency: 5.0, anharmonicity: -0.2, levels: 2}\n"
                             "    - {name: r, type: duffing, frequency: 5.3, anharmonicity: -0.2, levels: 3}\n"
                             "  couplings: [{qubits: [q, r], capacitive: 0.01}]\n"
                             "pulses:\n"
                             "  - {qubit: q, shape: gaussian, amplitude: auto, angle: 3.141592653589793, duration: 20, sigma: 4}\n"
                             "evolution: {solver: expm, steps: 200, error_estimate: false}\n"
                             "target: {gates: [{gate: X, qubits: [q]}]}\n");
  const auto r = run_qevolve("run '" + cfg.string() + "' --threads 1", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("truncation: top level population q -, r "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("nan"), std::string::npos) << r.out;
}

TEST(CliTruncation, WarnsOnAnUnderTruncatedCoupler) {
  // The shipped CZ's coupler at 3 levels instead of 8: its level 2 fills to 5e-2 during the
  // pulse and F moves by 0.26 when the levels grow (under-truncated by physics).
  TempDir dir;
  const std::string out = (dir / "t.h5").string();
  const auto r = run_qevolve("run " + kCz + kFast + " --set 'device.qubits[c].levels=3' -o '" + out + "'", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("qevolve: warning: mode `c` reaches a population of "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("(level 2 of levels: 3)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("try levels: 5 on `c`"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("mode `qa`"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("truncation: top level population qa "), std::string::npos) << r.out;
  const auto converged = run_qevolve("run " + kCz + kFast, dir);
  ASSERT_EQ(converged.exit_code, 0) << converged.err;
  EXPECT_EQ(converged.err.find("warning: mode"), std::string::npos) << converged.err;
  EXPECT_GT(std::abs(summary_value(r.out, "(1 - F = ") - summary_value(converged.out, "(1 - F = ")), 1e-2);
  if (!python_has_h5py()) GTEST_SKIP() << "no h5py";
  const auto py = run_python("import h5py, numpy as np\n"
                         "f = h5py.File('" + out + "')\n"
                         "d = f['/truncation/top_level_population']\n"
                         "assert d.shape == (3,) and d.dtype == np.float64\n"
                         "assert [m.decode() if isinstance(m, bytes) else m for m in d.attrs['modes']] == ['qa', 'c', 'qb']\n"
                         "assert d[1] > 1e-2 > d[0] and d[2] < 1e-2\n",
                             dir);
  EXPECT_EQ(py.exit_code, 0) << py.err;
}

TEST(CliTruncation, AsymmetricCouplerDevice) {
  // tests/data/cz_asymmetric_coupler.yaml: SQUID asymmetry 0.55, a 0.38 flux-quantum pulse, the
  // coupler at 5 levels. Where F still moves with the coupler's levels, the warning names it.
  TempDir dir;
  const std::string cfg = "'" + kSource + "/tests/data/cz_asymmetric_coupler.yaml'" + kFast;
  const auto five = run_qevolve("run " + cfg, dir);
  ASSERT_EQ(five.exit_code, 0) << five.err;
  const auto eight = run_qevolve("run " + cfg + " --set 'device.qubits[c].levels=8'", dir);
  ASSERT_EQ(eight.exit_code, 0) << eight.err;
  const double moved = std::abs(summary_value(five.out, "(1 - F = ") - summary_value(eight.out, "(1 - F = "));
  if (moved > 1e-3) {
    EXPECT_NE(five.err.find("qevolve: warning: mode `c` reaches a population of "), std::string::npos)
        << "F moves by " << moved << "\n" << five.err;
  }
}

TEST(CliTruncation, SweepNamesTheWorstPoint) {
  TempDir dir;
  const auto r = run_qevolve("sweep " + kCz + kFast + " --vary 'device.qubits[c].levels=8,3'", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("qevolve: warning: mode `c` reaches a population of "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("at the sweep's point device.qubits[c].levels = 3"), std::string::npos) << r.err;
}

TEST(CliTruncation, ShippedExamplesDoNotWarn) {
  // The examples at their levels reach at most 1.2e-3 (iswap_parametric's qb; docs/cli.md "The
  // truncation warning"); cz_with_line and cz_transmon_coupler are checked by CliCouplers.
  TempDir dir;
  for (const std::string name : {"cnot_cr_pair", "cz_fluxonium_flux", "fluxonium_pair_chevron", "fluxonium_x",
                                 "fluxonium_x_lindblad", "iswap_parametric", "mpc_chain_4q_x"}) {
    const auto r = run_qevolve("run '" + kSource + "/examples/" + name +
                                   ".yaml' --threads 1 --set evolution.error_estimate=false",
                               dir);
    ASSERT_EQ(r.exit_code, 0) << name << r.err;
    EXPECT_EQ(r.err.find("warning: mode"), std::string::npos) << name << r.err;
    EXPECT_NE(r.out.find("truncation: top level population "), std::string::npos) << name << r.out;
  }
}

}  // namespace
}  // namespace qevolve::testing
