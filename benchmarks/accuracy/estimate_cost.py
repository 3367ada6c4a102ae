#!/usr/bin/env python3
"""What the step-error estimate costs (docs/accuracy.md "Cost", docs/performance.md "Step-error
estimate"): the same run with `evolution.error_estimate` off (A) and on (B), alternating, on the
standard workload N = 8 (500 steps), the Lindblad example and the chebyshev CZ through a line;
the engine's time (the summary's evolve + fidelity + step error + gradient) and the whole process.

    python3 benchmarks/accuracy/estimate_cost.py [--qevolve BUILD/bin/qevolve] [--rounds 5] [--smoke]
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "benchmarks", "python"))
from standard_workload import workload_yaml  # noqa: E402

WALL = re.compile(r"^wall time: build ([0-9.]+) s \| evolve ([0-9.]+) s \| fidelity ([0-9.]+) s(.*)\| total ([0-9.]+) s",
                  re.M)


def engine_seconds(out):
    m = WALL.search(out)
    rest = m.group(4)
    extra = sum(float(x) for x in re.findall(r"(?:gradient|step error) ([0-9.]+) s", rest))
    return float(m.group(2)) + float(m.group(3)) + extra


def once(exe, cfg, on, sets):
    cmd = [exe, "run", cfg, "--threads", "1", "--set", f"evolution.error_estimate={'true' if on else 'false'}"]
    for s in sets:
        cmd += ["--set", s]
    t0 = time.perf_counter()
    p = subprocess.run(cmd, check=True, capture_output=True, text=True)
    return engine_seconds(p.stdout), time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--qevolve", default=os.path.join(ROOT, "build", "release", "bin", "qevolve"))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--smoke", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        n8 = os.path.join(tmp, "n8.yaml")
        with open(n8, "w") as f:
            f.write(workload_yaml(4 if args.smoke else 8, 100 if args.smoke else 500))
        cases = [("standard workload N = 4, 100 steps (smoke)" if args.smoke else "standard workload N = 8, 500 steps",
                  n8, [])]
        if not args.smoke:
            cases += [("fluxonium_x_lindblad (2000 steps, with its gradient)",
                       os.path.join(ROOT, "examples", "fluxonium_x_lindblad.yaml"), []),
                      ("cz_with_line (magnus4 + chebyshev, 1700 steps)",
                       os.path.join(ROOT, "examples", "cz_with_line.yaml"), [])]
        rounds = 1 if args.smoke else args.rounds
        print("| workload | engine A (off) | engine B (on) | B / A | process B / A |")
        print("|---|---|---|---|---|")
        for name, cfg, sets in cases:
            a, b, pa, pb = [], [], [], []
            for _ in range(rounds):
                ea, wa = once(args.qevolve, cfg, False, sets)
                eb, wb = once(args.qevolve, cfg, True, sets)
                a.append(ea); b.append(eb); pa.append(wa); pb.append(wb)
            ma, mb = statistics.median(a), statistics.median(b)
            ratio = mb / ma if ma > 0 else float("nan")  # the summary prints ms: a tiny run can read 0
            print(f"| {name} | {ma:.3f} s | {mb:.3f} s | {ratio:.2f} | "
                  f"{statistics.median(pb) / statistics.median(pa):.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
