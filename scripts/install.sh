#!/usr/bin/env bash
# The README's first command: installs what is missing, builds the CLI and the Python module once
# (Release, tuned for this machine: -march=native), installs the module for the python3 on PATH
# and runs the default example. Tests and benchmarks are scripts/test.sh's business; it reuses
# this build tree (build/release), so the engine is compiled once for both.
#   scripts/install.sh            # as above
#   QEVOLVE_NATIVE=OFF scripts/install.sh   # portable: no -march=native (docs/python.md)
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS

# What the build needs first; the Python modules for plots, the module and the tests download and
# install meanwhile (they are needed only after the build), their output in build/install-deps.log.
scripts/install-deps.sh --build
mkdir -p build
nice -n 19 scripts/install-deps.sh --runtime > build/install-deps.log 2>&1 &  # the compiler first
runtime=$!
scripts/configure-release.sh
# The CLI and the module only: the engine's libraries are compiled once and linked into both.
# The CUDA plugin (nvcc: a minute or more) only where a GPU driver is there (/dev/nvidiactl, or
# /dev/dxg under WSL2: the test `device: auto` makes, docs/backend.md); scripts/test.sh, or
# `cmake --build --preset release --target qevolve_cuda`, builds it anywhere else.
targets=(qevolve_app qevolve_python)
if command -v nvcc > /dev/null && { [ -e /dev/nvidiactl ] || [ -e /dev/dxg ]; }; then targets+=(qevolve_cuda); fi
cmake --build --preset release -j "$(nproc)" --target "${targets[@]}"
if ! wait "$runtime"; then
  cat build/install-deps.log >&2
  echo "install: installing the Python modules failed (above)" >&2
  exit 1
fi
scripts/install-python.sh build/release
echo "install: built and installed in $((SECONDS - start)) s; the default example:"
build/release/bin/qevolve run examples/mpc_chain_4q_x.yaml
