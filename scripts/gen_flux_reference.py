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
      H_J(x, s) = -EJ1 cos(phi + s - x/2) - EJ2 cos(phi + s + x/2)   (x = 2 pi (flux + f)),
  s = p0 = -arg(EJ1 exp(-i xs/2) + EJ2 exp(i xs/2)) the static gauge angle, so that the static
  junction term is -EJ_eff(xs) cos(phi) as in the static model. The `transmon_pair` rows
  replicate qevolve's moving gauge (docs/models.md "Flux pulses"): the lab state turned by
  exp(i g(t) n), g interpolated linearly in each time step between the gauge angles
  P(x) - p0 (P(x) = -arg(EJ1 exp(-i x/2) + EJ2 exp(i x/2))) at the step's edges, so the
  junction term is H_J(x(t), p0 + g(t)) and the Hamiltonian gains -g'(t) n / 2 pi (n the plain
  charge), all projected on the kept static eigenvectors. This uses neither the EJ_eff / p0
  formulas of the pulse law nor its coefficient functions.

Both are evolved with the dense midpoint rule, U = prod_k expm(-i 2 pi dt H(t_k + dt/2)), for
every basis state (initial_states: all), product basis, lab frame; each is recomputed on a
larger internal basis and must agree to 2e-9 (fluxonium) / 1e-10 (transmons) (printed). tests/solver/test_flux_pulses.cpp runs
qevolve (solver expm, the same steps) on the YAML files and compares the propagators to 1e-8.

Convergence in levels -> data/flux_convergence.csv (`--convergence`; tests/solver/test_flux_gauge.cpp):
a tunable transmon alone and a tunable coupler between two fixed transmons, flux pulsed by
excursions up to 0.4 flux quanta at asymmetries 0.1 to 0.6. The converged reference is the
lab (symmetric-gauge) Hamiltonian in the full charge basis (no truncation of the pulsed mode),
its computational block R taken on the static eigenvectors. Printed for each: max |B - R| for
the computational block B at L kept levels and, in brackets, |F(R, B) - F(R, R)| with
F(R, B) = (Tr(M M^dag) + |Tr M|^2) / (d (d + 1)), M = R^dag B (R leaks: F(R, R) < 1), for the
old lab-gauge projection (`lab`) and the moving gauge (`moving`).

Run with Debian's python:  /usr/bin/python3 scripts/gen_flux_reference.py [output.csv]
                           /usr/bin/python3 scripts/gen_flux_reference.py --convergence [output.csv]
(the second takes about 25 minutes on two cores, the coupler cases in a 279-state basis).
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


class Squid:
    """A tunable transmon in the charge basis, the SQUID from its two junctions."""

    def __init__(self, ec, ej, a, flux, ng, ncut):
        self.ej1, self.ej2 = ej * (1 + a) / 2, ej * (1 - a) / 2
        self.a, self.flux = a, flux
        self.m, self.up = charge_basis(ncut)
        self.n = np.diag(self.m).astype(complex)  # the plain charge (docs/models.md "Transmon")
        self.xs = TWO_PI * flux
        self.p0 = self.P(self.xs)
        self.static = np.diag(4 * ec * (self.m - ng) ** 2).astype(complex) + self.junctions(self.xs, self.p0)
        E, V = np.linalg.eigh(self.static)
        self.E, self.V = E, fix_phases(V, np.diag(self.m - ng))

    def P(self, x):
        """The phase of the junctions' phasor: -EJ1 cos(phi - x/2) - EJ2 cos(phi + x/2) = -|z| cos(phi - P)."""
        if self.a == 0.0:
            return 0.0
        return -np.angle(self.ej1 * np.exp(-0.5j * x) + self.ej2 * np.exp(0.5j * x))

    def junctions(self, x, shift):
        return -self.ej1 * cos_shift(self.up, shift - x / 2) - self.ej2 * cos_shift(self.up, shift + x / 2)

    def lab(self, f):
        """The pulse's part of the lab (symmetric-gauge) Hamiltonian at offset f, static frame."""
        return self.junctions(TWO_PI * (self.flux + f), self.p0) - self.junctions(self.xs, self.p0)

    def moving(self, f, f_lo, f_hi, w, dt):
        """The same in the moving gauge of a step with offsets f_lo, f_hi at its edges."""
        if self.a == 0.0:
            return self.lab(f)
        P_lo, P_hi = self.P(TWO_PI * (self.flux + f_lo)), self.P(TWO_PI * (self.flux + f_hi))
        D = math.remainder(P_hi - P_lo, TWO_PI)
        G = P_lo + w * D
        return (self.junctions(TWO_PI * (self.flux + f), G) - self.junctions(self.xs, self.p0)
                - D / (TWO_PI * dt) * self.n)

    def kept(self, levels, op):
        V = self.V[:, :levels]
        return V.conj().T @ op @ V


def midpoint_terms(f, duration, steps):
    """(f(t_k + dt/2), f(t_k), f(t_k + dt)) per step k."""
    dt = duration / steps
    return [(f((k + 0.5) * dt), f(k * dt), f((k + 1) * dt)) for k in range(steps)], dt


def transmon_case(ncut):
    # The moving gauge projected on 4 kept levels: what qevolve evolves (then at the ends the
    # pulses are 0, g = 0 and the moving gauge is the lab gauge).
    levels = 4
    sq = Squid(0.2, 20.0, 0.3, 0.15, 0.0, ncut)
    static_check = sq.static - np.diag(4 * 0.2 * sq.m ** 2) + 20.0 * math.sqrt(
        math.cos(sq.xs / 2) ** 2 + 0.09 * math.sin(sq.xs / 2) ** 2) * cos_shift(sq.up, 0.0)
    assert np.max(np.abs(static_check)) < 1e-12, "gauge shift"
    Ea = sq.E[:levels]
    Eb, Vb, nb = transmon(0.22, lambda u: -16.0 * cos_shift(u, 0.0), 0.1, levels, ncut)
    na_k = sq.kept(levels, sq.n)
    nb_k = Vb.conj().T @ nb @ Vb
    Ib = np.eye(levels)
    J = 0.012
    H0 = np.kron(np.diag(Ea), Ib) + np.kron(np.eye(levels), np.diag(Eb)) + J * np.kron(na_k, nb_k)
    f1 = pulse(rampcos_env(0.2, 5.0, 15.0), 25.0)
    f2 = pulse(cos_env(0.02, 25.0), 25.0, frequency=0.5, phase=0.3)
    samples, dt = midpoint_terms(lambda t: f1(t) + f2(t), 25.0, 500)
    Hs = [H0 + np.kron(sq.kept(levels, sq.moving(f, lo, hi, 0.5, dt)), Ib) for f, lo, hi in samples]
    return propagate_list(Hs, dt)


def propagate_list(Hs, dt):
    U = np.eye(Hs[0].shape[0], dtype=complex)
    for h in Hs:
        h = 0.5 * (h + h.conj().T)
        U = scipy.linalg.expm(-1j * TWO_PI * dt * h) @ U
    return U


def propagate(H, duration, steps):
    dt = duration / steps
    U = np.eye(H(0.0).shape[0], dtype=complex)
    for k in range(steps):
        h = H((k + 0.5) * dt)
        h = 0.5 * (h + h.conj().T)
        U = scipy.linalg.expm(-1j * TWO_PI * dt * h) @ U
    return U


# ---------------------------------------------------------------------------------------------
# Convergence in levels (data/flux_convergence.csv)
# ---------------------------------------------------------------------------------------------
def spline4(values, duration):
    """docs/pulses.md `spline` with 4 values: the clamped cubic B-spline is a Bezier curve."""
    v0, v1, v2, v3 = values

    def f(t):
        if t < 0.0 or t > duration:
            return 0.0
        u = t / duration
        return v0 * (1 - u) ** 3 + 3 * v1 * u * (1 - u) ** 2 + 3 * v2 * u * u * (1 - u) + v3 * u ** 3
    return f


def fidelity(R, B):
    d = R.shape[0]
    M = R.conj().T @ B
    return (np.trace(M @ M.conj().T).real + abs(np.trace(M)) ** 2) / (d * (d + 1))


def distance(R, B):
    """(max |B - R|, |F(R, B) - F(R, R)|): R leaks (it is not unitary), so F(R, R) < 1."""
    return np.max(np.abs(B - R)), abs(fidelity(R, B) - fidelity(R, R))


def turn(sq, levels, f):
    """exp(i g n) on the kept levels, g = P(x) - p0 the gauge angle at offset f."""
    g = math.remainder(sq.P(TWO_PI * (sq.flux + f)) - sq.p0, TWO_PI)
    lam, W = np.linalg.eigh(sq.kept(levels, sq.n))
    return W @ np.diag(np.exp(1j * g * lam)) @ W.conj().T


class Chain:
    """Fixed transmon q0 (3 levels) - tunable coupler - fixed transmon q1 (3 levels), or the
    tunable transmon alone (no qubits); the coupler's kept levels L, or None: its charge basis."""

    def __init__(self, sq, qubits, ncut):
        self.sq, self.qubits = sq, qubits
        self.q = [transmon(ec, (lambda ej: lambda u: -ej * cos_shift(u, 0.0))(ej), 0.0, 3, ncut) for ec, ej in qubits]

    def hamiltonians(self, samples, dt, levels, gauge):
        sq = self.sq
        if levels is None:
            static, ops = sq.static, lambda op: op
        else:
            static, ops = np.diag(sq.E[:levels]).astype(complex), lambda op: sq.kept(levels, op)
        nc = ops(sq.n)
        dc = static.shape[0]
        pulse_part = (lambda f, lo, hi: ops(sq.lab(f))) if gauge == "lab" else (
            lambda f, lo, hi: ops(sq.moving(f, lo, hi, 0.5, dt)))
        if not self.qubits:
            return [static + pulse_part(*s) for s in samples]
        (E0, V0, n0), (E1, V1, n1) = self.q
        n0k, n1k = V0.conj().T @ n0 @ V0, V1.conj().T @ n1 @ V1
        I3, Ic = np.eye(3), np.eye(dc)
        H0 = (np.kron(np.kron(np.diag(E0), Ic), I3) + np.kron(np.kron(I3, static), I3)
              + np.kron(np.kron(I3, Ic), np.diag(E1)) + 0.04 * np.kron(np.kron(n0k, nc), I3)
              + 0.04 * np.kron(np.kron(I3, nc), n1k) + 0.004 * np.kron(np.kron(n0k, Ic), n1k))
        return [H0 + np.kron(np.kron(I3, pulse_part(*s)), I3) for s in samples]

    def block(self, U, levels):
        """The computational block: qubits (or the transmon) in 0/1, the coupler in its ground."""
        sq = self.sq
        if not self.qubits:
            V = sq.V[:, :2] if levels is None else np.eye(levels)[:, :2]
            return V.conj().T @ U @ V
        vc = sq.V[:, :1] if levels is None else np.eye(levels)[:, :1]
        cols = [np.kron(np.kron(np.eye(3)[:, [i]], vc), np.eye(3)[:, [j]]) for i in (0, 1) for j in (0, 1)]
        V = np.hstack(cols)
        return V.conj().T @ U @ V

    def run(self, f, duration, steps, levels, gauge):
        samples, dt = midpoint_terms(f, duration, steps)
        U = propagate_list(self.hamiltonians(samples, dt, levels, gauge), dt)
        if gauge == "moving" and levels is not None:  # back to the lab gauge at both ends
            pad = (lambda M: M) if not self.qubits else (lambda M: np.kron(np.kron(np.eye(3), M), np.eye(3)))
            U = pad(turn(self.sq, levels, f(duration)).conj().T) @ U @ pad(turn(self.sq, levels, f(0.0)))
        return self.block(U, levels)


CONVERGENCE_LEVELS = (5, 8, 12)


def convergence_cases():
    """(name, chain arguments, pulse, duration, steps); tests/solver/test_flux_gauge.cpp builds
    the same devices and pulses."""
    cases = []
    for a in (0.1, 0.3, 0.6):
        for x in (0.1, 0.2, 0.3, 0.4):
            cases.append((f"single_a{a}_x{x}", (0.2, 20.0, a, 0.0, []), pulse(rampcos_env(x, 10.0, 20.0), 40.0), 40.0, 800))
    for a in (0.1, 0.3, 0.6):
        for x in (0.2, 0.4):
            cases.append((f"coupler_a{a}_x{x}", (0.2, 60.0, a, 0.0, [(0.2, 16.0), (0.2, 13.0)]),
                          pulse(rampcos_env(x, 10.0, 20.0), 40.0), 40.0, 800))
    # Not 0 at either end (the turns between the moving and the lab gauge): a cubic spline.
    cases.append(("ends_a0.3", (0.2, 20.0, 0.3, 0.0, []), spline4([0.15, 0.3, 0.2, 0.25], 25.0), 25.0, 500))
    return cases


def convergence(path):
    rows = []
    print(f"{'case':>18} | max |dU_comp| (|dF|) at L levels: lab gauge {CONVERGENCE_LEVELS} | moving gauge "
          f"{CONVERGENCE_LEVELS + (20,)}")
    for name, (ec, ej, a, flux, qubits), f, duration, steps in convergence_cases():
        ncut = 15 if qubits else 30
        chain = Chain(Squid(ec, ej, a, flux, 0.0, ncut), qubits, ncut)
        R = chain.run(f, duration, steps, None, "lab")
        if name == "coupler_a0.1_x0.4":  # the charge cutoff does not matter
            R2 = Chain(Squid(ec, ej, a, flux, 0.0, 20), qubits, 20).run(f, duration, steps, None, "lab")
            assert np.max(np.abs(R - R2)) < 1e-9, np.max(np.abs(R - R2))
        lab = [distance(R, chain.run(f, duration, steps, L, "lab")) for L in CONVERGENCE_LEVELS]
        moving = [distance(R, chain.run(f, duration, steps, L, "moving")) for L in CONVERGENCE_LEVELS + (20,)]
        show = lambda vs: " ".join(f"{u:.1e} ({v:.0e})" for u, v in vs)
        print(f"{name:>18} | {show(lab)} | {show(moving)}", flush=True)
        rows.append((name, R))
    with open(path, "w") as out:
        out.write("# Generated by scripts/gen_flux_reference.py --convergence (numpy %s, scipy %s); do not edit.\n"
                  % (np.__version__, scipy.__version__))
        out.write("# Converged computational blocks R(i, j) (lab gauge, the flux-pulsed mode in its full charge\n")
        out.write("# basis, midpoint expm) of the cases of convergence_cases().\n")
        out.write("case,i,j,re,im\n")
        for name, R in rows:
            for i in range(R.shape[0]):
                for j in range(R.shape[1]):
                    out.write(f"{name},{i},{j},{R[i, j].real!r},{R[i, j].imag!r}\n")
    print(f"wrote {path}")


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
    if len(sys.argv) > 1 and sys.argv[1] == "--convergence":
        convergence(sys.argv[2] if len(sys.argv) > 2 else os.path.join(DATA, "flux_convergence.csv"))
    else:
        main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(DATA, "flux_reference.csv"))
