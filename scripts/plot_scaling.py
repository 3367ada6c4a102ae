#!/usr/bin/env python3
"""Draws the PNG of `qevolve bench scaling --csv FILE --plot FILE.png`.

Usage: plot_scaling.py SCALING.csv OUT.png
Left: wall time vs number of qubits (log scale); right: achieved GFLOP/s and the zgemm peak,
one line per thread count.
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(csv_path, png_path):
    rows = list(csv.DictReader(open(csv_path)))
    if not rows:
        sys.exit(f"{csv_path}: no rows")
    fig, (ax_t, ax_f) = plt.subplots(1, 2, figsize=(11, 4.2))
    for threads in sorted({int(r["threads"]) for r in rows}):
        sel = [r for r in rows if int(r["threads"]) == threads]
        n = [int(r["qubits"]) for r in sel]
        ax_t.semilogy(n, [float(r["seconds"]) for r in sel], "o-", label=f"{threads} thread(s)")
        ax_f.plot(n, [float(r["gflops"]) for r in sel], "o-", label=f"{threads} thread(s)")
        ax_f.axhline(float(sel[0]["zgemm_peak_gflops"]), ls="--", lw=0.8, color="gray")
    ax_t.set_xlabel("qubits N (D = 2^N, 2^N columns)")
    ax_t.set_ylabel("wall time [s]")
    ax_t.set_title("standard workload: time")
    ax_f.set_xlabel("qubits N")
    ax_f.set_ylabel("GFLOP/s (dashed: zgemm peak)")
    ax_f.set_title("achieved floating-point rate")
    for ax in (ax_t, ax_f):
        ax.grid(True, alpha=0.3)
        ax.legend()
    fig.tight_layout()
    fig.savefig(png_path, dpi=110)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
