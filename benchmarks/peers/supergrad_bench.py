"""SuperGrad on the standard qevolve workload (see workload.py).

The Hamiltonian is handed to SuperGrad's own evolution API as local Kronecker terms
(`supergrad.KronObj`), in exactly qevolve's term order: one term per single-mode energy (mode
order), one per coupling (J_C n n + J_L phi phi together, chain order), one per drive. The states
are evolved by `supergrad.time_evolution.sesolve(..., solver='ode_expm')` with
`trotter_order=2` (SuperGrad's Strang splitting over that term list, applied by opt_einsum
contractions at the midpoint Hamiltonian of each step) and `astep = steps + 1` (SuperGrad's
`astep` counts time points: `jnp.linspace(t0, t1, astep)`, so 501 points = 500 steps). All 2^N
computational basis states are evolved at once (sesolve vmaps over the first axis). This is the
same discretisation as qevolve's `trotter`, order 2, `splitting: terms`, 500 steps, so the two
propagators agree to rounding.

The operators come from workload.py; --check additionally diagonalises each fluxonium with
SuperGrad's own `Fluxonium` class (phase basis, 792 points over [-6 pi, 6 pi): SuperGrad wants a
multiple of 12 there) and prints the largest deviation of its energies and kept n / phi matrices
from workload.py's.

Timing: the first call of the jitted evolution includes tracing and XLA compilation ("jit"), the
second call is the run time ("wall"); both are printed.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from workload import (EC, EJ, FLUX, TWO_PI, Workload,  # noqa: E402
                      evolve_trotter2_terms, fluxonium, unitary_error)

DEFAULT_STEPS = 500


def _coefficient(w: Workload, q: int):
    import jax.numpy as jnp

    amp, freq, L, phase = float(w.amp[q]), float(w.freq[q]), w.duration, w.phase

    def f(t, args=None):
        env = amp * 0.5 * (1.0 + jnp.cos(TWO_PI / L * (t - L / 2)))
        val = env * jnp.cos(TWO_PI * freq * t + phase)
        return jnp.where((t >= 0.0) & (t <= L), val, 0.0)

    return f


def build(w: Workload):
    """SuperGrad Hamiltonian list [H_static, [drive_q, f_q], ...] with the 2 pi inside."""
    import jax.numpy as jnp
    from supergrad.quantum_system import KronObj

    dims = w.dims
    static = None
    for modes, mat in w.local_terms():
        term = KronObj([jnp.asarray(TWO_PI * mat)], dims, list(modes))
        static = term if static is None else static + term
    ham = [static]
    for q in range(w.qubits):
        ham.append([KronObj([jnp.asarray(TWO_PI * w.drive_operator(q))], dims, [q]),
                    _coefficient(w, q)])
    return ham


def device_check(levels: int = 3) -> float:
    """Max deviation between SuperGrad's Fluxonium and workload.py's (energies, n, phi)."""
    import haiku as hk
    from supergrad.quantum_system.artificial_atom import Fluxonium

    worst = 0.0
    for el in (0.9, 1.0, 1.1):

        def model():
            fm = Fluxonium(ec=EC, ej=EJ, el=el, constant=True, phiext=TWO_PI * FLUX,
                           num_basis=792, phi_max=6 * math.pi, truncated_dim=levels,
                           basis="phase")
            return fm.eigenenergies(), fm.n_operator(), fm.phi_operator()

        f = hk.without_apply_rng(hk.transform(model))
        e, n, phi = (np.asarray(x) for x in f.apply(f.init(None)))
        mine = fluxonium(EC, EJ, el, FLUX, levels)
        dev = max(np.max(np.abs(e - mine.energies)), np.max(np.abs(n - mine.n)),
                  np.max(np.abs(phi - mine.phi)))
        print(f"  SuperGrad Fluxonium EL={el}: f01 {e[1] - e[0]:.9f} GHz, |phi01| "
              f"{abs(phi[0, 1]):.9f}; max deviation from workload.py {dev:.2e}")
        worst = max(worst, float(dev))
    return worst


def run(qubits: int, steps: int = DEFAULT_STEPS, trotter_order: int = 2,
        diag_ops: bool = False, check: bool = False, repeat: int = 1) -> dict:
    """Run time = best of `repeat` calls after the first (compiling) call."""
    import jax
    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp
    import supergrad
    from supergrad.time_evolution import sesolve

    w = Workload(qubits, steps)
    ham = build(w)
    tlist = jnp.array([0.0, w.total_time])
    psi0 = jnp.eye(w.dim, dtype=jnp.complex128)[:, :, None]  # [state, D, 1]

    def evolve(psi):
        options = {"astep": steps + 1, "trotter_order": trotter_order}
        if diag_ops:
            options["diag_ops"] = True
        res = sesolve(ham, psi, tlist, options=options, solver="ode_expm")
        return res[:, -1, :, 0].T  # column j = evolved basis state j

    f = jax.jit(evolve)
    t0 = time.perf_counter()
    jax.block_until_ready(f(psi0))
    first = time.perf_counter() - t0
    wall = math.inf
    for _ in range(max(1, repeat)):
        t0 = time.perf_counter()
        u = np.asarray(jax.block_until_ready(f(psi0)))
        wall = min(wall, time.perf_counter() - t0)
    out = {"peer": "supergrad", "qubits": qubits, "wall_s": wall, "jit_s": first - wall,
           "first_call_s": first, "infidelity": w.infidelity(u), "steps": steps,
           "trotter_order": trotter_order, "diag_ops": diag_ops,
           "supergrad_version": supergrad.__version__, "jax_version": jax.__version__}
    out["unitary"] = u
    if check:
        ref = evolve_trotter2_terms(w, steps) if trotter_order == 2 else None
        if ref is not None:
            out["max_dU_vs_numpy_trotter2"] = unitary_error(u, ref)
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description="SuperGrad on the standard qevolve workload")
    p.add_argument("--qubits", type=int, nargs="+", default=[2, 3, 4])
    p.add_argument("--steps", type=int, default=DEFAULT_STEPS)
    p.add_argument("--trotter-order", type=int, default=2, choices=[1, 2, 4])
    p.add_argument("--diag-ops", action="store_true",
                   help="SuperGrad's diag_ops option (exponentiate via pre-diagonalised terms)")
    p.add_argument("--repeat", type=int, default=1,
                   help="run time = best of this many calls after the compiling one")
    p.add_argument("--smoke", action="store_true",
                   help="CI smoke run (tests/benchmarks): N = 2, cheap settings; when supergrad is not "
                        "installed, builds the numpy workload, says so and exits 77 (skipped)")
    p.add_argument("--save-unitary", metavar="PREFIX",
                   help="write each propagator to PREFIX<N>.npy (compare.py uses it)")
    p.add_argument("--check", action="store_true",
                   help="cross-check SuperGrad's Fluxonium class and the numpy Strang splitting")
    args = p.parse_args(argv)
    if args.smoke:
        args.qubits, args.steps = [2], 50
    try:
        import supergrad  # noqa: F401
    except ImportError:
        print("supergrad is not installed (python3 -m pip install supergrad)", file=sys.stderr)
        if args.smoke:
            w = Workload(2)
            print(f"skipped: supergrad is not installed; the numpy workload builds (N = 2, D = {w.dim}, "
                  f"f01 {w.freq[0]:.6f} / {w.freq[1]:.6f} GHz)")
            return 77
        return 1
    if args.check:
        device_check()
    for n in args.qubits:
        r = run(n, args.steps, args.trotter_order, args.diag_ops, args.check, args.repeat)
        extra = ""
        if "max_dU_vs_numpy_trotter2" in r:
            extra = f"  max|dU| vs numpy Strang {r['max_dU_vs_numpy_trotter2']:.2e}"
        print(f"supergrad N={n} wall {r['wall_s']:.3f} s (jit {r['jit_s']:.3f} s)  "
              f"1-F {r['infidelity']:.10e}{extra}", flush=True)
        if args.save_unitary:
            np.save(f"{args.save_unitary}{n}.npy", r["unitary"])
        print("RESULT " + json.dumps({k: v for k, v in r.items() if k != "unitary"}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
