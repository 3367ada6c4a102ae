// `qevolve plot FILE.h5 [-o FILE.png]` (docs/cli.md "Plots"): io::inspect_output_file checks the
// file, scripts/qevolve_plot.py draws it (docs/output.md "What `qevolve plot` draws").
#include "plot.hpp"

#include <filesystem>
#include <ostream>
#include <string>
#include <system_error>
#include <vector>

#include "python_script.hpp"
#include "qevolve/commands.hpp"
#include "qevolve/error.hpp"
#include "qevolve/output_contents.hpp"

namespace qevolve::commands {
namespace {

/// Throws when `image` is the input file itself (which -o would overwrite).
void refuse_overwriting_input(const std::string& h5, const std::string& image) {
  std::error_code ec;
  if (std::filesystem::equivalent(h5, image, ec))
    throw InputError({}, "-o", "`" + image + "` is the input file, which the image would overwrite",
                     "an image file name such as " + default_plot_path(h5));
}

/// Checks `h5`, draws it into `image`, returns what it holds.
io::OutputContents draw(const std::string& h5, const std::string& image) {
  io::OutputContents contents = io::inspect_output_file(h5);
  refuse_overwriting_input(h5, image);
  run_python_script("qevolve_plot.py", {h5, image});
  return contents;
}

std::string joined(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out;
}

}  // namespace

std::string default_plot_path(const std::string& h5) {
  return std::filesystem::path(h5).replace_extension(".png").string();
}

void draw_plot(const std::string& h5, const std::string& image) {
  static_cast<void>(draw(h5, image));
}

int plot(const PlotOptions& options, Streams io) {
  const std::string image =
      options.output.empty() ? default_plot_path(options.input) : options.output;
  const io::OutputContents contents = draw(options.input, image);
  if (!io.quiet) io.out << "wrote " << image << " (" << joined(contents.names()) << ")\n";
  return 0;
}

}  // namespace qevolve::commands
