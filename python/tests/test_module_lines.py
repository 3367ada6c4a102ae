"""Control lines through the module (docs/python.md, docs/lines.md): the CZ of
examples/cz_transmon_coupler.yaml with its flux pulse delayed by 5 ns and sent through `zline`
(sampled at 2.4 GS/s, a 0.5 ns Gaussian, a 1000 ns bias tee; with and without predistortion) runs
through `qevolve.load(...).run()` to the CLI's numbers bit for bit and saves the CLI's file;
`Result.pulses` holds /pulses/* (the line's output as `values`, the pulses before their lines
as `ideal`); a line key as an override or a sweep axis equals the CLI's --set and --vary."""
import numpy as np
import pytest

import qevolve
from conftest import EXAMPLES, cli, h5
from test_cli_equal import assert_files_equal

STEPS = 100  # the example's 800 give the same comparisons in 8 times the time


def zline_config(path, predistort=False):
    """The CZ example on `zline`, written to `path` (the same text as tests/cli/line_configs.hpp
    builds, with evolution.steps = STEPS)."""
    text = (EXAMPLES / "cz_transmon_coupler.yaml").read_text()
    assert text.count("duration: 50}") == 1 and text.count("\ndevice:\n") == 1
    assert text.count("steps: 800") == 1
    text = text.replace("duration: 50}", "duration: 50, delay: 5, line: zline}")
    text = text.replace("steps: 800", f"steps: {STEPS}")
    line = ("lines:\n  - name: zline\n    sample_rate: 2.4\n    filters:\n"
            "      - {type: gaussian, sigma: 0.5}\n      - {type: highpass, tau: 1000.0}\n")
    if predistort:
        line += "    predistort: true\n"
    text = text.replace("\ndevice:\n", "\n" + line + "device:\n")
    path.write_text(text)
    return path


def names(ref):
    return [n.decode() if isinstance(n, bytes) else n for n in ref["/pulses/names"]]


@pytest.mark.parametrize("predistort", [False, True])
def test_run_with_a_line_equals_the_cli(predistort, tmp_path):
    cfg = zline_config(tmp_path / "zline.yaml", predistort)
    ref_file = tmp_path / "cli.h5"
    cli("run", cfg, "--threads", "1", "-o", ref_file)
    ref = h5(ref_file)
    r = qevolve.load(cfg, threads=1).run()
    assert r.fidelity == float(ref["@fidelity"])
    assert r.leakage == float(ref["@leakage"])
    np.testing.assert_array_equal(r.unitary, ref["/unitary"])
    np.testing.assert_array_equal(r.propagator, ref["/propagator"])
    p = r.pulses
    assert set(p) == {"time", "values", "ideal", "names"}
    for key in ("time", "values", "ideal"):
        np.testing.assert_array_equal(p[key], ref[f"/pulses/{key}"], err_msg=key)
    assert p["names"] == names(ref) == ["pulses[0]"]
    assert p["values"].shape == p["ideal"].shape == (1, STEPS)
    # The line is what the mode sees: not the pulse (the bias tee droops; with predistortion the
    # Gaussian and the sample-and-hold still smooth and delay it).
    assert np.max(np.abs(p["values"] - p["ideal"])) > 1e-4
    ours = tmp_path / "py.h5"
    r.save(ours)
    assert_files_equal(h5(ours), ref)


def test_pulses_without_a_line_have_no_ideal(tmp_path):
    ref_file = tmp_path / "cli.h5"
    cli("run", EXAMPLES / "fluxonium_x.yaml", "--threads", "1", "-o", ref_file)
    ref = h5(ref_file)
    p = qevolve.load(EXAMPLES / "fluxonium_x.yaml", threads=1).run().pulses
    assert set(p) == {"time", "values", "names"} and "/pulses/ideal" not in ref
    np.testing.assert_array_equal(p["values"], ref["/pulses/values"])
    np.testing.assert_array_equal(p["time"], ref["/pulses/time"])


def test_line_override_equals_cli_set(tmp_path):
    """A line key as an override after a run of the file (the cached simulator's lines are
    rebuilt with its pulses): the CLI's --set, bit for bit; the first Result keeps its pulses."""
    cfg = zline_config(tmp_path / "zline.yaml")
    ref_file = tmp_path / "cli.h5"
    cli("run", cfg, "--threads", "1", "--set", "lines[zline].filters[1].tau=100", "-o", ref_file)
    sim = qevolve.load(cfg, threads=1)
    first = sim.run()
    before = first.pulses["values"].copy()
    r = sim.run({"lines[zline].filters[1].tau": 100})
    ref = h5(ref_file)
    assert r.fidelity == float(ref["@fidelity"])
    np.testing.assert_array_equal(r.pulses["values"], ref["/pulses/values"])
    np.testing.assert_array_equal(first.pulses["values"], before)
    assert np.max(np.abs(r.pulses["values"] - before)) > 1e-3  # tau 100 droops ten times faster
    np.testing.assert_array_equal(r.pulses["ideal"], first.pulses["ideal"])  # the same pulse
    ours = tmp_path / "py.h5"
    r.save(ours)
    assert_files_equal(h5(ours), ref)


def test_line_sweep_equals_the_cli(tmp_path):
    cfg = zline_config(tmp_path / "zline.yaml")
    ref_file = tmp_path / "cli.h5"
    cli("sweep", cfg, "--threads", "1", "--vary", "lines[0].filters[1].tau=100,1000",
        "--vary", "lines[zline].filters[0].sigma=0.5,2", "-o", ref_file, "--quiet")
    ref = h5(ref_file)
    s = qevolve.load(cfg, threads=1).sweep({"lines[0].filters[1].tau": [100, 1000],
                                            "lines[zline].filters[0].sigma": [0.5, 2]})
    assert s.shape == (2, 2)
    np.testing.assert_array_equal(s.fidelity, ref["/sweep/fidelity"])
    np.testing.assert_array_equal(s.populations, ref["/sweep/populations"])
    assert len(set(s.fidelity.ravel().tolist())) == 4
    assert s.builds == {"devices": 1, "simulators": 1, "pulse_updates": 3, "objectives": 1}
