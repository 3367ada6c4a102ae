"""Plausibility warnings (docs/config.md "Plausibility warnings") from the module: the lines the
CLI prints, as QevolveWarning from run, sweep and optimize, located as the CLI locates them (at
the file's key, or at the override that placed the value); none on the shipped examples."""
import warnings

import pytest

import qevolve
from conftest import EXAMPLES, cli

X = EXAMPLES / "fluxonium_x.yaml"
PREFIX = "qevolve: warning: "


def test_run_warns_as_the_cli_at_the_override():
    line = cli("run", X, "--set", "device.qubits[0].flux=3.14159", "--quiet").stderr
    assert line.startswith(PREFIX + "--set device.qubits[0].flux=3.14159: device.qubits[0].flux: 3.14159 flux "
                           "quanta is beyond +/-1"), line
    sim = qevolve.load(X)
    with pytest.warns(qevolve.QevolveWarning) as caught:
        r = sim.run({"device.qubits[0].flux": 3.14159})
    assert [str(w.message) for w in caught] == r.warnings == [line.strip().removeprefix(PREFIX)]


def test_run_warns_at_the_files_key(tmp_path):
    text = X.read_text().replace("flux: 0.5", "flux: 3.14159")
    assert text != X.read_text()
    path = tmp_path / "pi.yaml"
    path.write_text(text)
    line = cli("run", path, "--quiet").stderr
    assert line.startswith(PREFIX + f"{path}:"), line
    # With an override of another key the file's location is kept (the text is read again).
    with pytest.warns(qevolve.QevolveWarning) as caught:
        r = qevolve.load(path).run({"pulses[0].phase": 0.6})
    assert r.warnings == [line.strip().removeprefix(PREFIX)]
    assert [str(w.message) for w in caught] == r.warnings


def test_spectrum_warns_as_the_cli():
    line = cli("spectrum", X, "--set", "device.qubits[0].ec=4.0", "--set", "device.qubits[0].ej=1.0").stderr
    assert line.startswith(PREFIX + "--set device.qubits[0].ej=1.0: device.qubits[0].ej: EJ/EC = 0.25"), line
    with pytest.warns(qevolve.QevolveWarning) as caught:
        s = qevolve.load(X).spectrum({"device.qubits[0].ec": 4.0, "device.qubits[0].ej": 1.0})
    assert [str(w.message) for w in caught] == s.warnings == [line.strip().removeprefix(PREFIX)]
    assert caught[0].filename == __file__  # pointed at the caller's line
    assert s.energies.size > 0


def test_sweep_names_the_first_point_with_a_warning():
    vary = ["pulses[0].frequency=0.5823664862818624,3.65911655"]
    lines = cli("sweep", X, "--vary", *vary, "--quiet").stderr.splitlines()
    assert lines[0].startswith(PREFIX + "--vary pulses[0].frequency=0.5823664862818624,3.65911655 (value 3.65911655)"
                               ": pulses[0].frequency: 3.65912 GHz drives no transition"), lines
    with pytest.warns(qevolve.QevolveWarning) as caught:
        s = qevolve.load(X).sweep({"pulses[0].frequency": [0.5823664862818624, 3.65911655]})
    assert s.warnings == [x.removeprefix(PREFIX) for x in lines]
    assert [str(w.message) for w in caught] == s.warnings


def test_none_on_the_shipped_examples():
    with warnings.catch_warnings():
        warnings.simplefilter("error", qevolve.QevolveWarning)
        for name in ["fluxonium_x.yaml", "fluxonium_x_lindblad.yaml", "cnot_cr_pair.yaml"]:
            assert qevolve.load(EXAMPLES / name).run().warnings == [], name
