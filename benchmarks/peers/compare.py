"""Side-by-side timing of qevolve, QuTiP and SuperGrad on the standard workload (workload.py).

For each N: qevolve runs the workload from a YAML config (written to a temporary folder); F and
the unitary are read from its HDF5 output (docs/output.md) and the "evolve" wall time from the
summary's `wall time:` line (qevolve_cli.py); then each installed peer runs in its own Python
subprocess (qutip_bench.py, supergrad_bench.py) under --timeout. A peer that is not installed is
skipped with a note; one that times out is not tried at larger N. Prints a table (times, the
ratio peer time / qevolve evolve time, 1 - F of each, max |U_peer - U_qevolve|) and the same as
CSV (stdout, or --csv FILE). --numpy-check also compares qevolve's unitary with workload.py's
numpy Strang splitting (the same discretisation; needs no peer, small N only).

Exit status 1 when qevolve fails at any N or when a comparison shows a MISMATCH. Smoke run
(CI, tests/benchmarks): --qubits 2 3 --steps 50 --repeat 1 --numpy-check.

1 - F must agree between the tools to 1e-4 for the timing comparison to be apples to apples;
a larger difference is flagged ("MISMATCH"). Expected agreement: SuperGrad runs the very same
discretisation as qevolve (Strang over the same term list, 500 midpoint steps) and agrees to
rounding; QuTiP integrates the continuous-time equation, so it differs from qevolve by qevolve's
500-step discretisation error (~2e-5 in 1 - F at N = 2, smaller at larger N).
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import io
import json
import math
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import qevolve_cli  # noqa: E402
AGREEMENT = 1e-4  # |d(1-F)| above this: not the same computation (the brief's criterion)

NUMPY_AGREEMENT = 1e-8  # --numpy-check: max |dU| of the same discretisation (observed ~1e-9)

CSV_FIELDS = ["qubits", "qevolve_evolve_s", "qevolve_total_s", "qutip_s", "qutip_ratio",
              "supergrad_s", "supergrad_ratio", "supergrad_jit_s", "qevolve_1mF", "qutip_1mF",
              "supergrad_1mF", "qutip_max_dU", "supergrad_max_dU", "numpy_max_dU", "flag"]


def workload_yaml(qubits: int, steps: int) -> str:
    """The standard workload (src/commands/workloads.cpp) as a qevolve config."""
    pulse = ("{{qubit: q{q}, shape: cos, amplitude: auto, angle: {pi!r}, frequency: auto, "
             "phase: {ph!r}, duration: 50.0}}")
    lines = ["device:", "  preset: mpc_fluxonium_1d",
             f"  preset_args: {{qubits: {qubits}, levels: 2}}", "pulses:"]
    lines += ["  - " + pulse.format(q=q, pi=math.pi, ph=-math.pi / 2) for q in range(qubits)]
    lines += ["evolution:", "  solver: trotter", "  order: 2", "  splitting: terms",
              f"  steps: {steps}", "target:", "  gates:"]
    lines += [f"    - {{gate: X, qubits: [q{q}]}}" for q in range(qubits)]
    lines += ["  compensation: none", ""]
    return "\n".join(lines)


def run_qevolve(exe: str, qubits: int, steps: int, threads: int | None, tmp: str,
                timeout: float, repeat: int = 1) -> dict:
    """Best "evolve" time of `repeat` runs (every run must give the same 1 - F)."""
    best = None
    for _ in range(max(1, repeat)):
        r = _run_qevolve_once(exe, qubits, steps, threads, tmp, timeout)
        if best is not None and abs(r["infidelity"] - best["infidelity"]) > 1e-12:
            raise RuntimeError("qevolve gave different 1 - F in repeated runs")
        if best is None or r["evolve_s"] < best["evolve_s"]:
            best = r
    return best


def _run_qevolve_once(exe: str, qubits: int, steps: int, threads: int | None, tmp: str,
                      timeout: float) -> dict:
    cfg = os.path.join(tmp, f"standard_{qubits}.yaml")
    with open(cfg, "w") as fh:
        fh.write(workload_yaml(qubits, steps))
    h5 = os.path.join(tmp, f"qevolve_{qubits}.h5")
    args = ["--threads", str(threads)] if threads else []
    r = qevolve_cli.run(exe, cfg, h5, args, timeout=timeout)
    if "fidelity" not in r["attrs"] or r["unitary"] is None:
        raise RuntimeError(f"{h5} has no fidelity attribute or /unitary (docs/output.md)")
    return {"evolve_s": r["times"]["evolve"], "total_s": r["times"]["total"],
            "process_s": r["process_s"], "infidelity": 1.0 - float(r["attrs"]["fidelity"]),
            "unitary": r["unitary"]}


def numpy_check(qubits: int, steps: int, qe: dict) -> dict:
    """qevolve's propagator against workload.py's numpy Strang splitting over the same term
    list (the same discretisation, so they agree to rounding: ~1e-9 from the two independent
    mode diagonalisations); no peer needed."""
    from workload import Workload, evolve_trotter2_terms, unitary_error

    w = Workload(qubits, steps)
    u = evolve_trotter2_terms(w, steps)
    return {"max_dU": unitary_error(qe["unitary"], u),
            "d_infidelity": abs(w.infidelity(u) - qe["infidelity"])}


def run_peer(script: str, qubits: int, extra: list, tmp: str, timeout: float,
             repeat: int = 1) -> dict:
    prefix = os.path.join(tmp, os.path.splitext(script)[0] + "_U")
    cmd = [sys.executable, os.path.join(HERE, script), "--qubits", str(qubits),
           "--save-unitary", prefix, "--repeat", str(repeat)] + extra
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"status": "timeout"}
    if proc.returncode != 0:
        return {"status": "failed", "error": proc.stderr.strip()[-800:]}
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            r = json.loads(line[7:])
            r["status"] = "ok"
            r["unitary"] = np.load(f"{prefix}{qubits}.npy")
            return r
    return {"status": "failed", "error": "no RESULT line:\n" + proc.stdout[-800:]}


def fmt(x, spec):
    """format(x, spec), or a dash padded to the spec's width when x is missing."""
    if x is not None:
        return format(x, spec)
    width = re.match(r"\d*", spec).group(0)
    return "-".rjust(int(width) if width else 1)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--qevolve", default=None,
                   help="qevolve binary (default build/release/bin/qevolve; when that default "
                        "is absent, the peers run alone)")
    p.add_argument("--qubits", type=int, nargs="+", default=list(range(2, 9)))
    p.add_argument("--steps", type=int, default=500)
    p.add_argument("--threads", type=int, default=None,
                   help="qevolve --threads (default: qevolve's, all cores)")
    p.add_argument("--repeat", type=int, default=3,
                   help="best of this many timed runs for each tool (QuTiP repeats only runs "
                        "under 10 s; SuperGrad repeats the call after JIT)")
    p.add_argument("--timeout", type=float, default=600.0,
                   help="seconds per peer run (incl. start-up and JIT); a peer that times out "
                        "is skipped for larger N")
    p.add_argument("--peers", nargs="+", default=["qutip", "supergrad"],
                   choices=["qutip", "supergrad"])
    p.add_argument("--qutip-args", default="",
                   help="extra arguments for qutip_bench.py, e.g. \"--rtol 1e-9 --atol 1e-11\"")
    p.add_argument("--supergrad-args", default="",
                   help="extra arguments for supergrad_bench.py, e.g. \"--diag-ops\"")
    p.add_argument("--numpy-check", action="store_true",
                   help="also compare qevolve's unitary with workload.py's numpy Strang splitting "
                        f"(MISMATCH above max|dU| {NUMPY_AGREEMENT:g}; dense numpy, small N only)")
    p.add_argument("--csv", help="write the CSV here (default: print it after the table)")
    args = p.parse_args(argv)

    explicit = args.qevolve is not None
    args.qevolve = args.qevolve or "build/release/bin/qevolve"
    have_qevolve = os.path.isfile(args.qevolve) and os.access(args.qevolve, os.X_OK)
    if not have_qevolve and explicit:
        print(f"error: --qevolve {args.qevolve}: no such executable", file=sys.stderr)
        return 2
    if not have_qevolve:
        print(f"note: qevolve binary {args.qevolve} not found: peers only, no ratios")
    peers = {}
    for name in args.peers:
        if importlib.util.find_spec(name) is None:
            print(f"note: {name} is not installed (python3 -m pip install {name}): skipped")
        else:
            peers[name] = {"script": f"{name}_bench.py", "alive": True,
                           "extra": (args.qutip_args if name == "qutip"
                                     else args.supergrad_args).split()}
    if "supergrad" in peers and args.steps != 500 and "--steps" not in peers["supergrad"]["extra"]:
        peers["supergrad"]["extra"] += ["--steps", str(args.steps)]

    rows = []
    with tempfile.TemporaryDirectory(prefix="qevolve_peers_") as tmp:
        for n in args.qubits:
            row = {k: None for k in CSV_FIELDS}
            row["qubits"] = n
            notes = []
            qe = None
            if have_qevolve:
                try:
                    qe = run_qevolve(args.qevolve, n, args.steps, args.threads, tmp,
                                     args.timeout, args.repeat)
                    row["qevolve_evolve_s"] = qe["evolve_s"]
                    row["qevolve_total_s"] = qe["total_s"]
                    row["qevolve_1mF"] = qe["infidelity"]
                except RuntimeError as e:
                    notes.append(f"qevolve failed: {e}")
                if qe is not None and args.numpy_check:
                    c = numpy_check(n, args.steps, qe)
                    row["numpy_max_dU"] = c["max_dU"]
                    if c["max_dU"] > NUMPY_AGREEMENT or c["d_infidelity"] > NUMPY_AGREEMENT:
                        notes.append(f"MISMATCH numpy Strang: max|dU| {c['max_dU']:.1e}, "
                                     f"|d(1-F)| {c['d_infidelity']:.1e} > {NUMPY_AGREEMENT:g}")
            for name, peer in peers.items():
                if not peer["alive"]:
                    notes.append(f"{name} skipped (timed out at smaller N)")
                    continue
                r = run_peer(peer["script"], n, peer["extra"], tmp, args.timeout, args.repeat)
                if r["status"] == "timeout":
                    peer["alive"] = False
                    notes.append(f"{name} timeout > {args.timeout:g} s")
                    continue
                if r["status"] != "ok":
                    notes.append(f"{name} failed: {r['error']}")
                    continue
                row[f"{name}_s"] = r["wall_s"]
                row[f"{name}_1mF"] = r["infidelity"]
                if name == "supergrad":
                    row["supergrad_jit_s"] = r["jit_s"]
                if qe is not None:
                    row[f"{name}_ratio"] = r["wall_s"] / qe["evolve_s"] if qe["evolve_s"] > 0 else math.inf
                    if qe["unitary"] is not None:
                        row[f"{name}_max_dU"] = float(np.max(np.abs(r["unitary"] - qe["unitary"])))
                    if abs(r["infidelity"] - qe["infidelity"]) > AGREEMENT:
                        notes.append(f"MISMATCH {name}: |d(1-F)| = "
                                     f"{abs(r['infidelity'] - qe['infidelity']):.1e} > {AGREEMENT:g}")
            # Peers among themselves (when qevolve is absent, this is the only check).
            vals = [row[k] for k in ("qevolve_1mF", "qutip_1mF", "supergrad_1mF") if row[k] is not None]
            if len(vals) > 1 and max(vals) - min(vals) > AGREEMENT and not any("MISMATCH" in s for s in notes):
                notes.append(f"MISMATCH: 1-F spread {max(vals) - min(vals):.1e} > {AGREEMENT:g}")
            row["flag"] = "; ".join(notes) if notes else "ok"
            rows.append(row)
            print_row(row, header=len(rows) == 1)

    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=CSV_FIELDS)
    writer.writeheader()
    for row in rows:
        writer.writerow({k: ("" if v is None else v) for k, v in row.items()})
    if args.csv:
        with open(args.csv, "w", newline="") as fh:
            fh.write(buf.getvalue())
        print(f"CSV written to {args.csv}")
    else:
        print("\nCSV:")
        print(buf.getvalue(), end="")
    failed = [r["qubits"] for r in rows if "qevolve failed" in r["flag"]]
    if failed:
        print(f"error: qevolve failed at N = {', '.join(map(str, failed))}", file=sys.stderr)
    return 1 if failed or any("MISMATCH" in r["flag"] for r in rows) else 0


def print_row(row: dict, header: bool) -> None:
    if header:
        print(f"{'N':>2} | {'qevolve s':>9} | {'QuTiP s':>9} {'ratio':>7} | {'SuperGrad s':>11} "
              f"{'ratio':>7} {'(jit s)':>8} | {'1-F qevolve':>12} {'1-F QuTiP':>12} "
              f"{'1-F SuperGrad':>13} | {'dU QuTiP':>8} {'dU SG':>8} {'dU numpy':>8} | flag",
              flush=True)
    print(f"{row['qubits']:>2} | {fmt(row['qevolve_evolve_s'], '9.4f')} | "
          f"{fmt(row['qutip_s'], '9.3f')} {fmt(row['qutip_ratio'], '7.1f')} | "
          f"{fmt(row['supergrad_s'], '11.3f')} {fmt(row['supergrad_ratio'], '7.1f')} "
          f"{fmt(row['supergrad_jit_s'], '8.2f')} | {fmt(row['qevolve_1mF'], '12.9f')} "
          f"{fmt(row['qutip_1mF'], '12.9f')} {fmt(row['supergrad_1mF'], '13.9f')} | "
          f"{fmt(row['qutip_max_dU'], '8.1e')} {fmt(row['supergrad_max_dU'], '8.1e')} "
          f"{fmt(row['numpy_max_dU'], '8.1e')} | {row['flag']}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
