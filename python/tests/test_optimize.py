"""Optimisation: Simulation.optimize is `qevolve optimize`; scipy's L-BFGS-B on value_and_grad
reproduces it on examples/fluxonium_x_optimize.yaml."""
import re

import numpy as np
import pytest
import scipy.optimize

import qevolve
from conftest import EXAMPLES, cli, h5
from test_cli_equal import assert_files_equal

CONFIG = EXAMPLES / "fluxonium_x_optimize.yaml"


@pytest.fixture(scope="module")
def cli_optimum(tmp_path_factory):
    out = tmp_path_factory.mktemp("opt") / "o.h5"
    p = cli("optimize", CONFIG, "--threads", "1", "-o", out)
    values = {}
    for m in re.finditer(r"^\s+(\S+)\s+(\S+) -> (\S+)$", p.stdout, re.M):
        values[m.group(1)] = float(m.group(3))
    return out, values


def test_optimize_equals_the_cli(cli_optimum, tmp_path):
    out, values = cli_optimum
    o = qevolve.load(CONFIG, threads=1).optimize()
    assert o.names == list(values)
    np.testing.assert_allclose(o.x, list(values.values()), rtol=1e-12, atol=0)
    ref = h5(out)
    np.testing.assert_allclose(o.history["infidelity"], ref["/history/infidelity"], rtol=0, atol=1e-12)
    np.testing.assert_array_equal(o.history["iteration"], ref["/history/iteration"])
    assert set(o.history) == {k[len("/history/"):] for k in ref if k.startswith("/history/")}
    ours = tmp_path / "py.h5"
    o.save(ours)
    mine = h5(ours)
    del mine["/history/wall_time_s"], ref["/history/wall_time_s"]
    assert_files_equal(mine, ref)
    assert o.optimized_yaml == (out.parent / "o.optimized.yaml").read_text()


def test_scipy_lbfgsb_reproduces_qevolve_optimize(tmp_path):
    # The CLI without its certification (which would continue at more steps if the optimum's
    # step error were too large): scipy optimises at the config's steps, so the CLI must stay
    # there too (docs/optimize.md "Certification").
    out = tmp_path / "o.h5"
    p = cli("optimize", CONFIG, "--threads", "1", "-o", out, "--set", "evolution.error_estimate=false")
    values = {m.group(1): float(m.group(3)) for m in re.finditer(r"^\s+(\S+)\s+(\S+) -> (\S+)$", p.stdout, re.M)}
    f_cli = float(h5(out)["@fidelity"])
    sim = qevolve.load(CONFIG, threads=1)
    assert sim.parameters == list(values)
    scales = sim.scales
    np.testing.assert_allclose(scales, [1e-3, 1e-3, 1e-2])  # 1 MHz, 1 MHz, 0.01 rad
    # x0 is the config's start in the optimiser's variables u = theta / scale, exactly.
    start = [0.09060527915137346, 0.5843664862818624, 0.64509906]
    assert sim.values(sim.x0) == pytest.approx(dict(zip(sim.parameters, start)), rel=1e-15)
    np.testing.assert_array_equal(sim.x0, np.array(start) / scales)
    # The contract call, scipy's defaults: L-BFGS-B follows the CLI's path to the same optimum,
    # to the optimisers' tolerance. Both stop near 1 - F ~ 1e-7 (the CLI at its target 1e-6,
    # scipy at its default pgtol); there |d u| ~ 1e-3 changes 1 - F by ~1e-9, so the optimum is
    # determined to about that.
    res = scipy.optimize.minimize(sim.value_and_grad, sim.x0, jac=True, method="L-BFGS-B")
    assert res.success, res.message
    assert 1 - f_cli <= 1e-6 and res.fun <= 1e-6, (1 - f_cli, res.fun)
    np.testing.assert_allclose(res.x, np.array(list(values.values())) / scales, rtol=0, atol=2e-3)
    assert sim.run(sim.values(res.x)).fidelity == pytest.approx(1 - res.fun, abs=1e-12)
    # With the bounds (the config's ranges, far from this optimum: amplitude within +-100 GHz,
    # frequency within [0, 1000] GHz) the same optimum, to the same tolerance: scipy's Cauchy
    # point takes a slightly different path once the box is finite.
    res_b = scipy.optimize.minimize(sim.value_and_grad, sim.x0, jac=True, method="L-BFGS-B", bounds=sim.bounds)
    assert res_b.success and res_b.fun <= 1e-6, (res_b.message, res_b.fun)
    np.testing.assert_allclose(res_b.x, res.x, rtol=0, atol=2e-3)


def test_scipy_in_config_units_converges_too():
    # scaled=False: x in the config's own units; the first step is one unit of every parameter (a
    # GHz of amplitude), so it may find another minimum than the CLI's.
    sim = qevolve.load(CONFIG, threads=1)
    theta0 = sim.x0 * sim.scales
    res = scipy.optimize.minimize(sim.value_and_grad, theta0, args=(False,), jac=True, method="L-BFGS-B",
                                  options={"ftol": 1e-12, "gtol": 1e-10})
    assert res.success, res.message
    assert res.fun < 1e-8
    f, g = sim.value_and_grad(res.x, scaled=False)
    assert f == res.fun


def test_value_and_grad_is_the_gradient_of_run():
    sim = qevolve.load(CONFIG, threads=1)
    x = sim.x0 * np.array([0.99, 1.0, 1.01])
    f, g = sim.value_and_grad(x)
    r = sim.run(sim.values(x))
    assert f == pytest.approx(1 - r.fidelity, abs=1e-12)
    # d/du = scale * d/dtheta (the chain rule), and scaled=False gives d/dtheta itself
    np.testing.assert_allclose(g, np.array(list(r.gradient.values())) * sim.scales, rtol=1e-9, atol=1e-15)
    theta = x * sim.scales
    f_raw, g_raw = sim.value_and_grad(theta, scaled=False)
    assert f_raw == pytest.approx(f, abs=1e-14)
    np.testing.assert_allclose(g_raw, list(r.gradient.values()), rtol=1e-9, atol=1e-12)
    # and the finite difference of the value, in u
    h = 1e-3
    e = np.zeros(3)
    e[0] = h
    fd = (sim.value_and_grad(x + e)[0] - sim.value_and_grad(x - e)[0]) / (2 * h)
    assert fd == pytest.approx(g[0], rel=1e-5)


def test_value_and_grad_rejects_a_wrong_length():
    sim = qevolve.load(CONFIG)
    for bad in (np.zeros(2), sim.x0[None, :], sim.x0[:, None], 1.0):
        with pytest.raises(qevolve.ConfigError, match=r"value_and_grad: x has shape .*expected a 1-D array of 3 values"):
            sim.value_and_grad(bad)
        with pytest.raises(qevolve.ConfigError, match=r"values: x has shape .*pulses\[0\].amplitude"):
            sim.values(bad)
    f, _ = sim.value_and_grad(list(sim.x0))  # any sequence of 3 numbers
    assert f == sim.value_and_grad(sim.x0)[0]


def test_numerical_failures_raise_numerical_error():
    sim = qevolve.load(CONFIG, threads=1)
    x = sim.x0.copy()
    x[0] = np.nan
    with pytest.raises(qevolve.NumericalError, match="not finite"):
        sim.value_and_grad(x)
    assert issubclass(qevolve.NumericalError, ArithmeticError)
    f, _ = sim.value_and_grad(sim.x0)  # the session is still usable
    assert 0 < f < 1


def test_bounds_and_values_are_in_the_optimisers_variables():
    # A duration is trained too: its range is the config's (0, 1e9] ns, closed at 1e-9 ns, scale
    # 0.1 ns; the amplitude's the config's [-100, 100] GHz, scale 1 MHz.
    text = CONFIG.read_text().replace("optimize: [amplitude, frequency, phase]", "optimize: [amplitude, duration]")
    sim = qevolve.loads(text, threads=1)
    assert sim.parameters == ["pulses[0].amplitude", "pulses[0].duration"]
    np.testing.assert_allclose(sim.scales, [1e-3, 0.1])
    assert sim.bounds == [(pytest.approx(-1e5, rel=1e-12), pytest.approx(1e5, rel=1e-12)),
                          (pytest.approx(1e-8, rel=1e-12), pytest.approx(1e10, rel=1e-12))]
    assert sim.values(sim.x0) == pytest.approx({"pulses[0].amplitude": 0.09060527915137346,
                                                "pulses[0].duration": 40.0}, rel=1e-15)
    np.testing.assert_allclose(sim.x0, [90.60527915137346, 400.0], rtol=1e-15)


def test_a_fixed_duration_bounds_the_ramp():
    """A rampcos with its duration given keeps ramp <= duration / 2 as a box bound (an optimiser
    step past it used to end the run with the geometry's error); with (ramp, plateau) given the
    duration follows the ramp and no such bound applies. Bounds are in u = theta / scale."""
    sim = qevolve.loads("""
device:
  qubits:
    - {name: q0, type: fluxonium, ec: 1.0, ej: 4.0, el: 1.0, flux: 0.5, levels: 3}
pulses:
  - {qubit: q0, shape: rampcos, amplitude: 0.01, frequency: 0.58, duration: 40, ramp: 10, optimize: [ramp]}
  - {qubit: q0, shape: rampcos, amplitude: 0.01, frequency: 0.58, ramp: 10, plateau: 20, optimize: [ramp]}
evolution: {steps: 400}
target: {gates: [{gate: X, qubits: [q0]}]}
""")
    assert sim.parameters == ["pulses[0].ramp", "pulses[1].ramp"]
    (lo0, hi0), (lo1, hi1) = sim.bounds
    assert hi0 * sim.scales[0] == pytest.approx(20.0, rel=1e-15)
    assert hi1 * sim.scales[1] > 1e6
