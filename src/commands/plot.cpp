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
#include "qevolve/output_path.hpp"

namespace qevolve::commands {
namespace {

/// Throws when `image` is the input file itself (which -o would overwrite).
void refuse_overwriting_input(const std::string& h5, const std::string& image) {
  std::error_code ec;
  if (std::filesystem::equivalent(h5, image, ec))
    throw InputError({}, "-o", "`" + image + "` is the input file, which the image would overwrite",
                     "an image file name such as " + default_plot_path(h5));
}

/// Checks `h5`, draws it into `image`, returns what it holds. Unless `force`, the picture may
/// replace an earlier picture, never an HDF5 file (docs/output.md "Replacing a file").
/// `flags`: the script's --population OUT and --from IN (a sweep's population map).
io::OutputContents draw(const std::string& h5, const std::string& image, bool force,
                        const std::vector<std::string>& flags = {}) {
  io::OutputContents contents = io::inspect_output_file(h5);
  refuse_overwriting_input(h5, image);
  io::check_flag_output("-o", image, "", io::Replacing{"plot", force});
  std::vector<std::string> args{h5, image};
  args.insert(args.end(), flags.begin(), flags.end());
  run_python_script("qevolve_plot.py", args);
  return contents;
}

/// --population OUT [--from IN] as the script takes them; the states are checked there, against
/// the file's /sweep/labels.
std::vector<std::string> population_flags(const PlotOptions& options) {
  std::vector<std::string> flags;
  if (options.population) flags = {"--population", *options.population};
  if (options.from) flags.insert(flags.end(), {"--from", *options.from});
  return flags;
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
  static_cast<void>(draw(h5, image, true));  // sweep checked its --plot before the work
}

int plot(const PlotOptions& options, Streams io) {
  const std::string image =
      options.output.empty() ? default_plot_path(options.input) : options.output;
  const io::OutputContents contents = draw(options.input, image, options.force, population_flags(options));
  if (!io.quiet) io.out << "wrote " << image << " (" << joined(contents.names()) << ")\n";
  return 0;
}

}  // namespace qevolve::commands
