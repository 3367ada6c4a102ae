#!/usr/bin/env python3
"""Draws the PNG of `qevolve bench accuracy CONFIG --csv FILE --plot FILE.png`.

Usage: plot_accuracy.py ACCURACY.csv OUT.png
Left: max |U - U_ref| on the computational block vs wall time; right: |d(1 - F)| vs wall time;
log-log, one line per solver variant (points are the step ladder).
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
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    variants = []
    for r in rows:
        if r["solver"] not in variants:
            variants.append(r["solver"])
    for ax, key, label in ((axes[0], "max_dU", "max |U - U_ref| (computational block)"),
                           (axes[1], "d_infidelity", "|Δ(1 - F)|")):
        for v in variants:
            sel = [r for r in rows if r["solver"] == v and float(r[key]) > 0]
            ax.loglog([float(r["seconds"]) for r in sel], [float(r[key]) for r in sel], "o-", label=v)
        for tol in (1e-4, 1e-6, 1e-8):
            ax.axhline(tol, ls="--", lw=0.6, color="gray")
        ax.set_xlabel("wall time of the evolution [s]")
        ax.set_ylabel(label)
        ax.grid(True, which="both", lw=0.3)
    axes[0].legend(fontsize=8)
    axes[0].set_title("time to accuracy: unitary")
    axes[1].set_title("time to accuracy: fidelity")
    fig.tight_layout()
    fig.savefig(png_path, dpi=120)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
