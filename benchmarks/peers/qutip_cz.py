#!/usr/bin/env python3
"""QuTiP `sesolve` against qevolve on examples/cz_transmon_coupler.yaml at matched accuracy.

The device (two transmons and a tunable coupler, levels 4 8 4, D = 128) and the flux pulse on the
coupler are rebuilt by the independent numpy model scripts/design_coupler_gates.py (charge-basis
diagonalisation of each mode at its static flux; the pulse enters through the coefficients of
cos(phi) and sin(phi) of the coupler in its static truncated eigenbasis, docs/models.md "Flux
pulses"). QuTiP integrates dpsi/dt = -i 2 pi [H0 + c_cos(t) cos(phi_c) + c_sin(t) sin(phi_c)] psi
for the four computational columns (the dressed |qa qb> states with the coupler in 0) as one
128 x 4 state, and the result is put in qevolve's output convention: dressed basis, rotating frame
of the dressed energies, and qevolve's eigenvector signs (<k-1|n|k> > 0 in every mode; the numpy
model fixes signs by the largest component, so the two differ by a diagonal +-1 similarity,
computed here from the model's own n matrices, not fitted).

Subcommands (run with Debian's python, which has numpy, scipy, h5py, PyYAML; qutip by pip):
  model      the numpy model against qevolve at equal steps (solver expm): checks the Hamiltonian,
             the basis and the sign convention (max|dU| ~ 1e-12 expected)
  reference  the converged reference: qevolve magnus4 (--splitting, default dense; chebyshev is
             the same discretisation, ~1e-12 apart, and much faster) at --steps and at
             2 x --steps (their difference bounds the error), written to --ref; --qutip-check also
             compares an independent tight-tolerance QuTiP solution with it
  qevolve    qevolve at each --steps (--solver, --splitting, --threads): max|U - U_ref| and the
             best of --repeat "evolve" wall times (the summary's evolve phase) and process
             times; --find bisects --steps LO HI for the smallest count meeting --target
  qutip      QuTiP at each tolerance (--method, --rtol-list, atol = rtol x --atol-ratio, --nsteps):
             max|U - U_ref| and the best of --repeat wall times of the sesolve call
  smoke      a few seconds, for CI (tests/benchmarks): `model` at 5 steps (fails above 1e-9),
             qevolve magnus4 with `splitting: chebyshev` against `splitting: dense` at 30 steps
             (the same discretisation; fails above 1e-8), and QuTiP at rtol 1e-6 against the
             latter when qutip is installed (else a note says it was skipped)

  /usr/bin/python3 benchmarks/peers/qutip_cz.py reference --qevolve build/release/bin/qevolve \
      --steps 3000 --threads 2
  /usr/bin/python3 benchmarks/peers/qutip_cz.py qevolve --solver magnus4 --splitting chebyshev \
      --find --steps 800 3000 --resolution 10 --threads 1 2 --repeat 5
  /usr/bin/python3 benchmarks/peers/qutip_cz.py qutip --rtol-list 1e-9 2e-10 1e-10
The figures and the exact commands are in docs/performance.md "Against peers".
"""
from __future__ import annotations

import argparse
import math
import os
import re
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.path.insert(0, HERE)
import design_coupler_gates as dcg  # noqa: E402
import qevolve_cli  # noqa: E402

EXAMPLE = os.path.join(ROOT, "examples", "cz_transmon_coupler.yaml")
DEFAULT_QEVOLVE = os.path.join(ROOT, "build", "release", "bin", "qevolve")
DEFAULT_REF = os.path.join(tempfile.gettempdir(), "qutip_cz_reference.npy")
TWO_PI = 2.0 * math.pi


# ---------------------------------------------------------------------------------------------
# The model (numpy, no qevolve code) and its conversion to qevolve's output convention
# ---------------------------------------------------------------------------------------------
def example_pulse():
    """(amplitude, ramp, duration) of the example's flux pulse, read from the YAML (with PyYAML
    when it is installed, else from the text of its `pulses:` section)."""
    with open(EXAMPLE) as f:
        text = f.read()
    try:
        import yaml
    except ImportError:
        yaml = None
    if yaml is not None:
        cfg = yaml.safe_load(text)
        (p,) = cfg["pulses"]
        levels = [m["levels"] for m in cfg["device"]["qubits"]]
    else:
        device, rest = text.split("\npulses:", 1)
        section = rest.split("\nevolution:", 1)[0]
        p = dict(re.findall(r"(\w+): ([^,{}\s]+)", section))
        levels = [int(x) for x in re.findall(r"levels: (\d+)", device)]
    assert p["qubit"] == "c" and p["operator"] == "flux" and p["shape"] == "rampcos", p
    assert levels == [4, 8, 4], levels
    return float(p["amplitude"]), float(p["ramp"]), float(p["duration"])


class Model:
    def __init__(self, symmetric=False):
        self.amp, self.ramp, self.T = example_pulse()
        saved = dcg.CASYM
        if symmetric:  # the coupler's SQUID symmetric: qevolve's flux gauge stays static
            dcg.CASYM = 0.0
        try:
            self.dev = dcg.make_device(4, 8, **dcg.DEVICES["cz"])
        finally:
            dcg.CASYM = saved
        self.pulse = dcg.rampcos(self.amp, self.T, self.ramp)
        # qevolve's signs: <k-1|n|k> > 0 in each mode (real charge-basis eigenvectors: +-1 only)
        signs = []
        for m in self.dev.modes:
            s = np.ones(m.levels)
            for k in range(1, m.levels):
                s[k] = s[k - 1] * np.sign(m.n[k - 1, k])
            signs.append(s)
        self.sign = dcg.embed(signs, None).ravel().real  # kron order qa, c, qb (rows of U)
        self.comp = self.dev.comp

    def to_qevolve(self, psi):
        """Bare-basis final states of the computational columns -> qevolve's /propagator."""
        u = self.dev.dressed.conj().T @ psi
        u = np.exp(1j * TWO_PI * self.dev.edressed * self.T)[:, None] * u
        return self.sign[:, None] * u * self.sign[self.comp][None, :]

    def coefficients(self):
        """c_cos(t), c_sin(t) as cheap scalar functions (QuTiP calls each once per right-hand
        side); equal to Transmon.flux_terms(pulse(t)) of the numpy model (asserted)."""
        c = self.dev.modes[1]
        ej, a, xs, ejs = c.ej, c.a, TWO_PI * c.flux, c.ejs
        amp, ramp, T = self.amp, self.ramp, self.T
        p0s = math.atan(a * math.tan(xs / 2))
        cache = [None, 0.0, 0.0]

        def both(t):
            if cache[0] != t:
                if t < ramp:
                    f = amp * 0.5 * (1 - math.cos(math.pi * t / ramp))
                elif t > T - ramp:
                    f = amp * 0.5 * (1 - math.cos(math.pi * (T - t) / ramp))
                else:
                    f = amp
                xe = xs + TWO_PI * f
                e = ej * math.sqrt(math.cos(xe / 2) ** 2 + a * a * math.sin(xe / 2) ** 2)
                d = math.atan(a * math.tan(xe / 2)) - p0s
                cache[:] = [t, ejs - e * math.cos(d), -e * math.sin(d)]
            return cache

        for t in (0.3, 7.1, 25.0, 44.4, 49.9):
            ref = c.flux_terms(self.pulse(t))
            assert abs(both(t)[1] - ref[0]) < 1e-12 and abs(both(t)[2] - ref[1]) < 1e-12
        return (lambda t: both(t)[1]), (lambda t: both(t)[2])

    def midpoint(self, steps):
        """Dense midpoint expm of the numpy model, in qevolve's convention."""
        _, u = self.dev.propagate(self.pulse, self.T, steps)
        return self.sign[:, None] * u * self.sign[self.comp][None, :]


# ---------------------------------------------------------------------------------------------
# qevolve and QuTiP runners
# ---------------------------------------------------------------------------------------------
def run_qevolve(exe, solver, steps, threads, splitting=None, symmetric=False):
    """(propagator [128, 4], evolve seconds, process seconds) of one `qevolve run`."""
    with tempfile.TemporaryDirectory() as tmp:
        args = ["--set", f"evolution.solver={solver}", "--steps", str(steps),
                "--threads", str(threads), "--set", "evolution.error_estimate=false"]
        if symmetric:
            args += ["--set", "device.qubits[c].asymmetry=0"]
        if splitting:
            args += ["--set", f"evolution.splitting={splitting}"]
        r = qevolve_cli.run(exe, EXAMPLE, os.path.join(tmp, "cz.h5"), args)
    if r["propagator"] is None or r["propagator"].shape != (128, 4):
        raise RuntimeError("the output has no /propagator [128, 4] (docs/output.md)")
    return r["propagator"], r["times"]["evolve"], r["process_s"]


def run_qutip(model, method, rtol, atol, nsteps, dtype="csr"):
    """(propagator [128, 4] in qevolve's convention, seconds of the sesolve call)."""
    import qutip

    dev = model.dev
    ccos, csin = model.coefficients()
    h = qutip.QobjEvo([qutip.Qobj(TWO_PI * dev.h0).to(dtype),
                       [qutip.Qobj(TWO_PI * dev.cosc).to(dtype), qutip.coefficient(ccos)],
                       [qutip.Qobj(TWO_PI * dev.sinc).to(dtype), qutip.coefficient(csin)]])
    psi0 = qutip.Qobj(dev.dressed[:, model.comp]).to(dtype)
    opts = {"method": method, "rtol": rtol, "atol": atol, "nsteps": nsteps,
            "store_final_state": True, "store_states": False, "normalize_output": False,
            "progress_bar": ""}
    t0 = time.perf_counter()
    res = qutip.sesolve(h, psi0, [0.0, model.T], options=opts)
    wall = time.perf_counter() - t0
    return model.to_qevolve(res.final_state.full()), wall


def max_du(u, ref):
    return float(np.max(np.abs(u - ref)))


# ---------------------------------------------------------------------------------------------
# Subcommands
# ---------------------------------------------------------------------------------------------
def cmd_model(args):
    model = Model()
    u_np = model.midpoint(args.steps[0])
    u_qe, ev, _ = run_qevolve(args.qevolve, "expm", args.steps[0], 1)
    print(f"numpy model vs qevolve, expm {args.steps[0]} steps: max|dU| = {max_du(u_np, u_qe):.2e}")


def cmd_reference(args):
    n = args.steps[0]
    splitting = args.splitting or "dense"
    a, ta, _ = run_qevolve(args.qevolve, "magnus4", n, args.threads[0], splitting)
    b, tb, _ = run_qevolve(args.qevolve, "magnus4", 2 * n, args.threads[0], splitting)
    np.save(args.ref, b)
    print(f"reference: qevolve magnus4 {splitting} {2 * n} steps ({tb:.1f} s) -> {args.ref}; "
          f"max|dU| to {n} steps ({ta:.1f} s) = {max_du(a, b):.2e} "
          f"(fourth order: the {2 * n}-step error is ~1/15 of that)")
    if args.qutip_check:
        model = Model()
        q, tq = run_qutip(model, args.method, args.qutip_check, args.qutip_check, args.nsteps)
        print(f"independent check: QuTiP {args.method} rtol = atol = {args.qutip_check:g} "
              f"({tq:.1f} s): max|dU| to the reference = {max_du(q, b):.2e}")


def find_steps(args, ref):
    """Smallest step count in [--steps LO HI] with max|dU| <= --target, by bisection to
    --resolution steps (the error of a fixed-step solver falls monotonically at these steps)."""
    lo, hi = args.steps[0], args.steps[1]
    err = {}
    for s in (lo, hi):
        err[s] = max_du(run_qevolve(args.qevolve, args.solver, s, 1, args.splitting)[0], ref)
    print(f"find: steps {lo} max|dU| {err[lo]:.2e}, steps {hi} max|dU| {err[hi]:.2e}", flush=True)
    if err[lo] <= args.target or err[hi] > args.target:
        raise SystemExit("find: need LO failing and HI meeting the target")
    while hi - lo > args.resolution:
        mid = (lo + hi) // 2
        e = max_du(run_qevolve(args.qevolve, args.solver, mid, 1, args.splitting)[0], ref)
        print(f"find: steps {mid} max|dU| {e:.2e}", flush=True)
        lo, hi = (lo, mid) if e <= args.target else (mid, hi)
    return hi


def cmd_qevolve(args):
    ref = np.load(args.ref)
    if args.find:
        args.steps = [find_steps(args, ref)]
    for steps in args.steps:
        for th in args.threads:
            best_ev, best_wall, err = math.inf, math.inf, None
            for _ in range(args.repeat):
                u, ev, wall = run_qevolve(args.qevolve, args.solver, steps, th, args.splitting)
                best_ev, best_wall = min(best_ev, ev), min(best_wall, wall)
                err = max_du(u, ref)
            tag = "ok" if err <= args.target else "--"
            print(f"qevolve {args.solver}{'/' + args.splitting if args.splitting else ''} "
                  f"steps {steps:6d} threads {th}: max|dU| {err:.2e} {tag}  evolve {best_ev:.3f} s"
                  f"  process {best_wall:.3f} s (best of {args.repeat})", flush=True)


def cmd_qutip(args):
    import qutip

    ref = np.load(args.ref)
    model = Model()
    print(f"qutip {qutip.__version__}, numpy {np.__version__}, {args.method}, {args.dtype}")
    for rtol in args.rtol_list:
        atol = rtol * args.atol_ratio
        best, err = math.inf, None
        for _ in range(args.repeat):
            u, wall = run_qutip(model, args.method, rtol, atol, args.nsteps, args.dtype)
            best, err = min(best, wall), max_du(u, ref)
        tag = "ok" if err <= args.target else "--"
        print(f"qutip {args.method} rtol {rtol:.0e} atol {atol:.0e}: max|dU| {err:.2e} {tag}  "
              f"sesolve {best:.3f} s (best of {args.repeat})", flush=True)


def cmd_smoke(args):
    # The model check on the coupler with a symmetric SQUID: with an asymmetric one qevolve moves
    # its flux gauge (docs/models.md "Flux pulses") and no longer equals this lab-gauge model step
    # for step (it equals it converged in levels); the symmetric case still checks the
    # Hamiltonian, the basis, the flux law and the signs at equal steps.
    model = Model(symmetric=True)
    u_np = model.midpoint(5)
    u_expm, _, _ = run_qevolve(args.qevolve, "expm", 5, 1, symmetric=True)
    d_model = max_du(u_np, u_expm)
    print(f"numpy model vs qevolve, symmetric coupler, expm 5 steps: max|dU| = {d_model:.2e} (limit 1e-9)")
    model = Model()
    dense, t_dense, _ = run_qevolve(args.qevolve, "magnus4", 30, 1, "dense")
    cheb, t_cheb, _ = run_qevolve(args.qevolve, "magnus4", 30, 1, "chebyshev")
    d_split = max_du(cheb, dense)
    print(f"qevolve magnus4 30 steps, chebyshev ({t_cheb:.3f} s) vs dense ({t_dense:.3f} s): "
          f"max|dU| = {d_split:.2e} (limit 1e-8)")
    try:
        import qutip  # noqa: F401
    except ImportError:
        print("skipped: the QuTiP half (qutip is not installed; python3 -m pip install qutip)")
    else:
        q, tq = run_qutip(model, "vern9", 1e-6, 1e-6, args.nsteps)
        print(f"QuTiP vern9 rtol = atol = 1e-6 ({tq:.2f} s) vs qevolve magnus4 dense 30 steps: "
              f"max|dU| = {max_du(q, dense):.2e} (30 steps are far from converged)")
    if not (d_model <= 1e-9 and d_split <= 1e-8):
        raise SystemExit("smoke: FAILED")
    print("smoke: ok")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("part", choices=["model", "reference", "qevolve", "qutip", "smoke"])
    p.add_argument("--qevolve", default=DEFAULT_QEVOLVE, help="the qevolve executable")
    p.add_argument("--ref", default=DEFAULT_REF, help="reference propagator (.npy)")
    p.add_argument("--steps", type=int, nargs="+", default=[50])
    p.add_argument("--threads", type=int, nargs="+", default=[1])
    p.add_argument("--solver", default="magnus4", help="qevolve evolution.solver")
    p.add_argument("--splitting", default=None, help="qevolve evolution.splitting (magnus4)")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--find", action="store_true",
                   help="qevolve: bisect --steps LO HI for the smallest step count meeting --target")
    p.add_argument("--resolution", type=int, default=20, help="--find: bisection resolution")
    p.add_argument("--target", type=float, default=1e-6, help="max|dU| goal")
    p.add_argument("--method", default="vern9", help="QuTiP ODE method")
    p.add_argument("--rtol-list", type=float, nargs="+", default=[1e-8])
    p.add_argument("--atol-ratio", type=float, default=1.0, help="atol = rtol x this")
    p.add_argument("--nsteps", type=int, default=10**7, help="QuTiP's step limit")
    p.add_argument("--dtype", default="csr", choices=["csr", "dense"])
    p.add_argument("--qutip-check", type=float, default=None, metavar="TOL",
                   help="reference: also compare QuTiP at rtol = atol = TOL")
    args = p.parse_args(argv)
    {"model": cmd_model, "reference": cmd_reference, "qevolve": cmd_qevolve,
     "qutip": cmd_qutip, "smoke": cmd_smoke}[args.part](args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
