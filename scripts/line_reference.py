#!/usr/bin/env python3
"""Independent numerical reference of a control line's output (numpy and scipy only, no qevolve
code): what the qubit sees when a pulse reaches it through a `lines:` entry of the config.

The line, t from the evolution's start, f the pulse of docs/pulses.md (0 outside its window):
  * sampling (`sample_rate` r, GS/s): s(t) = f(k/r) on [k/r, (k+1)/r), k = 0, 1, ...; s = 0
    for t < 0; without sample_rate s = f;
  * then the filters, applied one by one in the order listed:
      gaussian sigma        y = x * g_sigma (two-sided unit-area Gaussian of std sigma)
      highpass tau          y = x - L_tau x,  L_tau x(t) = (1/tau) int_{-inf}^t e^{-(t-u)/tau} x(u) du
      exponential A, tau    y = x + A (x - L_tau x)   (step response 1 + A e^{-t/tau})
      fir taps h_j          y(t) = sum_j h_j x(t - j/r)
    The line is at rest before its input starts (t = 0, or earlier where a Gaussian has spread
    the signal before 0: the later IIR integrals include that part);
  * `predistort: true`: f is replaced, before sampling, by the exact inverse of the line's
    highpass and exponential filters applied to f (in reverse order of the list): highpass tau
    -> x + (1/tau) int_0^t x, exponential (A, tau) -> exponential (-A/(1+A), (1+A) tau). The
    sampling and every filter (those two included) then follow as above.

Method. Every intermediate signal is held as a piecewise polynomial (`Signal`): on each piece of
a partition that contains every point where the signal or one of its derivatives may jump
(sample edges, the pulse's window and ramp ends, their FIR shifts) the values at the Chebyshev
points of the first kind (interior points: a jump at an edge is never sampled), barycentric
interpolation in between. Within a piece every signal here is analytic and the pieces are
short (<= 0.25 ns, <= sigma, <= a quarter carrier period), so the interpolant is exact to
rounding (python/tests/test_line_reference.py measures it against closed forms and scipy's quad).
The filters:
  * closed forms where the input is piecewise constant (a sampled pulse, or an FIR of one): the
    Gaussian is a sum of erf differences; the IIR state is c + (z(a) - c) e^{-(t-a)/tau} on a
    piece of value c;
  * otherwise Gauss-Legendre quadrature per piece (a polynomial times a smooth kernel on each
    piece): the IIR state is carried from piece to piece, z(b) = e^{-h/tau} z(a) + int_a^b ...,
    and at each node integrated from the start of its piece; the Gaussian sums the quadrature
    nodes within 9 sigma (the rest weighs < 1e-18 of the signal).
No filter is reordered or merged with another: the result is independent of how an engine
arranges them.

Run:  python3 scripts/line_reference.py CONFIG.yaml RUN.h5
compares /pulses/values of `qevolve run CONFIG.yaml -o RUN.h5` with this reference at
/pulses/time, pulse by pulse (a pulse without a line is compared with f itself).
"""
import math
import sys

import numpy as np
from scipy.special import erf, erfc

DEGREE = 24          # polynomial degree on each piece (25 Chebyshev points)
GAUSS_WIDTH = 9.0    # a Gaussian's window, in sigma (erfc(9/sqrt 2) = 2e-19)
H_MAX = 0.25         # longest piece, ns
MERGE = 1e-9         # edges closer than this (ns) are one edge
CHUNK = 100_000


# ---------------------------------------------------------------- the pulse (docs/pulses.md)

def two_of_three(spec):
    """(duration, ramp) of a rampcos from the two (or three) keys given."""
    L, r, p = spec.get("duration"), spec.get("ramp"), spec.get("plateau")
    if L is None:
        L = p + 2 * r
    elif r is None:
        r = (L - p) / 2
    return float(L), float(r)


def pulse(spec):
    """(f, breakpoints, peak) of one pulse spec (dict with the keys of a `pulses[i]` entry):
    f(t) vectorised, the times where f or a derivative may jump, max |f| (the amplitude)."""
    A = float(spec["amplitude"])
    nu = float(spec.get("frequency", 0.0))
    phase = float(spec.get("phase", 0.0))
    d = float(spec.get("delay", 0.0))
    shape = spec["shape"]
    if shape == "cos":
        L = float(spec["duration"])
        breaks = [d, d + L]

        def env(tau):
            return A * 0.5 * (1.0 + np.cos(2.0 * np.pi / L * (tau - L / 2)))
    elif shape == "rampcos":
        L, r = two_of_three(spec)
        breaks = [d, d + r, d + L - r, d + L]

        def env(tau):
            rise = A * (1.0 - np.cos(np.pi * tau / r)) / 2
            fall = A * (1.0 - np.cos(np.pi * (L - tau) / r)) / 2
            return np.where(tau < r, rise, np.where(tau > L - r, fall, A))
    else:
        raise ValueError(f"line_reference: shape {shape} is not implemented (cos, rampcos)")

    def f(t):
        tau = np.asarray(t, float) - d
        inside = (tau >= 0) & (tau <= L)
        return np.where(inside, env(tau) * np.cos(2 * np.pi * nu * tau + phase), 0.0)
    return f, breaks, abs(A)


# ---------------------------------------------------------------- piecewise polynomials

def _cheb(n):
    """First-kind Chebyshev points on (-1, 1), ascending, and their barycentric weights."""
    j = np.arange(n + 1)
    th = (2 * j + 1) * np.pi / (2 * n + 2)
    return np.cos(th)[::-1].copy(), ((-1.0) ** j * np.sin(th))[::-1].copy()


def _gauss(n):
    return np.polynomial.legendre.leggauss(n)


def nodes(edges, n):
    """[m, n+1] the interpolation times of every piece."""
    x, _ = _cheb(n)
    a, b = edges[:-1, None], edges[1:, None]
    return a + (b - a) * (x + 1) / 2


def refine(edges, hmax):
    """The edges with every piece longer than hmax cut into equal parts (old edges kept exactly)."""
    edges = np.asarray(edges, float)
    parts = [edges[:1]]
    for a, b in zip(edges[:-1], edges[1:]):
        k = max(1, int(math.ceil((b - a) / hmax * (1 - 1e-12))))
        parts.append(a + (b - a) * np.arange(1, k) / k)
        parts.append([b])
    return np.concatenate(parts)


def merge(points, tol=MERGE):
    """Sorted points, those within tol of the previous one dropped."""
    out = []
    for p in np.sort(np.asarray(points, float)):
        if not out or p > out[-1] + tol:
            out.append(p)
    return np.array(out)


class Signal:
    """A piecewise polynomial on [edges[0], edges[-1]]: 0 before edges[0], right-continuous at
    the edges, values [m, n+1] at nodes(edges, n). Evaluating past edges[-1] is an error."""

    def __init__(self, edges, vals):
        self.edges = np.asarray(edges, float)
        self.vals = np.asarray(vals, float).reshape(len(self.edges) - 1, -1)
        self.n = self.vals.shape[1] - 1
        self._x, self._w = _cheb(self.n)

    @property
    def start(self):
        return self.edges[0]

    @property
    def end(self):
        return self.edges[-1]

    @classmethod
    def of(cls, f, edges, n=DEGREE):
        return cls(edges, f(nodes(np.asarray(edges, float), n)))

    def in_piece(self, i, t):
        """Values at times t (any shape) by the polynomial of piece i (broadcast with t)."""
        i, t = np.broadcast_arrays(np.asarray(i), np.asarray(t, float))
        shape, i, t = t.shape, i.ravel(), t.ravel()
        if self.n == 0:
            return self.vals[i, 0].reshape(shape)
        out = np.empty(t.size)
        for s in range(0, t.size, CHUNK):
            ii, tt = i[s:s + CHUNK], t[s:s + CHUNK]
            a, b = self.edges[ii], self.edges[ii + 1]
            d = (2 * tt - a - b) / (b - a)
            d = d[:, None] - self._x[None, :]
            hit = d == 0
            d[hit] = 1.0
            q = self._w / d
            v = self.vals[ii]
            r = (q * v).sum(1) / q.sum(1)
            rows = hit.any(1)
            if rows.any():
                r[rows] = v[rows][hit[rows]]
            out[s:s + CHUNK] = r
        return out.reshape(shape)

    def __call__(self, t):
        t = np.asarray(t, float)
        flat = t.ravel()
        if flat.size and flat.max() > self.end + 1e-9:
            raise ValueError(f"line_reference: signal evaluated at {flat.max()} past its end {self.end}")
        out = np.zeros(flat.size)
        inside = flat >= self.start
        i = np.clip(np.searchsorted(self.edges, flat[inside], "right") - 1, 0, len(self.edges) - 2)
        out[inside] = self.in_piece(i, flat[inside])
        return out.reshape(t.shape)

    def on(self, edges, n):
        """The same signal on a partition that refines this one (or reaches before its start)."""
        return Signal.of(self, edges, n)


# ---------------------------------------------------------------- sources

def sample(f, rate, end):
    """The zero-order hold of f at k / rate, k = 0, 1, ..., up to end."""
    t = np.arange(int(math.ceil(end * rate)) + 2) / rate
    return Signal(t, f(t[:-1])[:, None])


def continuous(f, breaks, end, hmax=H_MAX):
    """f on [0, end], its breakpoints as edges."""
    e = merge([0.0, end] + [b for b in breaks if 0.0 < b < end])
    return Signal.of(f, refine(e, hmax))


# ---------------------------------------------------------------- filters

def lowpass(x, tau, hmax=H_MAX):
    """z = L_tau x (tau None: the running integral int_{start}^t x), the line at rest before
    x starts. Closed form for a piecewise constant x, Gauss-Legendre otherwise."""
    e = refine(x.edges, min(hmax, 2 * tau) if tau else hmax)
    xr = x.on(e, x.n)
    a, b = e[:-1], e[1:]
    h = b - a
    m = len(h)
    n_out = max(x.n, DEGREE)
    t = nodes(e, n_out)
    s = t - a[:, None]

    def decay(u):
        return np.exp(-u / tau) if tau else np.ones_like(u)
    za = np.empty(m)
    acc = 0.0
    if xr.n == 0:
        c = xr.vals[:, 0]
        for i in range(m):
            za[i] = acc
            acc = c[i] + (acc - c[i]) * math.exp(-h[i] / tau) if tau else acc + c[i] * h[i]
        z = (c[:, None] + (za - c)[:, None] * np.exp(-s / tau)) if tau else za[:, None] + c[:, None] * s
        return Signal(e, z)
    g, gw = _gauss(n_out + 12)
    k = 1 / tau if tau else 1.0
    idx = np.arange(m)
    u = a[:, None] + h[:, None] * (g + 1) / 2
    J = h / 2 * (gw * k * decay(b[:, None] - u) * xr.in_piece(idx[:, None], u)).sum(1)
    fall = decay(h)
    for i in range(m):
        za[i] = acc
        acc = fall[i] * acc + J[i]
    u = a[:, None, None] + s[:, :, None] * (g + 1) / 2
    xv = xr.in_piece(idx[:, None, None], u)
    z = decay(s) * za[:, None] + s / 2 * (gw * k * decay(t[:, :, None] - u) * xv).sum(-1)
    return Signal(e, z)


def highpass(x, tau, hmax=H_MAX):
    z = lowpass(x, tau, hmax)
    return Signal(z.edges, x.on(z.edges, z.n).vals - z.vals)


def exponential(x, A, tau, hmax=H_MAX):
    z = lowpass(x, tau, hmax)
    return Signal(z.edges, (1 + A) * x.on(z.edges, z.n).vals - A * z.vals)


def _phi_diff(u, v):
    """Phi(u) - Phi(v), u >= v, without cancelling the tails."""
    r2 = math.sqrt(2.0)
    right = 0.5 * (erfc(v / r2) - erfc(u / r2))
    left = 0.5 * (erfc(-u / r2) - erfc(-v / r2))
    mid = 0.5 * (erf(u / r2) - erf(v / r2))
    return np.where(v >= 0, right, np.where(u <= 0, left, mid))


def gaussian(x, sigma, hmax=H_MAX):
    """y = x * g_sigma on [start - 9 sigma, end - 9 sigma] (before: < 1e-18 of the signal)."""
    W = GAUSS_WIDTH * sigma
    e = refine([x.start - W, x.end - W], min(hmax, sigma))
    t = nodes(e, DEGREE)
    y = np.empty(t.shape)
    if x.n == 0:
        a, b, c = x.edges[:-1], x.edges[1:], x.vals[:, 0]
        for i in range(len(e) - 1):
            k0, k1 = np.searchsorted(b, e[i] - W), np.searchsorted(a, e[i + 1] + W)
            tt = t[i][:, None]
            y[i] = (c[k0:k1] * _phi_diff((tt - a[k0:k1]) / sigma, (tt - b[k0:k1]) / sigma)).sum(1)
        return Signal(e, y)
    xr = x.on(refine(x.edges, sigma / 2), x.n)
    g, gw = _gauss(xr.n + 25)
    a, b = xr.edges[:-1], xr.edges[1:]
    v = a[:, None] + (b - a)[:, None] * (g + 1) / 2
    wx = ((b - a)[:, None] / 2 * gw * xr.in_piece(np.arange(len(a))[:, None], v)).ravel()
    v = v.ravel()
    norm = 1 / (sigma * math.sqrt(2 * math.pi))
    for i in range(len(e) - 1):
        j0, j1 = np.searchsorted(v, e[i] - W), np.searchsorted(v, e[i + 1] + W)
        d = (t[i][:, None] - v[None, j0:j1]) / sigma
        y[i] = norm * (np.exp(-0.5 * d * d) @ wx[j0:j1])
    return Signal(e, y)


def fir(x, taps, rate):
    """y(t) = sum_j taps[j] x(t - j / rate)."""
    shifts = np.arange(len(taps)) / rate
    e = merge(np.concatenate([x.edges + d for d in shifts]))
    e = e[(e >= x.start) & (e <= x.end)]
    t = nodes(e, x.n)
    return Signal(e, sum(h * x(t - d) for h, d in zip(taps, shifts)))


def integrator_inverse(x, tau, hmax=H_MAX):
    """The inverse of highpass tau: x + (1/tau) int_{start}^t x."""
    z = lowpass(x, None, hmax)
    return Signal(z.edges, x.on(z.edges, z.n).vals + z.vals / tau)


# ---------------------------------------------------------------- the line

def apply(x, flt, rate, hmax=H_MAX):
    kind = flt["type"]
    if kind == "gaussian":
        return gaussian(x, float(flt["sigma"]), hmax)
    if kind == "highpass":
        return highpass(x, float(flt["tau"]), hmax)
    if kind == "exponential":
        return exponential(x, float(flt["amplitude"]), float(flt["tau"]), hmax)
    if kind == "fir":
        if not rate:
            raise ValueError("line_reference: an fir filter needs the line's sample_rate")
        return fir(x, [float(h) for h in flt["taps"]], float(rate))
    raise ValueError(f"line_reference: unknown filter type {kind}")


def predistorted(f, breaks, filters, end, hmax=H_MAX):
    """f through the inverse of the line's highpass and exponential filters (last one first)."""
    p = continuous(f, breaks, end, hmax)
    for flt in reversed(filters):
        if flt["type"] == "highpass":
            p = integrator_inverse(p, float(flt["tau"]), hmax)
        elif flt["type"] == "exponential":
            A, tau = float(flt["amplitude"]), float(flt["tau"])
            p = exponential(p, -A / (1 + A), (1 + A) * tau, hmax)
    return p


def line_signal(spec, line, t_end):
    """The line's output for pulse spec as a Signal valid on [0, t_end]."""
    f, breaks, _ = pulse(spec)
    line = line or {}
    filters = list(line.get("filters") or [])
    rate = line.get("sample_rate")
    nu = abs(float(spec.get("frequency", 0.0)))
    hmax = min(H_MAX, 0.25 / nu) if nu else H_MAX
    end = t_end + 1.0 + sum(1.01 * GAUSS_WIDTH * float(x["sigma"]) for x in filters if x["type"] == "gaussian")
    src = None
    if line.get("predistort"):  # sampled up to end + 1/rate
        src = predistorted(f, breaks, filters, end + (2.0 / float(rate) if rate else 0.0), hmax)
    if rate:
        x = sample(src if src is not None else f, float(rate), end)
    else:
        x = src if src is not None else continuous(f, breaks, end, hmax)
    for flt in filters:
        x = apply(x, flt, rate, hmax)
    return x


def line_output(spec, line, times):
    """The line's output at times (the pulse f itself when line is None)."""
    times = np.asarray(times, float)
    if not line:
        return pulse(spec)[0](times)
    return line_signal(spec, line, float(times.max()))(times)


# ---------------------------------------------------------------- command line

def compare(config_path, h5_path):
    """Per pulse: (name, max |qevolve - reference|, peak). Reads the config with PyYAML."""
    import h5py
    import yaml
    with open(config_path) as fh:
        cfg = yaml.safe_load(fh)
    lines = {x["name"]: x for x in cfg.get("lines") or []}
    with h5py.File(h5_path, "r") as h:
        t = h["pulses/time"][()]
        values = h["pulses/values"][()]
    rows = []
    for k, spec in enumerate(cfg["pulses"]):
        ref = line_output(spec, lines.get(spec.get("line")), t)
        rows.append((f"pulses[{k}]", float(np.max(np.abs(values[k] - ref))), pulse(spec)[2]))
    return rows


def main(argv):
    if len(argv) != 3:
        print(__doc__)
        return 2
    worst = 0.0
    for name, dev, peak in compare(argv[1], argv[2]):
        print(f"{name}: max |qevolve - reference| = {dev:.3e} = {dev / peak:.3e} of the peak {peak:g}")
        worst = max(worst, dev / peak)
    return 0 if worst <= 1e-9 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
