#!/usr/bin/env python3
"""Derivative-free search for a cross-resonance CNOT operating point on a 2-fluxonium MPC pair.

What it does
------------
Drives ``qevolve run`` (one process per evaluation) on configs generated from a small parameter
vector and minimises 1 - F of a CNOT(q0 -> q1) with ``single_qubit`` compensation:

  device   preset mpc_fluxonium_1d, 2 qubits (q0 control, EL 0.9; q1 target, EL 1.0), L levels
  pulse 0  rampcos on q0, operator phi, at q1's dressed f01 (+ detuning): the CR tone
  pulse 1  (optional, --target-tone) rampcos on q1, phi, same carrier/envelope timing: the
           cancellation tone that removes the target's IX/IY drive so that the net interaction
           is a pure ZX (which commutes with IX, so the local rotations absorb the rest)
  solver   trotter order 2 (its splitting keeps the bare energies exact; it converges much faster
           in dt than the expm midpoint rule here), rotating frame, product basis

Parameters (units of the config: GHz, ns, rad)
  amp      CR amplitude on q0 phi
  dur      pulse duration (ramp fixed by --ramp, or searched with --search-ramp)
  phase    CR carrier phase
  det      carrier detuning from q1's dressed f01 (GHz)
  tamp     target-tone amplitude (q1 phi), tphase its phase   (only with --target-tone)

Stages
  1. coarse scan: for each duration in --durations, a 1-D amplitude scan over --amp-range
     (then a bounded Brent refinement of the amplitude) with phase 0, det 0, no target tone;
  2. local search: Nelder-Mead (then Powell) over (amp, det, phase[, tamp, tphase][, ramp]) from
     the best few scan points (--polish N);
  3. checks at the best point: steps doubling, levels L+1 .. L+3, solver adaptive reference.
The best point is written as a ready-to-run config (--write FILE).

Each evaluation is one ``qevolve run CONFIG --quiet`` (no HDF5 needed: F, the uncompensated F and
the leakage are parsed from the printed summary, F to 12 decimals).  A run with D = 25 and a few
thousand steps takes about 0.3-1 s.  Evaluations are cached (same parameters -> same numbers).

How to run
----------
  python3 scripts/search_cnot_cr.py                       # scan + polish + checks, prints a report
  python3 scripts/search_cnot_cr.py --target-tone --write examples/cnot_cr_pair.yaml
  python3 scripts/search_cnot_cr.py --eval amp=0.05 dur=200 phase=0 det=0     # one point
  python3 scripts/search_cnot_cr.py --check amp=... dur=... ...                # checks only
Options: --qevolve PATH (default build/release/bin/qevolve next to this script's repository),
--levels L (5), --steps-per-ns N (20: dt = 0.05 ns), --workers K (parallel qevolve processes in
the scan), --maxfev N (Nelder-Mead budget per start).  Needs numpy and scipy (pip install numpy
scipy); pyyaml is not needed (the configs are written as text).
"""

import argparse
import concurrent.futures as cf
import math
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np
from scipy import optimize

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_QEVOLVE = os.path.join(REPO, "build", "release", "bin", "qevolve")

# q1's dressed 0-1 frequency (GHz) on this device, from `qevolve spectrum` (levels 5; the value
# is the same to 1e-9 GHz for levels 5..8).  Recomputed at start-up with --levels.
F_TARGET_DRESSED = 0.5829029142

PARAM_DEFAULTS = dict(amp=0.05, dur=200.0, ramp=20.0, phase=0.0, det=0.0, tamp=0.0, tphase=0.0)


def fmt(x):
    return repr(float(x))


def make_config(p, levels, steps, solver="trotter", f_target=F_TARGET_DRESSED, header=""):
    """YAML text of the run for the parameter dict p."""
    freq = f_target + p["det"]
    lines = [header.rstrip("\n")] if header else []
    lines += [
        "device:",
        "  preset: mpc_fluxonium_1d",
        f"  preset_args: {{qubits: 2, levels: {levels}}}",
        "pulses:",
        "  - qubit: q0                 # control: CR tone on its phi at the target's frequency",
        "    operator: phi",
        "    shape: rampcos",
        f"    amplitude: {fmt(p['amp'])}",
        f"    frequency: {fmt(freq)}",
        f"    phase: {fmt(p['phase'])}",
        f"    duration: {fmt(p['dur'])}",
        f"    ramp: {fmt(p['ramp'])}",
    ]
    if p.get("tamp", 0.0) != 0.0:
        lines += [
            "  - qubit: q1                 # target: cancellation tone, same carrier and envelope",
            "    operator: phi",
            "    shape: rampcos",
            f"    amplitude: {fmt(p['tamp'])}",
            f"    frequency: {fmt(freq)}",
            f"    phase: {fmt(p['tphase'])}",
            f"    duration: {fmt(p['dur'])}",
            f"    ramp: {fmt(p['ramp'])}",
        ]
    lines += ["evolution:", f"  solver: {solver}"]
    if solver == "trotter":
        lines += ["  order: 2"]
    if solver != "adaptive":
        lines += [f"  steps: {int(steps)}"]
    lines += [
        "  basis: product",
        "  frame: rotating",
        "target:",
        "  gates:",
        "    - {gate: CNOT, qubits: [q0, q1]}   # control q0, target q1",
        "  compensation: single_qubit",
    ]
    return "\n".join(lines) + "\n"


_NUM = r"([-+0-9.eE]+)"


def parse_summary(text):
    m = re.search(r"fidelity: F = " + _NUM + r" .*uncompensated F = " + _NUM, text)
    lk = re.search(r"leakage: " + _NUM, text)
    wt = re.search(r"total " + _NUM + r" s", text)
    ev = re.search(r"evolve " + _NUM + r" s", text)
    if not (m and lk):
        raise RuntimeError("cannot parse qevolve output:\n" + text)
    return dict(F=float(m.group(1)), F_unc=float(m.group(2)), leakage=float(lk.group(1)),
                wall=float(wt.group(1)) if wt else float("nan"),
                evolve=float(ev.group(1)) if ev else float("nan"))


class Evaluator:
    def __init__(self, qevolve, levels, steps_per_ns, threads=1, verbose=True):
        self.qevolve, self.levels, self.spn, self.threads = qevolve, levels, steps_per_ns, threads
        self.cache, self.verbose, self.nevals = {}, verbose, 0
        self.tmp = tempfile.mkdtemp(prefix="search_cnot_cr_")
        self.best = (math.inf, None, None)
        self.f_target = F_TARGET_DRESSED

    def steps_for(self, p):
        return max(200, int(round(self.spn * p["dur"])))

    def run(self, p, levels=None, steps=None, solver="trotter"):
        levels = levels or self.levels
        steps = steps or self.steps_for(p)
        key = (tuple(round(p[k], 14) for k in sorted(p)), levels, steps, solver)
        if key in self.cache:
            return self.cache[key]
        fd, path = tempfile.mkstemp(suffix=".yaml", dir=self.tmp)
        with os.fdopen(fd, "w") as f:
            f.write(make_config(p, levels, steps, solver, self.f_target))
        t0 = time.perf_counter()
        r = subprocess.run([self.qevolve, "run", path, "--quiet", "--threads", str(self.threads)],
                           capture_output=True, text=True)
        os.unlink(path)
        if r.returncode != 0:
            raise RuntimeError(f"qevolve failed ({r.returncode}): {r.stderr.strip()}")
        res = parse_summary(r.stdout)
        res["process_wall"] = time.perf_counter() - t0
        res["infid"] = 1.0 - res["F"]
        self.cache[key] = res
        self.nevals += 1
        if levels == self.levels and solver == "trotter" and steps == self.steps_for(p):
            if res["infid"] < self.best[0]:
                self.best = (res["infid"], dict(p), res)
        return res

    def spectrum_f01(self, levels=None):
        """q1's dressed f01 from `qevolve spectrum` at the given levels."""
        levels = levels or self.levels
        p = dict(PARAM_DEFAULTS)
        path = os.path.join(self.tmp, "spec.yaml")
        with open(path, "w") as f:
            f.write(make_config(p, levels, 100, "trotter", self.f_target))
        r = subprocess.run([self.qevolve, "spectrum", path], capture_output=True, text=True,
                           check=True)
        for line in r.stdout.splitlines():
            w = line.split()
            if w and w[0] == "q1" and len(w) >= 7:
                return float(w[6])
        raise RuntimeError("no q1 line in spectrum output:\n" + r.stdout)


def describe(p, res):
    s = " ".join(f"{k}={p[k]:.10g}" for k in ("amp", "dur", "ramp", "phase", "det", "tamp", "tphase")
                 if k in p)
    return (f"{s} | 1-F={res['infid']:.4e} leak={res['leakage']:.2e} "
            f"F_unc={res['F_unc']:.5f} ({res['process_wall']:.2f} s)")


def scan(ev, durations, amp_lo, amp_hi, namp, workers, ramp, phase=0.0, det=0.0):
    """Coarse amplitude scan per duration, then Brent refinement around the best grid point."""
    out = []
    amps = np.linspace(amp_lo, amp_hi, namp)
    for dur in durations:
        pts = [dict(PARAM_DEFAULTS, amp=a, dur=dur, ramp=ramp, phase=phase, det=det) for a in amps]
        with cf.ThreadPoolExecutor(max_workers=workers) as ex:
            res = list(ex.map(ev.run, pts))
        inf = np.array([r["infid"] for r in res])
        i = int(np.argmin(inf))
        lo, hi = amps[max(i - 1, 0)], amps[min(i + 1, len(amps) - 1)]
        f = lambda a: ev.run(dict(PARAM_DEFAULTS, amp=a, dur=dur, ramp=ramp, phase=phase,
                                  det=det))["infid"]
        r = optimize.minimize_scalar(f, bounds=(lo, hi), method="bounded",
                                     options=dict(xatol=1e-6))
        p = dict(PARAM_DEFAULTS, amp=float(r.x), dur=dur, ramp=ramp, phase=phase, det=det)
        best = ev.run(p)
        print(f"  scan dur={dur:6.1f}: grid best amp={amps[i]:.4f} (1-F={inf[i]:.3e}); "
              f"refined {describe(p, best)}", flush=True)
        out.append((best["infid"], p))
    out.sort(key=lambda t: t[0])
    return out


def polish(ev, p0, names, scales, maxfev, fixed_dur=True):
    """Nelder-Mead then Powell over the named parameters, in units of `scales`."""
    x0 = np.array([p0[n] / s for n, s in zip(names, scales)])

    def unpack(x):
        p = dict(p0)
        for n, s, v in zip(names, scales, x):
            p[n] = float(v * s)
        return p

    def f(x):
        p = unpack(x)
        if p["amp"] <= 0 or p["ramp"] <= 0 or p["ramp"] * 2 > p["dur"]:
            return 1.0
        return ev.run(p)["infid"]

    simplex = [x0] + [x0 + np.eye(len(x0))[k] for k in range(len(x0))]
    r = optimize.minimize(f, x0, method="Nelder-Mead",
                          options=dict(maxfev=maxfev, xatol=1e-4, fatol=1e-9,
                                       initial_simplex=np.array(simplex), adaptive=True))
    print(f"    Nelder-Mead: {r.nfev} evaluations, 1-F = {r.fun:.4e}", flush=True)
    r2 = optimize.minimize(f, r.x, method="Powell",
                           options=dict(maxfev=maxfev, xtol=1e-5, ftol=1e-10))
    print(f"    Powell:      {r2.nfev} evaluations, 1-F = {r2.fun:.4e}", flush=True)
    x = r2.x if r2.fun <= r.fun else r.x
    return unpack(x)


def checks(ev, p):
    """Steps doubling, level convergence and the adaptive reference at the point p."""
    base = ev.steps_for(p)
    print(f"\nchecks at {describe(p, ev.run(p))}")
    print("  steps (trotter order 2, levels %d):" % ev.levels)
    ref = None
    for k in (0.5, 1, 2, 4, 8):
        s = int(base * k)
        r = ev.run(p, steps=s)
        if k == 8:
            ref = r["infid"]
        print(f"    steps {s:6d} (dt {p['dur'] / s:.4f} ns): 1-F = {r['infid']:.6e} "
              f"leak {r['leakage']:.3e}  ({r['process_wall']:.2f} s)")
    ra = ev.run(p, solver="adaptive")
    print(f"    adaptive (rtol 1e-10):  1-F = {ra['infid']:.6e} leak {ra['leakage']:.3e} "
          f"({ra['process_wall']:.2f} s)")
    print("  levels (steps %d x 2):" % base)
    for L in range(max(3, ev.levels - 1), ev.levels + 4):
        r = ev.run(p, levels=L, steps=2 * base)
        print(f"    levels {L}: 1-F = {r['infid']:.6e} leak {r['leakage']:.3e} "
              f"F_unc {r['F_unc']:.6f} ({r['process_wall']:.2f} s)")
    return ref


def parse_point(items):
    p = dict(PARAM_DEFAULTS)
    for it in items:
        k, v = it.split("=")
        if k not in p:
            sys.exit(f"unknown parameter {k} (expected one of {', '.join(p)})")
        p[k] = float(v)
    return p


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--qevolve", default=DEFAULT_QEVOLVE)
    ap.add_argument("--levels", type=int, default=5)
    ap.add_argument("--steps-per-ns", type=float, default=20.0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--durations", default="100,150,200,250,300,400")
    ap.add_argument("--amp-range", default="0.005,0.12,24")
    ap.add_argument("--ramp", type=float, default=20.0)
    ap.add_argument("--search-ramp", action="store_true")
    ap.add_argument("--target-tone", action="store_true")
    ap.add_argument("--polish", type=int, default=2, help="number of scan points to polish")
    ap.add_argument("--maxfev", type=int, default=300)
    ap.add_argument("--write", help="write the best point as a config to this file")
    ap.add_argument("--eval", nargs="+", metavar="K=V", help="evaluate one point and exit")
    ap.add_argument("--check", nargs="+", metavar="K=V", help="run the checks at one point")
    ap.add_argument("--start", nargs="+", metavar="K=V", help="skip the scan, polish from here")
    a = ap.parse_args()

    ev = Evaluator(a.qevolve, a.levels, a.steps_per_ns)
    ev.f_target = ev.spectrum_f01()
    print(f"q1 dressed f01 = {ev.f_target:.10f} GHz (levels {a.levels})")

    if a.eval:
        p = parse_point(a.eval)
        print(describe(p, ev.run(p)))
        return
    if a.check:
        checks(ev, parse_point(a.check))
        return

    t0 = time.perf_counter()
    if a.start:
        starts = [parse_point(a.start)]
    else:
        lo, hi, n = a.amp_range.split(",")
        durs = [float(d) for d in a.durations.split(",")]
        print(f"stage 1: amplitude scan, durations {durs}")
        res = scan(ev, durs, float(lo), float(hi), int(n), a.workers, a.ramp)
        starts = [p for _, p in res[: a.polish]]

    names, scales = ["amp", "det", "phase"], [0.005, 0.0005, 0.3]
    if a.target_tone:
        names += ["tamp", "tphase"]
        scales += [0.005, 0.3]
    if a.search_ramp:
        names += ["ramp"]
        scales += [5.0]
    for p in starts:
        if a.target_tone and p["tamp"] == 0.0:
            p["tamp"] = 0.002
        print(f"stage 2: polish {names} from {describe(p, ev.run(p))}")
        q = polish(ev, p, names, scales, a.maxfev)
        print(f"    -> {describe(q, ev.run(q))}", flush=True)

    infid, p, res = ev.best
    print(f"\nbest after {ev.nevals} evaluations ({time.perf_counter() - t0:.0f} s): "
          f"{describe(p, res)}")
    checks(ev, p)
    if a.write:
        steps = 2 * ev.steps_for(p)
        head = (f"# CR CNOT on a 2-fluxonium MPC pair, found by scripts/search_cnot_cr.py:\n"
                f"# 1 - F = {res['infid']:.4e} (leakage {res['leakage']:.2e}).\n")
        with open(a.write, "w") as f:
            f.write(make_config(p, a.levels, steps, "trotter", ev.f_target, head))
        print(f"wrote {a.write}")


if __name__ == "__main__":
    main()
