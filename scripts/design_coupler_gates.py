#!/usr/bin/env python3
"""Independent numpy/scipy model of a transmon - tunable coupler - transmon device driven by a
flux pulse on the coupler; used to design examples/cz_transmon_coupler.yaml and
examples/iswap_parametric.yaml (parameters, pulse shapes, start points). No qevolve code.

Model (the conventions of docs/models.md and docs/pulses.md "Flux pulses", written out again):
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

Usage: /usr/bin/python3 scripts/design_coupler_gates.py cz|iswap [--steps N] [--optimize]
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
        used = set()
        for idx in np.argsort(-np.max(np.abs(v) ** 2, axis=0)):
            pass
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


# ---- device (the example's parameters) ----
def make_device(levels_q=4, levels_c=4, ncut=30):
    qa = Transmon(ec=0.210, ej=EJA, levels=levels_q, ncut=ncut)
    c = Transmon(ec=CEC, ej=CEJ, levels=levels_c, asym=CASYM, flux=CFLUX, ncut=ncut)
    qb = Transmon(ec=0.200, ej=11.00, levels=levels_q, ncut=ncut)
    return Device([qa, c, qb], [(0, 2, JQQ), (0, 1, JQC), (1, 2, JQC)])


JQQ = 0.0065
EJA = 11.60
CEC, CEJ, CASYM, CFLUX = 0.120, 45.0, 0.2, 0.2
JQC = 0.060


def rampcos(amplitude, duration, ramp):
    plateau = duration - 2 * ramp

    def f(t):
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
    ap.add_argument("gate", choices=["cz", "iswap", "info"])
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--params", type=float, nargs="*")
    ap.add_argument("--optimize", action="store_true")
    args = ap.parse_args()
    dev = make_device()
    report_device(dev)
    if args.gate == "info":
        for f in np.linspace(0, 0.35, 15):
            c = Transmon(ec=0.120, ej=39.0, levels=3, asym=0.2, flux=f)
            print(f"flux {f:.3f}: coupler f01 = {c.energies[1]-c.energies[0]:.4f}")
        return
    T = 50.0
    if args.gate == "cz":
        p = args.params or [0.25, 10.0]

        def run(p, steps=args.steps):
            u, _ = dev.propagate(rampcos(p[0], T, p[1]), T, steps)
            return fidelity_vz(u, CZ), u

        def obj(p):
            (F, L, _), u = run(p)
            print(f"  p={p} 1-F={1-F:.3e} L={L:.2e}", flush=True)
            return 1 - F + L

        if args.optimize:
            r = so.minimize(obj, p, method="Nelder-Mead", options={"xatol": 1e-6, "fatol": 1e-9})
            p = r.x
        t0 = time.time()
        (F, L, th), u = run(p)
        print(f"CZ p={list(p)} steps={args.steps}: 1-F={1-F:.3e} leak={L:.3e} ({time.time()-t0:.1f}s)")
        print(np.round(np.angle(np.diag(u)), 4), np.round(np.abs(u), 4))


if __name__ == "__main__":
    sys.exit(main())
