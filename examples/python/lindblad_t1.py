"""Gate error of the open-system fluxonium X gate against T1: a Lindblad sweep.

    python3 examples/python/lindblad_t1.py [OUT.png]

examples/fluxonium_x_lindblad.yaml with evolution.noise.q0.t1 swept (Tphi kept at 30 us): each
point is a channel (`/superoperator`) and its average gate fidelity. For T1 >> the 50 ns gate
the error is a + b / T1 (a: dephasing and the coherent error, b: the T1 decay during the gate);
the plot shows the least-squares fit of that form next to the points. Amplitude damping during
a gate of length T costs T / (3 T1) of average gate fidelity to first order, so b is close to
50 / 3 ns (and a to T / (3 Tphi) = 5.6e-4 plus the small coherent error).
"""
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

import qevolve

here = pathlib.Path(__file__).resolve().parent
sim = qevolve.load(here.parent / "fluxonium_x_lindblad.yaml")
t1 = np.array([5e3, 1e4, 2e4, 5e4, 1e5, 2e5])  # ns
s = sim.sweep({"evolution.noise.q0.t1": t1})
error = 1 - s.fidelity
for t, e, leak in zip(t1, error, s.leakage):
    print(f"T1 = {t / 1e3:6.1f} us: 1 - F = {e:.4e}, leakage {leak:.2e}")
b, a = np.polyfit(1 / t1, error, 1)
print(f"fit: 1 - F = {a:.3e} + {b:.4g} ns / T1")
fig, ax = plt.subplots(figsize=(5, 4))
ax.loglog(t1 / 1e3, error, "o-", label="qevolve (Lindblad)")
ax.loglog(t1 / 1e3, a + b / t1, "--", label=f"{a:.2e} + {b:.3g} ns / T1")
ax.set_xlabel("T1 (us)")
ax.set_ylabel("1 - F")
ax.legend()
out = sys.argv[1] if len(sys.argv) > 1 else "lindblad_t1.png"
fig.savefig(out, dpi=100, bbox_inches="tight")
print(f"wrote {out}")
