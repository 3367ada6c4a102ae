"""Fitting a fluxonium's EJ, EC and EL to measured f01: scipy's least_squares with the
Jacobian from qevolve's spectrum.

    python3 examples/python/fit_fluxonium.py [OUT.png]

data/fit_fluxonium_f01.csv holds f01 measured at six external fluxes: synthetic, made by
scripts/gen_fit_fluxonium_data.py with an independent solver and 1 MHz Gaussian noise (the
true parameters are in its header). For each flux, `sim.spectrum(overrides,
gradient=KEYS)` gives f01 and its derivatives d f01 / d(EJ, EC, EL) (Hellmann-Feynman, exact
for the Hamiltonian qevolve diagonalises): the residuals and the Jacobian of
scipy.optimize.least_squares. The 1-sigma uncertainties come from that Jacobian at the optimum
and the residual variance, cov = s^2 (J^T J)^-1 with s^2 = RSS / (m - n).
"""
import pathlib
import re
import sys
import time

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import scipy.optimize

import qevolve

DATA = pathlib.Path(__file__).resolve().parents[2] / "data" / "fit_fluxonium_f01.csv"
NAMES = ["ej", "ec", "el"]
KEYS = [f"device.qubits[q0].{k}" for k in NAMES]
LEVELS = 6  # f01 moves by < 1 kHz with twice as many (checked below)
START = [5.0, 0.8, 1.3]  # GHz: the fit's start, 10-25 % off
# The model: one fluxonium, whose ej, ec, el, flux and levels each call sets.
sim = qevolve.loads("device: {qubits: [{name: q0, type: fluxonium, ec: 1.0, ej: 4.0, el: 1.0, flux: 0.5, levels: 6}]}")


def f01(theta, fluxes, levels=LEVELS, jacobian=True):
    """f01 (GHz) at each flux and, with `jacobian`, d f01 / d theta (GHz per GHz), one row each."""
    values, rows = [], []
    for flux in fluxes:
        overrides = {**dict(zip(KEYS, theta)), "device.qubits[q0].flux": flux, "device.qubits[q0].levels": levels}
        q0 = sim.spectrum(overrides, gradient=KEYS if jacobian else None).modes["q0"]
        values.append(q0["f01_dressed"])
        rows.append(q0["f01_dressed_gradient"])
    return np.array(values), (np.array(rows) if jacobian else None)


header = DATA.read_text().splitlines()[1]
truth = {k: float(v) for k, v in re.findall(r"(ej|ec|el) = ([0-9.]+) GHz", header)}
flux, measured, sigma = np.loadtxt(DATA, delimiter=",", comments="#", skiprows=4, unpack=True)

last = {}  # least_squares asks for the residuals and then the Jacobian at the same point: one pass


def evaluate(theta):
    if last.get("theta") is None or not np.array_equal(last["theta"], theta):
        last["theta"] = np.array(theta)
        last["f"], last["J"] = f01(theta, flux)
    return last["f"], last["J"]


t0 = time.perf_counter()
fit = scipy.optimize.least_squares(lambda x: evaluate(x)[0] - measured, START, jac=lambda x: evaluate(x)[1],
                                   bounds=(0, np.inf))
seconds = time.perf_counter() - t0
residual, J = evaluate(fit.x)[0] - measured, evaluate(fit.x)[1]
dof = len(flux) - len(NAMES)
s2 = residual @ residual / dof
errors = np.sqrt(np.diag(s2 * np.linalg.inv(J.T @ J)))
print(f"least_squares: {fit.nfev} evaluations, {fit.njev} Jacobians ({fit.message})")
print(f"residuals (MHz): {np.round(residual * 1e3, 3).tolist()}; rms {np.sqrt(s2) * 1e3:.3f} MHz with {dof} "
      f"degrees of freedom")
for name, value, error in zip(NAMES, fit.x, errors):
    deviation = (value - truth[name]) / error
    print(f"{name} = {value:.5f} +- {error:.5f} GHz (truth {truth[name]:g}: {deviation:+.2f} sigma)")
print(f"run time: {seconds:.2f} s for the fit ({len(flux)} fluxes per evaluation)")

# Levels: f01 at the optimum with twice as many kept levels (and so a larger phase grid).
moved = np.abs(f01(fit.x, flux, levels=2 * LEVELS, jacobian=False)[0] - f01(fit.x, flux, jacobian=False)[0])
print(f"levels {LEVELS} -> {2 * LEVELS}: f01 moves by at most {moved.max() * 1e6:.3g} kHz")

dense = np.linspace(0.0, 0.5, 101)
curve = f01(fit.x, dense, jacobian=False)[0]
fig, (top, bottom) = plt.subplots(2, 1, figsize=(6, 6), sharex=True, gridspec_kw={"height_ratios": [3, 1]})
top.plot(dense, curve, "-", label="fit: " + ", ".join(f"{n.upper()} = {v:.3f}" for n, v in zip(NAMES, fit.x)) + " GHz")
top.errorbar(flux, measured, yerr=sigma, fmt="o", color="k", label="data (1 MHz noise)")
top.set_ylabel("f01 (GHz)")
top.legend()
bottom.errorbar(flux, residual * 1e3, yerr=sigma * 1e3, fmt="o", color="k")
bottom.axhline(0.0, color="gray", lw=0.8)
bottom.set_xlabel("external flux (flux quanta)")
bottom.set_ylabel("fit - data (MHz)")
out = sys.argv[1] if len(sys.argv) > 1 else "fit_fluxonium.png"
fig.savefig(out, dpi=100, bbox_inches="tight")
print(f"wrote {out}")
