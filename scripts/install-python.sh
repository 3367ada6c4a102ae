#!/usr/bin/env bash
# Builds and installs the Python module `qevolve` for the python3 on PATH (docs/python.md):
#   python3 -m pip install .
# with --break-system-packages where that python3 is externally managed (Debian's own
# /usr/bin/python3; a virtual environment or a pyenv python needs no flag). pip fetches the
# build tools (scikit-build-core, nanobind); the engine's libraries are the Debian packages of
# scripts/install-deps.sh. The build directory is build/pip (a second run is incremental).
set -euo pipefail
cd "$(dirname "$0")/.."

flags=(--quiet)
if python3 - <<'PY'
import os, sys, sysconfig
marker = os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")
sys.exit(0 if os.path.exists(marker) and sys.prefix == sys.base_prefix else 1)
PY
then
  flags+=(--break-system-packages)
fi
[ "$(id -u)" -ne 0 ] || flags+=(--root-user-action=ignore)
echo "install-python: $(command -v python3) -m pip install ${flags[*]} ."
python3 -m pip install "${flags[@]}" .
python3 -c 'import qevolve; print("install-python: qevolve", qevolve.__version__, "in", qevolve.__file__)'
