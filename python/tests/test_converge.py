"""Simulation.converge is `qevolve converge` (docs/accuracy.md "qevolve converge"): the same
table, steps, levels and converged YAML on a fluxonium X gate started at 2 levels and 400 steps;
a bad tolerance is a ConfigError before any work."""
import re

import numpy as np
import pytest

import qevolve
from conftest import cli

CONFIG = """# a fluxonium X gate, too few levels and steps
device:
  qubits:
    - {name: q0, type: fluxonium, ec: 1.0, ej: 4.0, el: 1.0, flux: 0.5, levels: 2}
pulses:
  - {qubit: q0, shape: cos, amplitude: 0.0823684365012486, frequency: 0.5823664862818624,
     phase: 0.64509906, duration: 40.0}
evolution:
  solver: expm
  steps: 400
target:
  gates: [{gate: X, qubits: [q0]}]
"""


def test_converge_equals_the_cli(tmp_path):
    path = tmp_path / "fx.yaml"
    path.write_text(CONFIG)
    out = tmp_path / "cli.yaml"
    p = cli("converge", path, "--tolerance", "1e-5", "--threads", "1", "-o", out)
    c = qevolve.load(str(path), threads=1).converge(1e-5)
    assert c.converged and c.stop_reason == ""
    assert c.levels == {"q0": 4}
    assert c.steps > 400
    assert [r["setting"] for r in c.rows][-2:] == ["q0 levels 2 \u2192 4", "q0 levels 4 \u2192 6"]
    assert c.rows[-1]["verdict"] == "q0 converged at 4"
    assert np.isnan(c.rows[0]["change"])
    assert abs(c.rows[-1]["change"]) < 0.5e-5 <= abs(c.rows[-2]["change"])
    # The CLI's table rows (times aside) and file.
    strip = lambda text: [re.sub(r"\s+\d+\.\d+ s\s", " ", line) for line in text.splitlines()]
    assert strip(c.table) == strip(p.stdout)[1 : 2 + len(c.rows)]
    assert c.converged_yaml == out.read_text()
    assert "levels: 4" in c.converged_yaml and f"steps: {c.steps}" in c.converged_yaml
    assert c.fidelity == pytest.approx(c.rows[-2]["fidelity"], abs=0)
    c.save(str(tmp_path / "saved.yaml"))
    again = qevolve.load(str(tmp_path / "saved.yaml"), threads=1).run()
    assert again.fidelity == pytest.approx(c.fidelity, abs=1e-12)


def test_converge_with_overrides(tmp_path):
    c = qevolve.loads(CONFIG, threads=1).converge(1e-3, {"device.qubits[q0].levels": 3})
    assert c.converged and c.levels == {"q0": 3}
    assert "levels: 3" in c.converged_yaml


@pytest.mark.parametrize("tolerance", [0.0, -1e-6, 0.5])
def test_bad_tolerance(tolerance):
    with pytest.raises(qevolve.ConfigError) as e:
        qevolve.loads(CONFIG, threads=1).converge(tolerance)
    assert e.value.key_path == "tolerance"
    assert "is not in (0, 0.1]" in e.value.problem
