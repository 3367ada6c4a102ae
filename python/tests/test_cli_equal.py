"""Every example through the module and through the CLI: the same numbers bit for bit (F,
unitary / channel, gradient, angles: the module and the CLI link the same compiled engine, and one
thread makes every sum's order the same), and Result.save writes the file `qevolve run -o`
writes."""
import numpy as np
import pytest

import qevolve
from conftest import EXAMPLES, cli, h5

EXAMPLE_FILES = sorted(p.name for p in EXAMPLES.glob("*.yaml"))
# Simulation.gradient() checked as well (the quick trainable examples; cnot_cr_pair takes seconds).
GRADIENT_CALLS = {"fluxonium_x_optimize.yaml", "fluxonium_x_lindblad.yaml"}
# Attributes that differ between two runs by nature.
VOLATILE = {"@wall_time_s"}


def assert_files_equal(ours, ref):
    assert set(ours) == set(ref), set(ours) ^ set(ref)
    for key, v in ref.items():
        if key in VOLATILE:
            continue
        w = ours[key]
        if isinstance(v, np.ndarray) and v.dtype.kind in "fc":
            np.testing.assert_allclose(w, v, rtol=0, atol=1e-12, err_msg=key)
        elif isinstance(v, (float, np.floating)):
            assert w == pytest.approx(v, abs=1e-12), key
        elif isinstance(v, np.ndarray):
            assert w.tolist() == v.tolist(), key
        else:
            assert w == v, key


@pytest.mark.parametrize("name", EXAMPLE_FILES)
def test_run_equals_the_cli(name, tmp_path):
    path = EXAMPLES / name
    ref_file = tmp_path / "cli.h5"
    p = cli("run", path, "--threads", "1", "-o", ref_file, check=False)
    if p.returncode == 2:  # not a run config (e.g. a spectrum example): the same error
        with pytest.raises(qevolve.ConfigError) as e:
            qevolve.load(path, threads=1).run()
        assert str(e.value) in p.stderr
        return
    assert p.returncode == 0, p.stderr
    ref = h5(ref_file)
    r = qevolve.load(path, threads=1).run()
    assert r.fidelity == float(ref["@fidelity"])
    assert r.uncompensated_fidelity == float(ref["@fidelity_uncompensated"])
    assert r.leakage == float(ref["@leakage"])
    if "/ensemble/fidelity" in ref:  # an ensemble: the members (test_ensemble_module.py), no angles
        np.testing.assert_array_equal(r.ensemble["fidelity"], ref["/ensemble/fidelity"])
    elif "/unitary" in ref:
        np.testing.assert_array_equal(r.unitary, ref["/unitary"])
        np.testing.assert_array_equal(r.propagator, ref["/propagator"])
    else:
        np.testing.assert_array_equal(r.superoperator, ref["/superoperator"])
    if "/ensemble/fidelity" not in ref:
        np.testing.assert_array_equal(r.angles, ref["/compensation/angles"])
    # What the file lacks, the Result has as None (not an empty array).
    for key in ("unitary", "unitary_compensated", "propagator", "superoperator"):
        assert (getattr(r, key) is None) == (f"/{key}" not in ref), key
    if "/gradient" in ref:
        names = [n.decode() if isinstance(n, bytes) else n for n in ref["/gradient_names"]]
        assert list(r.gradient) == names
        np.testing.assert_array_equal(list(r.gradient.values()), ref["/gradient"])
        if name in GRADIENT_CALLS:
            g = qevolve.load(path, threads=1).gradient()
            np.testing.assert_array_equal(list(g.values()), ref["/gradient"])
    else:
        assert r.gradient is None
    ours = tmp_path / "py.h5"
    r.save(ours)
    assert_files_equal(h5(ours), ref)


OVERRIDES = [
    ("fluxonium_x.yaml", {"pulses[0].amplitude": 0.0791, "device.qubits[q0].el": 1.02, "evolution.steps": 1000}),
    ("fluxonium_x.yaml", {"pulses[0].amplitude": 0.0791, "target.compensation": "vz"}),
    # trainable: trained pulse parameters move the cached gradient problem (no rebuild) ...
    ("fluxonium_x_optimize.yaml", {"pulses[0].amplitude": 0.0831, "pulses[0].phase": 0.61}),
    # ... anything else rebuilds it
    ("fluxonium_x_optimize.yaml", {"pulses[0].amplitude": 0.0831, "pulses[0].duration": 39.0}),
]


@pytest.mark.parametrize("name,sets", OVERRIDES)
def test_run_with_overrides_equals_cli_set(name, sets, tmp_path):
    ref_file = tmp_path / "cli.h5"
    args = [a for k, v in sets.items() for a in ("--set", f"{k}={qevolve._yaml(v)}")]
    cli("run", EXAMPLES / name, "--threads", "1", *args, "-o", ref_file)
    sim = qevolve.load(EXAMPLES / name, threads=1)
    sim.run()  # the cache holds the file's device and simulator first
    r = sim.run(sets)
    ours = tmp_path / "py.h5"
    r.save(ours)
    assert_files_equal(h5(ours), h5(ref_file))


def test_sweep_equals_the_cli(tmp_path):
    ref_file = tmp_path / "cli.h5"
    cli("sweep", EXAMPLES / "fluxonium_pair_chevron.yaml", "--threads", "1",
        "--vary", "pulses[0].amplitude=0.07,0.08,0.09", "--vary", "pulses[0].frequency=0.58,0.59", "-o", ref_file,
        "--quiet")
    sim = qevolve.load(EXAMPLES / "fluxonium_pair_chevron.yaml", threads=1)
    s = sim.sweep({"pulses[0].amplitude": [0.07, 0.08, 0.09], "pulses[0].frequency": [0.58, 0.59]})
    ref = h5(ref_file)
    assert s.shape == (3, 2)
    np.testing.assert_array_equal(s.fidelity, ref["/sweep/fidelity"])
    np.testing.assert_array_equal(s.leakage, ref["/sweep/leakage"])
    np.testing.assert_array_equal(s.populations, ref["/sweep/populations"])
    assert s.builds == {"devices": 1, "simulators": 1, "pulse_updates": 5, "objectives": 1}
    # one point as a run with the same overrides: the same number, bitwise
    r = sim.run({"pulses[0].amplitude": 0.08, "pulses[0].frequency": 0.59})
    assert r.fidelity == s.fidelity[1, 1]
    ours = tmp_path / "py.h5"
    s.save(ours)
    assert_files_equal(h5(ours), ref)
