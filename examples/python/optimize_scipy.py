"""The fluxonium X gate optimised with scipy.optimize: L-BFGS-B on qevolve's adjoint gradient.

    python3 examples/python/optimize_scipy.py

examples/fluxonium_x_optimize.yaml starts 10 % off in amplitude and 2 MHz off in frequency; its
`optimize: [amplitude, frequency, phase]` list names the parameters (`sim.parameters`).
`sim.value_and_grad(x)` returns 1 - F and d(1 - F)/d(theta) in one forward + adjoint pass.
With `scaled=True` (here through `args=(True,)`) x is theta / sim.scales, the variables
`qevolve optimize` works in (a typical change of each parameter is 1): L-BFGS-B then takes the
CLI's path to the same optimum.
"""
import pathlib

import scipy.optimize

import qevolve

here = pathlib.Path(__file__).resolve().parent
sim = qevolve.load(here.parent / "fluxonium_x_optimize.yaml")
print("parameters:", sim.parameters)
print(f"start: 1 - F = {sim.value_and_grad(sim.x0)[0]:.4e}")
scales = sim.scales
res = scipy.optimize.minimize(sim.value_and_grad, sim.x0 / scales, args=(True,), jac=True, method="L-BFGS-B",
                              options={"ftol": 1e-12, "gtol": 1e-10})
theta = res.x * scales
print(f"scipy L-BFGS-B: {res.nit} iterations, {res.nfev} evaluations: 1 - F = {res.fun:.4e}")
for name, start, value in zip(sim.parameters, sim.x0, theta):
    print(f"  {name:24s} {start:.12g} -> {value:.12g}")
check = sim.run(dict(zip(sim.parameters, theta)))
print(f"check (run with the optimum): 1 - F = {1 - check.fidelity:.4e}")
