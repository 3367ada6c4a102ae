"""Time to accuracy of the peers (QuTiP, SuperGrad) on the standard qevolve workload (workload.py).

compare.py times each peer at one setting (QuTiP vern9 rtol 1e-8, SuperGrad 500 Strang steps),
which answers "how fast at about the accuracy qevolve's default gives". This script answers the
other question: what does each peer need, in wall time, to reach a given accuracy? It walks a
ladder of settings per peer and measures each against one converged reference propagator:

  * reference: workload.py's dense `magnus4` (4th-order commutator-free Magnus, exact
    exponentials) with --ref-steps steps; its convergence is checked against half the steps
    (the 4th-order estimate of its own error is that difference / 15);
  * QuTiP: `sesolve` (qutip_bench.py) with each --qutip-methods method over the --rtols ladder,
    atol = rtol * 1e-2; wall time = the sesolve call only;
  * SuperGrad: `ode_expm` (supergrad_bench.py) with each --sg-orders Trotter order over the
    --sg-steps ladder (astep = steps + 1); wall time = the second call of the jitted evolution,
    the first call's extra time is reported apart as jit. trotter_order 1 is what SuperGrad's
    `Evolve` helper uses by default; 2 is the Strang splitting compare.py runs. With the Hamiltonian
    sampled at each step's midpoint, every order converges as O(dt^2) at best.

Each run is a subprocess of qutip_bench.py / supergrad_bench.py (compare.run_peer) under --timeout
(start-up, build and JIT included); once a run times out, the larger settings of that method
(tighter rtol, more steps) are skipped. Error measures of each run, over the computational block
(the whole 2^N x 2^N propagator here): max |U - U_ref| and |d(1-F)| = |(1-F) - (1-F)_ref|, F the
leakage-aware gate fidelity of workload.py against X on every qubit, no compensation.

Prints one line per run (and a RESULT {json} line), then the table, then for each --thresholds
value the fastest setting per tool that reaches |d(1-F)| <= threshold and, separately,
max |dU| <= threshold. --csv FILE writes the rows as CSV. --quick: a smoke run (N = 3, short
ladders).
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import io
import json
import math
import os
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from compare import fmt, run_peer  # noqa: E402
from workload import Workload, evolve_magnus4, unitary_error  # noqa: E402

DEFAULT_RTOLS = [1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10]
DEFAULT_SG_STEPS = [125, 250, 500, 1000, 2000, 4000, 8000]
DEFAULT_THRESHOLDS = [1e-4, 1e-6, 1e-8]
ATOL_FACTOR = 1e-2  # atol = rtol * ATOL_FACTOR (as qutip_bench.py's defaults: 1e-8 / 1e-10)

QUICK = {"qubits": 3, "ref_steps": 8000, "rtols": [1e-5, 1e-7, 1e-9],
         "sg_steps": [125, 500, 2000]}
FULL = {"qubits": 6, "ref_steps": 8000, "rtols": DEFAULT_RTOLS, "sg_steps": DEFAULT_SG_STEPS}

CSV_FIELDS = ["qubits", "tool", "setting", "method", "rtol", "atol", "steps", "trotter_order",
              "status", "wall_s", "jit_s", "infidelity", "max_dU", "d_infidelity", "ref_steps",
              "ref_infidelity"]


def reference(qubits: int, steps: int) -> dict:
    """magnus4 propagator with `steps` steps, and its difference from `steps // 2` steps."""
    w = Workload(qubits)
    t0 = time.perf_counter()
    u = evolve_magnus4(w, steps)
    t_ref = time.perf_counter() - t0
    t0 = time.perf_counter()
    u_half = evolve_magnus4(w, steps // 2)
    t_half = time.perf_counter() - t0
    d_u = unitary_error(u_half, u)
    d_f = abs(w.infidelity(u_half) - w.infidelity(u))
    return {"workload": w, "unitary": u, "steps": steps, "wall_s": t_ref, "half_wall_s": t_half,
            "infidelity": w.infidelity(u), "half_max_dU": d_u, "half_d_infidelity": d_f,
            # 4th order: err(steps/2) ~ 16 err(steps), so err(steps) ~ difference / 15
            "est_max_dU": d_u / 15.0, "est_d_infidelity": d_f / 15.0}


def measure(r: dict, ref: dict) -> None:
    """Adds the error measures of a successful run against the reference (in place)."""
    u = r.pop("unitary")
    r["max_dU"] = unitary_error(u, ref["unitary"])
    r["d_infidelity"] = abs(ref["workload"].infidelity(u) - ref["infidelity"])


def ladder(tool: str, settings: list, script: str, qubits: int, tmp: str, timeout: float,
           repeat: int, ref: dict) -> list:
    """Runs one method's ladder (settings ordered from cheap to expensive); after a timeout the
    remaining settings are recorded as skipped. Returns one row per setting."""
    rows = []
    dead = False
    for label, extra, fields in settings:
        row = {"tool": tool, "setting": label, **fields}
        if dead:
            row["status"] = "skipped"
            rows.append(row)
            print(f"{tool:<15} {label:<12} skipped (a cheaper setting timed out)", flush=True)
            continue
        t0 = time.perf_counter()
        r = run_peer(script, qubits, extra, tmp, timeout, repeat)
        elapsed = time.perf_counter() - t0
        row["status"] = r["status"]
        if r["status"] == "timeout":
            dead = True
            print(f"{tool:<15} {label:<12} timeout > {timeout:g} s", flush=True)
        elif r["status"] != "ok":
            print(f"{tool:<15} {label:<12} failed: {r['error']}", flush=True)
        else:
            measure(r, ref)
            row.update(wall_s=r["wall_s"], jit_s=r.get("jit_s"), infidelity=r["infidelity"],
                       max_dU=r["max_dU"], d_infidelity=r["d_infidelity"])
            jit = f" (jit {row['jit_s']:.2f} s)" if row["jit_s"] is not None else ""
            print(f"{tool:<15} {label:<12} wall {row['wall_s']:9.3f} s{jit}  max|dU| "
                  f"{row['max_dU']:.2e}  |d(1-F)| {row['d_infidelity']:.2e}  "
                  f"[process {elapsed:.1f} s]", flush=True)
        print("RESULT " + json.dumps({"qubits": qubits, **row}), flush=True)
        rows.append(row)
    return rows


def print_table(rows: list) -> None:
    print(f"\n{'tool':<15} | {'setting':<12} | {'wall s':>9} | {'jit s':>6} | {'max|dU|':>8} | "
          f"{'|d(1-F)|':>8} | status")
    for r in rows:
        print(f"{r['tool']:<15} | {r['setting']:<12} | {fmt(r.get('wall_s'), '9.3f')} | "
              f"{fmt(r.get('jit_s'), '6.2f')} | {fmt(r.get('max_dU'), '8.1e')} | "
              f"{fmt(r.get('d_infidelity'), '8.1e')} | {r['status']}")


def fastest(rows: list, key: str, threshold: float) -> str:
    """'setting: wall s' of the fastest row with rows[key] <= threshold, else why not."""
    ok = [r for r in rows if r["status"] == "ok" and r[key] <= threshold]
    if ok:
        best = min(ok, key=lambda r: r["wall_s"])
        return f"{best['setting']}: {best['wall_s']:.3f} s"
    done = [r for r in rows if r["status"] == "ok"]
    if not done:
        return "no run finished"
    best = min(done, key=lambda r: r[key])
    return f"not reached (best {best[key]:.1e})"


def print_thresholds(rows: list, thresholds: list) -> None:
    tools = list(dict.fromkeys(r["tool"] for r in rows))
    for thr in thresholds:
        print(f"\nfastest setting reaching {thr:g}:")
        print(f"  {'tool':<15} | {'|d(1-F)| <= ' + format(thr, 'g'):<32} | "
              f"{'max|dU| <= ' + format(thr, 'g'):<32}")
        for tool in tools:
            mine = [r for r in rows if r["tool"] == tool]
            print(f"  {tool:<15} | {fastest(mine, 'd_infidelity', thr):<32} | "
                  f"{fastest(mine, 'max_dU', thr):<32}")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--qubits", type=int, default=None, help="N (default 6; 3 with --quick)")
    p.add_argument("--ref-steps", type=int, default=None,
                   help="magnus4 steps of the reference (default 8000); "
                        "half of it is run too, as the convergence check")
    p.add_argument("--peers", nargs="+", default=["qutip", "supergrad"],
                   choices=["qutip", "supergrad"])
    p.add_argument("--qutip-methods", nargs="+", default=["vern9"],
                   help="QuTiP ODE methods (vern9; also e.g. adams dop853 vern7)")
    p.add_argument("--rtols", type=float, nargs="+", default=None,
                   help="QuTiP rtol ladder, atol = rtol * 1e-2 (default 1e-4 ... 1e-10)")
    p.add_argument("--sg-orders", type=int, nargs="+", default=[1, 2], choices=[1, 2, 4],
                   help="SuperGrad trotter_order values (default 1 2)")
    p.add_argument("--sg-steps", type=int, nargs="+", default=None,
                   help="SuperGrad step ladder, astep = steps + 1 (default 125 250 ... 8000)")
    p.add_argument("--thresholds", type=float, nargs="+", default=DEFAULT_THRESHOLDS)
    p.add_argument("--timeout", type=float, default=300.0,
                   help="seconds per run (subprocess incl. start-up and JIT); after a timeout "
                        "the larger settings of that method are skipped")
    p.add_argument("--repeat", type=int, default=1,
                   help="best of this many timed runs (as qutip_bench.py / supergrad_bench.py)")
    p.add_argument("--quick", action="store_true", help="smoke run: N = 3, short ladders")
    p.add_argument("--csv", help="write the rows as CSV to this file")
    args = p.parse_args(argv)

    preset = QUICK if args.quick else FULL
    qubits = args.qubits if args.qubits is not None else preset["qubits"]
    ref_steps = args.ref_steps if args.ref_steps is not None else preset["ref_steps"]
    rtols = sorted(args.rtols if args.rtols is not None else preset["rtols"], reverse=True)
    sg_steps = sorted(args.sg_steps if args.sg_steps is not None else preset["sg_steps"])

    peers = []
    for name in args.peers:
        if importlib.util.find_spec(name) is None:
            print(f"note: {name} is not installed (python3 -m pip install {name}): skipped")
        else:
            peers.append(name)

    print(f"N = {qubits} (D = {2 ** qubits}); load average {os.getloadavg()[0]:.2f} "
          f"({os.cpu_count()} cores)", flush=True)
    ref = reference(qubits, ref_steps)
    print(f"reference: magnus4 {ref_steps} steps {ref['wall_s']:.1f} s, 1-F {ref['infidelity']:.12f}; "
          f"vs {ref_steps // 2} steps ({ref['half_wall_s']:.1f} s): max|dU| {ref['half_max_dU']:.1e}, "
          f"|d(1-F)| {ref['half_d_infidelity']:.1e} -> own error ~ {ref['est_max_dU']:.1e} / "
          f"{ref['est_d_infidelity']:.1e} (4th order: difference / 15)", flush=True)
    if ref["est_max_dU"] > 0.1 * min(args.thresholds):
        print(f"warning: the reference's estimated error ({ref['est_max_dU']:.1e}) is not 10x "
              f"below the smallest threshold; raise --ref-steps", flush=True)
    print("RESULT " + json.dumps({"qubits": qubits, "tool": "reference", "setting": f"magnus4 {ref_steps}",
                                  **{k: v for k, v in ref.items() if k not in ("workload", "unitary")}}),
          flush=True)

    rows = []
    with tempfile.TemporaryDirectory(prefix="qevolve_accuracy_") as tmp:
        if "qutip" in peers:
            for method in args.qutip_methods:
                settings = [(f"rtol {rtol:.0e}".replace("e-0", "e-"),
                             ["--method", method, "--rtol", repr(rtol), "--atol", repr(rtol * ATOL_FACTOR)],
                             {"method": method, "rtol": rtol, "atol": rtol * ATOL_FACTOR})
                            for rtol in rtols]
                rows += ladder(f"QuTiP {method}", settings, "qutip_bench.py", qubits, tmp,
                               args.timeout, args.repeat, ref)
        if "supergrad" in peers:
            for order in args.sg_orders:
                settings = [(f"steps {s}", ["--steps", str(s), "--trotter-order", str(order)],
                             {"method": "ode_expm", "steps": s, "trotter_order": order})
                            for s in sg_steps]
                rows += ladder(f"SuperGrad T{order}", settings, "supergrad_bench.py", qubits, tmp,
                               args.timeout, args.repeat, ref)

    print_table(rows)
    print_thresholds(rows, args.thresholds)

    if args.csv:
        buf = io.StringIO()
        writer = csv.DictWriter(buf, fieldnames=CSV_FIELDS)
        writer.writeheader()
        for r in rows:
            full = {k: r.get(k) for k in CSV_FIELDS}
            full.update(qubits=qubits, ref_steps=ref_steps, ref_infidelity=ref["infidelity"])
            writer.writerow({k: ("" if v is None else v) for k, v in full.items()})
        with open(args.csv, "w", newline="") as fh:
            fh.write(buf.getvalue())
        print(f"\nCSV written to {args.csv}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
