// What a qevolve output file holds, for `qevolve plot` (docs/output.md "What `qevolve plot`
// draws"): the io layer opens the file and checks that qevolve wrote it; the drawing itself is
// scripts/qevolve_plot.py.
#pragma once

#include <string>
#include <vector>

namespace qevolve::io {

/// The drawable parts of a qevolve HDF5 file, each present or not.
struct OutputContents {
  bool sweep = false;     ///< /sweep/fidelity (with /sweep/leakage, /sweep/axes/<k>)
  bool history = false;   ///< /history/infidelity (optimize output or checkpoint)
  bool ensemble = false;  ///< /ensemble/fidelity (a config with `ensemble:`, docs/ensembles.md)
  bool trace = false;     ///< /trace/time with /trace/populations or /trace/mode_populations
  bool pulses = false;    ///< /pulses/time and /pulses/values
  bool unitary = false;   ///< /unitary
  bool channel = false;   ///< /superoperator without /unitary (open systems)
  bool energies = false;  ///< /energies
  bool zz = false;        ///< /zz (spectrum output)

  /// The parts present, in the order the plot draws them ("sweep", "history", ...).
  [[nodiscard]] std::vector<std::string> names() const;
};

/// Opens FILE read-only and lists what `qevolve plot` can draw from it. Throws InputError
/// `FILE: PROBLEM` when FILE does not exist or cannot be read, is not an HDF5 file, was not
/// written by qevolve (neither the root attribute `qevolve_version` nor an optimiser checkpoint's
/// `kind`), or holds none of the parts of OutputContents ("nothing to draw").
[[nodiscard]] OutputContents inspect_output_file(const std::string& file);

}  // namespace qevolve::io
