#!/usr/bin/env bash
# Builds qevolve and runs the whole test suite:
#   1. Release build (with the Python module), every ctest test -- the C++ ones and, label
#      `python`, pytest on the module of this build tree (python/tests);
#   2. AddressSanitizer + UndefinedBehaviorSanitizer build of the tests labelled `sanitize`.
# Installs missing Debian packages first (scripts/install-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
jobs=$(nproc)

# MPI is installed above, so its tests must not vanish silently; the CUDA backend and NCCL are
# compiled whenever nvcc is on PATH (their GPU tests skip, visibly, without a device).
# QEVOLVE_PYTHON_MODULE=ON: no nanobind for the python3 on PATH is a configure error, so the
# Python tests cannot vanish silently either.
options=(-DQEVOLVE_ENABLE_MPI=ON -DQEVOLVE_PYTHON_MODULE=ON)
if command -v nvcc > /dev/null; then options+=(-DQEVOLVE_ENABLE_CUDA=ON); fi
echo "== Release build and tests (${options[*]})"
cmake --preset release "${options[@]}"
cmake --build --preset release -j "$jobs"
ctest --preset release -j "$jobs"

echo "== ASan + UBSan build and tests (label: sanitize)"
cmake --preset sanitize
cmake --build --preset sanitize -j "$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --preset sanitize -j "$jobs"
