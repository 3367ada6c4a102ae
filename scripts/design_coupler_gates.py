#!/usr/bin/env python3
"""Independent numpy/scipy model of a transmon - tunable coupler - transmon device driven by a
flux pulse on the coupler; used to design examples/cz_transmon_coupler.yaml and
examples/iswap_parametric.yaml (parameters, pulse shapes, start points). No qevolve code.

Model (the conventions of docs/models.md "Transmon" and "Flux pulses", written out again):
  transmon: H = 4EC n^2 - EJ_eff(phi_e) cos phi in the charge basis |n>, n = -ncut..ncut,
            EJ_eff(x) = EJ sqrt(cos^2(x/2) + a^2 sin^2(x/2)), x = 2 pi flux;
  each mode is diagonalised at its static flux and truncated to its `levels` lowest states;
  the flux pulse f(t) on the coupler replaces -EJ_eff(phi_s) cos phi by
            -EJ_eff(phi_e) cos(phi - (p0(phi_e) - p0(phi_s))),  p0(x) = arctan(a tan(x/2)),
  represented in the kept static eigenbasis through the matrices of cos phi and sin phi;
  couplings J_C n_a n_b (n of a transmon = n - ng, ng = 0 here);
  propagation: U = prod_k expm(-i 2 pi H(t_k + dt/2) dt) (dense midpoint expm), GHz and ns;
  output: dressed basis (each bare label's dressed state by maximum overlap), rotating frame of
  the dressed energies; F = (Tr(U^dag U) + |Tr(Ut^dag U)|^2) / (d (d + 1)) on the computational
  block (qubits in {0,1}, coupler in 0), optimised over virtual-Z phases on the two qubits;
  leakage = 1 - Tr(U^dag U)/d.

Usage (the examples' figures; each header quotes its command):
  /usr/bin/python3 scripts/design_coupler_gates.py cz --levels 4 8 --steps 800 \
      --params AMPLITUDE RAMP DURATION
  /usr/bin/python3 scripts/design_coupler_gates.py iswap --levels 3 6 --steps 5000 \
      --params AMPLITUDE RAMP DURATION FREQUENCY PHASE
The design itself (the direct coupling where the static ZZ vanishes, the qubit detuning, the
pulse's start point) was found with the functions below: report_device() prints the dressed
frequencies, E20 - E11 and the static ZZ; propagate() and fidelity_vz() evaluate a pulse.
"""
import argparse
import sys
import time

import numpy as np
import scipy.linalg as sla
import scipy.optimize as so

TWO_PI = 2.0 * np.pi


def ej_eff(ej, a, x):
    return ej * np.sqrt(np.cos(x / 2) ** 2 + a * a * np.sin(x / 2) ** 2)


def p0(a, x):
    return np.arctan(a * np.tan(x / 2))


class Transmon:
    def __init__(self, ec, ej, levels, asym=None, flux=0.0, ncut=30):
        self.ec, self.ej, self.a, self.flux, self.levels = ec, ej, asym, flux, levels
        n = np.arange(-ncut, ncut + 1, dtype=float)
        self.ejs = ej if asym is None else ej_eff(ej, asym, TWO_PI * flux)
        off = np.ones(2 * ncut)
        cos = 0.5 * (np.diag(off, 1) + np.diag(off, -1))
        sin = -0.5j * (np.diag(off, -1) - np.diag(off, 1))
        h = np.diag(4 * ec * n ** 2) - self.ejs * cos
        e, v = np.linalg.eigh(h)
        v = v[:, :levels]
        for k in range(levels):  # fix the sign: largest component positive
            if v[np.argmax(np.abs(v[:, k])), k] < 0:
                v[:, k] *= -1
        self.energies = e[:levels]
        self.n = v.T @ np.diag(n) @ v
        self.cos = v.T @ cos @ v
        self.sin = v.conj().T @ sin @ v

    def flux_terms(self, f):
        """(c_cos, c_sin): H_J(t) - H_J(static) = c_cos cos phi + c_sin sin phi."""
        xs = TWO_PI * self.flux
        xe = xs + TWO_PI * f
        e = ej_eff(self.ej, self.a, xe)
        d = p0(self.a, xe) - p0(self.a, xs)
        return -e * np.cos(d) + self.ejs, -e * np.sin(d)


def embed(ops, dims):
    out = np.array([[1.0 + 0j]])
    for o in ops:
        out = np.kron(out, o)
    return out


class Device:
    """Modes in order (qa, c, qb); qubits qa, qb; coupler c (index 1)."""

    def __init__(self, modes, couplings):
        self.modes = modes
        self.dims = [m.levels for m in modes]
        self.D = int(np.prod(self.dims))
        eye = [np.eye(d) for d in self.dims]

        def op(k, o):
            lst = list(eye)
            lst[k] = o
            return embed(lst, self.dims)

        self.h0 = sum(op(k, np.diag(m.energies)) for k, m in enumerate(modes)).astype(complex)
        for (a, b, j) in couplings:
            self.h0 = self.h0 + j * op(a, modes[a].n) @ op(b, modes[b].n)
        self.cosc = op(1, modes[1].cos)
        self.sinc = op(1, modes[1].sin)
        # dressed states
        e, v = np.linalg.eigh(self.h0)
        self.dressed = np.zeros((self.D, self.D), complex)
        self.edressed = np.zeros(self.D)
        # assign each eigenvector to its largest bare component (greedy by overlap)
        ov = np.abs(v) ** 2
        order = np.dstack(np.unravel_index(np.argsort(-ov, axis=None), ov.shape))[0]
        col_done, row_done = set(), set()
        for (bare, eig) in order:
            if bare in row_done or eig in col_done:
                continue
            vec = v[:, eig]
            ph = vec[bare] / abs(vec[bare])
            self.dressed[:, bare] = vec / ph
            self.edressed[bare] = e[eig]
            row_done.add(bare)
            col_done.add(eig)
            if len(row_done) == self.D:
                break
        # computational indices: qa, qb in {0,1}, coupler 0
        da, dc, db = self.dims
        self.comp = [ia * dc * db + 0 * db + ib for ia in (0, 1) for ib in (0, 1)]

    def propagate(self, flux_fn, T, steps):
        dt = T / steps
        S = self.dressed[:, self.comp]
        psi = S.copy()
        for k in range(steps):
            f = flux_fn((k + 0.5) * dt)
            cc, cs = self.modes[1].flux_terms(f)
            h = self.h0 + cc * self.cosc + cs * self.sinc
            psi = sla.expm(-1j * TWO_PI * dt * h) @ psi
        u = self.dressed.conj().T @ psi  # dressed basis, all rows
        u = np.exp(1j * TWO_PI * self.edressed * T)[:, None] * u  # rotating frame
        return u[self.comp, :], u


def fidelity_vz(u, target):
    d = 4
    tr_uu = np.real(np.trace(u.conj().T @ u))

    def neg(th):
        za = np.exp(-1j * th[0] * np.array([0, 0, 1, 1]))
        zb = np.exp(-1j * th[1] * np.array([0, 1, 0, 1]))
        v = (za * zb)[:, None] * u
        return -(tr_uu + abs(np.trace(target.conj().T @ v)) ** 2) / (d * (d + 1))

    best = None
    ph = np.angle(np.diag(u)) if abs(np.trace(np.abs(u))) > 1 else np.zeros(4)
    starts = [np.zeros(2), np.array([-ph[2] + ph[0], -ph[1] + ph[0]])]
    for s in starts:
        r = so.minimize(neg, s, method="BFGS", options={"gtol": 1e-12})
        if best is None or r.fun < best.fun:
            best = r
    return -best.fun, 1 - tr_uu / d, best.x


# ---- the examples' devices (examples/cz_transmon_coupler.yaml, examples/iswap_parametric.yaml) ----
# Qubit A (EC 0.21, EJ 11.65 for CZ / 12.74 for iSWAP), coupler (EC 0.12, EJ 45, asymmetry 0.2,
# static flux 0.2: f01 5.82 GHz), qubit B (EC 0.20, EJ 11.0); J_C qubit-coupler 0.075 GHz, direct
# J_C chosen where the static ZZ is near zero (the coupler's "off" point).
JQC = 0.075
EJA = 11.65
JQQ = 0.01075
CEC, CEJ, CASYM, CFLUX = 0.120, 45.0, 0.2, 0.2
DEVICES = {"cz": dict(eja=11.65, jqq=0.01075), "iswap": dict(eja=12.74, jqq=0.0115)}


def make_device(levels_q=4, levels_c=8, ncut=30, eja=None, jqq=None):
    eja = EJA if eja is None else eja
    jqq = JQQ if jqq is None else jqq
    qa = Transmon(ec=0.210, ej=eja, levels=levels_q, ncut=ncut)
    c = Transmon(ec=CEC, ej=CEJ, levels=levels_c, asym=CASYM, flux=CFLUX, ncut=ncut)
    qb = Transmon(ec=0.200, ej=11.00, levels=levels_q, ncut=ncut)
    return Device([qa, c, qb], [(0, 2, jqq), (0, 1, JQC), (1, 2, JQC)])


def rampcos(amplitude, duration, ramp, frequency=0.0, phase=0.0):
    plateau = duration - 2 * ramp

    def f(t):
        return env(t) * np.cos(TWO_PI * frequency * t + phase)

    def env(t):
        if t < ramp:
            return amplitude * (1 - np.cos(np.pi * t / ramp)) / 2
        if t > ramp + plateau:
            return amplitude * (1 - np.cos(np.pi * (duration - t) / ramp)) / 2
        return amplitude

    return f


CZ = np.diag([1, 1, 1, -1]).astype(complex)
ISWAP = np.array([[1, 0, 0, 0], [0, 0, 1j, 0], [0, 1j, 0, 0], [0, 0, 0, 1]])


def report_device(dev):
    e = dev.edressed
    da, dc, db = dev.dims

    def lab(i, j, k):
        return e[i * dc * db + j * db + k] - e[0]

    fa, fb, fc = lab(1, 0, 0), lab(0, 0, 1), lab(0, 1, 0)
    zz = lab(1, 0, 1) - fa - fb
    print(f"dressed: fa={fa:.5f} fb={fb:.5f} fc={fc:.5f} GHz; E20-E11={lab(2,0,0)-lab(1,0,1):.5f}"
          f" E02-E11={lab(0,0,2)-lab(1,0,1):.5f}; static ZZ={zz*1e6:.1f} kHz")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("gate", choices=["cz", "iswap"])
    ap.add_argument("--steps", type=int, default=1600)
    ap.add_argument("--levels", type=int, nargs=2, default=[4, 8], help="qubit levels, coupler levels")
    ap.add_argument("--params", type=float, nargs="+", required=True,
                    help="cz: amplitude ramp duration; iswap: amplitude ramp duration frequency phase")
    args = ap.parse_args()
    dev = make_device(*args.levels, **DEVICES[args.gate])
    report_device(dev)
    p = args.params
    pulse = rampcos(p[0], p[2], p[1], *(p[3:5] if args.gate == "iswap" else ()))
    t0 = time.time()
    u, _ = dev.propagate(pulse, p[2], args.steps)
    F, L, _ = fidelity_vz(u, CZ if args.gate == "cz" else ISWAP)
    print(f"{args.gate} {p} levels {args.levels} steps {args.steps}: 1 - F = {1 - F:.6e}, "
          f"leakage = {L:.6e} ({time.time() - t0:.1f} s)")


if __name__ == "__main__":
    sys.exit(main())
