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

# The same configuration as scripts/install.sh (scripts/configure-release.sh: MPI and the Python
# module required, CUDA compiled whenever nvcc is on PATH), so that a tree the install built is
# only completed here, not rebuilt.
echo "== Release build and tests"
scripts/configure-release.sh
cmake --build --preset release -j "$jobs"
ctest --preset release -j "$jobs"

echo "== ASan + UBSan build and tests (label: sanitize)"
cmake --preset sanitize
cmake --build --preset sanitize -j "$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --preset sanitize -j "$jobs"
