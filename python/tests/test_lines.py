"""Control lines (`lines:` of the config) in `qevolve run` against the independent reference
scripts/line_reference.py (numpy/scipy, no qevolve code; its own checks: test_line_reference.py).

Each case runs a short evolution of one tunable transmon (or a fixed one for the carrier case)
whose pulse goes through a line, and asks of /pulses/values (what the qubit sees) that it equal
the reference at every /pulses/time to 1e-9 of the pulse's peak. Where the file has
/pulses/ideal (the pulse before the line) it must equal the pulse f itself, and the line-less
run's /pulses/values."""
import pathlib
import sys

import numpy as np
import pytest
import yaml

from conftest import cli, h5

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "scripts"))
import line_reference as L  # noqa: E402

TOL = 1e-9  # of the pulse's peak
RATE = 2.4
FLUX_DEVICE = {"qubits": [{"name": "c", "type": "transmon", "ec": 0.120, "ej": 45.0, "asymmetry": 0.2,
                           "flux": 0.2, "levels": 3}]}
DRIVE_DEVICE = {"qubits": [{"name": "q", "type": "transmon", "ec": 0.2, "ej": 11.0, "levels": 3}]}
FLUX = {"qubit": "c", "operator": "flux", "shape": "rampcos", "amplitude": 0.1545, "ramp": 24, "duration": 50,
        "delay": 5}
# 624 steps over 60 ns: no step midpoint lies within 0.016 ns of a sample edge k/2.4 (checked below),
# so a jump of the held samples never falls on an output time.
FLUX_EVOLUTION = {"solver": "expm", "steps": 624, "duration": 60.0}
CARRIER = {"qubit": "q", "shape": "cos", "amplitude": 0.02, "frequency": 4.3, "phase": 0.4, "duration": 20,
           "delay": 2.5}
CARRIER_EVOLUTION = {"solver": "expm", "steps": 1413, "duration": 25.0}

GAUSS = {"type": "gaussian", "sigma": 0.5}
HP1000 = {"type": "highpass", "tau": 1000.0}
HP20 = {"type": "highpass", "tau": 20.0}
EXP_NEG = {"type": "exponential", "amplitude": -0.02, "tau": 30.0}
EXP_POS = {"type": "exponential", "amplitude": 0.3, "tau": 5.0}
FIR = {"type": "fir", "taps": [0.1, 0.8, 0.1]}
CHAIN = [GAUSS, HP1000, EXP_NEG, FIR]

# name: (line without its name, pulse)
CASES = {
    "sampling": ({"sample_rate": RATE}, FLUX),
    "sampled_gaussian": ({"sample_rate": RATE, "filters": [GAUSS]}, FLUX),
    "sampled_highpass_1000": ({"sample_rate": RATE, "filters": [HP1000]}, FLUX),
    "sampled_highpass_20": ({"sample_rate": RATE, "filters": [HP20]}, FLUX),
    "sampled_exponential_neg": ({"sample_rate": RATE, "filters": [EXP_NEG]}, FLUX),
    "sampled_exponential_pos": ({"sample_rate": RATE, "filters": [EXP_POS]}, FLUX),
    "sampled_fir": ({"sample_rate": RATE, "filters": [FIR]}, FLUX),
    "gaussian": ({"filters": [GAUSS]}, FLUX),
    "highpass_1000": ({"filters": [HP1000]}, FLUX),
    "highpass_20": ({"filters": [HP20]}, FLUX),
    "exponential_neg": ({"filters": [EXP_NEG]}, FLUX),
    "exponential_pos": ({"filters": [EXP_POS]}, FLUX),
    "chain": ({"sample_rate": RATE, "filters": CHAIN}, FLUX),
    "chain_predistort": ({"sample_rate": RATE, "filters": CHAIN, "predistort": True}, FLUX),
    "chain_hp20_predistort": ({"sample_rate": RATE, "filters": [GAUSS, HP20, EXP_POS, FIR], "predistort": True},
                              FLUX),
    "highpass_then_gaussian": ({"sample_rate": RATE, "filters": [HP20, GAUSS]}, FLUX),
    "gaussian_then_highpass": ({"sample_rate": RATE, "filters": [GAUSS, HP20]}, FLUX),
    "delay0_gaussian_then_highpass": ({"sample_rate": RATE, "filters": [GAUSS, HP20]},
                                      dict(FLUX, ramp=4, duration=30, delay=0)),
    "carrier": ({"sample_rate": 20.0, "filters": [{"type": "gaussian", "sigma": 0.02}, EXP_POS]}, CARRIER),
}


def config(line, spec):
    """The config of one case; line None: the pulse without a line."""
    carrier = spec is CARRIER
    cfg = {"device": DRIVE_DEVICE if carrier else FLUX_DEVICE}
    pulse = dict(spec)
    if line is not None:
        cfg["lines"] = [dict(name="zline", **line)]
        pulse["line"] = "zline"
    cfg["pulses"] = [pulse]
    cfg["evolution"] = CARRIER_EVOLUTION if carrier else FLUX_EVOLUTION
    return cfg


def run(cfg, tmp_path, name):
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(cfg, sort_keys=False, default_flow_style=None))
    out = tmp_path / f"{name}.h5"
    cli("run", path, "--threads", "1", "-o", out)
    return h5(out)


def describe(t, got, ref, peak):
    dev = np.abs(got - ref)
    bad = np.flatnonzero(dev > TOL * peak)
    worst = int(np.argmax(dev))
    lines = [f"max |qevolve - reference| = {dev[worst]:.3e} = {dev[worst] / peak:.3e} of the peak {peak:g} "
             f"at t = {t[worst]:.6f} ns (qevolve {got[worst]:.15g}, reference {ref[worst]:.15g}); "
             f"{bad.size} of {t.size} times beyond {TOL:g}"]
    if bad.size:
        lines.append(f"first beyond: t = {t[bad[0]]:.6f} ns, deviation {dev[bad[0]] / peak:.3e} of the peak")
    return "\n".join(lines)


def test_output_times_avoid_sample_edges():
    t = (np.arange(FLUX_EVOLUTION["steps"]) + 0.5) * FLUX_EVOLUTION["duration"] / FLUX_EVOLUTION["steps"]
    k = np.round(t * RATE)
    assert np.min(np.abs(t - k / RATE)) > 0.01


@pytest.mark.parametrize("name", list(CASES))
def test_line_output_equals_the_reference(name, tmp_path):
    line, spec = CASES[name]
    out = run(config(line, spec), tmp_path, name)
    t, got = out["/pulses/time"], out["/pulses/values"][0]
    f, _, peak = L.pulse(spec)
    ref = L.line_output(spec, line, t)
    assert np.max(np.abs(got - ref)) <= TOL * peak, f"{name}: " + describe(t, got, ref, peak)
    if "/pulses/ideal" in out:
        ideal = out["/pulses/ideal"][0]
        # 1e-12: two implementations of cos(2 pi 4.3 GHz t + phase) differ by ~5e-14 at t ~ 20 ns
        assert np.max(np.abs(ideal - f(t))) <= 1e-12 * peak, f"{name}: /pulses/ideal is not the pulse f"


def test_each_pulse_sees_its_own_line(tmp_path):
    # Two pulses on one mode: a cos through the chain with predistortion, a rampcos without a line.
    first = {"qubit": "c", "operator": "flux", "shape": "cos", "amplitude": 0.05, "duration": 20, "delay": 3}
    cfg = config(CASES["chain_predistort"][0], first)
    cfg["pulses"].append(dict(FLUX, amplitude=0.03, delay=8))
    out = run(cfg, tmp_path, "two")
    t, got = out["/pulses/time"], out["/pulses/values"]
    for k, (spec, line) in enumerate([(first, CASES["chain_predistort"][0]), (cfg["pulses"][1], None)]):
        ref = L.line_output(spec, line, t)
        peak = L.pulse(spec)[2]
        assert np.max(np.abs(got[k] - ref)) <= TOL * peak, f"pulses[{k}]: " + describe(t, got[k], ref, peak)


@pytest.mark.parametrize("name", ["chain_predistort", "carrier"])
def test_ideal_is_the_line_less_pulse(name, tmp_path):
    line, spec = CASES[name]
    with_line = run(config(line, spec), tmp_path, "line")
    if "/pulses/ideal" not in with_line:
        pytest.skip("qevolve does not write /pulses/ideal (yet): nothing to compare")
    plain = run(config(None, spec), tmp_path, "plain")
    np.testing.assert_array_equal(with_line["/pulses/time"], plain["/pulses/time"])
    peak = L.pulse(spec)[2]
    np.testing.assert_allclose(with_line["/pulses/ideal"], plain["/pulses/values"], rtol=0, atol=1e-15 * peak)
