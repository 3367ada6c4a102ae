// Drawing a qevolve HDF5 file (`qevolve plot`, and `sweep --plot` through draw_plot).
#pragma once

#include <string>

namespace qevolve::commands {

/// Checks that `h5` is a qevolve output file with something to draw (io::inspect_output_file)
/// and draws it into `image` (PNG, or PDF/SVG/... by its extension) with
/// scripts/qevolve_plot.py. Throws InputError for a file it cannot draw or an image it cannot
/// write, qevolve::Error when Python or one of its modules is missing (python_script.hpp).
void draw_plot(const std::string& h5, const std::string& image);

/// The default image of `qevolve plot FILE`: FILE with its extension replaced by .png
/// (`run/x.h5` -> `run/x.png`; a name without an extension gets `.png` appended).
[[nodiscard]] std::string default_plot_path(const std::string& h5);

}  // namespace qevolve::commands
