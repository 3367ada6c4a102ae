"""The standard qevolve workload, rebuilt independently with numpy/scipy for the peer benchmarks.

Definition (src/commands/workloads.cpp, docs/presets.md "The standard workload"):
  * an `mpc_fluxonium_1d` chain of N fluxonium qubits, EC = 1, EJ = 4 GHz, flux = 0.5 (phi_ext = pi),
    EL cycling 0.9, 1.0, 1.1 GHz along the chain;
    H_mode = 4 EC n^2 + (EL/2)(phi + phi_ext)^2 - EJ cos(phi), diagonalised and truncated to 2 levels;
  * neighbour couplings J_C n_a n_b + J_L phi_a phi_b, J_C = 0.020, J_L = -0.002 GHz, with phi the
    inductor branch phase phi + phi_ext;
  * simultaneous X drives f_q(t) phi_q, f_q(t) = A_q 1/2 (1 + cos(2 pi/L (t - L/2))) cos(2 pi f_q t + phase),
    L = 50 ns, phase = -pi/2, f_q = bare E1 - E0, A_q = pi / (pi L |<0|phi_q|1>|);
  * every Hamiltonian term multiplied by 2 pi (GHz, ns); all 2^N computational columns evolved for
    T = 50 ns, lab frame, product basis;
  * F = (Tr(U^dag U) + |Tr(U_t^dag U)|^2) / (d(d+1)) with U_t = X on every qubit, no compensation.

Conventions that change the numbers and are therefore reproduced exactly: first mode = most
significant digit (np.kron order); kept eigenvector |k> (k >= 1) re-phased so <k-1|n|k> is real
and positive (so <0|phi|1> = +i |...|); the Trotter term list is the single-mode energies in mode
order, the couplings in chain order (one term each, n and phi parts together), then the drives.

`python3 workload.py` runs the self-checks (reference numbers of docs/reference.md, and the numpy
reference integrators of this file against each other), about 25 s; `--quick` (CI's smoke run,
tests/benchmarks) skips the 1200-point grid convergence and runs the integrators at N = 2 only,
with a 500-step magnus4 reference.
"""

from __future__ import annotations

import argparse
import functools
import math
import sys
from dataclasses import dataclass, field

import numpy as np
import scipy.linalg

TWO_PI = 2.0 * math.pi

# mpc_fluxonium_1d preset (src/device/presets.cpp).
EC, EJ, FLUX = 1.0, 4.0, 0.5
EL_CYCLE = (0.9, 1.0, 1.1)
J_C, J_L = 0.020, -0.002
# Standard pulses.
DURATION = 50.0
PHASE = -math.pi / 2
ANGLE = math.pi
LEVELS = 2

# docs/reference.md numbers for EC = 1, EJ = 4, flux 0.5, EL = 0.9 / 1.0 / 1.1.
REF_F01 = {0.9: 0.499910, 1.0: 0.581849, 1.1: 0.669229}
REF_F12 = {0.9: 3.429991, 1.0: 3.388587, 1.1: 3.358408}
REF_PHI01 = {0.9: 2.214944, 1.0: 2.131013, 1.1: 2.051071}


# ----------------------------------------------------------------------------------------------
# Single fluxonium on a periodic phase grid
# ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Mode:
    energies: np.ndarray  # (levels,) GHz, absolute
    n: np.ndarray  # (levels, levels) complex, charge operator in the kept eigenbasis
    phi: np.ndarray  # (levels, levels) complex, phi + phi_ext in the kept eigenbasis


@functools.lru_cache(maxsize=None)
def fluxonium(ec: float, ej: float, el: float, flux: float, levels: int,
              points: int = 800, half_width: float = 6 * math.pi) -> Mode:
    """Diagonalises H = 4 EC n^2 + (EL/2)(phi + phi_ext)^2 - EJ cos(phi) on a periodic grid of
    `points` points spanning 2*half_width, centred on the inductive minimum phi = -phi_ext, with
    n^2 = -d^2/dphi^2 and n = -i d/dphi applied spectrally (FFT). 800 points over 12 pi are the
    reference grid of docs/reference.md; the kept levels are converged far below 1e-9 GHz there (checked
    against 1200 points in self_check)."""
    phi_ext = TWO_PI * flux
    h = 2.0 * half_width / points
    grid = -phi_ext - half_width + h * np.arange(points)
    k = TWO_PI * np.fft.fftfreq(points, d=h)  # wavenumbers; the Nyquist one is -pi/h
    k_deriv = k.copy()
    if points % 2 == 0:
        k_deriv[points // 2] = 0.0  # drop the Nyquist mode for the first derivative
    eye = np.eye(points)
    n2 = np.fft.ifft(k[:, None] ** 2 * np.fft.fft(eye, axis=0), axis=0).real
    n2 = 0.5 * (n2 + n2.T)
    ham = 4.0 * ec * n2 + np.diag(0.5 * el * (grid + phi_ext) ** 2 - ej * np.cos(grid))
    energies, vecs = scipy.linalg.eigh(ham, subset_by_index=[0, levels - 1])
    vecs = vecs.astype(complex)

    def apply_n(v):  # n = -i d/dphi
        return np.fft.ifft(k_deriv * np.fft.fft(v))

    # Phase convention: <k-1|n|k> real and positive (else the largest component real, positive).
    for j in range(levels):
        if j >= 1:
            z = np.vdot(vecs[:, j - 1], apply_n(vecs[:, j]))
            if abs(z) >= 1e-10:
                vecs[:, j] *= np.conj(z) / abs(z)
                continue
        big = vecs[np.argmax(np.abs(vecs[:, j])), j]  # ground state, or <k-1|n|k> ~ 0
        vecs[:, j] *= np.conj(big) / abs(big)
    n_mat = np.array([[np.vdot(vecs[:, a], apply_n(vecs[:, b])) for b in range(levels)]
                      for a in range(levels)])
    phi_mat = vecs.conj().T @ ((grid + phi_ext)[:, None] * vecs)
    return Mode(energies=energies, n=n_mat, phi=phi_mat)


# ----------------------------------------------------------------------------------------------
# The composite workload
# ----------------------------------------------------------------------------------------------
@dataclass
class Workload:
    """Operators and pulses of the standard workload for N qubits (2 levels each)."""

    qubits: int
    steps: int = 500
    modes: list = field(default_factory=list)
    el: list = field(default_factory=list)
    freq: np.ndarray = None  # drive frequencies f_q (GHz)
    amp: np.ndarray = None  # drive amplitudes A_q (GHz)
    duration: float = DURATION
    phase: float = PHASE

    def __post_init__(self):
        self.el = [EL_CYCLE[q % 3] for q in range(self.qubits)]
        self.modes = [fluxonium(EC, EJ, el, FLUX, LEVELS) for el in self.el]
        self.freq = np.array([m.energies[1] - m.energies[0] for m in self.modes])
        # amplitude: auto, angle pi, cos envelope: A = angle / (pi L |<0|phi|1>|)
        self.amp = np.array([ANGLE / (math.pi * self.duration * abs(m.phi[0, 1]))
                             for m in self.modes])

    @property
    def dims(self) -> list:
        return [LEVELS] * self.qubits

    @property
    def dim(self) -> int:
        return LEVELS ** self.qubits

    @property
    def total_time(self) -> float:
        return self.duration

    @property
    def couplings(self) -> list:
        """(a, b) pairs of the open chain, in preset order."""
        return [(q, q + 1) for q in range(self.qubits - 1)]

    # --- local terms (GHz, not yet multiplied by 2 pi) ---------------------------------------
    def energy_term(self, q: int) -> np.ndarray:
        return np.diag(self.modes[q].energies).astype(complex)

    def coupling_term(self, a: int, b: int) -> np.ndarray:
        ma, mb = self.modes[a], self.modes[b]
        return J_C * np.kron(ma.n, mb.n) + J_L * np.kron(ma.phi, mb.phi)

    def drive_operator(self, q: int) -> np.ndarray:
        return self.modes[q].phi

    def local_terms(self):
        """Static terms in qevolve's term order: [(modes, matrix)], energies then couplings."""
        terms = [((q,), self.energy_term(q)) for q in range(self.qubits)]
        terms += [((a, b), self.coupling_term(a, b)) for a, b in self.couplings]
        return terms

    # --- pulses ---------------------------------------------------------------------------------
    def coefficient(self, q: int, t):
        """f_q(t) in GHz (scalar or array t); zero outside [0, L]."""
        t = np.asarray(t, dtype=float)
        L = self.duration
        env = self.amp[q] * 0.5 * (1.0 + np.cos(TWO_PI / L * (t - L / 2)))
        val = env * np.cos(TWO_PI * self.freq[q] * t + self.phase)
        return np.where((t >= 0.0) & (t <= L), val, 0.0)

    # --- dense embeddings (for QuTiP and the numpy references) ------------------------------------
    def embed(self, modes, mat) -> np.ndarray:
        """Embeds a local operator on `modes` (ascending, adjacent here) in the D x D space."""
        left = LEVELS ** modes[0]
        right = LEVELS ** (self.qubits - 1 - modes[-1])
        return np.kron(np.kron(np.eye(left), mat), np.eye(right))

    def h0(self) -> np.ndarray:
        return sum(self.embed(m, h) for m, h in self.local_terms())

    def drive_operators(self) -> list:
        return [self.embed((q,), self.drive_operator(q)) for q in range(self.qubits)]

    def hamiltonian(self, t: float) -> np.ndarray:
        h = self.h0()
        for q, op in enumerate(self.drive_operators()):
            h = h + float(self.coefficient(q, t)) * op
        return h

    # --- fidelity ---------------------------------------------------------------------------------
    def target(self) -> np.ndarray:
        x = np.array([[0.0, 1.0], [1.0, 0.0]], dtype=complex)
        u = np.ones((1, 1), dtype=complex)
        for _ in range(self.qubits):
            u = np.kron(u, x)
        return u

    def infidelity(self, u: np.ndarray) -> float:
        """1 - F of the computational block (here the whole 2^N x 2^N propagator)."""
        d = self.dim
        ut = self.target()
        f = (np.vdot(u, u).real + abs(np.vdot(ut, u)) ** 2) / (d * (d + 1))
        return 1.0 - f


def unitary_error(u: np.ndarray, ref: np.ndarray) -> float:
    """max |U - U_ref| over the computational block."""
    return float(np.max(np.abs(u - ref)))


# ----------------------------------------------------------------------------------------------
# numpy reference integrators (small N only: dense D x D)
# ----------------------------------------------------------------------------------------------
def _expm_h(h: np.ndarray, tau: float) -> np.ndarray:
    """exp(-i 2 pi tau h) for Hermitian h."""
    w, v = np.linalg.eigh(h)
    return (v * np.exp(-1j * TWO_PI * tau * w)) @ v.conj().T


def evolve_midpoint_expm(w: Workload, steps: int) -> np.ndarray:
    """docs/solvers.md "Time stepping", `expm`: U_k = exp(-i 2 pi H(t_k + dt/2) dt)."""
    dt = w.total_time / steps
    h0, ops = w.h0(), w.drive_operators()
    u = np.eye(w.dim, dtype=complex)
    for k in range(steps):
        tm = (k + 0.5) * dt
        h = h0 + sum(float(w.coefficient(q, tm)) * op for q, op in enumerate(ops))
        u = _expm_h(h, dt) @ u
    return u


def evolve_trotter2_terms(w: Workload, steps: int) -> np.ndarray:
    """docs/solvers.md "Time stepping", `trotter` order 2 with `splitting: terms`: per step the midpoint Hamiltonian's
    terms (energies, couplings, drives) as half steps in list order, then in reverse."""
    dt = w.total_time / steps
    statics = [w.embed(m, h) for m, h in w.local_terms()]
    ops = w.drive_operators()
    half_static = [_expm_h(h, dt / 2) for h in statics]
    u = np.eye(w.dim, dtype=complex)
    for k in range(steps):
        tm = (k + 0.5) * dt
        factors = half_static + [_expm_h(float(w.coefficient(q, tm)) * op, dt / 2)
                                 for q, op in enumerate(ops)]
        for f in factors:  # first listed acts first
            u = f @ u
        for f in reversed(factors):
            u = f @ u
    return u


def evolve_magnus4(w: Workload, steps: int) -> np.ndarray:
    """docs/solvers.md "`magnus4`": `magnus4` with exact exponentials, O(dt^4): the converged reference."""
    dt = w.total_time / steps
    h0, ops = w.h0(), w.drive_operators()
    s3 = math.sqrt(3.0)
    c1, c2 = 0.5 - s3 / 6, 0.5 + s3 / 6
    a1, a2 = (3 - 2 * s3) / 12, (3 + 2 * s3) / 12

    def ham(t):
        return h0 + sum(float(w.coefficient(q, t)) * op for q, op in enumerate(ops))

    u = np.eye(w.dim, dtype=complex)
    for k in range(steps):
        h1, h2 = ham((k + c1) * dt), ham((k + c2) * dt)
        u = _expm_h(a2 * h1 + a1 * h2, dt) @ u  # the right factor acts first
        u = _expm_h(a1 * h1 + a2 * h2, dt) @ u
    return u


# ----------------------------------------------------------------------------------------------
# Self-check
# ----------------------------------------------------------------------------------------------
def self_check(quick: bool = False) -> int:
    ok = True
    print("fluxonium EC=1 EJ=4 flux=0.5 (docs/reference.md, 6 decimals):")
    for el in EL_CYCLE:
        m = fluxonium(EC, EJ, el, FLUX, 3)
        f01, f12 = m.energies[1] - m.energies[0], m.energies[2] - m.energies[1]
        p01 = abs(m.phi[0, 1])
        conv = 0.0
        if not quick:
            big = fluxonium(EC, EJ, el, FLUX, 3, points=1200, half_width=8 * math.pi)
            conv = float(np.max(np.abs(big.energies - m.energies)))
        # tolerance: the reference numbers are printed to 6 decimals -> half a unit of the last digit
        good = (abs(f01 - REF_F01[el]) <= 5e-7 and abs(f12 - REF_F12[el]) <= 5e-7
                and abs(p01 - REF_PHI01[el]) <= 5e-7 and conv < 1e-9
                and abs(m.phi[0, 1].real) < 1e-12 and m.phi[0, 1].imag > 0)
        ok &= bool(good)
        print(f"  EL={el}: f01={f01:.6f} (ref {REF_F01[el]:.6f})  f12={f12:.6f} "
              f"(ref {REF_F12[el]:.6f})  |phi01|={p01:.6f} (ref {REF_PHI01[el]:.6f})  "
              f"phi01={m.phi[0, 1]:.3e}  grid convergence {'not checked' if quick else f'{conv:.1e} GHz'}  "
              f"{'ok' if good else 'FAIL'}")
    ref_steps = 500 if quick else 2000
    for n in (2,) if quick else (2, 3):
        w = Workload(n)
        ref = evolve_magnus4(w, ref_steps)
        tro = evolve_trotter2_terms(w, 500)
        mid = evolve_midpoint_expm(w, 500)
        # qevolve's 500-step Strang result must be within the comparison criterion (1e-4 in 1-F)
        # of the converged continuous-time result, else peers could not be compared with it.
        ok &= abs(w.infidelity(tro) - w.infidelity(ref)) < 1e-4
        print(f"N={n}: 1-F magnus4({ref_steps} steps) = {w.infidelity(ref):.10e}; "
              f"trotter2 terms (500) = {w.infidelity(tro):.10e} (max|dU| {unitary_error(tro, ref):.1e}); "
              f"midpoint expm (500) = {w.infidelity(mid):.10e} (max|dU| {unitary_error(mid, ref):.1e})")
    print("self-check:", "ok" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="no grid-convergence check, integrators at N = 2 only (a few seconds)")
    sys.exit(self_check(parser.parse_args().quick))
