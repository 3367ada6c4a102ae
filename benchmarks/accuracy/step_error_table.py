#!/usr/bin/env python3
"""Is the step-error estimate safe and sharp? (docs/accuracy.md, docs/performance.md)

For every case (each shipped example with a fidelity, and solver variants on two of them) the
run at its own steps N prints F and its estimate E = fidelity_error_steps; the "true" error is
|F(N) - F(k N)| with k = 16 (order 2) or 8 (order 4), whose own error is 1/256 resp. 1/4096 of
the tested one. Safe: true <= 2 E; sharp: E <= 10 true, or E <= 1e-12. Every case obeys the
step-size rule (at most 0.5 rad per step; docs/accuracy.md "Limits").

    python3 benchmarks/accuracy/step_error_table.py [--qevolve build/release/bin/qevolve]
        [--only NAME] [--smoke]

--smoke runs two small cases at low steps (the CI smoke test); exit 1 when a case fails.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import h5py

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EX = os.path.join(ROOT, "examples")

# (name, config, overrides, steps); steps None: the config's own.
EXAMPLES = [
    ("cnot_cr_pair", "cnot_cr_pair.yaml", [], None),
    ("cz_fluxonium_flux", "cz_fluxonium_flux.yaml", [], None),
    ("cz_transmon_coupler", "cz_transmon_coupler.yaml", [], None),
    ("cz_with_line", "cz_with_line.yaml", [], None),
    ("fluxonium_pair_chevron", "fluxonium_pair_chevron.yaml", [], None),
    ("fluxonium_x", "fluxonium_x.yaml", [], None),
    ("fluxonium_x as it stood (expm)", "fluxonium_x.yaml", ["evolution.solver=expm"], 1279),
    ("fluxonium_x_lindblad", "fluxonium_x_lindblad.yaml", [], None),
    ("fluxonium_x_optimize", "fluxonium_x_optimize.yaml", [], None),
    ("iswap_parametric", "iswap_parametric.yaml", [], None),
    ("mpc_chain_4q_x", "mpc_chain_4q_x.yaml", [], None),
]
X = "fluxonium_x.yaml"
CHAIN = "mpc_chain_4q_x.yaml"
VARIANTS = [
    ("x trotter2 terms", X, ["evolution.solver=trotter", "evolution.order=2", "evolution.splitting=terms"], 1000),
    ("x trotter4 terms", X, ["evolution.solver=trotter", "evolution.order=4", "evolution.splitting=terms"], 1000),
    ("x magnus4 terms", X, ["evolution.solver=magnus4", "evolution.splitting=terms"], 400),
    ("x magnus4 dense", X, ["evolution.solver=magnus4", "evolution.splitting=dense"], 400),
    ("x magnus4 chebyshev", X, ["evolution.solver=magnus4", "evolution.splitting=chebyshev"], 400),
    ("x expm 2000", X, ["evolution.solver=expm"], 2000),
    ("chain trotter2 bonds", CHAIN, ["evolution.splitting=bonds"], 600),
    ("chain magnus4 bonds", CHAIN, ["evolution.solver=magnus4", "evolution.order=4", "evolution.splitting=bonds"], 600),
    ("chain trotter4 terms", CHAIN, ["evolution.order=4"], 600),
    ("lindblad trotter2", "fluxonium_x_lindblad.yaml", ["evolution.order=2"], 400),
    ("lindblad trotter4", "fluxonium_x_lindblad.yaml", ["evolution.order=4"], 400),
    ("lindblad trotter1", "fluxonium_x_lindblad.yaml", ["evolution.order=1"], 800),
]
SMOKE = [
    ("x expm 400", X, ["evolution.solver=expm"], 400),
    ("lindblad trotter2", "fluxonium_x_lindblad.yaml", ["evolution.order=2"], 400),
]


def run(qevolve, config, sets, steps, estimate=True):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.h5")
        cmd = [qevolve, "run", os.path.join(EX, config), "-o", out, "--quiet", "--threads", "1"]
        for s in sets + (["evolution.error_estimate=false"] if not estimate else []):
            cmd += ["--set", s]
        if steps:
            cmd += ["--steps", str(steps)]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with h5py.File(out) as f:
            a = f.attrs
            return (float(a["fidelity"]), float(a.get("fidelity_error_steps", float("nan"))),
                    int(a.get("fidelity_error_steps_order", 0)), int(a["steps"]))


def check(qevolve, case):
    name, config, sets, steps = case
    F, E, order, N = run(qevolve, config, sets, steps)
    k = 16 if order <= 2 else 8
    F_ref = run(qevolve, config, sets, k * N, estimate=False)[0]
    true = abs(F - F_ref)
    safe = true <= 2 * E
    sharp = E <= 10 * true or E <= 1e-12
    return name, N, order, 1 - F, E, true, safe, sharp


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--qevolve", default=os.path.join(ROOT, "build", "release", "bin", "qevolve"))
    ap.add_argument("--only")
    ap.add_argument("--smoke", action="store_true")
    args = ap.parse_args()
    cases = SMOKE if args.smoke else EXAMPLES + VARIANTS
    if args.only:
        cases = [c for c in cases if re.search(args.only, c[0])]
    print("| case | steps | order | 1 - F | estimate E | true error | E / true | safe | sharp |")
    print("|---|---|---|---|---|---|---|---|---|")
    ok = True
    for c in cases:
        name, N, order, inf, E, true, safe, sharp = check(args.qevolve, c)
        ratio = E / true if true > 0 else float("inf")
        print(f"| {name} | {N} | {order} | {inf:.4e} | {E:.2e} | {true:.2e} | {ratio:.2f} | "
              f"{'yes' if safe else 'NO'} | {'yes' if sharp else 'NO'} |", flush=True)
        ok = ok and safe and sharp
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
