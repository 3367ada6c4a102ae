"""Self-checks of scripts/line_reference.py, the independent reference of a control line's output
(test_lines.py compares qevolve with it). No qevolve code: closed forms, scipy's quad and LTI
identities against the reference's piecewise-polynomial filters, all to <= 1e-12 of the peak."""
import math
import pathlib
import sys

import numpy as np
import pytest
from scipy.integrate import quad
from scipy.special import ndtr

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "scripts"))
import line_reference as L  # noqa: E402

RAMPCOS = dict(shape="rampcos", amplitude=0.1545, ramp=24, duration=50, delay=5)
PEAK = 0.1545
T = (np.arange(613) + 0.5) * 60 / 613      # output times like /pulses/time
TOL = 1e-12 * PEAK
QUAD = dict(epsabs=1e-16, epsrel=1e-14, limit=2000)
# quad reports that rounding stops it short of these tolerances: it then is at rounding.
pytestmark = pytest.mark.filterwarnings("ignore::scipy.integrate.IntegrationWarning")


def f_rampcos():
    return L.pulse(RAMPCOS)[0]


def unit_step(end=80.0):
    return L.Signal.of(np.ones_like, L.refine([0.0, end], 0.25))


def test_pulse_shapes_follow_docs_pulses_md():
    f, breaks, peak = L.pulse(RAMPCOS)
    assert breaks == [5, 29, 31, 55] and peak == PEAK
    np.testing.assert_allclose(f(np.array([4.99, 5, 17, 29, 30, 31, 43, 55, 55.01])),
                               [0, 0, PEAK / 2, PEAK, PEAK, PEAK, PEAK / 2, 0, 0], atol=1e-17)
    g = L.pulse(dict(shape="rampcos", amplitude=1, plateau=2, ramp=24, delay=5))[0]
    np.testing.assert_allclose(g(T), f(T) / PEAK, atol=1e-15)
    c = L.pulse(dict(shape="cos", amplitude=2, duration=20, delay=1, frequency=0.1, phase=0.3))[0]
    tau = np.array([0.0, 5, 10, 20])
    np.testing.assert_allclose(c(1 + tau), [0, 1, 2, 0] * np.cos(2 * np.pi * 0.1 * tau + 0.3), atol=1e-15)


@pytest.mark.parametrize("tau", [1000.0, 20.0, 5.0, 0.3])
def test_iir_step_responses(tau):
    for x in (unit_step(), L.sample(np.ones_like, 2.4, 80.0)):  # generic and closed-form paths
        np.testing.assert_allclose(L.highpass(x, tau)(T), np.exp(-T / tau), rtol=0, atol=1e-13)
        for A in (-0.02, 0.3):
            np.testing.assert_allclose(L.exponential(x, A, tau)(T), 1 + A * np.exp(-T / tau), rtol=0, atol=1e-13)


@pytest.mark.parametrize("sigma", [0.5, 0.05])
def test_gaussian_of_a_step_is_phi(sigma):
    for x in (unit_step(), L.sample(np.ones_like, 2.4, 80.0)):
        np.testing.assert_allclose(L.gaussian(x, sigma)(T - 3), ndtr((T - 3) / sigma), rtol=0, atol=2e-15)


def test_sampling_holds_f_at_k_over_r():
    f = f_rampcos()
    s = L.sample(f, 2.4, 80.0)
    k = np.floor(T * 2.4)
    np.testing.assert_array_equal(s(T), f(k / 2.4))
    assert s(np.array([-0.1]))[0] == 0


def test_fir_of_samples_is_the_tap_sum():
    f = f_rampcos()
    y = L.fir(L.sample(f, 2.4, 80.0), [0.1, 0.8, 0.1], 2.4)(T)
    k = np.floor(T * 2.4)
    ref = sum(h * np.where(k - j >= 0, f((k - j) / 2.4), 0) for j, h in enumerate([0.1, 0.8, 0.1]))
    np.testing.assert_allclose(y, ref, rtol=0, atol=1e-16)


def test_closed_forms_equal_the_quadrature_paths():
    # A sampled pulse held at degree 0 takes the closed forms; the same held at degree 24 the
    # Gauss-Legendre paths.
    s = L.sample(f_rampcos(), 2.4, 80.0)
    s24 = s.on(s.edges, 24)
    for tau in (1000.0, 20.0, 5.0):
        np.testing.assert_allclose(L.highpass(s, tau)(T), L.highpass(s24, tau)(T), rtol=0, atol=TOL)
    np.testing.assert_allclose(L.gaussian(s, 0.5)(T), L.gaussian(s24, 0.5)(T), rtol=0, atol=TOL)


def _lowpass_quad(g, tau, t, lo, points=()):
    """(1/tau) int_lo^t e^{-(t-u)/tau} g(u) du by scipy's quad."""
    pts = [p for p in points if lo < p < t]
    return quad(lambda u: math.exp(-(t - u) / tau) * float(g(u)) / tau, lo, t, points=pts or None, **QUAD)[0]


def test_continuous_filters_against_quad():
    f, breaks, _ = L.pulse(RAMPCOS)
    c = L.continuous(f, breaks, 80.0)
    ts = T[::37]
    for tau in (20.0, 5.0):
        hp = L.highpass(c, tau)(ts)
        ref = [f(t) - _lowpass_quad(f, tau, t, 0.0, breaks) for t in ts]
        np.testing.assert_allclose(hp, ref, rtol=0, atol=TOL)
    sigma = 0.5
    g = L.gaussian(c, sigma)(ts)

    def gq(t):
        pts = [t - p for p in breaks if abs(t - p) < 9 * sigma]
        return quad(lambda u: float(f(t - u)) * math.exp(-u * u / (2 * sigma ** 2)) / (sigma * math.sqrt(2 * math.pi)),
                    -9 * sigma, 9 * sigma, points=pts or None, **QUAD)[0]
    np.testing.assert_allclose(g, [gq(t) for t in ts], rtol=0, atol=TOL)


def _erf_sum(f, rate, sigma):
    """The Gaussian of the samples of f, written directly: sum_k f(k/r) [Phi((t-k/r)/s) - Phi((t-(k+1)/r)/s)]."""
    k = np.arange(int(80 * rate) + 2)
    c = f(k / rate)

    def g(t):
        return float(np.sum(c * (ndtr((t - k / rate) / sigma) - ndtr((t - (k + 1) / rate) / sigma))))
    return g


def test_full_chain_against_partial_fractions_and_quad():
    # sampled -> gaussian -> highpass tau1 -> exponential (A, tau2) -> fir, at a few times, by the
    # LTI identity L2 L1 = (tau1 L1 - tau2 L2) / (tau1 - tau2) and quad of a directly written erf sum.
    f = f_rampcos()
    rate, sigma, tau1, A, tau2, taps = 2.4, 0.5, 20.0, -0.02, 30.0, [0.1, 0.8, 0.1]
    line = dict(sample_rate=rate, filters=[dict(type="gaussian", sigma=sigma), dict(type="highpass", tau=tau1),
                                           dict(type="exponential", amplitude=A, tau=tau2),
                                           dict(type="fir", taps=taps)])
    ts = T[[50, 150, 260, 400, 560, 612]]
    ours = L.line_output(RAMPCOS, line, ts)
    G = _erf_sum(f, rate, sigma)
    lo = -9 * sigma
    edges = list(np.arange(0, 80, 1 / rate))

    def y2(t):
        g, l1, l2 = G(t), _lowpass_quad(G, tau1, t, lo, edges), _lowpass_quad(G, tau2, t, lo, edges)
        l21 = (tau1 * l1 - tau2 * l2) / (tau1 - tau2)
        return (1 + A) * (g - l1) - A * (l2 - l21)
    ref = [sum(h * y2(t - j / rate) for j, h in enumerate(taps)) for t in ts]
    np.testing.assert_allclose(ours, ref, rtol=0, atol=TOL)


@pytest.mark.parametrize("rate", [None, 2.4])
def test_filter_order_does_not_matter_mathematically(rate):
    # Gaussian then highpass vs highpass then Gaussian: different code paths, the same LTI result.
    gh = [dict(type="gaussian", sigma=0.5), dict(type="highpass", tau=20.0)]
    a = L.line_output(RAMPCOS, dict(sample_rate=rate, filters=gh), T)
    b = L.line_output(RAMPCOS, dict(sample_rate=rate, filters=gh[::-1]), T)
    np.testing.assert_allclose(a, b, rtol=0, atol=TOL)


def test_gaussian_before_zero_enters_the_highpass():
    # delay 0: the Gaussian spreads the samples before t = 0 and the highpass integrates from there.
    spec = dict(shape="rampcos", amplitude=PEAK, ramp=4, duration=30, delay=0)
    f = L.pulse(spec)[0]
    sigma, tau = 0.5, 20.0
    line = dict(sample_rate=2.4, filters=[dict(type="gaussian", sigma=sigma), dict(type="highpass", tau=tau)])
    ts = T[[0, 3, 10, 40, 200]]
    G = _erf_sum(f, 2.4, sigma)
    edges = list(np.arange(0, 80, 1 / 2.4))
    ref = [G(t) - _lowpass_quad(G, tau, t, -9 * sigma, edges) for t in ts]
    np.testing.assert_allclose(L.line_output(spec, line, ts), ref, rtol=0, atol=TOL)
    from_zero = [G(t) - _lowpass_quad(G, tau, t, 0.0, edges) for t in ts]
    assert np.max(np.abs(np.array(from_zero) - ref)) > 1e-7  # the part before 0 is seen


def test_predistorted_pulse_against_quad():
    # p = inverse highpass tau1 of inverse exponential (A, tau2) of f, written with F = int_0^t f
    # and z = L_tau' f (quad): Iexp f = (1+A') f - A' z, int_0^t z = F - tau' z.
    f, breaks, _ = L.pulse(RAMPCOS)
    tau1, A, tau2 = 20.0, -0.02, 30.0
    filters = [dict(type="highpass", tau=tau1), dict(type="exponential", amplitude=A, tau=tau2)]
    p = L.predistorted(f, breaks, filters, 80.0)
    Ap, tp = -A / (1 + A), (1 + A) * tau2
    ts = np.arange(0, 150) / 2.4

    def ref(t):
        F = quad(lambda u: float(f(u)), 0, t, points=[b for b in breaks if b < t] or None, **QUAD)[0] if t > 0 else 0
        z = _lowpass_quad(f, tp, t, 0.0, breaks) if t > 0 else 0
        return (1 + Ap) * (f(t) + F / tau1) - Ap * (z + (F - tp * z) / tau1)
    np.testing.assert_allclose(p(ts), [ref(t) for t in ts], rtol=0, atol=TOL)


@pytest.mark.parametrize("filters", [
    [dict(type="highpass", tau=20.0)],
    [dict(type="exponential", amplitude=0.3, tau=5.0)],
    [dict(type="exponential", amplitude=-0.02, tau=30.0)],
    [dict(type="gaussian", sigma=0.5), dict(type="highpass", tau=1000.0),
     dict(type="exponential", amplitude=-0.02, tau=30.0), dict(type="highpass", tau=20.0)],
], ids=["highpass", "exponential+", "exponential-", "chain"])
def test_predistortion_without_sampling_inverts_the_iir_filters(filters):
    iir = [x for x in filters if x["type"] != "gaussian"]
    out = L.line_output(RAMPCOS, dict(filters=iir, predistort=True), T)
    np.testing.assert_allclose(out, f_rampcos()(T), rtol=0, atol=TOL)
    if len(iir) < len(filters):  # with the Gaussian: the Gaussian of f alone
        f, breaks, _ = L.pulse(RAMPCOS)
        g = L.gaussian(L.continuous(f, breaks, 90.0), 0.5)(T)
        np.testing.assert_allclose(L.line_output(RAMPCOS, dict(filters=filters, predistort=True), T), g,
                                   rtol=0, atol=TOL)


def test_a_carrier_through_the_line():
    spec = dict(shape="cos", amplitude=0.02, frequency=4.3, phase=0.4, duration=20, delay=2.5)
    f, breaks, _ = L.pulse(spec)
    ts = np.linspace(0.01, 24.9, 41)
    out = L.line_output(spec, dict(filters=[dict(type="exponential", amplitude=0.3, tau=5.0)]), ts)
    ref = [1.3 * f(t) - 0.3 * _lowpass_quad(f, 5.0, t, 0.0, breaks + list(np.arange(0, 25, 0.05))) for t in ts]
    np.testing.assert_allclose(out, ref, rtol=0, atol=1e-12 * 0.02)
    samp = L.line_output(spec, dict(sample_rate=20, filters=[dict(type="gaussian", sigma=0.02)]), ts)
    G = _erf_sum(f, 20.0, 0.02)
    np.testing.assert_allclose(samp, [G(t) for t in ts], rtol=0, atol=1e-12 * 0.02)
