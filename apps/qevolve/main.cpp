// qevolve command-line interface: parses flags, calls qevolve::commands, maps errors to
// exit codes (interface.md): 0 ok, 2 bad input, 3 numerical failure, 1 anything else.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>
#include <new>
#include <optional>
#include <string>

#include "qevolve/commands.hpp"
#include "qevolve/error.hpp"
#include "qevolve/version.hpp"

namespace {

int report(const std::string& message, int code) {
  std::cerr << "qevolve: error: " << message << "\n";
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"qevolve: simulate and optimise gates on superconducting quantum processors"};
  app.name("qevolve");
  app.set_version_flag("--version", std::string("qevolve ") + qevolve::kVersion);
  app.require_subcommand(1);

  std::string config_path;
  bool quiet = false;

  auto* check = app.add_subcommand("check", "Validate a config file only (exit 0 or 2)");
  check->add_option("CONFIG", config_path, "YAML config file")->required();

  qevolve::commands::SpectrumOptions spec;
  std::optional<int> spec_levels;
  auto* spectrum = app.add_subcommand(
      "spectrum", "Bare and dressed mode frequencies, matrix elements and static ZZ");
  spectrum->add_option("CONFIG", spec.config_path, "YAML config file")->required();
  spectrum->add_option("--levels", spec_levels, "Truncate every mode to K levels")
      ->check(CLI::Range(2, 1000));
  spectrum->add_option("-o,--output", spec.output, "Write the figures to this HDF5 file");

  for (auto* sub : {check, spectrum}) sub->add_flag("--quiet", quiet, "No progress or warnings");

  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  }

  qevolve::commands::Streams io{std::cout, std::cerr, quiet, !quiet && isatty(2) != 0};
  try {
    if (check->parsed()) return qevolve::commands::check(config_path, io);
    if (spectrum->parsed()) {
      spec.levels = spec_levels;
      return qevolve::commands::spectrum(spec, io);
    }
  } catch (const qevolve::InputError& e) {
    return report(e.what(), 2);
  } catch (const qevolve::NumericalError& e) {
    return report(e.what(), 3);
  } catch (const std::bad_alloc&) {
    return report("out of memory", 1);
  } catch (const std::exception& e) {
    return report(e.what(), 1);
  }
  return 1;
}
