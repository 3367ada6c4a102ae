"""A chevron of the fluxonium X gate: the population moved 0 -> 1 over pulse amplitude x frequency.

    python3 examples/python/chevron.py [OUT.png]

One `Simulation.sweep` call (`qevolve sweep` with the same axes: cached simulator, only the
pulse changes between points), drawn with matplotlib.
"""
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

import qevolve

here = pathlib.Path(__file__).resolve().parent
sim = qevolve.load(here.parent / "fluxonium_x.yaml")
amp, freq = 0.0823684365012486, 0.5823664862818624  # pulses[0] of the file
amplitudes = np.linspace(0.8 * amp, 1.2 * amp, 15)
frequencies = np.linspace(freq - 0.02, freq + 0.02, 15)
s = sim.sweep({"pulses[0].amplitude": amplitudes, "pulses[0].frequency": frequencies})

i, j = np.unravel_index(np.argmax(s.fidelity), s.shape)
print(f"best: 1 - F = {1 - s.fidelity[i, j]:.3e} at amplitude {amplitudes[i]:.6f} GHz, "
      f"frequency {frequencies[j]:.6f} GHz")
fig, ax = plt.subplots(figsize=(5, 4))
# populations[a, f, out, in] = |U(out, in)|^2 on the computational states 0, 1
mesh = ax.pcolormesh(frequencies, amplitudes, s.populations[:, :, 1, 0], shading="auto", vmin=0, vmax=1)
fig.colorbar(mesh, label="P(1 | 0)")
ax.set_xlabel("pulses[0].frequency (GHz)")
ax.set_ylabel("pulses[0].amplitude (GHz)")
ax.set_title("fluxonium X chevron")
out = sys.argv[1] if len(sys.argv) > 1 else "chevron.png"
fig.savefig(out, dpi=100, bbox_inches="tight")
print(f"wrote {out}")
