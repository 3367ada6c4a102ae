"""Acceptance: control lines in a whole gate. The CZ of examples/cz_transmon_coupler.yaml, its
flux pulse delayed by 5 ns (T = 55 ns), run at the example's converged discretisation (magnus4,
splitting chebyshev, 1700 steps: the example's header; 3400 steps move every 1 - F below by
<= 1.2e-10), with the pulse going through a control line:

  (a) `{type: highpass, tau: 1000.0}` alone, no sampling;
  (b) `sample_rate: 2.4`, `{type: gaussian, sigma: 0.5}`, `{type: highpass, tau: 1000.0}`;
  (c) (b) with `predistort: true`;
  (d) (b) without the highpass (sampling and the Gaussian only).

(a), (b): the same waveform built independently by scripts/line_reference.py (numpy/scipy, no
qevolve code; qevolve's /pulses/values is not used) and given to qevolve as a
`piecewise_constant` flux pulse (values in flux quanta, the reference at the slice midpoints,
duration 55, delay 0) must give the same 1 - F within 3e-6. The slices are commensurate with
the steps (N = 1700 m, slices dt/m): magnus4 samples H at the two Gauss points of each step,
which then sit symmetrically about their slices' midpoints, and the piecewise-constant error
cancels to first order; with N incommensurate with the steps 1 - F wanders by ~3e-6 up to
N ~ 30000. Each case runs N and 2N slices and asks that 1 - F move by <= 3e-7 (observed
~1e-9). For (b) N is also a multiple of 132 (55 ns = 132 samples at 2.4 GS/s): the slice
edges include every sample edge, N = 56100 = 1700 * 33 = 132 * 425.

(c), (d): predistortion inverts the highpass, so (c) must do no worse than 1.5 x (d).

`pytest -s` prints every figure. 12 to 17 s (2 cores, loaded)."""
import copy
import json
import pathlib
import sys

import numpy as np
import pytest
import yaml

from conftest import EXAMPLES, cli, h5

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "scripts"))
import line_reference as L  # noqa: E402

STEPS = 1700
T = 55.0
RUN = ["--set", "evolution.solver=magnus4", "--set", "evolution.splitting=chebyshev", "--steps", str(STEPS),
       "--threads", "1", "--quiet"]
TOL = 3e-6            # |(1-F)_line - (1-F)_pwc|
CONVERGED = 3e-7      # |(1-F)_pwc(N) - (1-F)_pwc(2N)|: far below TOL
PREDISTORT_RATIO = 1.5

GAUSS = {"type": "gaussian", "sigma": 0.5}
HP = {"type": "highpass", "tau": 1000.0}
LINES = {
    "a": {"filters": [HP]},
    "b": {"sample_rate": 2.4, "filters": [GAUSS, HP]},
    "c": {"sample_rate": 2.4, "filters": [GAUSS, HP], "predistort": True},
    "d": {"sample_rate": 2.4, "filters": [GAUSS]},
}
SLICES = {"a": 8 * STEPS, "b": 33 * STEPS}  # (b): 56100 = 132 * 425, slices (1/2.4)/425 ns


def example():
    with open(EXAMPLES / "cz_transmon_coupler.yaml") as fh:
        cfg = yaml.safe_load(fh)
    assert len(cfg["pulses"]) == 1 and cfg["pulses"][0]["operator"] == "flux"
    return cfg


BASE = example()
SPEC = dict(BASE["pulses"][0], delay=5)


def infidelity(cfg, tmp_path, name):
    """1 - F of `qevolve run` on cfg (written as JSON, which YAML reads: fast for long value lists)."""
    path = tmp_path / f"{name}.yaml"
    path.write_text(json.dumps(cfg))
    out = tmp_path / f"{name}.h5"
    cli("run", path, "-o", out, *RUN)
    return 1.0 - float(h5(out)["@fidelity"])


def with_line(case):
    cfg = copy.deepcopy(BASE)
    cfg["lines"] = [dict(name="zline", **copy.deepcopy(LINES[case]))]
    cfg["pulses"] = [dict(SPEC, line="zline")]
    return cfg


def piecewise(values):
    cfg = copy.deepcopy(BASE)
    cfg["pulses"] = [{"qubit": SPEC["qubit"], "operator": "flux", "shape": "piecewise_constant", "duration": T,
                      "values": [float(v) for v in values]}]
    return cfg


def reference_values(case, n):
    """The line's output by scripts/line_reference.py at the midpoints of n equal slices of [0, T]."""
    signal = L.line_signal(SPEC, LINES[case], T)
    return signal((np.arange(n) + 0.5) * T / n)


@pytest.fixture(scope="module")
def line_runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("line_cz")
    out = {case: infidelity(with_line(case), tmp, f"line_{case}") for case in LINES}
    plain = copy.deepcopy(BASE)
    plain["pulses"] = [SPEC]
    out["none"] = infidelity(plain, tmp, "no_line")
    print()
    for case, value in out.items():
        print(f"CZ through line {case}: 1 - F = {value:.10e}")
    return out


def test_slices_align_with_steps_and_samples():
    assert SLICES["a"] % STEPS == 0 and SLICES["b"] % STEPS == 0
    assert SLICES["b"] % 132 == 0 and abs(T * 2.4 - 132) < 1e-12


@pytest.mark.parametrize("case", ["a", "b"])
def test_line_equals_independent_piecewise_pulse(case, line_runs, tmp_path):
    n = SLICES[case]
    pwc = {k: infidelity(piecewise(reference_values(case, k)), tmp_path, f"pwc_{case}_{k}") for k in (n, 2 * n)}
    line = line_runs[case]
    print(f"\n({case}) line: 1 - F = {line:.10e}")
    for k, value in pwc.items():
        print(f"({case}) piecewise_constant, {k} slices: 1 - F = {value:.10e}, line - pwc = {line - value:+.3e}")
    print(f"({case}) doubling the slices moves 1 - F by {pwc[2 * n] - pwc[n]:+.3e}")
    assert abs(pwc[2 * n] - pwc[n]) <= CONVERGED, f"({case}) the piecewise pulse is not converged in slices"
    for k, value in pwc.items():
        assert abs(line - value) <= TOL, f"({case}) {k} slices: |(1-F)_line - (1-F)_pwc| = {abs(line - value):.3e}"


def test_predistortion_undoes_the_highpass(line_runs):
    c, d = line_runs["c"], line_runs["d"]
    print(f"\n(c) predistorted chain 1 - F = {c:.10e}; (d) no highpass 1 - F = {d:.10e}; "
          f"(c)/(d) = {c / d:.6f}; (b) without predistortion {line_runs['b']:.10e}")
    assert c <= PREDISTORT_RATIO * d
