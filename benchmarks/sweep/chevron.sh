#!/usr/bin/env bash
# docs/performance.md "Sweeps": the 15 x 15 chevron of examples/fluxonium_x.yaml (amplitude
# +-20 %, frequency +-0.02 GHz around the file's values) as
#   (a) one `qevolve sweep` (all cores),
#   (b) 225 separate `qevolve run --set` processes (the old way),
#   (c) the same chevron on the two-fluxonium device (3 levels each) of
#       examples/fluxonium_pair_chevron.yaml: `mpirun -n 2 qevolve sweep --threads 1` against one
#       rank with one thread, started both as a plain process and by `mpirun -n 1`.
# Usage: benchmarks/sweep/chevron.sh [BUILD_DIR] [REPEAT] [POINTS]
#   (default build/release, 3, 15: best of REPEAT, a POINTS x POINTS grid; CI's smoke run,
#   tests/benchmarks, is `chevron.sh BUILD_DIR 1 3`). (c) needs mpirun (or $MPIEXEC; an empty
#   MPIEXEC skips it with a note); the bitwise check needs h5py for $PYTHON (default python3).
# Exits non-zero when a command fails or the launches' outputs differ.
set -euo pipefail
shopt -s inherit_errexit  # a failing run inside $(...) stops the script too
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$here/build/release}
repeat=${2:-3}
points=${3:-15}
qevolve=$build/bin/qevolve
python=${PYTHON:-python3}
mpiexec=${MPIEXEC-mpirun}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# docs/reference.md's reference point of the example (the figures' config): expm, 1279 steps
midpoint="--set evolution.solver=expm --set evolution.steps=1279"
amp=0.0823684365012486   # pulses[0].amplitude of examples/fluxonium_x.yaml
freq=0.5823664862818624  # pulses[0].frequency
n=$points
axes=$("$python" -c "a=$amp; f=$freq; n=$n; print(f'--vary pulses[0].amplitude={0.8*a!r}:{1.2*a!r}:{n} --vary pulses[0].frequency={f-0.02!r}:{f+0.02!r}:{n}')")

# best wall time of REPEAT runs of "$@"
best() {
  local b=""
  for _ in $(seq "$repeat"); do
    local t0 t1
    t0=$(date +%s.%N)
    "$@" > /dev/null
    t1=$(date +%s.%N)
    b=$("$python" -c "t=$t1-$t0; b='$b'; print(t if not b else min(t, float(b)))")
  done
  printf '%.3f' "$b"
}

echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
# shellcheck disable=SC2086
a=$(best "$qevolve" sweep "$here/examples/fluxonium_x.yaml" $midpoint $axes -o "$tmp/a.h5" --quiet)
echo "(a) qevolve sweep, $((n * n)) points, $(nproc) threads:        $a s"

runs() {
  "$python" - "$amp" "$freq" "$n" <<'PY' > "$tmp/points.txt"
import sys
a, f, n = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
for i in range(n):
    for j in range(n):
        print(repr(0.8 * a + i * (0.4 * a / (n - 1))), repr(f - 0.02 + j * (0.04 / (n - 1))))
PY
  while read -r x y; do
    # shellcheck disable=SC2086
    "$qevolve" run "$here/examples/fluxonium_x.yaml" $midpoint --set "pulses[0].amplitude=$x" --set "pulses[0].frequency=$y" \
      -o "$tmp/p.h5" --quiet > /dev/null
  done < "$tmp/points.txt"
}
b=$(repeat=1 best runs)
echo "(b) $((n * n)) x qevolve run --set (one process each):        $b s"

pair="$here/examples/fluxonium_pair_chevron.yaml"
# the benchmark's config (D = 9, expm, 1279 steps; the example itself runs converged settings)
axes="$axes $midpoint --set device.qubits[0].levels=3"
# shellcheck disable=SC2086
one=$(best "$qevolve" sweep "$pair" $axes --threads 1 -o "$tmp/c1.h5" --quiet)
echo "(c) pair chevron, 1 rank x 1 thread:                   $one s"
if [ -z "$mpiexec" ] || ! command -v "$mpiexec" > /dev/null; then
  echo "(c) skipped: the MPI launches (no mpirun; set MPIEXEC)"
  exit 0
fi
mpi="$mpiexec --allow-run-as-root --oversubscribe"
# shellcheck disable=SC2086
one_mpi=$(best $mpi -n 1 "$qevolve" sweep "$pair" $axes --threads 1 -o "$tmp/c0.h5" --quiet)
echo "(c) pair chevron, mpirun -n 1, 1 thread:               $one_mpi s"
# shellcheck disable=SC2086
two=$(best $mpi -n 2 "$qevolve" sweep "$pair" $axes --threads 1 -o "$tmp/c2.h5" --quiet)
echo "(c) pair chevron, mpirun -n 2, 1 thread each:          $two s  (speed-up $("$python" -c "print(f'{$one/$two:.2f}')") over the plain process, $("$python" -c "print(f'{$one_mpi/$two:.2f}')") over mpirun -n 1)"
# qevolve already leaves Open MPI's cm PML out when every rank is on one node
# (docs/distributed.md); --mca pml ob1 names the shared-memory PML explicitly.
# shellcheck disable=SC2086
ob1=$(best $mpi -n 2 --mca pml ob1 "$qevolve" sweep "$pair" $axes --threads 1 -o "$tmp/c3.h5" --quiet)
echo "(c) the same with --mca pml ob1:                       $ob1 s  (speed-up $("$python" -c "print(f'{$one/$ob1:.2f}')") over the plain process)"
"$python" - "$tmp/c1.h5" "$tmp/c2.h5" "$tmp/c3.h5" "$tmp/c0.h5" <<'PY'
import sys, h5py, numpy as np
a, b, c, d = (h5py.File(p, "r") for p in sys.argv[1:])
same = all(np.array_equal(a["sweep/" + k][()], x["sweep/" + k][()]) for x in (b, c, d)
           for k in ["fidelity", "leakage", "populations"])
print("    every launch bitwise equal to the plain process:", same)
sys.exit(0 if same else 1)
PY
