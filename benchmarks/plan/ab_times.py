#!/usr/bin/env python3
"""Alternating A/B wall times of the fingerprint set of hash_outputs.py (issue 35, acceptance 2:
no slowdown). Runs the set with binary A, then B, then B, then A, ... for ROUNDS rounds and prints,
per command that takes over 0.3 s, the median wall time of each binary and B/A, and the sum of
the medians. Commands that fail with either binary (an example newer than the older binary) are
left out. Each run writes into /tmp/ab_<label>_<round> (hash_outputs.py's --out).

    python3 benchmarks/plan/ab_times.py OLD_QEVOLVE NEW_QEVOLVE ROUNDS
"""
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def main():
    a, b, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
    times = {a: {}, b: {}}
    for r in range(rounds):
        for label, binary in (("a", a), ("b", b)) if r % 2 == 0 else (("b", b), ("a", a)):
            out = f"/tmp/ab_{label}_{r}"
            # Not check=True: a command one binary cannot run (an example newer than it) fails
            # there and is left out of the comparison below.
            subprocess.run([sys.executable, os.path.join(HERE, "hash_outputs.py"), "--qevolve", binary, "--out", out],
                           capture_output=True, cwd=ROOT)
            for line in open(os.path.join(out, "commands.txt")):
                m = re.match(r"(\S+)\t([\d.]+) s\trc=0\t", line)
                if m:
                    times[binary].setdefault(m.group(1), []).append(float(m.group(2)))
    print(f"{'command':32s} {'A median':>9s} {'B median':>9s} {'B/A':>6s}")
    total_a = total_b = 0.0
    for k in times[a]:
        if k not in times[b]:  # ran (rc = 0) with A only
            continue
        ma, mb = statistics.median(times[a][k]), statistics.median(times[b][k])
        total_a, total_b = total_a + ma, total_b + mb
        if ma > 0.3:
            print(f"{k:32s} {ma:9.3f} {mb:9.3f} {mb / ma:6.3f}")
    print(f"{'total (medians)':32s} {total_a:9.3f} {total_b:9.3f} {total_b / total_a:6.3f}")


if __name__ == "__main__":
    main()
