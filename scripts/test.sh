#!/usr/bin/env bash
# Builds qevolve and runs the whole test suite:
#   1. Release build (with the Python module), every ctest test -- the C++ ones and, label
#      `python`, pytest on the module of this build tree (python/tests);
#   2. AddressSanitizer + UndefinedBehaviorSanitizer build of the tests labelled `sanitize`.
# Installs missing Debian packages first (scripts/install-deps.sh).
# The sanitizer build (preset `sanitize`: the library and the executable as a unity build, the
# tests labelled `sanitize` only) runs at the lowest priority (nice 19) beside the Release build
# and tests: it takes only the CPU time they leave idle (the build's serial steps, the tests'
# process starts, I/O and waits, the last long test), so they run as they would alone; its log
# is printed once the Release tests are done. Each phase prints its wall time.
set -euo pipefail
cd "$(dirname "$0")/.."

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
mkdir -p build/sanitize
san_log=build/sanitize/sanitize-build.log
# Its own process group (set -m), so that a failing Release step stops the whole build; the
# same session, so the same scheduler autogroup: nice 19 ranks it below the Release build and
# tests, not below the machine's other work.
set -m
nice -n 19 bash -c 'cmake --preset sanitize && cmake --build --preset sanitize -j "$1"' \
  _ "$jobs" > "$san_log" 2>&1 &
san_pid=$!
set +m
trap 'kill -- "-$san_pid" 2> /dev/null || true' EXIT
cmake --build --preset release -j "$jobs"
phase "Release configure and build"
ctest --preset release -j "$jobs"
phase "Release tests"

echo "== ASan + UBSan build and tests (label: sanitize)"
san_status=0
wait "$san_pid" || san_status=$?
trap - EXIT
cat "$san_log"
if [ "$san_status" -ne 0 ]; then echo "== the sanitizer build failed"; exit "$san_status"; fi
phase "ASan + UBSan build (beyond the Release tests)"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --preset sanitize -j "$jobs"
phase "ASan + UBSan tests"
echo "== total: $((SECONDS - start)) s"
