"""QuTiP on the standard qevolve workload (see workload.py): the full 2^N x 2^N propagator by
`qutip.sesolve` with the identity operator as initial state (QuTiP integrates dU/dt = -i 2 pi H(t) U
with all 2^N columns at once), adaptive ODE integrator, tolerances from the command line.

Prints one line per N:  qutip N=<N> wall <s> s  1-F <value>  (plus a RESULT {json} line for
compare.py). --check also prints max |U - U_ref| and |d(1-F)| against the magnus4 reference of
workload.py (dense numpy, small N only).

Defaults (method vern9, rtol 1e-8, atol 1e-10, CSR operators): 1-F agrees with the converged
reference to ~2e-7 and max |U - U_ref| is ~5e-7 for N = 2..5; QuTiP's default `adams` needs far
tighter tolerances for the same accuracy and is slower (README.md, "Choosing QuTiP's settings").
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
from workload import TWO_PI, Workload, evolve_magnus4, unitary_error  # noqa: E402

DEFAULT_RTOL = 1e-8
DEFAULT_ATOL = 1e-10
DEFAULT_METHOD = "vern9"


def _coefficient(w: Workload, q: int):
    """f_q(t) as a plain Python function (QuTiP calls it once per right-hand side evaluation)."""
    amp, freq, L, phase = float(w.amp[q]), float(w.freq[q]), w.duration, w.phase
    cos, two_pi = math.cos, TWO_PI

    def f(t):
        if t < 0.0 or t > L:
            return 0.0
        return amp * 0.5 * (1.0 + cos(two_pi / L * (t - L / 2))) * cos(two_pi * freq * t + phase)

    return f


def build(w: Workload, dtype: str):
    """The QobjEvo 2 pi [H0 + sum_q f_q(t) phi_q] and the identity initial operator."""
    import qutip

    dims = [w.dims, w.dims]
    h0 = qutip.Qobj(TWO_PI * w.h0(), dims=dims).to(dtype)
    terms = [h0]
    for q, op in enumerate(w.drive_operators()):
        terms.append([qutip.Qobj(TWO_PI * op, dims=dims).to(dtype),
                      qutip.coefficient(_coefficient(w, q))])
    h = qutip.QobjEvo(terms)
    u0 = qutip.qeye(w.dims).to(dtype)
    return h, u0


def run(qubits: int, rtol: float = DEFAULT_RTOL, atol: float = DEFAULT_ATOL,
        method: str = DEFAULT_METHOD, dtype: str = "csr", check: bool = False,
        repeat: int = 1) -> dict:
    """Best wall time of `repeat` runs; runs after the first only while each takes < 10 s
    (longer runs vary little relative to their length, and the machine is shared)."""
    import qutip

    w = Workload(qubits)
    h, u0 = build(w, dtype)
    options = {"method": method, "rtol": rtol, "atol": atol, "nsteps": 10**8,
               "store_final_state": True, "store_states": False, "normalize_output": False,
               "progress_bar": ""}
    wall = math.inf
    for i in range(max(1, repeat)):
        if i > 0 and wall >= 10.0:
            break
        t0 = time.perf_counter()
        result = qutip.sesolve(h, u0, [0.0, w.total_time], options=options)
        wall = min(wall, time.perf_counter() - t0)
    u = result.final_state.full()
    out = {"peer": "qutip", "qubits": qubits, "wall_s": wall, "infidelity": w.infidelity(u),
           "rtol": rtol, "atol": atol, "method": method, "dtype": dtype,
           "qutip_version": qutip.__version__}
    out["unitary"] = u
    if check:
        ref = evolve_magnus4(w, 2000)
        out["max_dU"] = unitary_error(u, ref)
        out["d_infidelity"] = abs(out["infidelity"] - w.infidelity(ref))
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description="QuTiP on the standard qevolve workload")
    p.add_argument("--qubits", type=int, nargs="+", default=[2, 3, 4])
    p.add_argument("--rtol", type=float, default=DEFAULT_RTOL)
    p.add_argument("--atol", type=float, default=DEFAULT_ATOL)
    p.add_argument("--method", default=DEFAULT_METHOD,
                   help="QuTiP ODE method: adams, bdf, lsoda, dop853, vern7, vern9")
    p.add_argument("--dtype", default="csr", choices=["csr", "dense", "dia"],
                   help="QuTiP data layer of H and U")
    p.add_argument("--repeat", type=int, default=1,
                   help="best of this many runs (only runs shorter than 10 s are repeated)")
    p.add_argument("--smoke", action="store_true",
                   help="CI smoke run (tests/benchmarks): N = 2, cheap settings; when qutip is not "
                        "installed, builds the numpy workload, says so and exits 77 (skipped)")
    p.add_argument("--save-unitary", metavar="PREFIX",
                   help="write each propagator to PREFIX<N>.npy (compare.py uses it)")
    p.add_argument("--check", action="store_true",
                   help="compare with the magnus4 reference of workload.py (small N)")
    args = p.parse_args(argv)
    if args.smoke:
        args.qubits, args.rtol, args.atol = [2], 1e-6, 1e-8
    try:
        import qutip  # noqa: F401
    except ImportError:
        print("qutip is not installed (python3 -m pip install qutip)", file=sys.stderr)
        if args.smoke:
            w = Workload(2)
            print(f"skipped: qutip is not installed; the numpy workload builds (N = 2, D = {w.dim}, "
                  f"f01 {w.freq[0]:.6f} / {w.freq[1]:.6f} GHz)")
            return 77
        return 1
    for n in args.qubits:
        r = run(n, args.rtol, args.atol, args.method, args.dtype, args.check, args.repeat)
        extra = ""
        if args.check:
            extra = f"  max|dU| {r['max_dU']:.2e}  |d(1-F)| {r['d_infidelity']:.2e}"
        print(f"qutip N={n} wall {r['wall_s']:.3f} s  1-F {r['infidelity']:.10e}{extra}", flush=True)
        if args.save_unitary:
            np.save(f"{args.save_unitary}{n}.npy", r["unitary"])
        print("RESULT " + json.dumps({k: v for k, v in r.items() if k != "unitary"}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
