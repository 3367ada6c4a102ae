"""What a control line (docs/config.md `lines`) adds to the cost of a run: the CZ of
examples/cz_transmon_coupler.yaml, its flux pulse delayed by 5 ns (T = 55 ns), at the example's
converged discretisation (magnus4, splitting chebyshev, 1700 steps), one thread:

    A  no line
    B  the line  sample_rate 2.4, {gaussian, sigma 0.5}, {highpass, tau 1000}
    C  B with predistort: true

    python3 benchmarks/lines/line_cost.py [--qevolve BUILD/bin/qevolve] [--rounds 5] [--steps 1700] [--smoke]

Runs A, B, C one after the other for --rounds rounds (the order rotated each round, so drift of
the machine's load falls on all three alike) and prints, per config, the medians of the `build`,
`evolve` and `total` wall times of the CLI's summary line (`wall time: build ... | total ...`)
and the ratios B/A, C/A of the medians. The time estimate's cache lives in a private
XDG_CACHE_HOME, primed by one discarded run of each config: otherwise the first run of each kind
of work may pay for the estimate's probe, which `total` includes (docs/cli.md "Time estimate").
Exit 1 when a run fails or its summary lacks the wall-time line.
--smoke (CI, tests/benchmarks): 1 round of 50 steps, checked for the format only (timings of a
loaded CI machine prove nothing).
"""
import argparse
import copy
import json
import os
import pathlib
import re
import statistics
import subprocess
import sys
import tempfile

import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "cz_transmon_coupler.yaml"
CHAIN = {"sample_rate": 2.4, "filters": [{"type": "gaussian", "sigma": 0.5}, {"type": "highpass", "tau": 1000.0}]}
WALL = re.compile(r"^wall time: build ([0-9.]+) s \| evolve ([0-9.]+) s .*\| total ([0-9.]+) s", re.M)
FIDELITY = re.compile(r"^fidelity: F = \S+(?: \S+ \S+ \(steps\))? \(1 - F = (\S+)\)", re.M)
PHASES = ("build", "evolve", "total")


def configs():
    """{name: config} of A, B, C."""
    with open(EXAMPLE) as fh:
        base = yaml.safe_load(fh)
    pulse = dict(base["pulses"][0], delay=5)
    out = {}
    for name, line in (("A", None), ("B", CHAIN), ("C", dict(CHAIN, predistort=True))):
        cfg = copy.deepcopy(base)
        cfg["pulses"] = [dict(pulse, line="zline") if line else pulse]
        if line:
            cfg["lines"] = [dict(name="zline", **copy.deepcopy(line))]
        out[name] = cfg
    return out


def run(exe, cfg, steps, env, tmp):
    """{build, evolve, total, infidelity} of one `qevolve run` (summary line of stdout)."""
    p = subprocess.run([exe, "run", cfg, "--set", "evolution.solver=magnus4", "--set", "evolution.splitting=chebyshev",
                        "--steps", str(steps), "--threads", "1", "-o", str(tmp / "out.h5"), "--force"],
                       capture_output=True, text=True, env=env)
    wall = WALL.search(p.stdout)
    if p.returncode != 0 or not wall:
        raise SystemExit(f"qevolve run {cfg}: exit {p.returncode}, no wall-time line\n{p.stdout}\n{p.stderr}")
    fid = FIDELITY.search(p.stdout)
    return dict(zip(PHASES, map(float, wall.groups())), infidelity=float(fid.group(1)) if fid else float("nan"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--qevolve", default=str(ROOT / "build" / "release" / "bin" / "qevolve"))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--steps", type=int, default=1700)
    ap.add_argument("--smoke", action="store_true")
    a = ap.parse_args()
    if a.smoke:
        a.rounds, a.steps = 1, 50
    print(f"machine: {os.cpu_count()} cores, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"1 thread, {a.steps} steps, {a.rounds} round(s)")
    with tempfile.TemporaryDirectory(prefix="line_cost_") as tmp:
        tmp = pathlib.Path(tmp)
        env = dict(os.environ, XDG_CACHE_HOME=str(tmp / "cache"), OMP_NUM_THREADS="1")
        paths = {}
        for name, cfg in configs().items():
            paths[name] = tmp / f"{name}.yaml"
            paths[name].write_text(json.dumps(cfg))
            run(a.qevolve, paths[name], a.steps, env, tmp)  # primes the time estimate's cache
        names = list(paths)
        times = {n: [] for n in names}
        for r in range(a.rounds):
            for name in names[r % 3:] + names[:r % 3]:
                times[name].append(run(a.qevolve, paths[name], a.steps, env, tmp))
    med = {n: {k: statistics.median(x[k] for x in times[n]) for k in PHASES} for n in names}
    print(f"{'config':8s} {'1 - F':>11s} {'build [s]':>10s} {'evolve [s]':>11s} {'total [s]':>10s} "
          f"{'total/A':>8s} {'build/A':>8s}   (medians)")
    for n in names:
        m = med[n]
        print(f"{n:8s} {times[n][0]['infidelity']:11.4e} {m['build']:10.4f} {m['evolve']:11.4f} {m['total']:10.4f} "
              f"{m['total'] / med['A']['total']:8.3f} {m['build'] / max(med['A']['build'], 1e-3):8.2f}")
    print("(build/A: the build of A is a few ms, printed to 1 ms; floored at 1 ms)")
    for n in names:
        print(f"{n} every run, build/evolve/total [s]: " + "  ".join(
            "/".join(f"{x[k]:.3f}" for k in PHASES) for x in times[n]))
    sys.exit(0)


if __name__ == "__main__":
    main()
