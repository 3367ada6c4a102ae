#!/usr/bin/env bash
# Builds qevolve and runs the whole test suite:
#   Release build (with the Python module), every ctest test -- the C++ ones, the benchmark
#   scripts' smoke tests and, label `python`, pytest on the module of this build tree
#   (python/tests). CI runs exactly this (.ci/run).
#   scripts/test.sh --sanitize   then also an AddressSanitizer + UndefinedBehaviorSanitizer
#   build of the tests labelled `sanitize` and their run (preset `sanitize`: the library as a
#   unity build, only those tests). On two cores it costs about as much CPU again as the rest
#   (about 850 of 2200 CPU s), which puts CI over its 15 minutes, so CI does not run it; run it
#   before a change to kernels, the loader or anything that indexes memory by hand lands
#   (docs/architecture.md "Build").
# Installs missing Debian packages first (scripts/install-deps.sh). Each phase prints its wall
# time.
set -euo pipefail
cd "$(dirname "$0")/.."

sanitize=0
case "${1:-}" in
  "") ;;
  --sanitize) sanitize=1 ;;
  *) echo "usage: scripts/test.sh [--sanitize]" >&2; exit 2 ;;
esac

scripts/install-deps.sh
jobs=$(nproc)
start=$SECONDS
phase() { echo "== $1: $((SECONDS - t0)) s"; t0=$SECONDS; }
t0=$SECONDS

# The same configuration as scripts/install.sh (scripts/configure-release.sh: MPI and the Python
# module required, CUDA compiled whenever nvcc is on PATH), so that a tree the install built is
# only completed here, not rebuilt.
echo "== Release build and tests"
scripts/configure-release.sh
cmake --build --preset release -j "$jobs"
phase "Release configure and build"
ctest --preset release -j "$jobs"
phase "Release tests"

if [ "$sanitize" -eq 1 ]; then
  echo "== ASan + UBSan build and tests (label: sanitize)"
  cmake --preset sanitize > /dev/null
  cmake --build --preset sanitize -j "$jobs"
  phase "ASan + UBSan build"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --preset sanitize -j "$jobs"
  phase "ASan + UBSan tests"
fi
echo "== total: $((SECONDS - start)) s"
