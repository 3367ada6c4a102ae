#!/usr/bin/env bash
# Memory estimate (qevolve check, docs/cli.md "Memory") against the measured peak resident set
# size of the same command (ru_maxrss from wait4, the figure /usr/bin/time -v prints as "Maximum
# resident set size"), on eleven configs from ~20 MiB to 6 GiB. Prints a Markdown table
# (docs/performance.md "Memory estimate").
# Usage: benchmarks/memory/estimate_vs_rss.sh [QEVOLVE] [--smoke]
#   QEVOLVE defaults to build/release/bin/qevolve; --smoke (CI, tests/benchmarks) measures only
#   the three smallest configs. Fails when `check` prints no `memory:` estimate it can read.
set -euo pipefail
shopt -s inherit_errexit  # a failing command inside $(...) stops the script too
QEVOLVE=build/release/bin/qevolve
SMOKE=0
for arg in "$@"; do
  case $arg in
    --smoke) SMOKE=1 ;;
    *) QEVOLVE=$arg ;;
  esac
done
PYTHON=${PYTHON:-python3}
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT

chain() {  # NAME QUBITS LEVELS EVOLUTION-FLOW-MAPPING [PULSE-EXTRA [MORE-YAML]]
  cat >"$DIR/$1.yaml" <<YAML
device:
  preset: mpc_fluxonium_1d
  preset_args: {qubits: $2, levels: $3}
pulses:
  - {qubit: q0, shape: cos, amplitude: 0.01, duration: 20${5:-}}
evolution: $4
${6:-}
YAML
}
chain tiny 1 3 "{steps: 100}"
chain trotter8 8 3 "{steps: 20}"
chain expm7 7 3 "{solver: expm, steps: 4}"
chain lindblad4 4 3 "{steps: 20, noise: {q0: {t1: 1000}, q1: {t1: 1000}}}"
chain trotter10 10 3 "{steps: 2}"
chain opengrad3 3 3 "{steps: 16, noise: {q0: {t1: 1000}}}" ", optimize: [amplitude]" "target: {gates: [{gate: X, qubits: [q0]}]}"
chain big9 9 4 "{steps: 1}"
chain out12 12 2 "{steps: 2}" "" "output: {file: $DIR/out12.h5}"
chain target12 12 2 "{steps: 2}" "" "target: {gates: [{gate: X, qubits: [q0]}]}"
chain gradient9 9 3 "{steps: 4}" ", optimize: [amplitude]" "target: {gates: [{gate: X, qubits: [q0]}]}"
SPECTRUM=spectrum12
cat >"$DIR/$SPECTRUM.yaml" <<YAML
device:
  preset: mpc_fluxonium_1d
  preset_args: {qubits: 12, levels: 2}
YAML

# "~1.2 GiB" -> bytes
to_bytes() {
  "$PYTHON" -c "import sys; v, u = sys.argv[1].lstrip('~'), sys.argv[2]
print(int(float(v) * {'bytes': 1, 'KiB': 2**10, 'MiB': 2**20, 'GiB': 2**30, 'TiB': 2**40}[u]))" "$1" "$2"
}

# Runs the command, its output discarded; prints its peak resident set size in KiB.
peak_rss_kib() {
  "$PYTHON" - "$@" <<'PY'
import os, subprocess, sys
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
err = p.stderr.read()
_, status, usage = os.wait4(p.pid, 0)
if os.waitstatus_to_exitcode(status) != 0:
    sys.exit(" ".join(sys.argv[1:]) + " failed:\n" + err.decode(errors="replace"))
print(usage.ru_maxrss)
PY
}

configs="tiny trotter8 expm7 lindblad4 opengrad3 gradient9 trotter10 big9 out12 target12 $SPECTRUM"
[ "$SMOKE" = 1 ] && configs="tiny lindblad4 opengrad3"

echo "| config | command | estimate | measured peak RSS | estimate / measured |"
echo "| --- | --- | --- | --- | --- |"
for name in $configs; do
  cfg="$DIR/$name.yaml"
  line=$("$QEVOLVE" check "$cfg" | grep '^memory:')
  est=$(to_bytes $(echo "$line" | awk '{print $2, $3}'))
  cmd=run
  [ "$name" = "$SPECTRUM" ] && cmd=spectrum
  rss_kib=$(peak_rss_kib "$QEVOLVE" $cmd "$cfg" --quiet)
  "$PYTHON" -c "import sys
est, rss = int(sys.argv[1]), int(sys.argv[2]) * 1024
print(f'| {sys.argv[3]} | {sys.argv[4]} | {est / 2**20:.0f} MiB | {rss / 2**20:.0f} MiB | {est / rss:.2f} |')" \
    "$est" "$rss_kib" "$name ($(echo "$line" | sed 's/.*estimated (//; s/)$//'))" "$cmd"
done
