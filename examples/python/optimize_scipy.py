"""The fluxonium X gate optimised with scipy.optimize: L-BFGS-B on qevolve's adjoint gradient.

    python3 examples/python/optimize_scipy.py

examples/fluxonium_x_optimize.yaml starts 10 % off in amplitude and 2 MHz off in frequency; its
`optimize: [amplitude, frequency, phase]` list names the parameters (`sim.parameters`).
`sim.value_and_grad(x)` returns 1 - F and its gradient in one forward + adjoint pass. x is in
the variables `qevolve optimize` works in, u = theta / sim.scales (amplitude and frequency in
MHz, phase in 0.01 rad), so L-BFGS-B takes the CLI's path to the same optimum;
`sim.values(x)` turns a point back into the config's values.
"""
import pathlib

import scipy.optimize

import qevolve

here = pathlib.Path(__file__).resolve().parent
sim = qevolve.load(here.parent / "fluxonium_x_optimize.yaml")
print("parameters:", sim.parameters)
print(f"start: 1 - F = {sim.value_and_grad(sim.x0)[0]:.4e}")
res = scipy.optimize.minimize(sim.value_and_grad, sim.x0, jac=True, method="L-BFGS-B", bounds=sim.bounds)
print(f"scipy L-BFGS-B: {res.nit} iterations, {res.nfev} evaluations ({res.message}): 1 - F = {res.fun:.4e}")
start, best = sim.values(sim.x0), sim.values(res.x)
units = {"amplitude": "GHz", "frequency": "GHz", "phase": "rad"}
for name in sim.parameters:
    print(f"  {name:24s} {start[name]:.12g} -> {best[name]:.12g} {units[name.rsplit('.', 1)[1]]}")
check = sim.run(best)
print(f"check (run with the optimum): 1 - F = {1 - check.fidelity:.4e}")
# `qevolve optimize examples/fluxonium_x_optimize.yaml` stops at its target 1 - F < 1e-6 after
# 4 iterations at amplitude 0.0822937 GHz, frequency 0.5823791 GHz, phase 0.6434291 rad
# (1 - F = 1.134e-7; scipy's defaults: 1.012e-7 at 0.0822947, 0.5823792, 0.6434288): the same
# optimum to ~1e-3 of a scale. Tighter tolerances (options={"ftol": 1e-12, "gtol": 1e-10})
# go on to 1 - F = 7.6e-13 along the valley floor, a few 0.1 of a scale further in phase.
