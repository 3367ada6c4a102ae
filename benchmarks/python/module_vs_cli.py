"""docs/performance.md "Python": the installed module against the CLI of the same build.

    python3 benchmarks/python/module_vs_cli.py [--qevolve BUILD/bin/qevolve] [--qubits 8] [--rounds 5] [--smoke]

(1) Time: the standard workload (docs/presets.md "The standard workload": an N-qubit
    mpc_fluxonium_1d chain, 2 levels, simultaneous X by cos pulses, trotter order 2, 500 steps),
    written as a config file, on one thread: the whole CLI process `qevolve run CFG --threads 1
    --quiet` against, in this Python process, `qevolve.load(CFG, threads=1).run()` (load and
    run: what a script pays after its imports). Alternating rounds; medians and their ratio.
(2) Bitwise: for the standard workload and every example the CLI can run, F, the uncompensated
    F, the leakage, /unitary (or /superoperator) and /gradient of `qevolve run -o` against the
    module's Result, compared with == (no tolerance).
The module is the `qevolve` that python3 imports (scripts/install.sh installs the one the CLI's
build made); which file that is, is printed. --smoke: N = 4, one round, the bitwise check on two
examples (CI: tests/benchmarks).
"""
import argparse
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

import h5py
import numpy as np

import qevolve
from standard_workload import workload_yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]


def cli_seconds(exe, cfg):
    t0 = time.perf_counter()
    subprocess.run([exe, "run", cfg, "--threads", "1", "--quiet"], check=True)
    return time.perf_counter() - t0


def module_seconds(cfg):
    t0 = time.perf_counter()
    qevolve.load(cfg, threads=1).run()
    return time.perf_counter() - t0


def bitwise(exe, cfg, tmp):
    """The CLI's file against the module's Result, exactly. None: not a run config."""
    out = os.path.join(tmp, "cli.h5")
    p = subprocess.run([exe, "run", cfg, "--threads", "1", "--quiet", "--force", "-o", out],
                       capture_output=True, text=True)
    if p.returncode == 2:
        return None
    p.check_returncode()
    r = qevolve.load(cfg, threads=1).run()
    bad = []
    with h5py.File(out) as f:
        for attr, ours in (("fidelity", r.fidelity), ("fidelity_uncompensated", r.uncompensated_fidelity),
                           ("leakage", r.leakage)):
            if attr in f.attrs and float(f.attrs[attr]) != ours:
                bad.append(attr)
        for key, ours in (("unitary", r.unitary), ("superoperator", r.superoperator), ("propagator", r.propagator)):
            if key in f and not np.array_equal(f[key][()], ours):
                bad.append(key)
        if "gradient" in f and not np.array_equal(f["gradient"][()], np.array(list(r.gradient.values()))):
            bad.append("gradient")
    return bad


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--qevolve", default=str(ROOT / "build" / "release" / "bin" / "qevolve"))
    p.add_argument("--qubits", type=int, default=8)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--smoke", action="store_true")
    a = p.parse_args()
    n, rounds = (4, 1) if a.smoke else (a.qubits, a.rounds)
    print(f"module: {qevolve.__file__} (qevolve {qevolve.__version__}); CLI: {a.qevolve}")
    print(f"machine: {os.cpu_count()} cores, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    failures = 0
    with tempfile.TemporaryDirectory(prefix="module_vs_cli_") as tmp:
        cfg = os.path.join(tmp, f"standard_{n}.yaml")
        pathlib.Path(cfg).write_text(workload_yaml(n))
        module_seconds(cfg)  # the first call pays for the module's lazy imports: not counted
        cli, mod = [], []
        for _ in range(rounds):  # alternating: both see the same load
            cli.append(cli_seconds(a.qevolve, cfg))
            mod.append(module_seconds(cfg))
        c, m = statistics.median(cli), statistics.median(mod)
        print(f"(1) standard workload N = {n}, 500 steps, 1 thread, {rounds} alternating rounds: "
              f"CLI process median {c:.3f} s ({', '.join(f'{x:.3f}' for x in cli)}); "
              f"Python load+run median {m:.3f} s ({', '.join(f'{x:.3f}' for x in mod)}); ratio {m / c:.3f}")
        configs = [cfg] + sorted(str(x) for x in (ROOT / "examples").glob("*.yaml"))
        if a.smoke:
            configs = configs[:1] + [str(ROOT / "examples" / "fluxonium_x_optimize.yaml")]
        for path in configs:
            bad = bitwise(a.qevolve, path, tmp)
            name = pathlib.Path(path).name
            if bad is None:
                print(f"(2) {name}: not a run config (the CLI refuses it too)")
            elif bad:
                failures += 1
                print(f"(2) {name}: DIFFERENT: {', '.join(bad)}")
            else:
                print(f"(2) {name}: F, leakage, unitary/channel, gradient bitwise equal")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
