// Runs the Python scripts that draw qevolve's PNG files (scripts/*.py) with an argument vector:
// no shell, so any file name works. Used by `bench scaling --plot`, `bench accuracy --plot`
// and `qevolve plot` (docs/cli.md "Plots").
#pragma once

#include <string>
#include <vector>

namespace qevolve::commands {

/// The interpreter: $QEVOLVE_PYTHON when set and not empty, else /usr/bin/python3 (Debian's,
/// with python3-matplotlib, python3-h5py and python3-numpy from scripts/install-deps.sh).
[[nodiscard]] std::string python_interpreter();

/// Runs `PYTHON QEVOLVE_SCRIPTS_DIR/script args...` and waits for it. Its stdout and stderr are
/// captured (not shown) and used for the error message. Throws
/// - qevolve::Error when the interpreter cannot be started ("cannot run /usr/bin/python3: No
///   such file or directory; install python3 ..."), when the script cannot be read (it is taken
///   from the source tree qevolve was built from), when a module is missing ("/usr/bin/python3
///   has no module matplotlib; install the Debian package python3-matplotlib ..."), when the
///   script is killed by a signal or exits with a status other than 0 and 2 (the message holds
///   the last line it printed);
/// - qevolve::InputError with the script's last line when it exits with status 2 (the scripts'
///   convention for a file they cannot draw).
void run_python_script(const std::string& script, const std::vector<std::string>& args);

}  // namespace qevolve::commands
