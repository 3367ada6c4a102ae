#!/usr/bin/env python3
"""Independent reference for flux pulses -> data/flux_reference.csv.

Two models, rebuilt here with numpy and scipy only (no qevolve code), with the conventions of
docs/models.md ("Flux pulses", "Phase convention"):

* data/flux_fluxonium.yaml: one fluxonium (EC/EJ/EL = 1/4/1 GHz, flux 0.48, 5 kept levels) with
  two flux pulses, a baseband `cos` and a modulated `cos`. Diagonalised on a periodic phase grid
  (n^2 applied spectrally by FFT); the flux pulse enters as H(t) = 4EC n^2 + (EL/2)(phi + 2 pi
  (flux + f(t)))^2 - EJ cos(phi) with the c-number (EL/2)(2 pi f)^2 dropped, i.e.
  diag(E) + 2 pi EL f(t) phi in the kept eigenbasis, phi the inductor branch phase.
* data/flux_transmon_pair.yaml: a tunable transmon (EJ = 20 GHz, asymmetry 0.3, flux 0.15)
  capacitively coupled to a fixed transmon, flux pulses on the tunable one. Each transmon is
  diagonalised in the charge basis. The SQUID is written from its two junctions,
  EJ1 = EJ (1 + a)/2 and EJ2 = EJ (1 - a)/2,
      H_J(x) = -EJ1 cos(phi - x/2) - EJ2 cos(phi + x/2)   (x = 2 pi (flux + f)),
  shifted by the static gauge angle p0 = atan2(a sin(xs/2), cos(xs/2)) so that the static
  junction term is -EJ_eff(xs) cos(phi) as in the static model; the pulse adds
  H_J(x(t)) - H_J(xs) projected on the kept static eigenvectors. This uses neither the
  EJ_eff / p0 formulas of the pulse law nor its coefficient functions.

Both are evolved with the dense midpoint rule, U = prod_k expm(-i 2 pi dt H(t_k + dt/2)), for
every basis state (initial_states: all), product basis, lab frame; each is recomputed on a
larger internal basis and must agree to 2e-9 (fluxonium) / 1e-10 (transmons) (printed). tests/solver/test_flux_pulses.cpp runs
qevolve (solver expm, the same steps) on the YAML files and compares the propagators to 1e-8.

Run with Debian's python:  /usr/bin/python3 scripts/gen_flux_reference.py [output.csv]
"""
import math
import os
import sys

import numpy as np
import scipy.linalg

TWO_PI = 2.0 * math.pi
HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "data")


# ---------------------------------------------------------------------------------------------
# Pulses (docs/pulses.md): f(t) = env(tau) cos(2 pi frequency tau + phase), tau = t - delay
# ---------------------------------------------------------------------------------------------
def cos_env(amplitude, duration):
    return lambda tau: amplitude * 0.5 * (1.0 + math.cos(TWO_PI / duration * (tau - duration / 2)))


def rampcos_env(amplitude, ramp, plateau):
    L = plateau + 2 * ramp

    def env(tau):
        if tau < ramp:
            return amplitude * 0.5 * (1.0 - math.cos(math.pi * tau / ramp))
        if tau > L - ramp:
            return amplitude * 0.5 * (1.0 - math.cos(math.pi * (L - tau) / ramp))
        return amplitude
    return env


def pulse(env, duration, frequency=0.0, phase=0.0, delay=0.0):
    def f(t):
        tau = t - delay
        if tau < 0.0 or tau > duration:
            return 0.0
        return env(tau) * math.cos(TWO_PI * frequency * tau + phase)
    return f


# ---------------------------------------------------------------------------------------------
# Phase convention: <k-1|n|k> real and positive (k >= 1), |0>: largest component real positive
# ---------------------------------------------------------------------------------------------
def fix_phases(vectors, n_internal):
    v = vectors.astype(complex)
    for k in range(v.shape[1]):
        z = (v[:, k - 1].conj() @ n_internal @ v[:, k]) if k > 0 else 0.0
        if k > 0 and abs(z) >= 1e-10:
            v[:, k] *= np.conj(z) / abs(z)
        else:
            big = v[np.argmax(np.abs(v[:, k])), k]
            v[:, k] *= np.conj(big) / abs(big)
    return v


# ---------------------------------------------------------------------------------------------
# Fluxonium on a periodic phase grid
# ---------------------------------------------------------------------------------------------
def fluxonium(ec, ej, el, flux, levels, points, half_width):
    phi = -half_width + 2 * half_width * np.arange(points) / points
    k = np.fft.fftfreq(points, d=2 * half_width / points) * TWO_PI
    F = np.fft.fft(np.eye(points), axis=0)
    Finv = np.fft.ifft(np.eye(points), axis=0)
    kd = k.copy()
    if points % 2 == 0:
        kd[points // 2] = 0.0  # the Nyquist mode has no first derivative
    n = (Finv @ np.diag(kd) @ F)
    n = 0.5 * (n + n.conj().T)
    n2 = (Finv @ np.diag(k * k) @ F).real
    n2 = 0.5 * (n2 + n2.T)
    branch = phi + TWO_PI * flux
    H = 4 * ec * n2 + np.diag(0.5 * el * branch**2 - ej * np.cos(phi))
    E, V = np.linalg.eigh(H)
    V = fix_phases(V[:, :levels], n)
    return E[:levels], V.conj().T @ np.diag(branch) @ V


def fluxonium_case(points, half_width):
    E, phi = fluxonium(1.0, 4.0, 1.0, 0.48, 5, points, half_width)
    f1 = pulse(cos_env(0.03, 30.0), 30.0)
    f2 = pulse(cos_env(0.01, 20.0), 20.0, frequency=0.35, phase=0.7, delay=5.0)
    el = 1.0

    def H(t):
        return np.diag(E) + TWO_PI * el * (f1(t) + f2(t)) * phi
    return propagate(H, 30.0, 600)


# ---------------------------------------------------------------------------------------------
# Transmons in the charge basis
# ---------------------------------------------------------------------------------------------
def charge_basis(ncut):
    m = np.arange(-ncut, ncut + 1, dtype=float)
    up = np.diag(np.ones(2 * ncut), -1).astype(complex)  # exp(i phi)|m> = |m + 1>
    return m, up


def cos_shift(up, c):
    """cos(phi + c) in the charge basis."""
    e = np.exp(1j * c) * up
    return 0.5 * (e + e.conj().T)


def transmon(ec, ej_junction_term, ng, levels, ncut):
    m, up = charge_basis(ncut)
    q = m - ng
    H = np.diag(4 * ec * q * q).astype(complex) + ej_junction_term(up)
    E, V = np.linalg.eigh(H)
    V = fix_phases(V[:, :levels], np.diag(q))
    return E[:levels], V, np.diag(q)


def transmon_case(ncut):
    ec, ej, a, flux, levels = 0.2, 20.0, 0.3, 0.15, 4
    ej1, ej2 = ej * (1 + a) / 2, ej * (1 - a) / 2
    xs = TWO_PI * flux
    p0 = math.atan2(a * math.sin(xs / 2), math.cos(xs / 2))

    def junctions(up, x):  # gauge-shifted by p0: the static one is -EJ_eff(xs) cos(phi)
        return -ej1 * cos_shift(up, p0 - x / 2) - ej2 * cos_shift(up, p0 + x / 2)

    _, up = charge_basis(ncut)
    Ea, Va, na = transmon(ec, lambda u: junctions(u, xs), 0.0, levels, ncut)
    Eb, Vb, nb = transmon(0.22, lambda u: -16.0 * cos_shift(u, 0.0), 0.1, levels, ncut)
    static_check = junctions(up, xs) + ej * math.sqrt(math.cos(xs / 2) ** 2 + a * a * math.sin(xs / 2) ** 2) * cos_shift(up, 0.0)
    assert np.max(np.abs(static_check)) < 1e-12, "gauge shift"
    na_k = Va.conj().T @ na @ Va
    nb_k = Vb.conj().T @ nb @ Vb
    Ia, Ib = np.eye(levels), np.eye(levels)
    J = 0.012
    H0 = np.kron(np.diag(Ea), Ib) + np.kron(Ia, np.diag(Eb)) + J * np.kron(na_k, nb_k)
    f1 = pulse(rampcos_env(0.2, 5.0, 15.0), 25.0)
    f2 = pulse(cos_env(0.02, 25.0), 25.0, frequency=0.5, phase=0.3)
    Hs = junctions(up, xs)

    def H(t):
        dH = Va.conj().T @ (junctions(up, TWO_PI * (flux + f1(t) + f2(t))) - Hs) @ Va
        return H0 + np.kron(dH, Ib)
    return propagate(H, 25.0, 500)


def propagate(H, duration, steps):
    dt = duration / steps
    U = np.eye(H(0.0).shape[0], dtype=complex)
    for k in range(steps):
        h = H((k + 0.5) * dt)
        h = 0.5 * (h + h.conj().T)
        U = scipy.linalg.expm(-1j * TWO_PI * dt * h) @ U
    return U


def main(path):
    cases = {}
    # The grids agree on the kept energies and operators to ~4e-12; the propagator differs more
    # because eigh's absolute error grows with the grid's kinetic norm (4 EC (pi/dphi)^2).
    a, b = fluxonium_case(800, 6 * math.pi), fluxonium_case(1000, 7 * math.pi)
    print(f"fluxonium: max |dU| between phase grids 800/6pi and 1000/7pi: {np.max(np.abs(a - b)):.2e}")
    assert np.max(np.abs(a - b)) < 2e-9
    cases["fluxonium"] = b
    a, b = transmon_case(40), transmon_case(60)
    print(f"transmon pair: max |dU| between charge cutoffs 40 and 60: {np.max(np.abs(a - b)):.2e}")
    assert np.max(np.abs(a - b)) < 1e-10
    cases["transmon_pair"] = b
    with open(path, "w") as out:
        out.write("# Generated by scripts/gen_flux_reference.py (numpy %s, scipy %s); do not edit.\n"
                  % (np.__version__, scipy.__version__))
        out.write("# Propagators U(i, j) = <i|U|j> of data/flux_fluxonium.yaml and data/flux_transmon_pair.yaml,\n")
        out.write("# product basis, lab frame, dense midpoint expm.\n")
        out.write("case,i,j,re,im\n")
        for name, U in cases.items():
            for i in range(U.shape[0]):
                for j in range(U.shape[1]):
                    out.write(f"{name},{i},{j},{U[i, j].real!r},{U[i, j].imag!r}\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(DATA, "flux_reference.csv"))
