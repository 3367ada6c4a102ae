"""Result.top_level_population: the truncation check of `qevolve run` (docs/output.md
"Truncation check"), the same numbers as the CLI's /truncation/top_level_population, and the
warning that names an under-truncated mode (a QevolveWarning, as in `Result.warnings`)."""
import math
import warnings

import numpy as np
import pytest

import qevolve
from conftest import EXAMPLES, cli, h5

CZ = EXAMPLES / "cz_transmon_coupler.yaml"
FAST = {"evolution.steps": 200, "evolution.error_estimate": False}


def test_top_level_population_is_the_clis(tmp_path):
    sim = qevolve.load(CZ)
    with pytest.warns(qevolve.QevolveWarning, match="mode `c` reaches a population of"):
        r = sim.run({**FAST, "device.qubits[c].levels": 3})
    assert len(r.top_level_population) == len(r.dims) == 3
    out = tmp_path / "t.h5"
    cli("run", CZ, "--steps", "200", "--set", "evolution.error_estimate=false",
        "--set", "device.qubits[c].levels=3", "-o", out, "--threads", "1")
    np.testing.assert_allclose(r.top_level_population, h5(out)["/truncation/top_level_population"], rtol=1e-9)
    assert r.top_level_population[1] > 1e-2
    assert any("mode `c` reaches a population of" in w for w in r.warnings)


def test_no_warning_at_the_shipped_levels():
    with warnings.catch_warnings():
        warnings.simplefilter("error", qevolve.QevolveWarning)
        r = qevolve.load(CZ).run(FAST)
    assert max(r.top_level_population) < 1e-2
    assert not any("reaches a population" in w for w in r.warnings)


def test_two_level_qubits_are_nan(tmp_path):
    cfg = tmp_path / "q.yaml"
    cfg.write_text("device:\n  preset: mpc_fluxonium_1d\n  preset_args: {qubits: 2, levels: 2}\n"
                   "pulses:\n  - {qubit: q0, shape: cos, amplitude: auto, angle: 3.141592653589793, "
                   "frequency: auto, duration: 50}\nevolution: {steps: 400}\n")
    r = qevolve.load(cfg).run()
    assert all(math.isnan(p) for p in r.top_level_population)
