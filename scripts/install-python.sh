#!/usr/bin/env bash
# Installs the Python module `qevolve` that a CMake build of this repository made, for the
# python3 on PATH (docs/python.md "Install"):
#   scripts/install-python.sh [BUILD_DIR]     # default build/release (scripts/install.sh builds it)
# The module in BUILD_DIR/python/qevolve (the extension links the same engine libraries as the
# CLI of that build, compiled once with the same flags) is packed into a wheel
# (scripts/make_wheel.py) and installed by pip, with --break-system-packages where that python3
# is externally managed (Debian's own /usr/bin/python3). Nothing is compiled here; pip does not
# reach the network (--no-deps, --no-index: numpy comes from scripts/install-deps.sh).
# A portable module (no -march=native), e.g. for a cluster's login node: python3 -m pip install .
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}

flags=(--quiet --no-deps --no-index --force-reinstall)
if python3 - <<'PY'
import os, sys, sysconfig
marker = os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")
sys.exit(0 if os.path.exists(marker) and sys.prefix == sys.base_prefix else 1)
PY
then
  flags+=(--break-system-packages)
fi
[ "$(id -u)" -ne 0 ] || flags+=(--root-user-action=ignore)
wheel=$(python3 scripts/make_wheel.py "$build" "$build/dist")
echo "install-python: $(command -v python3) -m pip install ${flags[*]} $wheel"
python3 -m pip install "${flags[@]}" "$wheel"
# Run from another folder, so that the installed module is the one imported (not ./python).
(cd / && python3 -c 'import qevolve; print("install-python: qevolve", qevolve.__version__, "in", qevolve.__file__)')
