#!/usr/bin/env bash
# Configures build/release the one way scripts/install.sh and scripts/test.sh both use, so that
# the tests reuse (and test) the engine the install built: the release preset (Release,
# QEVOLVE_NATIVE=ON unless QEVOLVE_NATIVE=OFF is set in the environment), MPI and the Python
# module required (their tests cannot vanish silently), and the CUDA backend whenever nvcc is on
# PATH (it compiles here; its GPU tests skip, visibly, without a device).
set -euo pipefail
cd "$(dirname "$0")/.."
options=(-DQEVOLVE_ENABLE_MPI=ON -DQEVOLVE_PYTHON_MODULE=ON "-DQEVOLVE_NATIVE=${QEVOLVE_NATIVE:-ON}")
if command -v nvcc > /dev/null; then options+=(-DQEVOLVE_ENABLE_CUDA=ON); else options+=(-DQEVOLVE_ENABLE_CUDA=OFF); fi
echo "== configure build/release (${options[*]})"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
cmake --preset release "${options[@]}" > "$log" 2>&1 || { cat "$log"; exit 1; }
grep -E "^-- (qevolve |Python module)" "$log" || true  # what was found, in one or two lines
