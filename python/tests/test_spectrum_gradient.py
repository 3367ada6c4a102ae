"""Simulation.spectrum(gradient=[keys]): the derivatives of the spectrum's energy figures with
respect to device parameters, against central differences of spectrum() itself, and the errors
for keys that name no device parameter (the fitting example that uses them: test_examples.py)."""
import numpy as np
import pytest

import qevolve

PAIR = """
device:
  qubits:
    - {name: q0, type: fluxonium, ec: 1.0, ej: 4.0, el: 0.9, flux: 0.45, levels: 4}
    - {name: q1, type: fluxonium, ec: 1.1, ej: 4.3, el: 1.0, flux: 0.5, levels: 3}
  couplings:
    - {qubits: [q0, q1], capacitive: 0.02, inductive: -0.002}
"""
KEYS = ["device.qubits[q0].ej", "device.qubits[q0].ec", "device.qubits[0].el", "device.qubits[q0].flux",
        "device.qubits[q1].ej", "device.couplings[0].capacitive", "device.couplings[0].inductive"]
VALUES = [4.0, 1.0, 0.9, 0.45, 4.3, 0.02, -0.002]


def figures(s):
    """Every figure with a derivative, as one vector: energies, per mode f01, f12, dressed f01, ZZ."""
    per_mode = [[m[k] for m in s.modes.values()] for k in ("f01_bare", "f12_bare", "f01_dressed")]
    return np.concatenate([s.energies, *map(np.array, per_mode), list(s.zz_khz.values())])


def derivatives(s):
    per_mode = [np.array([m[k + "_gradient"] for m in s.modes.values()])
                for k in ("f01_bare", "f12_bare", "f01_dressed")]
    return np.vstack([s.energies_gradient, *per_mode, np.array(list(s.zz_khz_gradient.values()))])


def test_gradient_equals_central_differences_of_spectrum():
    # Richardson-extrapolated central differences of spectrum() with overrides, step h = 1e-4 of
    # each value (at least 1e-6, for the small couplings): truncation ~h^4 f^(5) < 1e-12;
    # eigenvalue rounding ~1e-14 GHz / h <= 1e-8. The spectrum also re-chooses each fluxonium's
    # automatic phase grid at every value of a mode parameter (the derivative holds it fixed),
    # which moves energies by the grid's convergence error, < 1e-12 GHz: < 1e-12 / h <= 3e-8
    # in the differences. Tolerance 1e-6 of max(1, |d|) (GHz per unit; for ZZ, kHz per unit: 1e-6
    # of max(1e6, |d|)); measured worst 1.6e-8 (the inductive coupling, h = 1e-6).
    sim = qevolve.loads(PAIR)
    s = sim.spectrum(gradient=KEYS)
    assert s.gradient_names == ["device.qubits[q0].ej", "device.qubits[q0].ec", "device.qubits[q0].el",
                                "device.qubits[q0].flux", "device.qubits[q1].ej", "device.couplings[0].capacitive",
                                "device.couplings[0].inductive"]
    D = len(s.energies)
    assert s.energies_gradient.shape == (D, len(KEYS))
    analytic = derivatives(s)
    unit = np.ones(analytic.shape[0])
    unit[-len(s.zz_khz):] = 1e6
    for j, (key, x) in enumerate(zip(KEYS, VALUES)):
        h = max(1e-4 * abs(x), 1e-6)
        f = {d: figures(sim.spectrum({key: x + d * h})) for d in (-2, -1, 1, 2)}
        fd = (8 * (f[1] - f[-1]) - (f[2] - f[-2])) / (12 * h)
        err = np.abs(analytic[:, j] - fd) / np.maximum(unit, np.abs(fd))
        assert err.max() < 1e-6, (key, err.max())


def test_without_gradient_the_derivatives_are_none():
    s = qevolve.loads(PAIR).spectrum()
    assert s.gradient_names == [] and s.energies_gradient is None and s.zz_khz_gradient is None
    assert s.modes["q0"]["f01_dressed_gradient"] is None
    one = qevolve.loads(PAIR).spectrum(gradient="device.qubits[q1].el")  # one key as a string
    assert one.energies_gradient.shape == (12, 1) and one.modes["q0"]["f01_bare_gradient"][0] == 0.0


@pytest.mark.parametrize("key, message", [
    ("device.qubits[q0].ejj", "gradient: device.qubits[q0].ejj: unknown key `ejj`, did you mean `ej`? "
                              "(expected one of: ec, ej, el, flux)"),
    ("device.qubits[Q0].ej", "unknown mode `Q0`, did you mean `q0`?"),
    ("device.qubits[q0].ng", "`ng` is not a parameter of fluxonium mode `q0`"),
    ("device.couplings[3].capacitive", "there is 1 coupling (expected an index below 1)"),
    ("pulses[0].amplitude", "`pulses[0].amplitude` is not a device parameter"),
])
def test_bad_keys_are_config_errors(key, message):
    with pytest.raises(qevolve.ConfigError) as e:
        qevolve.loads(PAIR).spectrum(gradient=[key])
    assert isinstance(e.value, ValueError)
    assert message in str(e.value)
    assert e.value.key_path == key and e.value.file == "gradient"


def test_the_did_you_mean_is_the_one_of_set():
    # --set with the same misspelt parameter: the same "did you mean" words.
    with pytest.raises(qevolve.ConfigError, match=r"unknown key `ejj`, did you mean `ej`\?"):
        qevolve.loads(PAIR).spectrum({"device.qubits[q0].ejj": 4.0})
