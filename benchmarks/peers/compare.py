"""Side-by-side timing of qevolve, QuTiP and SuperGrad on the standard workload (workload.py).

For each N: qevolve runs the workload from a YAML config (written to a temporary folder) and its
"evolve" wall time and F are parsed from the run summary; then each installed peer runs in its
own Python subprocess (qutip_bench.py, supergrad_bench.py) under --timeout. A peer that is not
installed is skipped; one that times out is not tried at larger N. Prints a table (times, the
ratio peer time / qevolve evolve time, 1 - F of each, and max |U_peer - U_qevolve| when h5py is
available to read qevolve's propagator) and the same as CSV (stdout, or --csv FILE).

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
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
AGREEMENT = 1e-4  # |d(1-F)| above this: not the same computation (the brief's criterion)

CSV_FIELDS = ["qubits", "qevolve_evolve_s", "qevolve_total_s", "qutip_s", "qutip_ratio",
              "supergrad_s", "supergrad_ratio", "supergrad_jit_s", "qevolve_1mF", "qutip_1mF",
              "supergrad_1mF", "qutip_max_dU", "supergrad_max_dU", "flag"]


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
    cmd = [exe, "run", cfg, "-o", h5, "--quiet"]
    if threads:
        cmd += ["--threads", str(threads)]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    elapsed = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"qevolve exited {proc.returncode}: {proc.stderr.strip()[-500:]}")
    text = proc.stdout
    m_wall = re.search(r"wall time:.*?evolve\s+([0-9.eE+-]+)\s*s.*?total\s+([0-9.eE+-]+)\s*s", text)
    m_fid = re.search(r"fidelity:\s*F\s*=\s*([0-9.eE+-]+)\s*\(1 - F = ([0-9.eE+-]+)\)", text)
    if not (m_wall and m_fid):
        raise RuntimeError("could not parse the qevolve summary:\n" + text)
    out = {"evolve_s": float(m_wall.group(1)), "total_s": float(m_wall.group(2)),
           "process_s": elapsed, "infidelity": 1.0 - float(m_fid.group(1)),
           "infidelity_printed": float(m_fid.group(2)), "unitary": None}
    try:
        import h5py

        with h5py.File(h5, "r") as f:
            u = f["unitary"][()]
        if u.dtype.names:  # compound {r, i}
            u = u["r"] + 1j * u["i"]
        out["unitary"] = np.asarray(u, dtype=complex)
    except ImportError:
        pass
    return out


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
    p.add_argument("--qevolve", default="build/release/bin/qevolve",
                   help="qevolve binary (default build/release/bin/qevolve)")
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
    p.add_argument("--csv", help="write the CSV here (default: print it after the table)")
    args = p.parse_args(argv)

    have_qevolve = os.path.isfile(args.qevolve) and os.access(args.qevolve, os.X_OK)
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
                except (RuntimeError, subprocess.TimeoutExpired) as e:
                    notes.append(f"qevolve failed: {e}")
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
    return 1 if any("MISMATCH" in r["flag"] for r in rows) else 0


def print_row(row: dict, header: bool) -> None:
    if header:
        print(f"{'N':>2} | {'qevolve s':>9} | {'QuTiP s':>9} {'ratio':>7} | {'SuperGrad s':>11} "
              f"{'ratio':>7} {'(jit s)':>8} | {'1-F qevolve':>12} {'1-F QuTiP':>12} "
              f"{'1-F SuperGrad':>13} | {'dU QuTiP':>8} {'dU SG':>8} | flag", flush=True)
    print(f"{row['qubits']:>2} | {fmt(row['qevolve_evolve_s'], '9.4f')} | "
          f"{fmt(row['qutip_s'], '9.3f')} {fmt(row['qutip_ratio'], '7.1f')} | "
          f"{fmt(row['supergrad_s'], '11.3f')} {fmt(row['supergrad_ratio'], '7.1f')} "
          f"{fmt(row['supergrad_jit_s'], '8.2f')} | {fmt(row['qevolve_1mF'], '12.9f')} "
          f"{fmt(row['qutip_1mF'], '12.9f')} {fmt(row['supergrad_1mF'], '13.9f')} | "
          f"{fmt(row['qutip_max_dU'], '8.1e')} {fmt(row['supergrad_max_dU'], '8.1e')} | "
          f"{row['flag']}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
