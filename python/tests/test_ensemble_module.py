"""The Python module with an `ensemble:` (docs/ensembles.md, docs/python.md): Simulation.run is
`qevolve run` (the same file, /ensemble/* and the root attributes bit for bit), gradient and
value_and_grad are the objective's (/gradient), from one EnsembleProblem built once per
Simulation; Simulation.optimize is `qevolve optimize`, and scipy's L-BFGS-B on value_and_grad
reaches the same optimum."""
import re

import numpy as np
import pytest
import scipy.optimize

import qevolve
from conftest import cli, h5
from test_cli_equal import assert_files_equal
from test_ensemble_cli import MEMBERS, PLAIN, TRAINED, VARY_EL, write

UNITARIES = "output: {ensemble_unitaries: true}\n"

CASES = {
    "plain-vary": PLAIN + VARY_EL,
    "plain-unitaries": PLAIN + VARY_EL + UNITARIES,
    "trained-mean": TRAINED + MEMBERS.replace("OBJECTIVE", "mean"),
    "trained-worst": TRAINED + MEMBERS.replace("OBJECTIVE", "worst"),
}


def cli_run(tmp_path, text):
    cfg = write(tmp_path, "ens.yaml", text)
    cli("run", cfg, "--threads", "1", "-o", tmp_path / "cli.h5", "--quiet")
    return cfg, h5(tmp_path / "cli.h5")


@pytest.mark.parametrize("case", CASES)
def test_run_equals_the_cli(case, tmp_path):
    cfg, ref = cli_run(tmp_path, CASES[case])
    r = qevolve.load(cfg, threads=1).run()
    r.save(tmp_path / "py.h5")
    mine = h5(tmp_path / "py.h5")
    assert_files_equal(mine, ref)  # every dataset and attribute (1e-12), wall time aside
    ensemble = [k for k in ref if k.startswith("/ensemble/")]
    assert "/ensemble/fidelity" in ensemble and "/unitary" not in ref
    for key in ensemble + ["/gradient"] * ("/gradient" in ref):  # bit for bit
        np.testing.assert_array_equal(mine[key], ref[key], err_msg=key)
    for key in ("@fidelity", "@fidelity_uncompensated", "@leakage"):
        assert mine[key] == ref[key], key
    # The Result: the objective's figures, the members as arrays, no unitary.
    assert r.fidelity == ref["@fidelity"]
    assert r.uncompensated_fidelity == ref["@fidelity_uncompensated"]
    assert r.leakage == ref["@leakage"]
    assert r.unitary is None and r.unitary_compensated is None and r.propagator is None
    e = r.ensemble
    for name in ("fidelity", "fidelity_uncompensated", "leakage", "weights", "steps"):
        assert isinstance(e[name], np.ndarray), name
        np.testing.assert_array_equal(e[name], ref[f"/ensemble/{name}"], err_msg=name)
    np.testing.assert_array_equal(e["fidelity_error_steps"], ref.get("/ensemble/fidelity_error_steps", np.full(3, np.nan)))
    assert r.fidelity_error_steps == ref.get("@fidelity_error_steps", r.fidelity_error_steps) \
        or np.isnan(r.fidelity_error_steps) and "@fidelity_error_steps" not in ref
    assert e["overrides"] == [o.decode() if isinstance(o, bytes) else o for o in ref["/ensemble/overrides"]]
    assert e["objective"] == CASES[case].split("objective: ")[1].split()[0] if "objective:" in CASES[case] \
        else e["objective"] == "mean"
    assert e["worst"] == int(np.argmin(e["fidelity"]))  # no leakage weight: the lowest F
    if "unitaries" in case:
        assert len(e["unitaries"]) == 3
        for k, u in enumerate(e["unitaries"]):
            np.testing.assert_array_equal(u, ref[f"/ensemble/unitaries/{k}"])
    else:
        assert "unitaries" not in e
    if r.gradient is not None:
        np.testing.assert_array_equal(list(r.gradient.values()), ref["/gradient"])


def test_without_an_ensemble_there_is_none():
    assert qevolve.loads(PLAIN, threads=1).run().ensemble is None


@pytest.mark.parametrize("objective", ["mean", "worst"])
def test_gradient_and_value_and_grad_are_the_objectives(objective, tmp_path):
    _, ref = cli_run(tmp_path, CASES[f"trained-{objective}"])
    sim = qevolve.loads(CASES[f"trained-{objective}"], threads=1)
    g = sim.gradient()
    assert list(g) == [n.decode() if isinstance(n, bytes) else n for n in ref["/gradient_names"]]
    np.testing.assert_allclose(list(g.values()), ref["/gradient"], rtol=1e-12, atol=0)
    theta0 = sim.x0 * sim.scales
    f, grad = sim.value_and_grad(theta0, scaled=False)
    np.testing.assert_allclose(grad, ref["/gradient"], rtol=1e-12, atol=0)
    o = 1 - ref["/ensemble/fidelity"]  # leakage_weight 0: o_k = 1 - F_k
    expected = ref["/ensemble/weights"] @ o if objective == "mean" else np.mean(o ** 16) ** (1 / 16)
    assert f == pytest.approx(expected, rel=1e-12)
    # scaled: d/du = scales * d/dtheta at u = theta / scales
    fu, gu = sim.value_and_grad(sim.x0)
    assert fu == pytest.approx(f, rel=1e-14)
    np.testing.assert_allclose(gu, grad * sim.scales, rtol=1e-12, atol=0)


def test_members_are_built_once_per_simulation():
    sim = qevolve.loads(CASES["trained-mean"], threads=1)
    x0 = sim.x0
    assert sim._s.ensemble_builds == 3  # K members, for x0 (value_and_grad's problem)
    values = [sim.value_and_grad(x0 * (1 + 1e-3 * i))[0] for i in range(5)]
    sim.gradient()
    assert sim._s.ensemble_builds == 3  # reused: no member rebuilt
    assert len(set(values)) == 5
    assert sim.value_and_grad(x0)[0] == pytest.approx(values[0], rel=1e-14)


@pytest.fixture(scope="module")
def optimum(tmp_path_factory):
    """`qevolve optimize` of the 3-member mean ensemble, without its certification (scipy
    optimises at the config's steps, so the CLI must stay there too)."""
    tmp = tmp_path_factory.mktemp("ens_opt")
    cfg = write(tmp, "ens.yaml", CASES["trained-mean"])
    p = cli("optimize", cfg, "--threads", "1", "-o", tmp / "o.h5", "--set", "evolution.error_estimate=false")
    x = [float(m.group(3)) for m in re.finditer(r"^\s+(\S+)\s+(\S+) -> (\S+)$", p.stdout, re.M)]
    assert len(x) == 3, p.stdout
    return cfg, tmp / "o.h5", np.array(x)  # x as printed: 12 digits


def test_optimize_equals_the_cli(optimum, tmp_path):
    cfg, out, x = optimum
    o = qevolve.load(cfg, threads=1).optimize({"evolution.error_estimate": False})
    ref = h5(out)
    np.testing.assert_allclose(o.x, x, rtol=1e-11, atol=0)
    o.save(tmp_path / "py.h5")
    mine = h5(tmp_path / "py.h5")
    del mine["/history/wall_time_s"], ref["/history/wall_time_s"]
    assert_files_equal(mine, ref)
    np.testing.assert_array_equal(mine["/ensemble/fidelity"], ref["/ensemble/fidelity"])
    assert o.result.ensemble is not None and o.result.fidelity == ref["@fidelity"]
    assert o.optimized_yaml == (out.parent / "o.optimized.yaml").read_text()


def test_scipy_lbfgsb_reaches_the_cli_optimum(optimum):
    # Acceptance (issue 37): scipy's L-BFGS-B on value_and_grad, in the scaled variables u,
    # reaches `qevolve optimize`'s optimum. The CLI stops when 1 - F no longer decreases
    # (|d(1-F)/dtheta| ~ 4e-9 at 1 - F = 3.2e-4: an interior minimum, above its target 1e-6), so
    # scipy is run to its own tightest stop (ftol 1e-15, gtol 1e-12; its default pgtol 1e-5
    # stops ~0.05 u early along the flat phase direction, 7e-9 above the minimum). Measured: the
    # objectives agree to 2e-14 and the optima to 8e-6 u (the phase: 8e-8 rad) at the ftol stop,
    # to 7e-15 and 2e-7 u at the line-search stop; asserted to 1e-12 and 1e-4 u (along the flat
    # phase direction 1e-4 u moves the objective by ~3e-14: the minimum is flat there).
    cfg, out, x = optimum
    ref = h5(out)
    f_cli = 1 - ref["@fidelity"]
    sim = qevolve.load(cfg, threads=1)
    res = scipy.optimize.minimize(sim.value_and_grad, sim.x0, jac=True, method="L-BFGS-B",
                                  options={"ftol": 1e-15, "gtol": 1e-12})
    # Status 2 (the line search finds no decrease) is the other normal end at the noise floor of
    # the objective: it happens instead of the ftol stop when the last digits of f differ.
    assert res.success or res.status == 2, res.message
    print(f"scipy: {res.message}, {res.nit} iterations; 1-F {res.fun!r} vs the CLI's {f_cli!r}; "
          f"x - x_cli = {res.x - x / sim.scales} (u)")
    assert 3e-4 < f_cli < 4e-4
    assert res.fun == pytest.approx(f_cli, abs=1e-12)
    np.testing.assert_allclose(res.x, x / sim.scales, rtol=0, atol=1e-4)
    assert sim._s.ensemble_builds == 3  # every iteration on the members built once


def test_commands_without_ensembles_refuse_one():
    # As `qevolve spectrum` and `converge`: a located error, not the nominal silently.
    sim = qevolve.loads(CASES["plain-vary"], threads=1)
    for call in (lambda: sim.spectrum(), lambda: sim.converge(1e-4)):
        with pytest.raises(qevolve.ConfigError, match="does not take an ensemble"):
            call()


def test_sweep_evaluates_the_objective_per_point():
    # As `qevolve sweep`: each point the ensemble's objective, equal to a run with that value.
    sim = qevolve.loads(CASES["plain-vary"], threads=1)
    s = sim.sweep({"pulses[0].amplitude": [0.08, 0.09]})
    for i, a in enumerate([0.08, 0.09]):
        assert s.fidelity[i] == pytest.approx(sim.run({"pulses[0].amplitude": a}).fidelity, abs=1e-12)
