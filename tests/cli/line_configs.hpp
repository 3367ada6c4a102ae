// Configs with a control line (docs/config.md "lines") for the CLI tests: the CZ of
// examples/cz_transmon_coupler.yaml with its flux pulse delayed by 5 ns and sent through `zline`
// (sampled at 2.4 GS/s, a 0.5 ns Gaussian and a 1000 ns bias tee), optionally pre-distorted.
#pragma once

#include <stdexcept>
#include <string>

#include "cli_util.hpp"

namespace qevolve::testing {

/// The CZ example with its pulse on `zline`; `predistort` adds `predistort: true` to the line.
inline std::string zline_cz_config(bool predistort = false) {
  std::string text = read_file(std::string(QEVOLVE_SOURCE_DIR) + "/examples/cz_transmon_coupler.yaml");
  const std::string end = "duration: 50}";
  const auto at = text.find(end);
  const auto device = text.find("\ndevice:\n");
  if (at == std::string::npos || device == std::string::npos || device > at)
    throw std::runtime_error("zline_cz_config: examples/cz_transmon_coupler.yaml changed its pulse or device");
  text.replace(at, end.size(), "duration: 50, delay: 5, line: zline}");
  text.insert(device + 1, std::string("lines:\n"
                                      "  - name: zline\n"
                                      "    sample_rate: 2.4\n"
                                      "    filters:\n"
                                      "      - {type: gaussian, sigma: 0.5}\n"
                                      "      - {type: highpass, tau: 1000.0}\n") +
                              (predistort ? "    predistort: true\n" : ""));
  return text;
}

}  // namespace qevolve::testing
