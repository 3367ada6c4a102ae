#!/usr/bin/env python3
"""Draws the PNG of `qevolve bench scaling --csv FILE --plot FILE.png`.

Usage: plot_scaling.py SCALING.csv OUT.png
Left: wall time vs number of qubits (log scale); middle: achieved GFLOP/s and the zgemm peak;
right (when the table has a 1-rank, 1-thread row and another rank or thread count): speedup
over the 1-rank, 1-thread run of the same N, with the parallel efficiency (speedup / (ranks x
threads)) printed at each point. One line per (ranks, threads).
"""
import csv
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402


def main(csv_path, png_path):
    rows = list(csv.DictReader(open(csv_path)))
    if not rows:
        sys.exit(f"{csv_path}: no rows")
    configs = sorted({(int(r.get("ranks", 1)), int(r["threads"])) for r in rows})
    # The speedup panel needs a 1-rank, 1-thread row and another (ranks, threads) beside it.
    has_speedup = len(configs) > 1 and any(
        "speedup" in r and not math.isnan(float(r["speedup"])) for r in rows)
    if has_speedup:
        fig, (ax_t, ax_f, ax_s) = plt.subplots(1, 3, figsize=(15, 4.2))
    else:
        fig, (ax_t, ax_f) = plt.subplots(1, 2, figsize=(10, 4.2))
        ax_s = None
    for ranks, threads in configs:
        sel = [r for r in rows if int(r.get("ranks", 1)) == ranks and int(r["threads"]) == threads]
        label = f"{ranks} rank(s) x {threads} thread(s)"
        n = [int(r["qubits"]) for r in sel]
        ax_t.semilogy(n, [float(r["seconds"]) for r in sel], "o-", label=label)
        ax_f.plot(n, [float(r["gflops"]) for r in sel], "o-", label=label)
        ax_f.axhline(float(sel[0]["zgemm_peak_gflops"]), ls="--", lw=0.8, color="gray")
        pts = [(q, float(r["speedup"]), float(r["efficiency"])) for q, r in zip(n, sel)
               if "speedup" in r and not math.isnan(float(r["speedup"]))]
        if pts and ax_s is not None:
            ax_s.plot([p[0] for p in pts], [p[1] for p in pts], "o-", label=label)
            for q, s, e in pts:
                ax_s.annotate(f"{e:.2f}", (q, s), textcoords="offset points", xytext=(0, 5), fontsize=7,
                              ha="center")
    ax_t.set_xlabel("qubits N (D = 2^N, 2^N columns)")
    ax_t.set_ylabel("wall time [s]")
    ax_t.set_title("standard workload: time")
    ax_f.set_xlabel("qubits N")
    ax_f.set_ylabel("GFLOP/s (dashed: zgemm peak of one process)")
    ax_f.set_title("achieved floating-point rate")
    if ax_s is not None:
        ax_s.set_xlabel("qubits N")
        ax_s.set_ylabel("speedup vs 1 rank x 1 thread (labels: efficiency)")
        ax_s.set_title("strong scaling")
    for ax in (ax_t, ax_f, ax_s):
        if ax is None:
            continue
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(png_path, dpi=110)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
