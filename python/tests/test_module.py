"""The module itself: import, version, overrides, errors, zero-copy arrays, the GIL."""
import re
import threading
import time

import numpy as np
import pytest

import qevolve
from conftest import EXAMPLES, cli

X = EXAMPLES / "fluxonium_x.yaml"


def test_version_is_the_cli_version():
    out = cli("--version").stdout
    assert qevolve.__version__ in out
    assert re.fullmatch(r"\d+\.\d+\.\d+", qevolve.__version__)


def test_module_is_this_build_tree():
    # ctest runs the module of its own build tree, not an installed copy.
    import os
    path = os.environ.get("PYTHONPATH")
    if path:
        assert qevolve.__file__.startswith(os.path.abspath(path.split(os.pathsep)[0]))


def test_bad_override_raises_config_error_with_the_cli_message():
    sim = qevolve.load(X)
    with pytest.raises(qevolve.ConfigError) as e:
        sim.run({"pulses[0].amplitude": "abc"})
    cli_msg = cli("run", X, "--set", "pulses[0].amplitude=abc", check=False)
    assert cli_msg.returncode == 2
    assert str(e.value) in cli_msg.stderr
    assert e.value.key_path == "pulses[0].amplitude"
    assert "--set pulses[0].amplitude=abc" in str(e.value)
    # an index past the end: located at the override as well
    with pytest.raises(qevolve.ConfigError, match=r"pulses\[3\]"):
        sim.run({"pulses[3].amplitude": 0.1})


def test_bad_yaml_raises_config_error_located_in_the_file(tmp_path):
    bad = tmp_path / "bad.yaml"
    text = X.read_text().replace("ej: 4.0", "ej: 4.0, ejj: 1")
    bad.write_text(text)
    with pytest.raises(qevolve.ConfigError) as e:
        qevolve.load(bad)
    cli_msg = cli("check", bad, check=False)
    assert cli_msg.returncode == 2
    assert str(e.value) in cli_msg.stderr
    line = next(k for k, row in enumerate(text.splitlines(), 1) if "ejj" in row)
    assert str(e.value).startswith(f"{bad}:{line}:")
    assert e.value.line == line and e.value.file == str(bad)
    with pytest.raises(qevolve.ConfigError, match=r"^<string>:\d+:\d+: "):
        qevolve.loads("device: [1, 2\n")
    assert issubclass(qevolve.ConfigError, ValueError)


def test_override_reuses_the_cached_simulator_and_equals_a_fresh_load():
    sim = qevolve.load(X, threads=1)
    a = sim.run({"pulses[0].amplitude": 0.08})
    b = sim.run({"pulses[0].amplitude": 0.07, "target.compensation": "vz"})
    fresh = qevolve.load(X, {"pulses[0].amplitude": 0.07, "target.compensation": "vz"}, threads=1).run()
    assert b.fidelity == fresh.fidelity
    np.testing.assert_array_equal(b.unitary, fresh.unitary)
    assert a.fidelity != b.fidelity
    # the earlier result is unchanged by the later run (its own arrays and pulse samples)
    assert a.fidelity == qevolve.load(X, {"pulses[0].amplitude": 0.08}, threads=1).run().fidelity


def test_arrays_are_views_without_copies():
    r = qevolve.load(X).run()
    u = r.unitary
    assert not u.flags.owndata and not u.flags.writeable
    assert np.shares_memory(u, r.unitary)  # the same storage each time
    assert u.shape == (2, 2) and u.dtype == np.complex128
    p = r.propagator
    assert np.shares_memory(p, r.propagator) and p.shape[0] == 10
    del r
    assert abs(abs(u[1, 0]) - 1) < 1e-2  # the view keeps the result alive


def test_gil_is_released_while_the_engine_runs():
    sim = qevolve.load(X, threads=1)
    count = 0
    stop = False

    def spin():
        nonlocal count
        while not stop:
            count += 1

    t = threading.Thread(target=spin)
    t.start()
    time.sleep(0.01)
    before = count
    t0 = time.perf_counter()
    for _ in range(3):
        sim.run({"pulses[0].phase": 0.5})
    elapsed = time.perf_counter() - t0
    during = count - before
    stop = True
    t.join()
    # With the GIL held the spinning thread would get nothing done during the runs.
    assert during > 1000, (during, elapsed)


def test_trace_when_asked():
    sim = qevolve.load(X)
    assert sim.run().trace is None
    r = sim.run({"output.trace": {"every": 100}})
    t = r.trace
    assert t["time"][0] == 0 and t["time"][-1] == pytest.approx(40.0)
    assert t["populations"].shape == (len(t["time"]), 10, 2)
    np.testing.assert_allclose(t["populations"].sum(axis=1), 1.0, atol=1e-9)


def test_spectrum_equals_the_cli(tmp_path):
    out = tmp_path / "s.h5"
    cli("spectrum", EXAMPLES / "mpc_chain_4q.yaml", "-o", out)
    from conftest import h5
    ref = h5(out)
    s = qevolve.load(EXAMPLES / "mpc_chain_4q.yaml").spectrum()
    np.testing.assert_allclose(s.energies, ref["/energies"], rtol=0, atol=1e-12)
    assert s.labels == [x.decode() if isinstance(x, bytes) else x for x in ref["/labels"]]
    for name, figures in s.modes.items():
        assert figures["f01_dressed"] == pytest.approx(float(ref[f"/qubits/{name}/f01_dressed"]), abs=1e-12)


def test_gradient_without_trainable_parameters_is_a_config_error():
    sim = qevolve.load(X)
    with pytest.raises(qevolve.ConfigError, match="trainable|optimize"):
        sim.gradient()
    assert sim.run().gradient is None


def test_sessions_on_threads_run_and_save_concurrently(tmp_path):
    # Two Simulations on two threads (the GIL released while they run; HDF5 entered by one at a
    # time): the same numbers as one after the other.
    names = ["fluxonium_x.yaml", "fluxonium_pair_chevron.yaml"]
    serial = {n: qevolve.load(EXAMPLES / n, threads=1).run().fidelity for n in names}
    out = {}

    def work(n):
        sim = qevolve.load(EXAMPLES / n, threads=1)
        for k in range(3):
            r = sim.run()
            r.save(tmp_path / f"{n}.{k}.h5")
        out[n] = r.fidelity

    threads = [threading.Thread(target=work, args=(n,)) for n in names]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert out == serial
    assert len(list(tmp_path.glob("*.h5"))) == 6


def test_warnings_are_the_clis_as_qevolve_warnings(tmp_path):
    """The CLI's `qevolve: warning: ...` lines (the step size) come as QevolveWarning, with the
    same text, from run and sweep; none when the steps resolve the phases. The example under
    expm (docs/reference.md's reference point), whose step-size rule counts the carriers."""
    X = tmp_path / "x_expm.yaml"
    X.write_text(EXAMPLES.joinpath("fluxonium_x.yaml").read_text().replace(
        "solver: magnus4\n  splitting: dense\n  steps: 2000", "solver: expm\n  steps: 1279"))
    sim = qevolve.load(X)
    coarse = cli("run", X, "--set", "evolution.steps=10", "--quiet").stderr
    assert coarse.startswith("qevolve: warning: 14.6 rad per step on mode `q0`"), coarse
    with pytest.warns(qevolve.QevolveWarning) as caught:
        r = sim.run({"evolution.steps": 10})
    assert [str(w.message) for w in caught] == r.warnings == [coarse.strip().removeprefix("qevolve: warning: ")]
    assert caught[0].filename == __file__  # pointed at the caller's line
    swept = cli("sweep", X, "--vary", "evolution.steps=300,10", "--quiet").stderr
    with pytest.warns(qevolve.QevolveWarning) as caught:
        s = sim.sweep({"evolution.steps": [300, 10]})
    lines = [line.removeprefix("qevolve: warning: ") for line in swept.strip().split("\n")]
    assert [str(w.message) for w in caught] == s.warnings == lines
    assert len(lines) == 2 and "time steps move F" in lines[1]  # the step size at 10, the step error at 300
    assert "at the sweep's point evolution.steps = 10" in s.warnings[0]
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", qevolve.QevolveWarning)
        assert sim.run({"evolution.steps": 20000}).warnings == []


def test_load_checks_what_qevolve_check_checks():
    """load() refuses what `qevolve check` refuses (the whole resolution stage), with its message."""
    cz = EXAMPLES / "cz_transmon_coupler.yaml"
    for key, value in [("pulses[0].qubit", "qa"), ("target.gates", [{"gate": "CZ", "qubits": ["qa", "c"]}])]:
        text = f"{key}={qevolve._yaml(value)}"
        expected = cli("check", cz, "--set", text, check=False)
        assert expected.returncode == 2
        with pytest.raises(qevolve.ConfigError) as e:
            qevolve.load(cz, overrides={key: value})
        assert expected.stderr.strip() == f"qevolve: error: {e.value}"
    assert qevolve.load(EXAMPLES / "mpc_chain_4q.yaml").spectrum().energies.size > 0  # a device alone loads
